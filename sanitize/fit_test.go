package sanitize

import (
	"fmt"
	"github.com/review-my-code-bot/rmc/internal/golden"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestFit(t *testing.T) {
	t.Parallel()
	code := "Intro line.\n\n```go\n" + strings.Repeat("x := compute(1)\n", 20) + "```\n\nAfter."
	tests := map[string]struct {
		body string
		max  int
		want string
	}{
		"fits":        {body: "short", max: 10, want: "short"},
		"exactly max": {body: "12345", max: 5, want: "12345"},
		"counts runes not bytes": {
			body: strings.Repeat("日", 10), max: 10, want: strings.Repeat("日", 10),
		},
		"cut at a line": {
			body: strings.Repeat("word ", 10) + "\n" + strings.Repeat("more ", 40),
			max:  120,
			want: "word word word word word word word word word word\n\n_… truncated: 202 characters omitted (GitHub's comment limit)._",
		},
		"cut at a space": {
			body: strings.Repeat("word ", 60), max: 100,
			want: "word word word word word word word\n\n_… truncated: 266 characters omitted (GitHub's comment limit)._",
		},
		"fence closed": {
			body: code, max: 150,
			want: "Intro line.\n\n```go\nx := compute(1)\nx := compute(1)\nx := compute(1)\n```\n\n_… truncated: 284 characters omitted (GitHub's comment limit)._",
		},
		"long fence closed with its own length": {
			body: "````md\n" + strings.Repeat("```\ninner\n", 20), max: 100,
			want: "````md\n```\ninner\n```\ninner\n```\n````\n\n_… truncated: 177 characters omitted (GitHub's comment limit)._",
		},
		"comment closed": {
			body: "<!-- hidden\n" + strings.Repeat("abc\n", 60), max: 100,
			want: "<!-- hidden\nabc\nabc\nabc\nabc\nabc -->\n\n_… truncated: 221 characters omitted (GitHub's comment limit)._",
		},
		"multibyte": {
			body: strings.Repeat("日本語", 60), max: 70,
			want: "日本語日本\n\n_… truncated: 175 characters omitted (GitHub's comment limit)._",
		},
		"short note": {body: strings.Repeat("abcdefghi\n", 10), max: 50, want: "abcdefghi\nabcdefghi\n\n_… 81 characters truncated._"},
		"tiny":       {body: strings.Repeat("abc\n", 60), max: 10, want: "abc\nabc…"},
		"tinier":     {body: strings.Repeat("abc\n", 60), max: 2, want: "a…"},
		"one":        {body: "abc", max: 1, want: "…"},
		"zero":       {body: "abc", max: 0, want: ""},
		"negative":   {body: "abc", max: -1, want: ""},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got := Fit(tc.body, tc.max)
			if got != tc.want {
				t.Errorf("Fit(%q, %d)\n got %q\nwant %q", tc.body, tc.max, got, tc.want)
			}
			if tc.max > 0 && utf8.RuneCountInString(got) > tc.max {
				t.Errorf("Fit(…, %d) has %d characters", tc.max, utf8.RuneCountInString(got))
			}
		})
	}
}

func TestFitMaxBody(t *testing.T) {
	t.Parallel()
	body := strings.Repeat("é", MaxBody+1000)
	got := Fit(body, MaxBody)
	if n := utf8.RuneCountInString(got); n > MaxBody || n < MaxBody-100 {
		t.Errorf("Fit to MaxBody kept %d characters, want close to %d", n, MaxBody)
	}
	if !utf8.ValidString(got) {
		t.Error("Fit produced invalid UTF-8")
	}
	if !strings.Contains(got, "characters omitted") {
		t.Error("Fit dropped the truncation note")
	}
}

func TestComment(t *testing.T) {
	t.Parallel()
	body := "key " + fake("ghp_", 36) + "\u202e" + strings.Repeat("x", MaxBody)
	got := Comment(body)
	if strings.Contains(got, "ghp_") || strings.ContainsRune(got, '\u202e') || utf8.RuneCountInString(got) > MaxBody {
		t.Errorf("Comment did not sanitize and fit: %.80q…", got)
	}
}

func TestSplit(t *testing.T) {
	t.Parallel()
	code := "Intro line.\n\n```go\n" + strings.Repeat("x := compute(1)\n", 20) + "```\n\nAfter."
	tests := map[string]struct {
		body string
		max  int
		want []string
	}{
		"fits":  {body: "short", max: 10, want: []string{"short"}},
		"empty": {body: "", max: 0, want: []string{""}},
		"zero":  {body: "abc", max: 0, want: nil},
		"paragraphs": {
			body: "first paragraph here.\n\nsecond paragraph here.\n\nthird paragraph here.",
			max:  50,
			want: []string{
				"first paragraph here.\n\n_(part 1/3)_",
				"second paragraph here.\n\n_(part 2/3)_",
				"third paragraph here.\n\n_(part 3/3)_",
			},
		},
		"fence reopened": {
			body: code, max: 120,
			want: []string{
				"Intro line.\n\n```go\nx := compute(1)\nx := compute(1)\nx := compute(1)\nx := compute(1)\nx := compute(1)\n```\n\n_(part 1/4)_",
				"```go\n" + strings.Repeat("x := compute(1)\n", 6) + "```\n\n_(part 2/4)_",
				"```go\n" + strings.Repeat("x := compute(1)\n", 6) + "```\n\n_(part 3/4)_",
				"```go\n" + strings.Repeat("x := compute(1)\n", 3) + "```\n\nAfter.\n\n_(part 4/4)_",
			},
		},
		"prefers a cut outside code": {
			body: strings.Repeat("prose line\n", 4) + "\n```json\n{\"a\": 1}\n```\n\ntail",
			max:  64,
			want: []string{
				"prose line\nprose line\nprose line\nprose line\n\n_(part 1/2)_",
				"```json\n{\"a\": 1}\n```\n\ntail\n\n_(part 2/2)_",
			},
		},
		"no room for labels": {
			body: strings.Repeat("x", 30), max: 7,
			want: []string{"xxxxxxx", "xxxxxxx", "xxxxxxx", "xxxxxxx", "xx"},
		},
		"multibyte": {
			body: strings.Repeat("日本", 20), max: 30,
			want: []string{
				strings.Repeat("日本", 8) + "\n\n_(part 1/3)_",
				strings.Repeat("日本", 8) + "\n\n_(part 2/3)_",
				strings.Repeat("日本", 4) + "\n\n_(part 3/3)_",
			},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got := Split(tc.body, tc.max)
			if fmt.Sprintf("%q", got) != fmt.Sprintf("%q", tc.want) {
				t.Errorf("Split(%q, %d)\n got %q\nwant %q", tc.body, tc.max, got, tc.want)
			}
		})
	}
}

func TestSplitManyParts(t *testing.T) {
	t.Parallel()
	// Enough parts that the label needs two digits.
	body := strings.Repeat("a line of text\n", 400)
	parts := Split(body, 100)
	if len(parts) < 10 {
		t.Fatalf("got %d parts, want at least 10", len(parts))
	}
	for i, p := range parts {
		if n := utf8.RuneCountInString(p); n > 100 {
			t.Errorf("part %d has %d characters", i+1, n)
		}
		if want := fmt.Sprintf("_(part %d/%d)_", i+1, len(parts)); !strings.HasSuffix(p, want) {
			t.Errorf("part %d ends %q, want label %q", i+1, p[max(0, len(p)-20):], want)
		}
	}
}

// TestGolden renders a realistic review body through Fit and Split at sizes
// that force cuts; run with -update after an intended change.
func TestGolden(t *testing.T) {
	t.Parallel()
	in, err := os.ReadFile(filepath.Join("testdata", "review.md"))
	if err != nil {
		t.Fatal(err)
	}
	body := string(in)
	tests := map[string]func() string{
		"fit-review-900.golden": func() string { return Fit(body, 900) },
		"fit-review-400.golden": func() string { return Fit(body, 400) },
		"split-review-700.golden": func() string {
			var b strings.Builder
			for i, p := range Split(body, 700) {
				fmt.Fprintf(&b, "=== part %d: %d characters ===\n%s\n", i+1, utf8.RuneCountInString(p), p)
			}
			return b.String()
		},
	}
	for name, render := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			golden.Assert(t, name, render())
		})
	}
}

func TestFitSplitCRLF(t *testing.T) {
	t.Parallel()
	body := "Intro\r\n\r\n```go\r\nx := 1\r\n```\r\n\r\n" + strings.Repeat("tail line\r\n", 10)
	// The CRLF fence closes, so no stray closer is added after it.
	got := Fit(body, 120)
	want := "Intro\r\n\r\n```go\r\nx := 1\r\n```\r\n\r\ntail line\r\ntail line\n\n_… truncated: 90 characters omitted (GitHub's comment limit)._"
	if got != want {
		t.Errorf("Fit on CRLF\n got %q\nwant %q", got, want)
	}
	for i, p := range Split(body, 60) {
		if (mdState{}).after(p).open() {
			t.Errorf("part %d leaves a fence open: %q", i+1, p)
		}
	}
}
