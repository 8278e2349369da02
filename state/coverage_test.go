package state_test

import (
	"testing"

	"github.com/review-my-code-bot/rmc/gate"
	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/state"
)

const shaC = "cccccccccccccccccccccccccccccccccccccccc"

func run(head, from, base string, mode rmcoc.Mode, unreviewed ...string) rmcoc.ReviewRun {
	return rmcoc.ReviewRun{HeadSHA: head, FromSHA: from, BaseRef: base, Mode: mode, Unreviewed: unreviewed, UnreviewedCount: len(unreviewed), CompletedAt: t0}
}

// Coverage of a head against a base, over the PR's review history.
func TestCoverage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		setup  func(p *pr)
		head   string
		base   string
		want   gate.Coverage
		detail int
	}{
		{"nothing", func(p *pr) {}, shaA, "main", gate.NotReviewed, 0},
		{"full automatic review", func(p *pr) { p.review(1, botAuthor, with("ok", run(shaA, "", "main", rmcoc.ModeAuto))) }, shaA, "main", gate.Covered, 0},
		{"a manual review informs only", func(p *pr) { p.review(1, botAuthor, with("ok", run(shaA, "", "main", rmcoc.ModeManual))) }, shaA, "main", gate.NotReviewed, 0},
		{"another base", func(p *pr) { p.review(1, botAuthor, with("ok", run(shaA, "", "main", rmcoc.ModeAuto))) }, shaA, "release", gate.NotReviewed, 0},
		{"partial", func(p *pr) { p.review(1, botAuthor, with("ok", run(shaA, "", "main", rmcoc.ModeAuto, "a.go", "b.go"))) }, shaA, "main", gate.Partial, 2},
		{"partial, then resumed", func(p *pr) {
			p.review(1, botAuthor, with("ok", run(shaA, "", "main", rmcoc.ModeAuto, "a.go")))
			p.review(2, botAuthor, with("ok", run(shaA, "", "main", rmcoc.ModeAuto)))
		}, shaA, "main", gate.Covered, 0},
		{"incremental on a covered head", func(p *pr) {
			p.review(1, botAuthor, with("ok", run(shaB, "", "main", rmcoc.ModeAuto)))
			p.review(2, botAuthor, with("ok", run(shaA, shaB, "main", rmcoc.ModeAuto)))
		}, shaA, "main", gate.Covered, 0},
		{"incremental on a head reviewed against another base", func(p *pr) {
			p.review(1, botAuthor, with("ok", run(shaB, "", "release", rmcoc.ModeAuto)))
			p.review(2, botAuthor, with("ok", run(shaA, shaB, "main", rmcoc.ModeAuto)))
		}, shaA, "main", gate.NotReviewed, 0},
		{"incremental on a head no review records", func(p *pr) {
			p.review(2, botAuthor, with("ok", run(shaA, shaC, "main", rmcoc.ModeAuto)))
		}, shaA, "main", gate.NotReviewed, 0},
		{"a run block forged by someone else", func(p *pr) { p.review(1, alice, with("ok", run(shaA, "", "main", rmcoc.ModeAuto))) }, shaA, "main", gate.NotReviewed, 0},
		{"a file too large for a diff", func(p *pr) {
			r := run(shaA, "", "main", rmcoc.ModeAuto)
			r.Unreadable = []string{"data/huge.json"}
			p.review(1, botAuthor, with("ok", r))
		}, shaA, "main", gate.Unreadable, 1},
		{"incremental on a head with a file too large for a diff", func(p *pr) {
			r := run(shaB, "", "main", rmcoc.ModeAuto)
			r.Unreadable = []string{"data/huge.json"}
			p.review(1, botAuthor, with("ok", r))
			r2 := run(shaA, shaB, "main", rmcoc.ModeAuto)
			r2.Unreadable = []string{"data/huge.json"} // every review lists the PR's unreadable files
			p.review(2, botAuthor, with("ok", r2))
		}, shaA, "main", gate.Unreadable, 1},
		{"a failed attempt", func(p *pr) {
			p.comment(1, botAuthor, with("failed", rmcoc.TaskError{TaskKey: "review-auto-aaaaaaa", Message: "endpoint unavailable", FailedAt: t0}))
		}, shaA, "main", gate.Failed, 0},
		{"a trigger without a review", func(p *pr) {
			p.comment(1, botAuthor, with("reviewing", rmcoc.AutoReviewTrigger{HeadSHA: shaA, Action: "opened", TriggeredAt: t0}))
		}, shaA, "main", gate.Running, 0},
	}
	for _, tc := range tests {
		p := newPR()
		tc.setup(p)
		st := state.Derive(p.snap, state.Options{Bot: bot, Handles: handles})
		c := st.Coverage(tc.head, tc.base)
		if c.Coverage != tc.want || c.Unreviewed != tc.detail {
			t.Errorf("%s: coverage %d (%d unreviewed), want %d (%d)", tc.name, c.Coverage, c.Unreviewed, tc.want, tc.detail)
		}
	}
}

// A fix holds while the head contains the commit it was verified on; a
// commit list that cannot show it leaves it unknown, never holding.
func TestFixLost(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		commits []string
		total   int
		lost    bool
		unknown bool
	}{
		{"the head contains the fix", []string{shaB, shaA}, 2, false, false},
		{"force-pushed back before the fix", []string{shaB}, 1, true, false},
		{"a commit list GitHub cut short leaves it unknown", []string{shaC}, 300, false, true},
		{"a cut list that shows the commit says it holds", []string{shaC, shaA}, 300, false, false},
		{"no commit list leaves it unknown", nil, 0, false, true},
	} {
		p := newPR()
		p.snap.PR.Commits, p.snap.PR.CommitsTotal = tc.commits, tc.total
		p.finding("T1", 10, rmcoc.Finding{ID: "f-1", Title: "Race", Score: 8, Blocking: true, Status: rmcoc.FindingOpen})
		p.reply("T1", 11, botAuthor, with("✅ Fixed", rmcoc.DisputeResolution{FindingID: "f-1", Status: rmcoc.FindingResolved, Resolution: rmcoc.ResolutionFixed, HeadSHA: shaA, ResolvedAt: t0}))
		p.resolveAs("T1", botAuthor)
		st := state.Derive(p.snap, state.Options{Bot: bot, Handles: handles})
		f := st.Findings[0]
		if f.FixLost != tc.lost || f.Blocks() != tc.lost || len(st.OpenBlocking()) != map[bool]int{true: 1}[tc.lost] {
			t.Errorf("%s: lost %v, blocks %v", tc.name, f.FixLost, f.Blocks())
		}
		if d, _ := f.Decision(); f.FixUnknown != tc.unknown || (d.Unknown != "") != tc.unknown {
			t.Errorf("%s: unknown %v (decision %+v), want %v", tc.name, f.FixUnknown, d, tc.unknown)
		}
	}
}

// A blocking finding a review posted whose thread is gone keeps blocking;
// one the review did not record as posted, or that does not block, does not.
func TestMissingEvidence(t *testing.T) {
	t.Parallel()
	p := newPR()
	r := run(shaA, "", "main", rmcoc.ModeAuto)
	r.Posted = []rmcoc.PostedFinding{{ID: "f-kept", Blocking: true}, {ID: "f-gone", Blocking: true}, {ID: "f-minor", Blocking: false}}
	p.review(1, botAuthor, with("review", r))
	p.finding("T1", 10, rmcoc.Finding{ID: "f-kept", Title: "Race", Score: 8, Blocking: true, Status: rmcoc.FindingOpen})
	st := state.Derive(p.snap, state.Options{Bot: bot, Handles: handles})
	if m := st.Missing(); len(m) != 1 || m[0].ID != "f-gone" {
		t.Errorf("missing = %+v, want f-gone", m)
	}
	// A maintainer's waiver takes it off the gate; it is still gone.
	st.Waived["f-gone"] = true
	if m, g := st.Missing(), st.Gone(); len(m) != 0 || len(g) != 1 || g[0].ID != "f-gone" {
		t.Errorf("waived: missing = %+v, gone = %+v; want none missing, f-gone gone", m, g)
	}
}
