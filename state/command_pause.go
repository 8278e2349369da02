package state

import (
	"fmt"

	"github.com/review-my-code-bot/rmc/rmcoc"
)

// CommandPause stops automatic reviews of the pull request.
const CommandPause Command = "pause"

func init() {
	RegisterCommand(CommandSpec{Name: CommandPause, Who: Collaborators, Order: 10,
		Help: "stop automatic reviews of this pull request; the merge gate stays pending on any head not reviewed yet",
		Apply: func(st *State, m Mention) {
			st.Pause = &Pause{By: m.Author.Login, Ref: m.Ref}
		},
		Answer: func(a Answering) Answer {
			return Answer{Result: rmcoc.CommandDone, Text: fmt.Sprintf("⏸️ %s paused automatic reviews of this pull request. Pushes are not reviewed until someone comments `@rmc-bot resume`; meanwhile the merge gate stays pending on any head not reviewed yet.", a.By)}
		},
	})
}
