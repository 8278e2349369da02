package e2e

import (
	"strings"
	"sync"
	"testing"

	"github.com/review-my-code-bot/rmc/llm/fakellm"
)

// An older run finishing last over a newer head's review: a push whose
// run never came leaves its head owed; a comment's run takes that review
// up and is still at the model when the next push lands and its run
// reviews the new head, where the bug is gone. The older run's review of
// the stale head would post the bug's finding on code the head no longer
// holds, after the only review that could verify its fix: a finding that
// blocks until the next push. Before it posts, it reads the reviews since
// its snapshot, finds the bot's review of a head its commit list does not
// hold (pushed since) and stands down: nothing posted, and the new head's
// gate stays green on the next run.
func TestOlderRunStandsDownOverANewerHeadsReview(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	// Pass 1 reports the bug wherever it is shown it, and holds the first
	// request that shows it (the older run at the model) until released.
	atModel, release := make(chan struct{}), make(chan struct{})
	hold := sync.OnceFunc(func() { close(atModel); <-release })
	letGo := sync.OnceFunc(func() { close(release) })
	t.Cleanup(letGo) // a failing test must not leave a run held
	w.llm.AddRule(fakellm.Rule{Name: "pass 1 sees the bug", LastUser: "# Task: review pass 1 of 3", Respond: func(r fakellm.Request) fakellm.Reply {
		if strings.Contains(string(r.Body), "buckets[k]--") {
			hold()
			return fakellm.ReviewAnswer(r, []finding{bug(5, "Unsynchronized map write", 9)})
		}
		return fakellm.ReviewAnswer(r, []finding{})
	}})
	w.scriptReview(true)
	w.push("1111111111111111111111111111111111111111", patchClean)
	if r := w.run(w.prEvent("opened")); r.code != 0 {
		t.Fatalf("first review: exit %d\n%s", r.code, r.log)
	}
	w.push("2222222222222222222222222222222222222222", patchV1) // its run was cancelled

	done := make(chan run, 1)
	c := w.gh.AddIssueComment(repoName, w.pr, "alice", "thanks")
	cn, cp := w.commentEvent(c.ID, "alice", c.Body)
	go func() { done <- w.runWith([]string{"GITHUB_RUN_ID=7401"}, cn, cp) }()
	select {
	case <-atModel: // the comment's run reviews 2222222, which it read
	case a := <-done:
		t.Fatalf("the comment's run did not review 2222222 (exit %d)\n%s", a.code, a.log)
	}
	w.push("3333333333333333333333333333333333333333", patchClean)
	sn, sp := w.prEvent("synchronize")
	if r := w.runWith([]string{"GITHUB_RUN_ID=7402"}, sn, sp); r.code != 0 {
		t.Fatalf("the new head's run: exit %d\n%s", r.code, r.log)
	}
	wantGate(t, w, "success", "3333333 reviewed")
	letGo()
	a := <-done
	if !strings.Contains(a.summary, "pushed since this run read the pull request") {
		t.Errorf("the older run did not stand down: exit %d, summary:\n%s\n%s", a.code, a.summary, a.log)
	}
	if n := w.findingsPosted("Unsynchronized map write"); n != 0 {
		t.Errorf("the older run posted the stale head's finding %d time(s)", n)
	}
	if n := len(w.reviews()); n != 2 {
		t.Errorf("%d reviews, want 2 (of 1111111 and 3333333)", n)
	}
	c = w.gh.AddIssueComment(repoName, w.pr, "alice", "anything left?")
	if r := w.run(w.commentEvent(c.ID, "alice", c.Body)); r.code != 0 {
		t.Errorf("the next run: exit %d\n%s", r.code, r.log)
	}
	wantGate(t, w, "success", "3333333 reviewed")
}
