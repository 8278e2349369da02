package detector

import (
	"testing"

	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/state"
)

// A blocking finding whose thread is gone is reported once: the plan
// names it until the state says the notice was posted, and never a
// waived one.
func TestEvidenceReportedOnce(t *testing.T) {
	t.Parallel()
	st := state.State{Waived: map[string]bool{}, EvidenceNoticed: map[string]bool{}, Reviews: []state.CompletedReview{{Run: rmcoc.ReviewRun{Mode: rmcoc.ModeAuto,
		Posted: []rmcoc.PostedFinding{{ID: "f-1", Blocking: true}, {ID: "f-2", Blocking: true}, {ID: "f-3", Blocking: true}}}}}}
	st.EvidenceNoticed["f-2"] = true
	st.Waived["f-3"] = true
	p := Build(Input{State: st})
	if len(p.Evidence) != 1 || p.Evidence[0].ID != "f-1" {
		t.Errorf("evidence = %+v, want f-1 only", p.Evidence)
	}
	st.EvidenceNoticed["f-1"] = true
	if p := Build(Input{State: st}); len(p.Evidence) != 0 {
		t.Errorf("evidence after the notice = %+v, want none", p.Evidence)
	}
}
