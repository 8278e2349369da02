package main

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/review-my-code-bot/rmc/app"
	"github.com/review-my-code-bot/rmc/diff"
	"github.com/review-my-code-bot/rmc/github/fakegithub"
	"github.com/review-my-code-bot/rmc/outcome"
)

// transcript prints what a person would see on GitHub after each run, read
// back from the fake GitHub's state (not from the pipeline): new reviews
// with their inline comments, comments, replies in threads, resolved
// threads, the merge gate's status and the job summary.
type transcript struct {
	w     io.Writer
	st    style
	width int
	gh    *fakegithub.Server
	pr    int
	// brief leaves out small print and all job summaries but the first.
	brief     bool
	summaries int
	lastGate  string // the gate's state and description last shown
	// What the PR held before the run: comment and review bodies by id,
	// and which threads were resolved.
	seen     map[int64]string
	resolved map[string]bool
}

func newTranscript(w io.Writer, st style, width int, gh *fakegithub.Server, pr int) *transcript {
	return &transcript{w: w, st: st, width: width, gh: gh, pr: pr, seen: map[int64]string{}, resolved: map[string]bool{}}
}

func (t *transcript) print(lines ...string) {
	for _, l := range lines {
		fmt.Fprintln(t.w, strings.TrimRight(l, " "))
	}
}

// markdown renders GitHub Markdown indented by n columns.
func (t *transcript) markdown(body string, n int, m md) {
	m.st, m.width, m.noSmall = t.st, t.width-n, t.brief
	t.print(indent(m.render(body), strings.Repeat(" ", n))...)
}

func (t *transcript) intro() {
	pr, _ := t.gh.PR(repoName, t.pr)
	t.print(wrap(t.st.bold("review-my-code-bot demo:")+" the action's own pipeline, run three times as GitHub would trigger it, "+
		"against a fake GitHub and a scripted model on this machine. Nothing real is read, written or sent.", t.width)...)
	t.print("")
	t.print(t.st.bold(fmt.Sprintf("%s#%d", repoName, t.pr)) + "  " + clean(pr.Title))
	for _, f := range t.gh.Files(repoName, t.pr) {
		t.print(fmt.Sprintf("@%s wants to merge %s into %s · %s (%s, +%d −%d)",
			clean(pr.Author), clean(pr.HeadRef), clean(pr.BaseRef), clean(f.Path), f.Status, f.Additions, f.Deletions))
	}
}

// step starts a run: what the developer did.
func (t *transcript) step(n int, what string) {
	t.print("", t.st.bold(fmt.Sprintf("━━ %d. %s ", n, what)+strings.Repeat("━", max(3, t.width-width(what)-7))))
}

// mark remembers what the PR holds, so that after the run only what the run
// added or edited is shown.
func (t *transcript) mark() {
	for _, r := range t.gh.Reviews(repoName, t.pr) {
		t.seen[r.ID] = r.Body
	}
	for _, c := range t.gh.IssueComments(repoName, t.pr) {
		t.seen[c.ID] = c.Body
	}
	for _, th := range t.gh.Threads(repoName, t.pr) {
		t.resolved[th.ID] = th.Resolved
		for _, c := range th.Comments {
			t.seen[c.ID] = c.Body
		}
	}
}

// comment shows a comment in the conversation.
func (t *transcript) comment(c fakegithub.Comment) {
	t.print("", t.st.bold("@"+clean(c.Author))+" commented:")
	t.markdown(c.Body, 2, md{})
}

// reply shows a reply in a review thread.
func (t *transcript) reply(th fakegithub.Thread, c fakegithub.ReviewComment) {
	t.print("", fmt.Sprintf("%s replied on %s:", t.st.bold("@"+clean(c.Author)), t.where(th.Path, th.Line)))
	t.markdown(c.Body, 2, md{})
}

// run shows how the job ended and what it posted, edited or resolved, in
// the order GitHub's timeline shows it, and returns how many such things
// there were.
func (t *transcript) run(eventName string, j job) int {
	verdict := t.st.green("the job succeeds")
	if j.code != outcome.ExitOK {
		verdict = t.st.red(fmt.Sprintf("the job fails (exit %d)", j.code))
	}
	t.print("", t.st.dim("→ the workflow runs on "+eventName+": ")+verdict)
	items := append(t.threadNews(), t.conversationNews()...)
	slices.SortStableFunc(items, func(a, b item) int { return cmp.Compare(a.id, b.id) })
	for _, it := range items {
		it.show()
	}
	t.gate()
	return len(items)
}

// item is one thing a run did, placed by the id GitHub gave it (ids grow
// with time).
type item struct {
	id   int64
	show func()
}

// edited reports whether a comment is new or was edited by the run.
func (t *transcript) edited(id int64, body string) (isNew, edited bool) {
	old, seen := t.seen[id]
	return !seen, seen && old != body
}

func (t *transcript) threadNews() []item {
	var items []item
	inline := map[int64][]fakegithub.ReviewComment{} // each new review's inline comments
	for _, th := range t.gh.Threads(repoName, t.pr) {
		for _, c := range th.Comments {
			isNew, edited := t.edited(c.ID, c.Body)
			switch {
			case isNew && c.InReplyTo == 0:
				inline[c.ReviewID] = append(inline[c.ReviewID], c)
			case isNew:
				items = append(items, item{c.ID, func() { t.reply(th, c) }})
			case edited:
				items = append(items, item{c.ID, func() {
					t.print("", fmt.Sprintf("%s edited a comment on %s:", t.st.bold("@"+clean(c.Author)), t.where(th.Path, th.Line)))
					t.markdown(c.Body, 2, md{})
				}})
			}
		}
		if th.Resolved && !t.resolved[th.ID] {
			// Resolved after its last comment.
			items = append(items, item{th.Comments[len(th.Comments)-1].ID, func() {
				t.print("", t.st.green("✓")+fmt.Sprintf(" @%s resolved the thread on %s", clean(th.ResolvedBy), t.where(th.Path, th.Line)))
			}})
		}
	}
	for _, r := range t.gh.Reviews(repoName, t.pr) {
		// A reply in a thread is filed as a review without a body, which
		// GitHub shows only as the reply.
		if _, seen := t.seen[r.ID]; !seen && (strings.TrimSpace(r.Body) != "" || len(inline[r.ID]) > 0) {
			items = append(items, item{r.ID, func() { t.review(r, inline[r.ID]) }})
		}
	}
	return items
}

func (t *transcript) conversationNews() []item {
	var items []item
	for _, c := range t.gh.IssueComments(repoName, t.pr) {
		verb := "commented"
		switch isNew, edited := t.edited(c.ID, c.Body); {
		case edited:
			verb = "edited a comment"
		case !isNew:
			continue
		}
		items = append(items, item{c.ID, func() {
			t.print("", t.st.bold("@"+clean(c.Author))+" "+verb+":")
			t.markdown(c.Body, 2, md{})
		}})
	}
	return items
}

var reviewVerbs = map[string]string{"CHANGES_REQUESTED": "requested changes", "APPROVED": "approved", "COMMENTED": "reviewed"}

func (t *transcript) review(r fakegithub.Review, inline []fakegithub.ReviewComment) {
	verb := reviewVerbs[r.State]
	if verb == "" {
		verb = "reviewed (" + strings.ToLower(clean(r.State)) + ")"
	}
	t.print("", t.st.bold("@"+clean(r.Author))+" "+verb+":")
	t.markdown(r.Body, 2, md{})
	for _, c := range inline {
		t.print("", "  "+t.where(c.Path, c.Line))
		old := t.code(c)
		t.markdown(c.Body, 4, md{suggestion: func(lines []string) []string {
			m := md{st: t.st}
			return append(append([]string{"Suggested change:"}, m.diffLines("- ", old)...), m.diffLines("+ ", lines)...)
		}})
	}
}

// code prints the lines an inline comment is on, from the PR's diff, and
// returns their text (what a suggestion replaces).
func (t *transcript) code(c fakegithub.ReviewComment) []string {
	start := c.StartLine
	if start == 0 {
		start = c.Line
	}
	var lines []diff.Line
	for _, pf := range t.gh.Files(repoName, t.pr) {
		if pf.Path != c.Path {
			continue
		}
		if f, err := diff.ParsePatch(pf.Path, pf.Patch); err == nil {
			lines = f.Snippet(diff.Side(strings.ToLower(c.Side)), start, c.Line)
		}
	}
	var old []string
	for _, l := range lines {
		n, text := l.NewLine, clean(l.Text)
		if l.Kind == diff.Delete {
			n = l.OldLine
		} else {
			old = append(old, text)
		}
		t.print(fmt.Sprintf("    %s %s", t.st.dim(fmt.Sprintf("%4d %c", n, l.Kind.Marker())), text))
	}
	return old
}

func (t *transcript) where(path string, line int) string {
	if line == 0 {
		return t.st.cyan(clean(path)) + " (outdated)"
	}
	return t.st.cyan(fmt.Sprintf("%s:%d", clean(path), line))
}

// gate shows the merge gate's commit status on the head commit.
func (t *transcript) gate() {
	pr, _ := t.gh.PR(repoName, t.pr)
	var last *fakegithub.Status
	for _, s := range t.gh.Statuses(repoName, pr.HeadSHA) {
		if s.Context == app.GateContext {
			last = &s
		}
	}
	if last == nil {
		t.print("", "Status "+app.GateContext+": not set")
		return
	}
	mark := map[string]string{"success": t.st.green("✓ success"), "failure": t.st.red("✗ failure"), "error": t.st.red("✗ error"),
		"pending": t.st.yellow("• pending")}[last.State]
	if mark == "" {
		mark = clean(last.State)
	}
	head := fmt.Sprintf("Status %s on %.7s: %s", t.st.bold(app.GateContext), pr.HeadSHA, mark)
	shown := last.State + "\x00" + last.Description
	if shown == t.lastGate {
		t.print("", head+" (unchanged)")
		return
	}
	t.lastGate = shown
	lines := wrap(head+" — "+clean(last.Description), t.width)
	t.print("")
	t.print(lines[0])
	t.print(indent(wrap(strings.Join(lines[1:], " "), t.width-2), "  ")...)
}

// summary shows the run's job summary, as the run's page on GitHub does.
func (t *transcript) summary(j job) {
	if t.summaries++; t.brief && t.summaries > 1 {
		return
	}
	t.print("", t.st.bold("Job summary")+t.st.dim(" (the run's page under Actions):"))
	t.markdown(j.summary, 2, md{})
}
