package state

import (
	"fmt"
	"slices"
	"strings"

	"github.com/review-my-code-bot/rmc/gate"
	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/sanitize"
)

// CommandResolve is a maintainer's waiver of every finding open when it
// was given.
const CommandResolve Command = "resolve"

func init() {
	RegisterCommand(CommandSpec{Name: CommandResolve, Who: Maintainers, Order: 40,
		Help:    "resolve all my open findings: they are recorded as your waivers and stop holding the merge gate",
		Refused: "My findings keep holding the merge gate until they are fixed, disputed in their thread, or resolved by a maintainer.",
		Apply:   resolveAll,
		Answer:  answerResolve,
	})
}

// resolveAll waives the findings that were open when the command was
// given: once answered, exactly those its answer recorded; before that,
// those open since before its comment. A finding raised, or reopened as a
// regression, after the command is not the command's to waive.
func resolveAll(st *State, m Mention) {
	a, answered := st.answers[m.Ref]
	for i := range st.Findings {
		f := &st.Findings[i]
		if answered && !slices.Contains(a.FindingIDs, f.Block.ID) || !answered && !f.openAt(m.CreatedAt) {
			continue
		}
		if !f.decidedAfterEdit(m.CreatedAt) {
			// The comment was edited since: the command judged
			// another text than it shows now.
			f.supersede(gate.Waived, m.Author.Login)
			continue
		}
		if _, done := st.WaivedBy[f.Block.ID]; !done {
			st.WaivedBy[f.Block.ID] = Waiver{FindingID: f.Block.ID, By: m.Author.Login, Command: m.Ref}
		}
	}
	waiveGone(st, m, a.FindingIDs)
}

// waiveGone keeps the waiver of a finding the answer named whose thread
// was deleted since: the maintainer's decision holds whatever becomes of
// the thread, as a waive command's does (State.Missing), unless a run
// recorded an edit of the finding's comment after the command: it judged
// another text, and the deleted finding blocks until a maintainer waives it.
func waiveGone(st *State, m Mention, ids []string) {
	for _, id := range ids {
		if t, edited := st.Chain.editedAt(id); edited && !m.CreatedAt.After(t) {
			continue
		}
		if _, done := st.WaivedBy[id]; !done && !slices.ContainsFunc(st.Findings, func(f Finding) bool { return f.Block.ID == id }) {
			st.WaivedBy[id] = Waiver{FindingID: id, By: m.Author.Login, Command: m.Ref}
		}
	}
}

// answerResolve names the findings the command waived.
func answerResolve(a Answering) Answer {
	ids := a.State.ResolvedBy(a.Mention.Ref)
	if len(ids) == 0 {
		return Answer{Result: rmcoc.CommandDone, Text: fmt.Sprintf("ℹ️ %s: none of my findings was open, so there was nothing to resolve.", a.By)}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "✅ %s resolved %d open finding(s) of mine. They are recorded as %s's waivers and no longer hold the merge gate:\n", a.By, len(ids), a.By)
	for _, f := range a.State.Findings {
		if w, ok := a.State.WaivedBy[f.Block.ID]; ok && w.Command == a.Mention.Ref {
			fmt.Fprintf(&b, "\n- %s %s (%s)", sanitize.Code(f.Block.ID), a.ModelLine(f.Block.Title), sanitize.Code(f.Thread.Path))
		}
	}
	return Answer{Result: rmcoc.CommandDone, Text: b.String(), FindingIDs: ids}
}
