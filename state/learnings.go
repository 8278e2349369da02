package state

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/review-my-code-bot/rmc/mention"
	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/snapshot"
)

// Learnings is what the repository's learnings issue holds, under the same
// trust rule as a PR: only blocks in comments the bot wrote and nobody else
// edited count, so a learning pasted by anyone else does nothing.
type Learnings struct {
	Issue int    // the issue's number; 0 when there is none yet
	URL   string // the issue's URL
	// Off is set when the issue is closed (learning turned off) or when the
	// labelled issue is not the bot's own.
	Off bool
	// Active are the learnings recorded and not forgotten, oldest first.
	Active []rmcoc.Learning
	// URLs maps a learning's id to the comment that holds it.
	URLs map[string]string
	// Learned holds the keys (LearningKey) of findings already learned from.
	Learned map[string]bool
	// Commands are remember/forget commands not yet carried out.
	Commands []LearningCommand
	Notices  []string
}

// LearningCommand is "@rmc-bot remember <rule>" or "@rmc-bot forget <id>" in
// the learnings issue. Only maintainers' commands are carried out; the
// caller checks the author's permission.
type LearningCommand struct {
	CommentID int64
	URL       string
	Author    snapshot.Actor
	Command   string // rmcoc.CommandRemember or rmcoc.CommandForget
	Arg       string // the rule, or the learning's id
}

// LearningKey names a finding across pull requests.
func LearningKey(pr int, findingID string) string { return strconv.Itoa(pr) + "/" + findingID }

// DeriveLearnings reads the learnings issue. It is pure, like Derive.
func DeriveLearnings(li snapshot.LearningsIssue, opt Options) Learnings {
	l := Learnings{Issue: li.Number, URL: li.URL, Learned: map[string]bool{}, URLs: map[string]string{}}
	if li.Number == 0 {
		return l
	}
	st := State{}
	d := deriver{st: &st, opt: opt}
	if !d.isBot(li.Author) {
		l.Off = true
		l.Notices = append(l.Notices, fmt.Sprintf("issue #%d carries the %s label but @%s opened it, not the bot: learnings are off (remove the label from it)", li.Number, snapshot.LearningsLabel, li.Author.Login))
		return l
	}
	l.Off = li.Closed
	forgotten := map[string]bool{}
	done := map[int64]bool{}
	var all []rmcoc.Learning
	for _, c := range li.Comments {
		where := fmt.Sprintf("comment %d of the learnings issue", c.ID)
		for _, b := range d.blocks(c.Author, c.Editor, c.Body, where) {
			switch b := b.(type) {
			case rmcoc.Learning:
				all = append(all, b)
				l.URLs[b.ID] = c.URL
				if b.CommandID != 0 {
					done[int64(b.CommandID)] = true
				}
			case rmcoc.LearningCommand:
				done[int64(b.CommandCommentID)] = true
				if b.Command == rmcoc.CommandForget && b.Result == "done" {
					forgotten[b.LearningID] = true
				}
			}
		}
		if d.isBot(c.Author) {
			continue
		}
		if cmd, ok := parseLearningCommand(c, opt.Handles); ok {
			l.Commands = append(l.Commands, cmd)
		}
	}
	for _, x := range all {
		if x.FindingID != "" {
			l.Learned[LearningKey(x.PR, x.FindingID)] = true
		}
		if !forgotten[x.ID] {
			l.Active = append(l.Active, x)
		}
	}
	pending := l.Commands[:0]
	for _, c := range l.Commands {
		if !done[c.CommentID] {
			pending = append(pending, c)
		}
	}
	l.Commands = pending
	l.Notices = append(l.Notices, st.Notices...)
	return l
}

func parseLearningCommand(c snapshot.Comment, handles []string) (LearningCommand, bool) {
	m, ok := mention.Find(c.Body, handles)
	if !ok {
		return LearningCommand{}, false
	}
	verb, arg, _ := strings.Cut(strings.TrimSpace(m.Text), " ")
	verb, arg = strings.ToLower(strings.TrimRight(verb, ":,")), strings.TrimSpace(arg)
	if (verb != rmcoc.CommandRemember && verb != rmcoc.CommandForget) || arg == "" {
		return LearningCommand{}, false
	}
	if verb == rmcoc.CommandForget {
		arg = strings.Trim(strings.Fields(arg)[0], "`.,;")
	}
	return LearningCommand{CommentID: c.ID, URL: c.URL, Author: c.Author, Command: verb, Arg: arg}, true
}
