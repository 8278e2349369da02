package precision

import (
	"fmt"
	"testing"

	"github.com/review-my-code-bot/rmc/diff"
	"github.com/review-my-code-bot/rmc/rmcoc"
)

// laterPatch is a push after the fix: two lines inserted after line 1
// (later lines move down two), line 7 deleted (later lines move down
// one in all).
const laterPatch = "@@ -1,2 +1,4 @@\n package limiter\n+// a\n+// b\n \n@@ -6,3 +8,2 @@\n x6\n-x7\n x8"

func TestForwardLine(t *testing.T) {
	t.Parallel()
	later, err := diff.ParsePatch("limiter/bucket.go", laterPatch)
	if err != nil {
		t.Fatal(err)
	}
	insert, err := diff.ParsePatch("a.go", "@@ -5,0 +6,2 @@\n+a\n+b")
	if err != nil {
		t.Fatal(err)
	}
	for name, tc := range map[string]struct {
		d     diff.File
		n     int
		wantN int
	}{
		"before every hunk":             {later, 1, 1},
		"context in a hunk":             {later, 2, 4},
		"between hunks":                 {later, 5, 7},
		"context in the second hunk":    {later, 6, 8},
		"deleted":                       {later, 7, 0},
		"after the deletion":            {later, 8, 9},
		"after every hunk":              {later, 10, 11},
		"the line an insertion follows": {insert, 5, 5},
		"the line after an insertion":   {insert, 6, 8},
		"before an insertion":           {insert, 4, 4},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if got := forwardLine(tc.d, tc.n); got != tc.wantN {
				t.Errorf("line %d moves to %d, want %d", tc.n, got, tc.wantN)
			}
		})
	}
}

// A fix verified on the previously reviewed head is numbered again at the
// new head through the diff between them, and a finding on its moved
// lines is a fix loop; a fix whose lines are not known at the new head is
// not moved.
func TestForward(t *testing.T) {
	t.Parallel()
	later, err := diff.ParsePatch("limiter/bucket.go", laterPatch)
	if err != nil {
		t.Fatal(err)
	}
	renamed := later
	renamed.OldPath = "limiter/old.go"
	fix := Fix{FindingID: "f-1", Path: "limiter/bucket.go", Head: "F", Lines: []rmcoc.LineRange{{Start: 5, End: 7}, {Start: 10, End: 10}}, Suggestion: rmcoc.LineRange{Start: 5, End: 6}}
	split := fix
	split.Suggestion = rmcoc.LineRange{Start: 6, End: 7}
	for name, tc := range map[string]struct {
		fix   Fix
		from  string
		since []diff.File
		want  string // the moved copy, "" for none
	}{
		"moved, suggestion whole":       {fix, "F", []diff.File{later}, "H [{7 8} {11 11}] {7 8}"},
		"suggestion partly deleted":     {split, "F", []diff.File{later}, "H [{7 8} {11 11}] {0 0}"},
		"verified on another head":      {fix, "G", []diff.File{later}, ""},
		"file not in the diff":          {fix, "F", nil, ""},
		"file renamed":                  {fix, "F", []diff.File{renamed}, ""},
		"full review: no previous head": {fix, "", []diff.File{later}, ""},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got := Forward([]Fix{tc.fix}, tc.from, "H", tc.since)
			if got[0].Head != tc.fix.Head || fmt.Sprint(got[0].Lines) != fmt.Sprint(tc.fix.Lines) {
				t.Fatalf("the fix itself changed: %+v", got[0])
			}
			var moved string
			if len(got) == 2 {
				moved = fmt.Sprintf("%s %v %v", got[1].Head, got[1].Lines, got[1].Suggestion)
			}
			if len(got) > 2 || moved != tc.want {
				t.Fatalf("moved %q (%d fixes), want %q", moved, len(got), tc.want)
			}
			l, ok := On(got, fix.Path, "H", 8, 8)
			if want := tc.want != ""; ok != want || (ok && l.Own != (tc.fix.Suggestion == fix.Suggestion)) {
				t.Errorf("a finding at head on old line 6 (now 8): loop %+v %t, want %t", l, ok, want)
			}
			if _, ok := On(got, fix.Path, "H", 9, 9); ok {
				t.Error("a finding at head on a line the fix did not write is a loop")
			}
		})
	}
}
