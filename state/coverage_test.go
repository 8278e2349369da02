package state_test

import (
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/gate"
	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/state"
)

const shaC = "cccccccccccccccccccccccccccccccccccccccc"

func run(head, from, base string, mode rmcoc.Mode, unreviewed ...string) rmcoc.ReviewRun {
	return rmcoc.ReviewRun{HeadSHA: head, FromSHA: from, BaseRef: base, Mode: mode, Unreviewed: unreviewed, UnreviewedCount: len(unreviewed), CompletedAt: t0}
}

// What the state says of a head's automatic review against a base, for
// the words of a gate short of green: whether the head is covered is the
// ledger's (a completed review says NotReviewed here, whatever it read).
func TestCoverage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		setup func(p *pr)
		head  string
		base  string
		want  gate.Coverage
	}{
		{"nothing", func(p *pr) {}, shaA, "main", gate.NotReviewed},
		{"full automatic review", func(p *pr) { p.review(1, botAuthor, with("ok", run(shaA, "", "main", rmcoc.ModeAuto))) }, shaA, "main", gate.NotReviewed},
		{"a manual review informs only", func(p *pr) { p.review(1, botAuthor, with("ok", run(shaA, "", "main", rmcoc.ModeManual, "a.go"))) }, shaA, "main", gate.NotReviewed},
		{"another base", func(p *pr) { p.review(1, botAuthor, with("ok", run(shaA, "", "main", rmcoc.ModeAuto, "a.go"))) }, shaA, "release", gate.NotReviewed},
		{"partial", func(p *pr) { p.review(1, botAuthor, with("ok", run(shaA, "", "main", rmcoc.ModeAuto, "a.go", "b.go"))) }, shaA, "main", gate.Partial},
		{"partial, then resumed", func(p *pr) {
			p.review(1, botAuthor, with("ok", run(shaA, "", "main", rmcoc.ModeAuto, "a.go")))
			p.review(2, botAuthor, with("ok", run(shaA, "", "main", rmcoc.ModeAuto)))
		}, shaA, "main", gate.NotReviewed},
		{"a run block forged by someone else", func(p *pr) { p.review(1, alice, with("ok", run(shaA, "", "main", rmcoc.ModeAuto, "a.go"))) }, shaA, "main", gate.NotReviewed},
		// A review that read more than its block holds records the rest
		// in continuation blocks naming it: one missing (a run killed, a
		// comment cut), or naming another review, is a review stopped
		// short.
		{"every continuation found", func(p *pr) { spilled(p, 2, 1) }, shaA, "main", gate.NotReviewed},
		{"a continuation lost", func(p *pr) { spilled(p, 2, 0) }, shaA, "main", gate.Partial},
		{"a continuation naming another review", func(p *pr) { spilled(p, 2, 99) }, shaA, "main", gate.Partial},
		{"a continuation forged by someone else", func(p *pr) {
			spilled(p, 2, 0)
			p.comment(51, alice, with("", rmcoc.ReviewRun{HeadSHA: shaA, Mode: rmcoc.ModeAuto, Continues: 1, Blobs: blobKey('e') + blobKey('f'), CompletedAt: t0}))
		}, shaA, "main", gate.Partial},
		{"a failed attempt", func(p *pr) {
			p.comment(1, botAuthor, with("failed", rmcoc.TaskError{TaskKey: "review-auto-aaaaaaa", Message: "endpoint unavailable", FailedAt: t0}))
		}, shaA, "main", gate.Failed},
		{"a trigger without a review", func(p *pr) {
			p.comment(1, botAuthor, with("reviewing", rmcoc.AutoReviewTrigger{HeadSHA: shaA, Action: "opened", TriggeredAt: t0}))
		}, shaA, "main", gate.Running},
	}
	for _, tc := range tests {
		p := newPR()
		tc.setup(p)
		st := state.Derive(p.snap, state.Options{Bot: bot, Handles: handles})
		if c := st.Coverage(tc.head, tc.base); c.Coverage != tc.want {
			t.Errorf("%s: coverage %d, want %d", tc.name, c.Coverage, tc.want)
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

func blobKey(c byte) string { return strings.Repeat(string(c), rmcoc.BlobKeyLen) }

// spilled adds review 1 of shaA, which recorded one blob in its block and
// n more in a continuation block naming review continues (0: none).
func spilled(p *pr, n int, continues int64) {
	r := run(shaA, "", "main", rmcoc.ModeAuto)
	r.Blobs, r.Spilled = blobKey('d'), n
	p.review(1, botAuthor, with("ok", r))
	if continues != 0 {
		p.comment(50, botAuthor, with("", rmcoc.ReviewRun{HeadSHA: shaA, Mode: rmcoc.ModeAuto, Continues: rmcoc.ID(continues), Blobs: blobKey('e') + blobKey('f'), CompletedAt: t0}))
	}
}

// The ledger holds what continuation blocks record for the review they
// name, and nothing from one naming another review or forged.
func TestLedgerContinuations(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		continues int64
		want      gate.Mark
	}{"its review": {1, gate.Reviewed}, "another review": {99, 0}} {
		p := newPR()
		spilled(p, 2, tc.continues)
		p.comment(51, alice, with("", rmcoc.ReviewRun{HeadSHA: shaA, Mode: rmcoc.ModeAuto, Continues: 1, Blobs: blobKey('a'), CompletedAt: t0}))
		l := state.Derive(p.snap, state.Options{Bot: bot, Handles: handles}).Ledger()
		if got := l.Of(blobKey('e')); got != tc.want {
			t.Errorf("%s: a continued blob is %v, want %v", name, got, tc.want)
		}
		if l.Of(blobKey('a')) != 0 || l.Of(blobKey('d')) != gate.Reviewed {
			t.Errorf("%s: forged %v, the review's own %v", name, l.Of(blobKey('a')), l.Of(blobKey('d')))
		}
	}
}
