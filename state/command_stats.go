package state

import "github.com/review-my-code-bot/rmc/rmcoc"

// CommandStats shows how often the bot's findings were acted on in this
// repository, read from the outcome ledger in the learnings issue.
const CommandStats Command = "stats"

func init() {
	RegisterCommand(CommandSpec{Name: CommandStats, Who: Collaborators, Order: 55,
		Help: "show how often my findings were acted on in this repository (from the outcome ledger)",
		Answer: func(a Answering) Answer {
			if a.Stats == "" {
				return Answer{Result: rmcoc.CommandDone, Text: "📊 No outcome ledger to read: learning is off here (the learnings issue is closed or missing), so no pull request's outcome was recorded."}
			}
			return Answer{Result: rmcoc.CommandDone, Text: "📊 How my findings fared in this repository\n\n" + a.Stats}
		},
	})
}
