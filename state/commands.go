package state

import (
	"regexp"
	"strings"

	"github.com/review-my-code-bot/rmc/mention"
	"github.com/review-my-code-bot/rmc/snapshot"
)

// Command is a command given to the bot in the PR's conversation
// ("@rmc-bot pause"). Commands are read by rules, never by the model: the
// whole of what is asked must be the command's word.
type Command string

// The commands. "full review", "review", "remember" and "forget" are
// requests and learnings commands, handled elsewhere; "waive <id>" has its
// own field (Mention.Waive).
const (
	CommandPause         Command = "pause"
	CommandResume        Command = "resume"
	CommandSummary       Command = "summary"
	CommandResolve       Command = "resolve"
	CommandConfiguration Command = "configuration"
	CommandHelp          Command = "help"
)

// Commands lists the commands in the order help shows them.
var Commands = []Command{CommandPause, CommandResume, CommandSummary, CommandResolve, CommandConfiguration, CommandHelp}

// commandWord is a command alone, in any case, with an optional final
// period or exclamation mark ("config" is read as configuration).
var commandWord = regexp.MustCompile(`(?i)^\s*(pause|resume|summary|resolve|configuration|config|help)\s*[.!]?\s*$`)

// ParseCommand reads the text addressed to the bot as a command; ok is
// false for anything else (a question that starts with "help me", say).
func ParseCommand(text string) (c Command, ok bool) {
	m := commandWord.FindStringSubmatch(text)
	if m == nil {
		return "", false
	}
	if w := strings.ToLower(m[1]); w != "config" {
		return Command(w), true
	}
	return CommandConfiguration, true
}

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

// commands applies the pause, resume and resolve commands, in the order
// they were given (Mentions is chronological). A command counts from its
// own comment, unedited by anyone else, whether or not the bot answered it
// yet: a run cancelled before the answer loses nothing.
func (d *deriver) commands(pr snapshot.PullRequest) {
	for i := range d.st.Mentions {
		m := &d.st.Mentions[i]
		if m.Command == "" || m.Edited || !m.Trusted {
			continue
		}
		switch m.Command {
		case CommandPause:
			d.st.Pause = &Pause{By: m.Author.Login, Ref: m.Ref}
		case CommandResume:
			d.st.Pause = nil
		case CommandResolve:
			d.resolveAll(m)
		case CommandSummary, CommandConfiguration, CommandHelp:
			// Answered by a task of their own; they change no state.
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

// resolveAll applies a resolve command: a maintainer (write access, not the
// PR's author) waives every open finding posted before the command. A
// login whose permission is unknown is listed for the caller (Waivers).
func (d *deriver) resolveAll(m *Mention) {
	ok, known := d.entitled(&m.Author)
	if !ok {
		if !known {
			d.st.waivers = append(d.st.waivers, m.Author.Login)
		}
		return
	}
	m.Allowed = true
	for _, f := range d.st.Findings {
		if !f.Open() || f.Thread.Comments[0].CreatedAt.After(m.CreatedAt) {
			continue
		}
		if _, done := d.st.WaivedBy[f.Block.ID]; !done {
			d.st.WaivedBy[f.Block.ID] = Waiver{FindingID: f.Block.ID, By: m.Author.Login, Command: m.Ref}
		}
	}
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
