package state

import (
	"fmt"

	"github.com/review-my-code-bot/rmc/rmcoc"
)

// CommandResume starts automatic reviews again.
const CommandResume Command = "resume"

func init() {
	RegisterCommand(CommandSpec{Name: CommandResume, Who: Collaborators, Order: 20,
		Help:  "start automatic reviews again, and review the head now",
		Apply: func(st *State, _ Mention) { st.Pause = nil },
		Answer: func(a Answering) Answer {
			text := fmt.Sprintf("▶️ %s resumed automatic reviews of this pull request.", a.By)
			if a.State.Pause != nil {
				text += " The pull request's description still says `@rmc-bot ignore`: remove it for pushes to be reviewed."
			} else if !a.State.ReviewedAuto(a.HeadSHA) {
				text += fmt.Sprintf(" This run reviews `%.7s`.", a.HeadSHA)
			}
			return Answer{Result: rmcoc.CommandDone, Text: text}
		},
	})
}
