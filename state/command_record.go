package state

import (
	"fmt"

	"github.com/review-my-code-bot/rmc/rmcoc"
)

// CommandRecord records a closed pull request's outcome in the outcome
// ledger when no run recorded it (the workflow did not listen to closed
// yet, or that run failed). On a closed pull request the record task
// answers it (detector.RecordTask), once it knows whether the entry was
// missing; this answer is for an open one.
const CommandRecord Command = "record"

func init() {
	RegisterCommand(CommandSpec{Name: CommandRecord, Who: Maintainers, Order: 56,
		Help:    "record this closed pull request's outcome in the outcome ledger, if no run recorded it",
		Refused: "Nothing is recorded.",
		Answer: func(a Answering) Answer {
			return Answer{Result: rmcoc.CommandDone, Text: fmt.Sprintf("ℹ️ %s: this pull request is still open. Its outcome is recorded when it closes; if that run does not record it, ask again then.", a.By)}
		},
	})
}
