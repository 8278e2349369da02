package detector

import (
	"fmt"
	"strconv"

	"github.com/review-my-code-bot/rmc/event"
	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/state"
)

// Record records a closed pull request's outcome: each finding's fate, in
// the outcome ledger of the learnings issue (package precision).
const Record Kind = 5

// RecordTask records the outcome of the pull request the run is about.
// Commands are the record commands it answers (a maintainer asking for a
// closed pull request no run recorded). OnDemand is set when it was asked
// for (a command, or the workflow run by hand) rather than the closing.
type RecordTask struct {
	Merged   bool
	Commands []state.Mention
	OnDemand bool
}

func (*RecordTask) kind() Kind { return Record }

// Screening: recording counts the findings' fates; the model is not asked.
func (*RecordTask) Screening(snapshot.PullRequest) Screening {
	return Screening{None: "it counts the findings' fates and asks the model nothing"}
}

// recordTask records the outcome when the pull request closed (merged or
// not), or when a maintainer asks for a closed one: a record command, or
// the workflow run by hand for it (only people with write access can).
// The runner leaves a pull request the ledger already holds alone.
func recordTask(in Input, records []state.Mention, p *Plan, retry func(key, what string) bool) {
	dispatch := in.Event.Name == event.WorkflowDispatch && in.PR.State != ""
	if (!in.Event.IsClosed() && len(records) == 0 && !dispatch) || in.PR.State == snapshot.PROpen {
		return
	}
	key, reason := "outcome-"+strconv.Itoa(in.PR.Number), "the pull request closed: record its findings' fates"
	if len(records) > 0 {
		key = "outcome-" + records[0].Ref.String()
		reason = fmt.Sprintf("@%s asked to record the outcome of this closed pull request", records[0].Author.Login)
	}
	if retry(key, "outcome record") {
		p.Tasks = append(p.Tasks, Task{Key: key, Reason: reason, Work: &RecordTask{Merged: in.PR.State == snapshot.PRMerged, Commands: records, OnDemand: len(records) > 0 || dispatch}})
	}
}
