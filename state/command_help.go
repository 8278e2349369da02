package state

import "github.com/review-my-code-bot/rmc/rmcoc"

// CommandHelp lists the commands.
const CommandHelp Command = "help"

func init() {
	RegisterCommand(CommandSpec{Name: CommandHelp, Who: Collaborators, Order: 60,
		Help:   "show this list",
		Answer: func(Answering) Answer { return Answer{Result: rmcoc.CommandDone, Text: HelpText()} },
	})
}
