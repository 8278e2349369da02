package state_test

import (
	"testing"

	"github.com/review-my-code-bot/rmc/gate"
	"github.com/review-my-code-bot/rmc/rmcoc"
)

// What closed a blocking finding, and the content it is bound to: the
// raised blob from the finding's block, the judged one from the decision's
// block or the bot's record of a maintainer's resolution. A maintainer's
// resolution the bot has not recorded, and a fix the commit list cannot
// show, are unknown; a regression reply drops the record it came after.
func TestDecisionOf(t *testing.T) {
	t.Parallel()
	const raised, judged = "11111111111111111111111111111111", "22222222222222222222222222222222"
	resolution := func(r rmcoc.Resolution, s rmcoc.FindingStatus) rmcoc.DisputeResolution {
		return rmcoc.DisputeResolution{FindingID: "f-1", Status: s, Resolution: r, HeadSHA: shaA, Blob: judged, ResolvedAt: t0}
	}
	for name, tc := range map[string]struct {
		setup   func(p *pr)
		ok      bool
		want    gate.Decision
		unbound bool
	}{
		"open": {setup: func(p *pr) {}},
		"a verified fix": {setup: func(p *pr) {
			p.snap.PR.Commits, p.snap.PR.CommitsTotal = []string{shaA}, 1
			p.reply("T1", 11, botAuthor, with("fixed", resolution(rmcoc.ResolutionFixed, rmcoc.FindingResolved)))
			p.resolveAs("T1", botAuthor)
		}, ok: true, want: gate.Decision{Kind: gate.Fix, Judged: judged}},
		"a fix past the commit list": {setup: func(p *pr) {
			p.snap.PR.Commits, p.snap.PR.CommitsTotal = []string{shaB}, 400
			p.reply("T1", 11, botAuthor, with("fixed", resolution(rmcoc.ResolutionFixed, rmcoc.FindingResolved)))
			p.resolveAs("T1", botAuthor)
		}, ok: true, want: gate.Decision{Kind: gate.Fix, Judged: judged, Unknown: "fix verified on aaaaaaa, past the PR's commits GitHub lists"}},
		"a concession": {setup: func(p *pr) {
			p.reply("T1", 11, alice, "mu guards it")
			p.reply("T1", 12, botAuthor, with("conceded", resolution(rmcoc.ResolutionConcession, rmcoc.FindingResolved)))
			p.resolveAs("T1", botAuthor)
		}, ok: true, want: gate.Decision{Kind: gate.Conceded, Judged: judged}},
		"a maintainer's resolution not recorded yet": {setup: func(p *pr) { p.resolve("T1") },
			ok: true, want: gate.Decision{Kind: gate.Accepted, Unknown: "a maintainer's resolution not bound to its code yet"}, unbound: true},
		"a maintainer's resolution recorded": {setup: func(p *pr) {
			p.resolve("T1")
			p.reply("T1", 11, botAuthor, with("recorded", resolution(rmcoc.ResolutionAccepted, rmcoc.FindingResolved)))
		}, ok: true, want: gate.Decision{Kind: gate.Accepted, Judged: judged}},
		"a record before a regression binds nothing": {setup: func(p *pr) {
			p.reply("T1", 11, botAuthor, with("recorded", resolution(rmcoc.ResolutionAccepted, rmcoc.FindingResolved)))
			p.reply("T1", 12, botAuthor, with("back", resolution(rmcoc.ResolutionRegressed, rmcoc.FindingOpen)))
			p.resolve("T1")
		}, ok: true, want: gate.Decision{Kind: gate.Accepted, Unknown: "a maintainer's resolution not bound to its code yet"}, unbound: true},
		"a record alone closes nothing": {setup: func(p *pr) {
			p.reply("T1", 11, botAuthor, with("recorded", resolution(rmcoc.ResolutionAccepted, rmcoc.FindingResolved)))
		}},
		"a waiver": {setup: func(p *pr) { p.comment(1, maria, "@rmc-bot resolve") },
			ok: true, want: gate.Decision{Kind: gate.Waived}},
	} {
		p := newPR()
		p.finding("T1", 10, rmcoc.Finding{ID: "f-1", Title: "Race", Score: 8, Blocking: true, Status: rmcoc.FindingOpen, Blob: raised})
		tc.setup(p)
		f := derive(p, bot).Findings[0]
		d, ok := f.Decision()
		if tc.ok {
			tc.want.Finding, tc.want.Path, tc.want.Raised = "f-1", "main.go", raised
		}
		if ok != tc.ok || d != tc.want || f.Unbound() != tc.unbound {
			t.Errorf("%s: decision %+v (%v), unbound %v; want %+v (%v), unbound %v", name, d, ok, f.Unbound(), tc.want, tc.ok, tc.unbound)
		}
	}
}
