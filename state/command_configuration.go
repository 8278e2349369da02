package state

import (
	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/sanitize"
)

// CommandConfiguration shows the effective settings.
const CommandConfiguration Command = "configuration"

func init() {
	RegisterCommand(CommandSpec{Name: CommandConfiguration, Aliases: []string{"config"}, Who: Collaborators, Order: 50,
		Help: "show the effective settings and where each came from",
		Answer: func(a Answering) Answer {
			if a.Settings == "" {
				return Answer{Result: rmcoc.CommandDone, Text: "⚙️ This run read no settings file, so every setting is an input of the workflow or its default."}
			}
			// The values are the repository's, but one may name people
			// (human_reviewers, notify_agent): relayed, they notify nobody.
			return Answer{Result: rmcoc.CommandDone, Text: "⚙️ The effective settings for this pull request, and where each came from:\n\n" + sanitize.Relay(a.Settings)}
		},
	})
}
