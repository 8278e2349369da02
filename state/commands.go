package state

import (
	"strings"

	"github.com/review-my-code-bot/rmc/mention"
	"github.com/review-my-code-bot/rmc/snapshot"
)

// Pause says why automatic reviews of the PR are off.
type Pause struct {
	// By is who paused them ("" for the description's ignore command).
	By string
	// Ignored is set when the PR's description says "@rmc-bot ignore".
	Ignored bool
	// Ref is the pause command's comment.
	Ref Ref
}

// Why is the reason the gate shows for a head not reviewed meanwhile.
func (p Pause) Why() string {
	if p.Ignored {
		return "automatic reviews off (the description says ignore)"
	}
	return "automatic reviews paused by @" + p.By
}

// ignored reports whether the PR's description asks the bot to leave the PR
// alone: its first mention of the bot is "ignore" on its own line.
func ignored(body string, handles []string) bool {
	m, ok := mention.Find(body, handles)
	if !ok {
		return false
	}
	first, _, _ := strings.Cut(m.Text, "\n")
	return strings.EqualFold(strings.TrimRight(strings.TrimSpace(first), ".!"), "ignore")
}

// commands applies what the registered commands change, in the order
// they were given (Mentions is chronological). A command counts from its
// own comment, unedited by anyone else, whether or not the bot answered it
// yet: a run cancelled before the answer loses nothing. A maintainers'
// command counts only from a maintainer (Allowed); a login whose
// permission is unknown is listed for the caller (Waivers).
func (d *deriver) commands(pr snapshot.PullRequest) {
	for i := range d.st.Mentions {
		m := &d.st.Mentions[i]
		spec, ok := LookupCommand(m.Command)
		if !ok || m.Edited || !m.Trusted {
			continue
		}
		if spec.Who == Maintainers {
			entitled, known := d.entitled(&m.Author)
			if !known {
				d.st.waivers = append(d.st.waivers, m.Author.Login)
			}
			if !entitled {
				continue
			}
		}
		m.Allowed = true
		if spec.Apply != nil {
			spec.Apply(d.st, *m)
		}
	}
	if d.st.Pause == nil && ignored(pr.Body, d.opt.Handles) {
		d.st.Pause = &Pause{Ignored: true}
	}
	for i := range d.st.Findings {
		f := &d.st.Findings[i]
		if w, ok := d.st.WaivedBy[f.Block.ID]; ok {
			// A waived finding no longer blocks: its thread is not
			// reopened, whoever resolved it.
			f.WaivedBy, f.Reopen, f.ReopenExplained, f.Unjudged = w.By, nil, false, ""
		}
	}
}

// Waiver is a maintainer's decision that a finding no longer holds the
// gate: a resolve command, or a waive command for a deleted thread.
type Waiver struct {
	FindingID string
	By        string
	Command   Ref
}

// ResolvedBy returns the ids of the findings a resolve command waived, in
// thread order.
func (s State) ResolvedBy(ref Ref) []string {
	var out []string
	for _, f := range s.Findings {
		if w, ok := s.WaivedBy[f.Block.ID]; ok && w.Command == ref {
			out = append(out, f.Block.ID)
		}
	}
	return out
}
