package precision

import (
	"fmt"
	"testing"

	"github.com/review-my-code-bot/rmc/diff"
	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/state"
)

// fixPatch replaces lines 5 and 6 of a file with a locked Take (the
// suggestion, two lines) and leaves line 7 as it was; line 9 is added.
const fixPatch = "@@ -4,5 +4,7 @@\n package limiter\n-func Take(k string) { buckets[k]-- }\n-func Refill() { go refill() }\n+func Take(k string) {\n+\tmu.Lock(); buckets[k]--; mu.Unlock() }\n+func Refill() { go refill(ctx) }\n \n var mu sync.Mutex\n+var ctx = context.Background()"

func TestWrote(t *testing.T) {
	t.Parallel()
	d, err := diff.ParsePatch("limiter/bucket.go", fixPatch)
	if err != nil {
		t.Fatal(err)
	}
	for name, tc := range map[string]struct {
		suggestion string
		applied    rmcoc.LineRange
	}{
		"the suggestion, committed":          {"func Take(k string) {\n\tmu.Lock(); buckets[k]--; mu.Unlock() }", rmcoc.LineRange{Start: 5, End: 6}},
		"with trailing blanks and a newline": {"func Take(k string) {  \n\tmu.Lock(); buckets[k]--; mu.Unlock() }\n", rmcoc.LineRange{Start: 5, End: 6}},
		"one line of it, added":              {"func Refill() { go refill(ctx) }", rmcoc.LineRange{Start: 7, End: 7}},
		"spanning added and context lines":   {"func Refill() { go refill(ctx) }\n\nvar mu sync.Mutex", rmcoc.LineRange{Start: 7, End: 9}},
		"only lines the push kept":           {"package limiter", rmcoc.LineRange{}},
		"context lines in a row":             {"\nvar mu sync.Mutex", rmcoc.LineRange{}},
		"a different suggestion":             {"func Take(k string) { lock(); buckets[k]-- }", rmcoc.LineRange{}},
		"lines out of order":                 {"\tmu.Lock(); buckets[k]--; mu.Unlock() }\nfunc Take(k string) {", rmcoc.LineRange{}},
		"none":                               {"", rmcoc.LineRange{}},
		"blank":                              {"\n  \n", rmcoc.LineRange{}},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			lines, applied := Wrote(d, tc.suggestion)
			if got := fmt.Sprint(lines); got != "[{5 7} {10 10}]" {
				t.Errorf("lines %s, want [{5 7} {10 10}]", got)
			}
			if applied != tc.applied {
				t.Errorf("applied %+v, want %+v", applied, tc.applied)
			}
		})
	}
}

// A push that wrote more runs than a block holds records the first ones.
func TestWroteBounded(t *testing.T) {
	t.Parallel()
	var d diff.File
	for i := 0; i < rmcoc.MaxFixLines+10; i++ {
		d.Hunks = append(d.Hunks, diff.Hunk{Lines: []diff.Line{{Kind: diff.Add, NewLine: 10 * (i + 1)}, {Kind: diff.Context, NewLine: 10*(i+1) + 1}}})
	}
	lines, _ := Wrote(d, "")
	if len(lines) != rmcoc.MaxFixLines || lines[0] != (rmcoc.LineRange{Start: 10, End: 10}) {
		t.Fatalf("%d ranges, first %+v; want %d from line 10", len(lines), lines[0], rmcoc.MaxFixLines)
	}
}

func TestOn(t *testing.T) {
	t.Parallel()
	fixes := []Fix{
		{FindingID: "f-plain", Path: "a.go", Head: "h2", Lines: []rmcoc.LineRange{{Start: 5, End: 7}, {Start: 20, End: 20}}},
		{FindingID: "f-own", Path: "a.go", Head: "h2", Lines: []rmcoc.LineRange{{Start: 7, End: 12}}, Suggestion: rmcoc.LineRange{Start: 8, End: 9}},
		{FindingID: "f-old", Path: "a.go", Head: "h1", Lines: []rmcoc.LineRange{{Start: 30, End: 40}}},
		{FindingID: "f-other", Path: "b.go", Head: "h2", Lines: []rmcoc.LineRange{{Start: 1, End: 100}}},
	}
	for name, tc := range map[string]struct {
		path, head  string
		start, line int
		want        string
		own         bool
	}{
		"first line of a range":             {"a.go", "h2", 0, 5, "f-plain", false},
		"last line of a range":              {"a.go", "h2", 0, 20, "f-plain", false},
		"the line before":                   {"a.go", "h2", 0, 4, "", false},
		"the line after":                    {"a.go", "h2", 0, 21, "", false},
		"a span reaching into one":          {"a.go", "h2", 2, 5, "f-plain", false},
		"a span around one":                 {"a.go", "h2", 18, 22, "f-plain", false},
		"the first fix's lines first":       {"a.go", "h2", 0, 7, "f-plain", false},
		"a fix's lines beside a suggestion": {"a.go", "h2", 0, 10, "f-own", false},
		"the suggestion's first line":       {"a.go", "h2", 0, 8, "f-own", true},
		"the suggestion's last line":        {"a.go", "h2", 0, 9, "f-own", true},
		"a span reaching the suggestion":    {"a.go", "h2", 5, 8, "f-own", true},
		"a fix verified on another commit":  {"a.go", "h2", 0, 35, "", false},
		"on that commit":                    {"a.go", "h1", 0, 35, "f-old", false},
		"another file":                      {"c.go", "h2", 0, 5, "", false},
		"no head":                           {"a.go", "", 0, 5, "", false},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			l, ok := On(fixes, tc.path, tc.head, tc.start, tc.line)
			if l.FindingID != tc.want || l.Own != tc.own || ok != (tc.want != "") {
				t.Errorf("On = %+v, %t; want %q (own %t)", l, ok, tc.want, tc.own)
			}
		})
	}
}

// The state's fixes are the ones still holding that recorded lines; a
// finding whose block was edited records none.
func TestFixesOf(t *testing.T) {
	t.Parallel()
	lines := []rmcoc.LineRange{{Start: 3, End: 4}}
	fixed := func(id string, r rmcoc.DisputeResolution) state.Finding {
		r.Resolution, r.Status = rmcoc.ResolutionFixed, rmcoc.FindingResolved
		return state.Finding{Block: rmcoc.Finding{ID: id, Path: "a.go"}, Status: rmcoc.FindingResolved, LastResolution: &r}
	}
	lost := fixed("f-lost", rmcoc.DisputeResolution{HeadSHA: "h", FixLines: lines})
	lost.FixLost = true
	edited := fixed("f-edited", rmcoc.DisputeResolution{HeadSHA: "h", FixLines: lines})
	edited.Tampered = true
	got := FixesOf([]state.Finding{
		fixed("f-1", rmcoc.DisputeResolution{HeadSHA: "h", FixLines: lines, FixSuggestion: rmcoc.LineRange{Start: 4, End: 4}}),
		fixed("f-nolines", rmcoc.DisputeResolution{HeadSHA: "h"}),
		lost, edited,
		{Block: rmcoc.Finding{ID: "f-open", Path: "a.go"}, Status: rmcoc.FindingOpen},
	})
	if len(got) != 1 || got[0].FindingID != "f-1" || got[0].Head != "h" || got[0].Suggestion != (rmcoc.LineRange{Start: 4, End: 4}) || fmt.Sprint(got[0].Lines) != "[{3 4}]" {
		t.Fatalf("FixesOf = %+v", got)
	}
}
