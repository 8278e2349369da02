package e2e

import (
	"strings"
	"sync/atomic"
	"testing"

	"github.com/review-my-code-bot/rmc/github/fakegithub"
	"github.com/review-my-code-bot/rmc/llm/fakellm"
	"github.com/review-my-code-bot/rmc/rmcoc"
)

// The state ledger on the built binary: every bot block that decides the
// gate names its predecessor, the bot's review names the newest, and
// deleting or editing one fails the gate closed, says so once, and only a
// maintainer's clear-ledger lifts it.

// scriptFickleDisputes judges replies as a model talked round would: it
// maintains the finding the first time, then concedes. It returns how
// many replies it was asked to judge.
func (w *world) scriptFickleDisputes() *atomic.Int32 {
	var judged atomic.Int32
	w.llm.AddRule(fakellm.Rule{Name: "dispute", LastUser: "# Task: answer a reply on your finding", Respond: func(fakellm.Request) fakellm.Reply {
		if judged.Add(1) == 1 {
			return fakellm.Reply{JSON: map[string]string{"kind": "dispute", "verdict": "maintain", "reply": "The race is real.", "reason": "Refill writes without mu."}}
		}
		return fakellm.Reply{JSON: map[string]string{"kind": "dispute", "verdict": "concede", "reply": "You are right.", "reason": "Conceded."}}
	}})
	return &judged
}

// dispute posts alice's reply on the finding and runs the job on it; it
// returns the bot's verdict reply.
func (w *world) dispute(t *testing.T, th fakegithub.Thread, text string) fakegithub.ReviewComment {
	t.Helper()
	reply := w.gh.AddReply(repoName, w.pr, th.Comments[0].ID, "alice", text)
	if r := w.run(w.reviewCommentEvent(reply, th.Comments[0].ID, "alice", text)); r.code != 0 {
		t.Fatalf("dispute run: exit %d\n%s", r.code, r.log)
	}
	got := w.thread(th.ID).Comments
	last := got[len(got)-1]
	drs := rmcoc.All[rmcoc.DisputeResolution](last.Body)
	if last.Author != botLogin || len(drs) != 1 || drs[0].Prev == nil {
		t.Fatalf("the bot's verdict is not a linked ledger block:\n%s", last.Body)
	}
	return fakegithub.ReviewComment{Comment: fakegithub.Comment{ID: last.ID, Body: last.Body}}
}

// notices counts the bot's ledger-cut notices.
func (w *world) notices() int {
	n := 0
	for _, c := range w.botComments() {
		n += len(rmcoc.All[rmcoc.LedgerCut](c.Body))
	}
	return n
}

// headNames reports whether the bot's latest review holds a ledger head
// naming comment id.
func (w *world) headNames(id int64) bool {
	rv := w.reviews()
	if len(rv) == 0 {
		return false
	}
	for _, h := range rmcoc.All[rmcoc.LedgerHead](rv[len(rv)-1].Body) {
		for _, tip := range h.Tips {
			if int64(tip.CommentID) == id {
				return true
			}
		}
	}
	return false
}

// lgtm runs the job on an unrelated comment.
func (w *world) lgtm(t *testing.T, by string) run {
	t.Helper()
	return w.run(w.commentEvent(w.gh.AddIssueComment(repoName, w.pr, by, "lgtm").ID, by, "lgtm"))
}

// Deleting the newest verdict — the one nothing else names — is seen from
// the review's ledger head; the author's reply is not judged again (the
// model would concede this time); the PR is told once; the author cannot
// clear it and a maintainer can, after which the gate is the finding's.
func TestLedgerTailVerdictDeleted(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	th := reviewed(t, w, false)
	judged := w.scriptFickleDisputes()
	v := w.dispute(t, th, "This is intentional.")
	if !w.headNames(v.ID) {
		t.Fatalf("the review's ledger head does not name verdict %d", v.ID)
	}
	wantGate(t, w, "failure", "1 open blocking finding")

	w.gh.DeleteReviewComment(v.ID)
	r := w.lgtm(t, "bob")
	wantGate(t, w, "failure", "state ledger cut (the bot's reply")
	if !strings.Contains(r.summary, "the state ledger is cut: the bot's reply") {
		t.Errorf("the job summary does not name the cut:\n%s", r.summary)
	}
	wantGate(t, w, "failure", "was deleted): 1 finding(s) held until a maintainer comments clear-ledger")
	if n := judged.Load(); n != 1 {
		t.Errorf("the author's reply was judged %d times, want once: deleting the verdict must not ask again", n)
	}
	if n := w.notices(); n != 1 {
		t.Fatalf("%d ledger-cut notices, want 1", n)
	}
	if th := w.thread(th.ID); th.Resolved {
		t.Error("the finding's thread was resolved")
	}

	// Told once across runs.
	w.lgtm(t, "bob")
	if n := w.notices(); n != 1 {
		t.Errorf("%d ledger-cut notices after a second run, want 1", n)
	}
	wantGate(t, w, "failure", "state ledger cut")

	// The PR's author (who has write access) cannot clear it.
	w.gh.SetPermission(repoName, "alice", "write")
	clear := w.gh.AddIssueComment(repoName, w.pr, "alice", "@rmc-bot clear-ledger")
	w.run(w.commentEvent(clear.ID, "alice", clear.Body))
	wantGate(t, w, "failure", "state ledger cut")
	if !strings.Contains(w.lastBotComment(), "only a maintainer") {
		t.Errorf("the author's clear-ledger was not refused:\n%s", w.lastBotComment())
	}

	// A maintainer can: the gate is the finding's again.
	clear = w.gh.AddIssueComment(repoName, w.pr, "bob", "@rmc-bot clear-ledger")
	w.run(w.commentEvent(clear.ID, "bob", clear.Body))
	wantGate(t, w, "failure", "1 open blocking finding(s): fix, or reply in the thread to dispute")
	if !strings.Contains(w.lastBotComment(), "@bob cleared 1 cut(s)") {
		t.Errorf("the clear-ledger answer:\n%s", w.lastBotComment())
	}
	if n := judged.Load(); n != 1 {
		t.Errorf("the author's reply was judged %d times after the clear, want once", n)
	}
}

// Deleting a verdict in the middle of a thread is seen from the next one.
func TestLedgerMiddleVerdictDeleted(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	th := reviewed(t, w, false)
	w.scriptDisputes()
	first := w.dispute(t, th, "This is intentional.")
	w.dispute(t, th, "Still intentional, see the caller.")
	w.gh.DeleteReviewComment(first.ID)
	w.lgtm(t, "bob")
	wantGate(t, w, "failure", "state ledger cut (the bot's reply")
	if n := w.notices(); n != 1 {
		t.Errorf("%d ledger-cut notices, want 1", n)
	}
}

// A bot block edited by someone who can edit the bot's comments is a cut,
// named with the editor.
func TestLedgerEditedVerdict(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	th := reviewed(t, w, false)
	w.scriptDisputes()
	v := w.dispute(t, th, "This is intentional.")
	w.gh.EditComment(v.ID, "bob", strings.Replace(v.Body, `"maintained"`, `"concession"`, 1))
	w.lgtm(t, "bob")
	wantGate(t, w, "failure", "was edited by @bob)")
}

// The reply reopening a finding whose fix the head lost, deleted: a cut,
// whatever the finding's own history says next.
func TestLedgerRegressedReplyDeleted(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	fixedOnASecondHead(t, w)
	w.gh.ForcePush(repoName, w.pr, "1111111111111111111111111111111111111111")
	w.gh.SetFiles(repoName, w.pr, []fakegithub.File{{Path: "limiter/bucket.go", Status: "added", Additions: 6, Patch: patchV1}})
	w.run(w.prEvent("synchronize"))
	th := findingThreads(w)[0]
	last := th.Comments[len(th.Comments)-1]
	if drs := rmcoc.All[rmcoc.DisputeResolution](last.Body); len(drs) != 1 || drs[0].Resolution != rmcoc.ResolutionRegressed || drs[0].Prev == nil {
		t.Fatalf("the last reply is not a linked regressed block:\n%s", last.Body)
	}
	w.gh.DeleteReviewComment(last.ID)
	w.lgtm(t, "bob")
	wantGate(t, w, "failure", "state ledger cut (the bot's reply")
	if n := w.notices(); n != 1 {
		t.Errorf("%d ledger-cut notices, want 1", n)
	}
}

// lastBotComment is the body of the bot's newest conversation comment.
func (w *world) lastBotComment() string {
	cs := w.botComments()
	if len(cs) == 0 {
		return ""
	}
	return cs[len(cs)-1].Body
}
