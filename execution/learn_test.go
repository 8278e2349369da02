package execution

import (
	"testing"
	"time"

	"github.com/review-my-code-bot/rmc/review"
	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/state"
)

func TestLearningFrom(t *testing.T) {
	t.Parallel()
	now := func() time.Time { return time.Unix(0, 0) }
	bob := &snapshot.Actor{Login: "bob"}
	base := func() state.Finding {
		return state.Finding{Block: rmcoc.Finding{ID: "f1", Title: "Magic number", Path: "svc/a/b.go"},
			Thread: snapshot.Thread{Comments: []snapshot.ReviewComment{{Comment: snapshot.Comment{URL: "https://x/pull/1#r1"}}}}}
	}
	tests := map[string]struct {
		edit       func(f *state.Finding)
		wantOrigin string // "" = no learning
	}{
		"open": {edit: func(*state.Finding) {}},
		"conceded": {edit: func(f *state.Finding) {
			f.LastResolution = &rmcoc.DisputeResolution{Resolution: rmcoc.ResolutionConcession, Reason: "fine here"}
		}, wantOrigin: rmcoc.LearnedConcession},
		"maintainer":                  {edit: func(f *state.Finding) { f.ResolvedBy = bob }, wantOrigin: rmcoc.LearnedResolution},
		"maintainer on outdated code": {edit: func(f *state.Finding) { f.ResolvedBy, f.Thread.IsOutdated = bob, true }},
		"fixed":                       {edit: func(f *state.Finding) { f.LastResolution = &rmcoc.DisputeResolution{Resolution: rmcoc.ResolutionFixed} }},
		"maintained": {edit: func(f *state.Finding) {
			f.LastResolution = &rmcoc.DisputeResolution{Resolution: rmcoc.ResolutionMaintained}
		}},
		"no id": {edit: func(f *state.Finding) { f.Block.ID, f.ResolvedBy = "", bob }},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := base()
			tc.edit(&f)
			l, ok := learningFrom(f, 7, now)
			if ok != (tc.wantOrigin != "") || (ok && l.Origin != tc.wantOrigin) {
				t.Fatalf("learning %+v, ok %v", l, ok)
			}
			if ok && (l.PathGlob != "svc/a/**" || l.Fingerprint != review.PatternFingerprint("magic  NUMBER") || l.Source != "https://x/pull/1#r1" || l.PR != 7 || l.ID != learningID("7/f1")) {
				t.Errorf("learning %+v", l)
			}
		})
	}
	if dirGlob("main.go") != "**" || dirGlob("a/b.go") != "a/**" {
		t.Errorf("dirGlob")
	}
}
