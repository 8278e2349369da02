package state

import (
	"fmt"
	"strings"

	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/sanitize"
)

// CommandClearLedger is a maintainer's decision that the cuts of the gate
// ledger the PR was told about stop holding the gate: they looked at what
// was deleted or edited and accept the state as it now stands.
const CommandClearLedger Command = "clear-ledger"

func init() {
	RegisterCommand(CommandSpec{Name: CommandClearLedger, Who: Maintainers, Order: 75,
		Help:    "accept the cuts of my state ledger I reported (a reply of mine deleted or edited): the findings they touch stop holding the merge gate for that reason",
		Refused: "The cut keeps holding the merge gate.",
		Apply:   clearCuts,
		Answer:  answerClear,
	})
}

// clearCuts clears the open cuts the PR was told about before the
// command: a command applies to what it was given about, never to a cut
// that comes later.
func clearCuts(st *State, m Mention) {
	for i := range st.Chain.Cuts {
		c := &st.Chain.Cuts[i]
		if c.Open() && !c.Noticed.IsZero() && c.Noticed.Before(m.CreatedAt) {
			c.ClearedBy, c.ClearedIn = m.Author.Login, m.Ref
		}
	}
}

// ClearedIn returns the cuts the clear-ledger command ref cleared.
func (s State) ClearedIn(ref Ref) []Cut {
	var out []Cut
	for _, c := range s.Chain.Cuts {
		if c.ClearedBy != "" && c.ClearedIn == ref {
			out = append(out, c)
		}
	}
	return out
}

// answerClear names the cuts the command cleared.
func answerClear(a Answering) Answer {
	cuts := a.State.ClearedIn(a.Mention.Ref)
	if len(cuts) == 0 {
		return Answer{Result: rmcoc.CommandDone, Text: fmt.Sprintf("ℹ️ %s: my state ledger had no reported cut to clear.", a.By)}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "✅ %s cleared %d cut(s) of my state ledger; the findings they touched hold the merge gate again only for what they say themselves:\n", a.By, len(cuts))
	var keys []string
	for _, c := range cuts {
		keys = append(keys, c.Key())
		fmt.Fprintf(&b, "\n- %s", sanitize.RelayLine(c.Why))
	}
	return Answer{Result: rmcoc.CommandDone, Text: b.String(), Cuts: keys}
}
