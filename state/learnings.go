package state

import (
	"cmp"
	"fmt"
	"slices"
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
	// Confirmed maps a learning's id to the maintainer who confirmed it
	// ("@rmc-bot confirm <id>"): only a confirmed learning suppresses
	// findings; any other is a hint in the prompt. A remember rule is its
	// maintainer's own and needs no confirmation (see ConfirmedBy).
	Confirmed map[string]string
	// Told holds the lower-cased logins told once that only maintainers
	// command the bot here: their later commands get no reply.
	Told map[string]bool
	// Claims maps a command's comment id to the bot comment that carried it
	// out first: the one that counts when overlapping runs both did.
	Claims map[int64]int64
	// Commands are the commands this run considers, at most
	// MaxLearningCommands of those not yet carried out (see
	// selectCommands); Deferred counts those left for later runs.
	Commands []LearningCommand
	Deferred int
	// Outcomes are the outcome ledger's blocks in trusted comments, in
	// comment order; package precision checks their chain.
	Outcomes []OutcomeRecord
	Notices  []string
}

// OutcomeRecord is an outcome ledger block and the learnings issue comment
// that holds it.
type OutcomeRecord struct {
	CommentID int64
	Block     rmcoc.Outcomes
}

// MaxLearningCommands is how many commands in the learnings issue one run
// considers: each may cost a permission lookup and a comment, and the issue
// is shared by every pull request's runs, so a flood of commands cannot
// hold up a run or make the bot write without bound. The rest wait for the
// next runs.
const MaxLearningCommands = 10

// ConfirmedBy is who vouched for learning l: the maintainer who confirmed
// it, or who wrote it (a remember rule); "" while it is a hint only.
func (ls Learnings) ConfirmedBy(l rmcoc.Learning) string {
	if l.Origin == rmcoc.LearnedRemember {
		return l.By
	}
	return ls.Confirmed[l.ID]
}

// LearningCommand is "@rmc-bot remember <rule>", "@rmc-bot forget <id>" or
// "@rmc-bot confirm <id>" in the learnings issue. Only maintainers'
// commands are carried out; the caller checks the author's permission.
type LearningCommand struct {
	CommentID int64
	URL       string
	Author    snapshot.Actor
	// Member is set when GitHub's author association (owner, member,
	// collaborator) allows write access; without it the author has none,
	// and no lookup is needed to refuse the command.
	Member  bool
	Command string // an rmcoc.Command* verb
	Arg     string // the rule, or the learning's id
}

// LearningKey names a finding across pull requests.
func LearningKey(pr int, findingID string) string { return strconv.Itoa(pr) + "/" + findingID }

// DeriveLearnings reads the learnings issue. It is pure, like Derive.
func DeriveLearnings(li snapshot.LearningsIssue, opt Options) Learnings {
	l := Learnings{Issue: li.Number, URL: li.URL, Learned: map[string]bool{}, URLs: map[string]string{},
		Confirmed: map[string]string{}, Told: map[string]bool{}, Claims: map[int64]int64{}}
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
	r := learningsReader{l: &l, forgotten: map[string]bool{}, seen: map[string]bool{}}
	var pending []LearningCommand
	for _, c := range li.Comments {
		where := fmt.Sprintf("comment %d of the learnings issue", c.ID)
		for _, b := range d.blocks(c.Author, c.Editor, c.Body, where) {
			r.block(c, b)
		}
		if d.isBot(c.Author) {
			continue
		}
		if cmd, ok := parseLearningCommand(c, opt.Handles); ok {
			pending = append(pending, cmd)
		}
	}
	for _, x := range r.all {
		if x.FindingID != "" {
			l.Learned[LearningKey(x.PR, x.FindingID)] = true
		}
		if !r.forgotten[x.ID] {
			l.Active = append(l.Active, x)
		}
	}
	pending = slices.DeleteFunc(pending, func(c LearningCommand) bool { return l.Claims[c.CommentID] != 0 })
	for i, c := range pending {
		pending[i] = l.asConfirm(c)
	}
	l.Commands, l.Deferred = selectCommands(pending, l.Told)
	l.Notices = append(l.Notices, st.Notices...)
	return l
}

// learningsReader folds the bot's blocks in the issue into a Learnings.
type learningsReader struct {
	l         *Learnings
	all       []rmcoc.Learning
	forgotten map[string]bool
	seen      map[string]bool // learning ids already read
}

// block reads one trusted block of comment c. A command's first result (the
// lowest comment id) is its claim: a later one, from a run that overlapped,
// changes nothing. A learning recorded twice counts once.
func (r *learningsReader) block(c snapshot.Comment, b rmcoc.Block) {
	l := r.l
	switch b := b.(type) {
	case rmcoc.Learning:
		if b.CommandID != 0 && !r.claim(int64(b.CommandID), c.ID) {
			return
		}
		if r.seen[b.ID] {
			return
		}
		r.seen[b.ID] = true
		r.all = append(r.all, b)
		l.URLs[b.ID] = c.URL
	case rmcoc.Outcomes:
		l.Outcomes = append(l.Outcomes, OutcomeRecord{CommentID: c.ID, Block: b})
	case rmcoc.LearningCommand:
		if !r.claim(int64(b.CommandCommentID), c.ID) {
			return
		}
		switch {
		case b.Result == rmcoc.CommandNotAllowed && b.By != "":
			l.Told[strings.ToLower(b.By)] = true
		case b.Result != rmcoc.CommandDone:
		case b.Command == rmcoc.CommandForget:
			r.forgotten[b.LearningID] = true
		case b.Command == rmcoc.CommandConfirm && l.Confirmed[b.LearningID] == "":
			l.Confirmed[b.LearningID] = b.By
		}
	}
}

// claim records that comment id carried out command cmd, and reports
// whether it was the first to.
func (r *learningsReader) claim(cmd, id int64) bool {
	if first := r.l.Claims[cmd]; first != 0 && first != id {
		return false
	}
	r.l.Claims[cmd] = id
	return true
}

// asConfirm reads "remember <id>" naming a learning as "confirm <id>".
func (l Learnings) asConfirm(c LearningCommand) LearningCommand {
	if c.Command != rmcoc.CommandRemember || strings.ContainsAny(c.Arg, " \t\n") {
		return c
	}
	id := strings.Trim(c.Arg, "`.,;")
	for _, x := range l.Active {
		if x.ID == id {
			c.Command, c.Arg = rmcoc.CommandConfirm, id
		}
	}
	return c
}

// selectCommands picks the commands a run considers, oldest first, at most
// MaxLearningCommands. A login told once that it may not command the bot,
// and whose association rules out write access, is not read again; one
// without such access gets one command read (the refusal is the reply it
// gets). The rest are taken in turns, one per login a round, logins never
// told first, so one person's flood cannot crowd out a maintainer's
// command. It returns how many were left for later runs.
func selectCommands(pending []LearningCommand, told map[string]bool) ([]LearningCommand, int) {
	byLogin := map[string][]LearningCommand{}
	var fresh, known []string
	for _, c := range pending {
		key := strings.ToLower(c.Author.Login)
		switch {
		case !c.Member && (told[key] || len(byLogin[key]) > 0):
			continue // nothing to carry out, and no reply is owed
		case len(byLogin[key]) == 0 && told[key]:
			known = append(known, key)
		case len(byLogin[key]) == 0:
			fresh = append(fresh, key)
		}
		byLogin[key] = append(byLogin[key], c)
	}
	order, total := append(fresh, known...), 0
	for _, k := range order {
		total += len(byLogin[k])
	}
	var out []LearningCommand
	for round := 0; len(out) < MaxLearningCommands && len(out) < total; round++ {
		for _, k := range order {
			if round < len(byLogin[k]) && len(out) < MaxLearningCommands {
				out = append(out, byLogin[k][round])
			}
		}
	}
	slices.SortFunc(out, func(a, b LearningCommand) int { return cmp.Compare(a.CommentID, b.CommentID) })
	return out, total - len(out)
}

func parseLearningCommand(c snapshot.Comment, handles []string) (LearningCommand, bool) {
	m, ok := mention.Find(c.Body, handles)
	if !ok {
		return LearningCommand{}, false
	}
	verb, arg, _ := strings.Cut(strings.TrimSpace(m.Text), " ")
	verb, arg = strings.ToLower(strings.TrimRight(verb, ":,")), strings.TrimSpace(arg)
	if (verb != rmcoc.CommandRemember && verb != rmcoc.CommandForget && verb != rmcoc.CommandConfirm) || arg == "" {
		return LearningCommand{}, false
	}
	if verb != rmcoc.CommandRemember {
		arg = strings.Trim(strings.Fields(arg)[0], "`.,;")
	}
	return LearningCommand{CommentID: c.ID, URL: c.URL, Author: c.Author, Member: c.Trusted(), Command: verb, Arg: arg}, true
}
