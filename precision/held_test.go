package precision

import (
	"slices"
	"testing"

	"github.com/review-my-code-bot/rmc/rmcoc"
)

// The held set is written as ranges or as a bitmap, whichever is shorter,
// and reads back as the numbers put in.
func TestHeldEncode(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		prs  []int
		want rmcoc.PRSet
	}{
		"none":                     {nil, ""},
		"one":                      {[]int{7}, "r:7"},
		"a row, out of order":      {[]int{3, 1, 2, 5, 4}, "r:1-5"},
		"a gap joined":             {[]int{1, 3, 2}, "r:1-3"},
		"two rows":                 {[]int{10, 11, 12, 200, 201}, "r:10-12,200-201"},
		"two rows, near: a bitmap": {[]int{10, 11, 12, 20, 21}, "b:10:Bww"},
		"twice is once":            {[]int{4, 4, 5}, "r:4-5"},
		"one in two: a bitmap":     {[]int{1, 3, 5, 7, 9, 11, 13, 15}, "b:1:VVU"},
		"three in five: a bitmap":  {[]int{1, 3, 5}, "b:1:FQ"},
		"two, apart: ranges":       {[]int{1, 50}, "r:1,50"},
		"far apart: ranges":        {[]int{1, 100000}, "r:1,100000"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var h heldSet
			for _, n := range tc.prs {
				h = h.with(n)
			}
			got := h.encode()
			if got != tc.want {
				t.Fatalf("encode = %q, want %q", got, tc.want)
			}
			back, err := parseHeld(got)
			if err != nil {
				t.Fatalf("parse %q: %v", got, err)
			}
			for _, n := range tc.prs {
				if !back.has(n) {
					t.Errorf("%q does not hold #%d", got, n)
				}
			}
			if back.has(0) || back.has(6) && !slices.Contains(tc.prs, 6) {
				t.Errorf("%q holds a number not put in", got)
			}
			if back.count() != len(slices.Compact(slices.Sorted(slices.Values(tc.prs)))) {
				t.Errorf("%q counts %d", got, back.count())
			}
		})
	}
}

// A held set the bot would not write is not read: the reader then does
// not trust it to name every pull request rolled up.
func TestHeldForged(t *testing.T) {
	t.Parallel()
	for name, s := range map[string]rmcoc.PRSet{
		"no kind":             "1-5",
		"unsorted":            "r:5,1",
		"overlapping":         "r:1-5,3-9",
		"adjacent":            "r:1-5,6",
		"backwards":           "r:5-1",
		"zero":                "r:0-3",
		"leading zero":        "r:01",
		"sign":                "r:+1",
		"huge":                "r:1-2000000000",
		"empty range":         "r:",
		"bitmap, no first":    "b:VVU",
		"bitmap, first unset": "b:1:VFU",
		"bitmap, trailing 0":  "b:1:VQA",
		"bitmap, padded":      "b:1:VVU=",
		"bitmap, not base64":  "b:1:*",
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if h, err := parseHeld(s); err == nil {
				t.Errorf("parseHeld(%q) = %v, want an error", s, h)
			}
		})
	}
}

// FuzzHeld reads any text as a held set without panicking, and what it
// reads is written back to a set that reads the same.
func FuzzHeld(f *testing.F) {
	for _, s := range []string{"", "r:1-5,7", "b:1:VVU", "r:01", "b:9:_w"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		h, err := parseHeld(rmcoc.PRSet(s))
		if err != nil {
			return
		}
		back, err := parseHeld(h.encode())
		if err != nil || !slices.Equal(back, h) {
			t.Fatalf("%q reads as %v, written back as %q reads as %v (%v)", s, h, h.encode(), back, err)
		}
	})
}
