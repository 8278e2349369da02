package execution

import (
	"context"
	"testing"

	"github.com/review-my-code-bot/rmc/detector"
	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/snapshot"
)

// activeRuns is a recorder that says which workflow runs are at work.
type activeRuns struct {
	*recorder
	active map[int64]bool
}

func (a activeRuns) RunActive(_ context.Context, _ snapshot.Repo, id int64) (bool, error) {
	return a.active[id], nil
}

// TestReviewHeld: an automatic review of a head another workflow run at
// work took on is left to it; a manual review, another head, this run's
// own trigger, a finished run's and a plan without a review are not.
func TestReviewHeld(t *testing.T) {
	t.Parallel()
	auto := &detector.ReviewTask{Mode: rmcoc.ModeAuto, Gate: true, HeadSHA: headSHA}
	manual := &detector.ReviewTask{Mode: rmcoc.ModeManual, HeadSHA: headSHA}
	for name, tc := range map[string]struct {
		rt        *detector.ReviewTask
		head, run string
		held      bool
	}{
		"another run at work on the head": {auto, headSHA, "41", true},
		"a manual review":                 {manual, headSHA, "41", false},
		"another head":                    {auto, baseSHA, "41", false},
		"this run's own trigger":          {auto, headSHA, "42", false},
		"a finished run's":                {auto, headSHA, "40", false},
		"no review":                       {nil, headSHA, "41", false},
	} {
		rig := newTestExecutor(&recorder{}, &testLog{})
		rig.GitHub = activeRuns{recorder: &recorder{}, active: map[int64]bool{41: true}}
		rig.Options.RunID = "42"
		rig.State.AutoTrigger = &rmcoc.AutoReviewTrigger{HeadSHA: tc.head, Action: "synchronize", RunID: tc.run}
		plan := detector.Plan{Tasks: []detector.Task{{Key: "question-x", Work: &detector.QuestionTask{}}}}
		if tc.rt != nil {
			plan.Tasks = append(plan.Tasks, detector.Task{Key: "review-x", Work: tc.rt})
		}
		if got := rig.run().reviewHeld(context.Background(), plan); (got != "") != tc.held {
			t.Errorf("%s: held %q, want held %v", name, got, tc.held)
		}
	}
}
