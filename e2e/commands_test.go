package e2e

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/review-my-code-bot/rmc/github/fakegithub"
	"github.com/review-my-code-bot/rmc/llm/fakellm"
	"github.com/review-my-code-bot/rmc/rmcoc"
)

// scriptWalkthrough makes the model answer the walkthrough prompt; the
// summary names the limiter's added lines, as the file list gives them, so
// each push's walkthrough differs.
func (w *world) scriptWalkthrough() {
	w.llm.AddRule(fakellm.Rule{Name: "walkthrough", LastUser: "# Task: walkthrough of the pull request", Respond: func(r fakellm.Request) fakellm.Reply {
		lines := 0
		if m := addedRe.FindStringSubmatch(r.LastUser()); m != nil {
			lines, _ = strconv.Atoi(m[1])
		}
		return fakellm.Reply{JSON: map[string]any{
			"summary": fmt.Sprintf("Adds a token-bucket rate limiter (%d added lines). Thanks @alice!", lines),
			"groups":  []map[string]any{{"purpose": "Rate limiting", "files": []string{"limiter/bucket.go"}}},
			"effort":  2, "effort_why": "one small file", "issue_fit": "", "diagram": "",
		}}
	}})
}

var addedRe = regexp.MustCompile(`limiter/bucket\.go \([a-z]+, \+(\d+) -`)

// walkthroughs are the bot's walkthrough comments.
func (w *world) walkthroughs() []string {
	var out []string
	for _, c := range w.botComments() {
		if strings.Contains(c.Body, `"type": "walkthrough"`) {
			out = append(out, c.Body)
		}
	}
	return out
}

// commandAnswers are the results of the bot's command answers, by the
// command's comment id.
func (w *world) commandAnswers() map[int64][]string {
	out := map[int64][]string{}
	for _, c := range w.botComments() {
		for _, a := range rmcoc.All[rmcoc.CommandAnswer](c.Body) {
			out[int64(a.CommandCommentID)] = append(out[int64(a.CommandCommentID)], a.Result)
		}
	}
	return out
}

// say posts a comment and runs the action on it.
func (w *world) say(t *testing.T, author, body string) run {
	t.Helper()
	c := w.gh.AddIssueComment(repoName, w.pr, author, body)
	return w.run(w.commentEvent(c.ID, author, body))
}

// Three pushes leave one walkthrough comment, edited on each; its model
// call has its own row in the summary; relayed text mentions nobody.
func TestWalkthroughIsOneStickyComment(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.scriptReview(true)
	w.scriptWalkthrough()
	var id int64
	for i, sha := range []string{"1111111111111111111111111111111111111111", "2222222222222222222222222222222222222222", "3333333333333333333333333333333333333333"} {
		w.push(sha, patchClean+strings.Repeat("\n+// more", i))
		action := "synchronize"
		if i == 0 {
			action = "opened"
		}
		r := w.run(w.prEvent(action))
		if r.code != 0 {
			t.Fatalf("push %d: exit %d\n%s", i+1, r.code, r.log)
		}
		ws := w.walkthroughs()
		if len(ws) != 1 {
			t.Fatalf("push %d: %d walkthrough comments, want 1", i+1, len(ws))
		}
		if !strings.Contains(ws[0], fmt.Sprintf("(%d added lines)", 3+i)) || !strings.Contains(ws[0], "Written for `"+sha[:7]+"`") {
			t.Errorf("push %d: the walkthrough was not rewritten for the head:\n%s", i+1, ws[0])
		}
		if strings.Contains(ws[0], "@alice") {
			t.Errorf("push %d: the walkthrough relays a live mention", i+1)
		}
		for _, c := range w.botComments() {
			if strings.Contains(c.Body, `"type": "walkthrough"`) {
				if id != 0 && c.ID != id {
					t.Errorf("push %d: the walkthrough moved from comment %d to %d", i+1, id, c.ID)
				}
				id = c.ID
			}
		}
		if !strings.Contains(r.summary, "🧭 walkthrough `walkthrough-"+sha[:7]+"`") {
			t.Errorf("push %d: the summary has no walkthrough row:\n%s", i+1, r.summary)
		}
	}
}

// Each command's authority: a writer's command is carried out, the PR's
// author's too except resolve, and an outsider gets the one access notice
// and nothing else.
func TestCommandAuthority(t *testing.T) {
	t.Parallel()
	commands := []string{"help", "configuration", "summary", "pause", "resume", "resolve"}
	for author, want := range map[string]map[string]string{
		"bob":     {"help": "done", "configuration": "done", "summary": "done", "pause": "done", "resume": "done", "resolve": "done"},
		"alice":   {"help": "done", "configuration": "done", "summary": "done", "pause": "done", "resume": "done", "resolve": "not-allowed"},
		"mallory": {},
	} {
		t.Run(author, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			w.push("1111111111111111111111111111111111111111", patchV1)
			w.scriptReview(true, bug(5, "Unsynchronized map write", 9))
			w.scriptWalkthrough()
			w.run(w.prEvent("opened"))
			ids := map[string]int64{}
			for _, cmd := range commands {
				r := w.say(t, author, "@rmc-bot "+cmd)
				ids[cmd] = lastCommentID(w) // the run's own answer comes after
				for _, c := range w.comments() {
					if c.Author == author && c.Body == "@rmc-bot "+cmd {
						ids[cmd] = c.ID
					}
				}
				if cmd == "resolve" && author != "bob" && w.gate() != "failure" {
					t.Errorf("@%s's resolve opened the gate: %s\n%s", author, w.gate(), r.log)
				}
			}
			answers := w.commandAnswers()
			for _, cmd := range commands {
				got := strings.Join(answers[ids[cmd]], ",")
				if got != want[cmd] {
					t.Errorf("@%s's %s: answers %q, want %q", author, cmd, got, want[cmd])
				}
				// Answered commands get the bot's 👀 too (summary's
				// is its walkthrough task's reply only).
				if acked := len(w.gh.Reactions(ids[cmd])) > 0; acked != (want[cmd] != "" && cmd != "summary") {
					t.Errorf("@%s's %s: reaction %v", author, cmd, acked)
				}
			}
			notices := 0
			for _, c := range w.botComments() {
				if strings.Contains(c.Body, `"type": "access-notice"`) {
					notices++
				}
			}
			if wantNotices := map[bool]int{true: 1, false: 0}[author == "mallory"]; notices != wantNotices {
				t.Errorf("%d access notice(s), want %d", notices, wantNotices)
			}
			if n := len(w.walkthroughs()); n != 1 {
				t.Errorf("%d walkthrough comments after summary, want 1", n)
			}
			if author == "bob" && w.gate() != "success" {
				t.Errorf("after a maintainer's resolve the gate is %s", w.gate())
			}
		})
	}
}

// The answers say what each command did: help lists the commands, the
// configuration shows the settings table without pinging anyone, resolve
// names the findings it waived and resolves their threads.
func TestCommandAnswersSayWhatHappened(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.push("1111111111111111111111111111111111111111", patchV1)
	w.inputs["notify_agent"] = "@claude"
	w.scriptReview(true, bug(5, "Unsynchronized map write", 9))
	w.scriptWalkthrough()
	w.run(w.prEvent("opened"))
	if w.gate() != "failure" {
		t.Fatalf("gate %s before resolve", w.gate())
	}
	w.say(t, "bob", "@rmc-bot help")
	w.say(t, "bob", "@rmc-bot config")
	r := w.say(t, "bob", "@rmc-bot resolve")
	var help, config, resolve string
	for _, c := range w.botComments() {
		for _, a := range rmcoc.All[rmcoc.CommandAnswer](c.Body) {
			switch a.Command {
			case "help":
				help = c.Body
			case "configuration":
				config = c.Body
			case "resolve":
				resolve = c.Body
			}
		}
	}
	for _, cmd := range []string{"`pause`", "`resume`", "`summary`", "`resolve`", "`configuration`", "`help`", "`full review`", "`waive <finding id>`", "`@rmc-bot ignore`"} {
		if !strings.Contains(help, cmd) {
			t.Errorf("help does not list %s:\n%s", cmd, help)
		}
	}
	if !strings.Contains(config, "| `notify_agent` | @&#8203;claude | input |") || !strings.Contains(config, "| `walkthrough` | true | default |") {
		t.Errorf("the configuration answer:\n%s", config)
	}
	threads := findingThreads(w)
	if len(threads) != 1 || !threads[0].Resolved {
		t.Errorf("the waived finding's thread is not resolved: %+v", threads)
	}
	if !strings.Contains(resolve, "@bob resolved 1 open finding(s)") || !strings.Contains(resolve, "Unsynchronized map write") {
		t.Errorf("the resolve answer:\n%s", resolve)
	}
	if w.gate() != "success" || !strings.Contains(r.summary, "finding(s) waived") || !strings.Contains(r.summary, "(@bob)") {
		t.Errorf("gate %s; summary:\n%s", w.gate(), r.summary)
	}
	// The next run does not reopen the thread the bot resolved, nor
	// answer anything twice.
	before := len(w.botComments())
	w.say(t, "bob", "thanks")
	if n := len(w.botComments()); n != before {
		t.Errorf("a later run posted %d comment(s)", n-before)
	}
	if threads := findingThreads(w); !threads[0].Resolved {
		t.Error("a later run reopened the waived finding's thread")
	}
	// A waived finding has nothing left to argue: a reply in its thread
	// starts no dispute.
	root := threads[0].Comments[0].ID
	id := w.gh.AddReply(repoName, w.pr, root, "alice", "It was fine anyway.")
	if r := w.run(w.reviewCommentEvent(id, root, "alice", "It was fine anyway.")); r.code != 0 || strings.Contains(r.log, "dispute-") {
		t.Errorf("a reply on a waived finding: exit %d\n%s", r.code, r.log)
	}
	if th := findingThreads(w)[0]; th.Comments[len(th.Comments)-1].Author == botLogin {
		t.Error("the bot answered a reply on a waived finding")
	}
}

// pause then a push leaves the gate pending, and the job failed, without a
// review; resume reviews the head and the gate follows the review.
func TestPauseHoldsTheGateAndResumeReviews(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.push("1111111111111111111111111111111111111111", patchClean)
	w.scriptReview(true)
	w.scriptWalkthrough()
	if r := w.run(w.prEvent("opened")); r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.log)
	}
	wantGate(t, w, "success", "1111111 reviewed")
	w.say(t, "bob", "@rmc-bot pause")

	w.push("2222222222222222222222222222222222222222", patchClean+"\n+// v2")
	r := w.run(w.prEvent("synchronize"))
	if r.code != 1 || !strings.Contains(r.log, "merge gate pending: 2222222 not reviewed: automatic reviews paused by @bob") {
		t.Errorf("a push while paused: exit %d, want 1 (a job required instead of the status is never green unreviewed)\n%s", r.code, r.log)
	}
	wantGate(t, w, "pending", "2222222 not reviewed: automatic reviews paused by @bob")
	if n := len(w.reviews()); n != 1 {
		t.Errorf("%d reviews while paused, want the first only", n)
	}
	// Other runs while paused do not catch up on the push either.
	w.say(t, "alice", "any news?")
	wantGate(t, w, "pending", "paused by @bob")

	r = w.say(t, "alice", "@rmc-bot resume")
	if r.code != 0 {
		t.Fatalf("resume: exit %d\n%s", r.code, r.log)
	}
	wantGate(t, w, "success", "2222222 reviewed")
	rv := w.reviews()
	if len(rv) != 2 || !strings.Contains(rv[1].Body, "2222222") {
		t.Errorf("resume did not review the head: %d reviews", len(rv))
	}
	if !slices.ContainsFunc(w.botComments(), func(c fakegithub.Comment) bool { return strings.Contains(c.Body, "resumed automatic reviews") }) {
		t.Error("resume was not acknowledged")
	}
}

// "@rmc-bot ignore" in the description: no automatic review, and the gate
// waits, never green.
func TestIgnoreInTheDescription(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.push("1111111111111111111111111111111111111111", patchClean)
	w.gh.UpdatePR(repoName, w.pr, func(p *fakegithub.PR) { p.Body = "@rmc-bot ignore\n\nA generated bump." })
	w.scriptReview(true)
	if r := w.run(w.prEvent("opened")); r.code != 1 {
		t.Fatalf("exit %d, want 1 (the gate is pending)\n%s", r.code, r.log)
	}
	wantGate(t, w, "pending", "automatic reviews off (the description says ignore)")
	if len(w.reviews()) != 0 || len(w.llm.Requests()) != 0 {
		t.Errorf("an ignored PR was reviewed: %d reviews, %d model calls", len(w.reviews()), len(w.llm.Requests()))
	}
}

// A run killed after it claimed a command but before it answered loses
// nothing: the pause holds from its comment, the next run within the
// claim's lease leaves the answer to the claimer, and once the lease is
// over the command is answered, once.
func TestKilledCommandIsAnsweredOnce(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.push("1111111111111111111111111111111111111111", patchClean)
	w.scriptReview(true)
	c := w.gh.AddIssueComment(repoName, w.pr, "bob", "@rmc-bot pause")
	w.killAfter = 1 // the claim (the bot's 👀) is written, the answer is not
	if r := w.run(w.commentEvent(c.ID, "bob", c.Body)); r.code != -1 {
		t.Fatalf("the run was not killed (exit %d)\n%s", r.code, r.log)
	}
	w.killAfter = 0
	if n := len(w.gh.Reactions(c.ID)); n != 1 {
		t.Fatalf("%d reaction(s) on the command, want the claim", n)
	}
	w.run(w.prEvent("synchronize"))
	wantGate(t, w, "pending", "automatic reviews paused by @bob")
	if n := len(w.commandAnswers()[c.ID]); n != 0 {
		t.Errorf("answered %d time(s) while the dead run's claim held", n)
	}
	w.gh.SetNow(w.gh.Now().Add(3 * time.Minute))
	w.say(t, "alice", "thanks")
	w.say(t, "alice", "thanks again")
	if got := w.commandAnswers()[c.ID]; len(got) != 1 || got[0] != "done" {
		t.Errorf("answers %v, want one", got)
	}
}
