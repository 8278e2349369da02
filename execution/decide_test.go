package execution

import (
	"testing"

	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/state"
)

// What a reply saying "out of scope" does to a finding: a score of 9 or
// more is never deferred, whatever the model concedes; a blocking finding
// below it is deferred only on a concession; a finding that does not block
// is deferred.
func TestDecideOutOfScope(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		score    int
		blocking bool
		verdict  Verdict
		want     rmcoc.Resolution
		resolve  bool
	}{
		"score 10, conceded":            {score: 10, blocking: true, verdict: VerdictConcede, want: rmcoc.ResolutionMaintained},
		"score 9, conceded":             {score: 9, blocking: true, verdict: VerdictConcede, want: rmcoc.ResolutionMaintained},
		"score 9, not blocking":         {score: 9, verdict: VerdictConcede, want: rmcoc.ResolutionMaintained},
		"score 8, blocking, conceded":   {score: 8, blocking: true, verdict: VerdictConcede, want: rmcoc.ResolutionDeferred, resolve: true},
		"score 8, blocking, maintained": {score: 8, blocking: true, verdict: VerdictMaintain, want: rmcoc.ResolutionAnswered},
		"score 6, not blocking":         {score: 6, verdict: VerdictMaintain, want: rmcoc.ResolutionDeferred, resolve: true},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			x := &disputeRunner{}
			f := &state.Finding{Block: rmcoc.Finding{ID: "f1", Score: tc.score, Blocking: tc.blocking, Status: rmcoc.FindingOpen}}
			d := x.decide(f, verdict{Kind: ReplyOutOfScope, Verdict: tc.verdict})
			if d.resolution != tc.want || d.resolve != tc.resolve {
				t.Errorf("resolution %q (resolve %v), want %q (resolve %v)", d.resolution, d.resolve, tc.want, tc.resolve)
			}
		})
	}
}
