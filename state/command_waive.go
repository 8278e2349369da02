package state

import (
	"fmt"
	"slices"
	"time"

	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/sanitize"
)

// CommandWaive is a maintainer's decision that a blocking finding whose
// thread was deleted no longer holds the gate.
const CommandWaive Command = "waive"

func init() {
	RegisterCommand(CommandSpec{Name: CommandWaive, Arg: FindingArg, Usage: "waive <finding id>", Who: Maintainers, Order: 70,
		Help:    "let a blocking finding whose thread was deleted stop holding the merge gate",
		Refused: "The finding keeps holding the merge gate.",
		Apply:   waive,
		Answer:  answerWaive,
		Record: func(m Mention, a Answer, at time.Time) rmcoc.Block {
			return rmcoc.Waiver{CommandCommentID: rmcoc.ID(m.Ref.ID), FindingID: m.Arg, By: m.Author.Login, Result: a.Result, At: at}
		},
	})
}

// waive takes a finding whose thread was deleted off the gate. A command
// applies to what was open when it was given: once answered, only if its
// answer waived the finding; a waive answered "no such finding" (the thread
// was still there) does not apply when the thread is deleted later.
func waive(st *State, m Mention) {
	if a, answered := st.waiverAnswers[m.Ref]; answered && (a.Result != rmcoc.WaiverDone || a.FindingID != m.Arg) {
		return
	}
	st.Waived[m.Arg] = true
}

// answerWaive says whether the finding was waived: only a blocking finding
// whose thread is gone can be.
func answerWaive(a Answering) Answer {
	id := sanitize.Code(a.Mention.Arg)
	gone := slices.ContainsFunc(a.State.Gone(), func(p rmcoc.PostedFinding) bool { return p.ID == a.Mention.Arg })
	switch {
	case !gone:
		return Answer{Result: rmcoc.WaiverUnknown, Text: fmt.Sprintf("ℹ️ %s: no blocking finding %s lost its thread, so there is nothing to waive. A finding with a thread is cleared there: a verified fix, a conceded dispute, or a maintainer resolving it.", a.By, id)}
	case a.State.Waived[a.Mention.Arg]:
		return Answer{Result: rmcoc.WaiverDone, Text: fmt.Sprintf("✅ %s waived finding %s, whose thread was deleted: it no longer holds the merge gate.", a.By, id)}
	default:
		return Answer{Result: rmcoc.WaiverRefused, Text: fmt.Sprintf("🔒 %s: only a maintainer (write access, not the pull request's author) can waive finding %s; it keeps holding the merge gate.", a.By, id)}
	}
}
