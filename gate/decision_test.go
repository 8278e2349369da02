package gate

import (
	"strings"
	"testing"
)

// A decision lapses when the head shows the content its finding was
// raised on and it judged other content; a review reporting the finding
// again is a regression of it on the same condition. A decision whose
// content was not recorded judged the raised content, a fix excepted.
func TestDecisionBinding(t *testing.T) {
	t.Parallel()
	x, y, z := blob(1), blob(2), blob(3)
	for name, tc := range map[string]struct {
		d        Decision
		head     string
		lapsed   bool
		reraised bool
	}{
		"a fix, the head still fixed":              {Decision{Kind: Fix, Raised: x, Judged: y}, y, false, true},
		"a fix, the raised code back":              {Decision{Kind: Fix, Raised: x, Judged: y}, x, true, true},
		"a fix, other code since":                  {Decision{Kind: Fix, Raised: x, Judged: y}, z, false, true},
		"a fix, the file as on the base":           {Decision{Kind: Fix, Raised: x, Judged: y}, "", false, true},
		"an old fix, the raised code back":         {Decision{Kind: Fix, Raised: x}, x, true, true},
		"an old finding's fix":                     {Decision{Kind: Fix, Judged: y}, x, false, true},
		"a maintainer on the raised code":          {Decision{Kind: Accepted, Raised: x, Judged: x}, x, false, false},
		"a maintainer on other code, back":         {Decision{Kind: Accepted, Raised: x, Judged: y}, x, true, true},
		"a maintainer on other code, still":        {Decision{Kind: Accepted, Raised: x, Judged: y}, y, false, true},
		"a maintainer on an old finding":           {Decision{Kind: Accepted, Judged: y}, y, false, true},
		"a concession on the raised code":          {Decision{Kind: Conceded, Raised: x, Judged: x}, x, false, false},
		"a concession on other code, back":         {Decision{Kind: Conceded, Raised: x, Judged: y}, x, true, true},
		"an old concession":                        {Decision{Kind: Conceded, Raised: x}, x, false, false},
		"a waiver":                                 {Decision{Kind: Waived, Raised: x}, x, false, false},
		"keys of 32 digits match the whole id":     {Decision{Kind: Fix, Raised: x[:KeyLen], Judged: y[:KeyLen]}, x, true, true},
		"a short id binds nothing":                 {Decision{Kind: Accepted, Raised: "abc", Judged: "abc"}, "abc", false, true},
		"a maintainer on other code, head unknown": {Decision{Kind: Accepted, Raised: x, Judged: y}, "", false, true},
	} {
		if got := tc.d.Lapsed(tc.head); got != tc.lapsed {
			t.Errorf("%s: lapsed %v, want %v", name, got, tc.lapsed)
		}
		if got := tc.d.Reraised(); got != tc.reraised {
			t.Errorf("%s: reraised %v, want %v", name, got, tc.reraised)
		}
	}
}

// The gate over decisions: one that lapsed on the head fails it, saying
// so; one that cannot be checked leaves it pending, saying why; one that
// holds changes nothing. Blocking findings still fail it first.
func TestEvaluateDecisions(t *testing.T) {
	t.Parallel()
	x, y := blob(1), blob(2)
	covered := func(ds ...Decision) Facts {
		var l Ledger
		l.Record(Reviewed, x, y)
		return Facts{Head: head, Changes: ChangeSet{Changes: []Change{{Path: "a.go", Blob: x, Kind: KindBlob}}}, Ledger: l, Decisions: ds}
	}
	fix := Decision{Finding: "f-1", Path: "a.go", Kind: Fix, Raised: x, Judged: y}
	for name, tc := range map[string]struct {
		f     Facts
		state State
		desc  string
	}{
		"a decision that holds": {covered(Decision{Path: "a.go", Kind: Accepted, Raised: x, Judged: x}), Success, "reviewed"},
		"a fix on another path": {covered(Decision{Path: "b.go", Kind: Fix, Raised: x, Judged: y}), Success, "reviewed"},
		"a fix reverted":        {covered(fix), Failure, "1 blocking finding(s), 1 back on the code they were raised on"},
		"a fix reverted, and one open": {func() Facts { f := covered(fix); f.Blocking = 1; return f }(),
			Failure, "2 blocking finding(s), 1 back"},
		"a fix that cannot be checked": {covered(Decision{Path: "a.go", Kind: Fix, Raised: y, Judged: y, Unknown: "fix verified on abcdef0, past the PR's commits GitHub lists"}),
			Pending, "1 closed blocking finding(s) cannot be checked (fix verified on abcdef0, past the PR's commits GitHub lists)"},
		"unknown, and blocking": {func() Facts {
			f := covered(Decision{Unknown: "x"})
			f.Blocking = 1
			return f
		}(), Failure, "1 open blocking"},
	} {
		j := Evaluate(tc.f)
		if lapsed := strings.Contains(tc.desc, "back"); (j.Lapsed == 1) != lapsed {
			t.Errorf("%s: %d lapsed", name, j.Lapsed)
		}
		if j.Verdict.State != tc.state || !strings.Contains(j.Verdict.Description, tc.desc) {
			t.Errorf("%s: %s %q, want %s containing %q", name, j.Verdict.State, j.Verdict.Description, tc.state, tc.desc)
		}
	}
}
