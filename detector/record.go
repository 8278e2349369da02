package detector

import (
	"strconv"

	"github.com/review-my-code-bot/rmc/snapshot"
)

// Record records a closed pull request's outcome: each finding's fate, in
// the outcome ledger of the learnings issue (package precision).
const Record Kind = 5

// RecordTask records the outcome of the pull request the run is about.
type RecordTask struct {
	Merged bool
}

func (*RecordTask) kind() Kind { return Record }

// Screening: recording counts the findings' fates; the model is not asked.
func (*RecordTask) Screening(snapshot.PullRequest) Screening {
	return Screening{None: "it counts the findings' fates and asks the model nothing"}
}

// recordTask records the outcome when the pull request closed (merged or
// not). The runner leaves a pull request the ledger already holds alone.
func recordTask(in Input, p *Plan, retry func(key, what string) bool) {
	if !in.Event.IsClosed() || in.PR.State == snapshot.PROpen {
		return
	}
	key := "outcome-" + strconv.Itoa(in.PR.Number)
	if retry(key, "outcome record") {
		p.Tasks = append(p.Tasks, Task{Key: key, Reason: "the pull request closed: record its findings' fates", Work: &RecordTask{Merged: in.PR.State == snapshot.PRMerged}})
	}
}
