package state

import "github.com/review-my-code-bot/rmc/rmcoc"

// CommandSummary writes the walkthrough again. With the walkthrough on,
// the walkthrough task answers it (detector.WalkthroughTask); this answer
// is for a repository that turned it off.
const CommandSummary Command = "summary"

func init() {
	RegisterCommand(CommandSpec{Name: CommandSummary, Who: Collaborators, Order: 30,
		Help: "write the walkthrough again for the current head",
		Answer: func(Answering) Answer {
			return Answer{Result: rmcoc.CommandDone, Text: "ℹ️ The walkthrough is off on this repository (`walkthrough: false` in `.github/rmc.yml` on the base branch), so there is none to write again."}
		},
	})
}
