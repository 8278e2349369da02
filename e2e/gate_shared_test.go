package e2e

import (
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/github/fakegithub"
)

// Two open PRs with one head commit share its status. The first PR's
// review finds a blocking bug; a second PR of the same commit, into another
// branch, comes out of its review clean (the model missed it this time).
// Its run must not turn the commit's failure into a success: the status is
// the strictest gate of the open PRs whose head it is, and says which PR
// holds it. Once the first PR is closed, the second one's gate is its own.
func TestGateSharedHeadIsTheStrictest(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	const head = "1111111111111111111111111111111111111111"
	w.push(head, patchV1)
	w.scriptReview(false, bug(5, "Unsynchronized map write", 9))
	if r := w.run(w.prEvent("opened")); r.code != 1 {
		t.Fatalf("first PR: exit %d\n%s", r.code, r.log)
	}
	wantGate(t, w, "failure", "1 open blocking")
	first := w.pr

	second := w.gh.AddPR(repoName, fakegithub.PR{Author: "alice", Title: "Merge into release", HeadSHA: head, BaseRef: "release",
		BaseSHA: "2222222222222222222222222222222222222222", HeadRef: "feature-1"})
	w.gh.SetFiles(repoName, second.Number, w.gh.Files(repoName, first))
	w.pr, w.passOne = second.Number, []finding{}
	r := w.run(w.prEvent("opened"))
	if len(w.reviews()) != 1 {
		t.Fatalf("the second PR was not reviewed: %d reviews\n%s", len(w.reviews()), r.log)
	}
	wantGate(t, w, "failure", "#1: 1 open blocking")
	if r.code != 1 {
		t.Errorf("the second PR's job passed over the commit's failure: exit %d", r.code)
	}

	// A later run of the second PR (a comment) still holds it.
	c := w.gh.AddIssueComment(repoName, w.pr, "bob", "lgtm")
	w.run(w.commentEvent(c.ID, "bob", "lgtm"))
	wantGate(t, w, "failure", "#1: 1 open blocking")

	w.gh.UpdatePR(repoName, first, func(p *fakegithub.PR) { p.State = "closed" })
	c = w.gh.AddIssueComment(repoName, w.pr, "bob", "lgtm again")
	if r := w.run(w.commentEvent(c.ID, "bob", "lgtm again")); r.code != 0 {
		t.Fatalf("after the first PR closed: exit %d\n%s", r.code, r.log)
	}
	wantGate(t, w, "success", "1111111 reviewed")
}

// Two runs at once without concurrency:, the older one (a comment's run,
// which read the PR before the head was reviewed) finishing last, after the
// review run wrote its failure: it reads the status before writing, sees
// another run moved it, reads the PR again and leaves the failure; never a
// stale "not reviewed yet" over a finished blocking review.
func TestOverlappingRunsLeaveNoStalePending(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.scriptAnswers()
	w.push("1111111111111111111111111111111111111111", patchV1)
	q := w.gh.AddIssueComment(repoName, w.pr, "alice", "@rmc-bot is the map safe?")
	inHook, release := w.holdWrite(t, 1)
	done := make(chan run, 1)
	name, payload := w.commentEvent(q.ID, "alice", q.Body)
	go func() { done <- w.runWith([]string{"GITHUB_RUN_ID=7103"}, name, payload) }()
	<-inHook // the question run read the PR: nothing reviewed
	w.scriptReview(true, bug(5, "Unsynchronized map write", 9))
	sn, sp := w.prEvent("synchronize")
	if r := w.runWith([]string{"GITHUB_RUN_ID=7104"}, sn, sp); r.code != 1 {
		t.Fatalf("review run: exit %d\n%s", r.code, r.log)
	}
	wantGate(t, w, "failure", "1 open blocking")
	release()
	if a := <-done; a.code != 0 {
		t.Fatalf("question run: exit %d\n%s", a.code, a.log)
	}
	w.gh.OnWrite(nil)
	wantGate(t, w, "failure", "1 open blocking")
}

// A second PR on the same head whose base is an earlier head of the first
// (a part of the first's diff): the first PR's head keeps a binary file as
// its base has it, which the earlier head had replaced by text. The second
// PR's files list shows that file changed, with no patch, and its blob as
// the head's tree holds it (the first PR's base's); the head's content of
// it is the base's. The second PR's review reads it at the head, finds it
// binary by its content and records that blob: the commit's gate is green
// for both PRs, not "not reviewed yet" for ever.
func TestGateSecondPRFromAnEarlierHeadOverABinaryFile(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.scriptReview(true)
	first, _ := w.gh.PR(repoName, w.pr)
	const earlier, head = "3333333333333333333333333333333333333333", "4444444444444444444444444444444444444444"
	const logo, bucket = "PNG\x00\x01\x02", "package limiter\n"
	w.gh.SetContents(repoName, first.BaseSHA, "assets/logo.png", logo)
	w.gh.SetContents(repoName, earlier, "assets/logo.png", "package logo // text for a while\n")
	w.gh.SetContents(repoName, head, "limiter/bucket.go", bucket)
	w.gh.UpdatePR(repoName, w.pr, func(p *fakegithub.PR) { p.HeadSHA = head })
	w.gh.SetFiles(repoName, w.pr, []fakegithub.File{{Path: "limiter/bucket.go", Status: "added", Additions: 1, Patch: "@@ -0,0 +1,1 @@\n+package limiter"}})
	w.gh.SetDiff(repoName, w.pr, "")
	if r := w.run(w.prEvent("opened")); r.code != 0 {
		t.Fatalf("first PR: exit %d\n%s", r.code, r.log)
	}
	wantGate(t, w, "success", "4444444 reviewed")

	second := w.gh.AddPR(repoName, fakegithub.PR{Author: "alice", Title: "The limiter alone", HeadSHA: head, BaseSHA: earlier,
		HeadRef: "feature-2", BaseRef: "main"})
	w.gh.SetFiles(repoName, second.Number, []fakegithub.File{
		{Path: "assets/logo.png", Status: "modified"}, // text at the base, binary at the head: GitHub sends no patch
		{Path: "limiter/bucket.go", Status: "added", Additions: 1, Patch: "@@ -0,0 +1,1 @@\n+package limiter"},
	})
	w.pr = second.Number
	r := w.run(w.prEvent("opened"))
	if r.code != 0 || len(w.reviews()) != 1 {
		t.Fatalf("second PR: exit %d, %d review(s)\n%s", r.code, len(w.reviews()), r.log)
	}
	wantGate(t, w, "success", "4444444 reviewed")
	for _, q := range w.llm.Requests() {
		if strings.Contains(string(q.Body), `PNG\u0000`) {
			t.Errorf("the model was sent the binary file")
		}
	}
}

// A push to the first PR whose run was cancelled leaves the new head with no
// status while the first PR still holds an open blocking finding. A second
// PR is opened on that head and its own review cannot finish (its token
// ceiling stops it before a request). Its run writes the commit's first
// status: no status standing counts as the strictest (unknown), so its
// pending would relax it and is read against the other PRs of the commit;
// the status is the first PR's failure, not the second's "not reviewed yet".
func TestGateFirstStatusOnASharedHeadIsTheStrictest(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.push("1111111111111111111111111111111111111111", patchV1)
	w.scriptReview(false, bug(5, "Unsynchronized map write", 9))
	if r := w.run(w.prEvent("opened")); r.code != 1 {
		t.Fatalf("first PR: exit %d\n%s", r.code, r.log)
	}
	first := w.pr
	const head = "4444444444444444444444444444444444444444"
	w.push(head, patchV2) // its run was cancelled
	if s := w.gateStatus(); s.State != "" {
		t.Fatalf("the cancelled push's head has a status: %+v", s)
	}

	second := w.gh.AddPR(repoName, fakegithub.PR{Author: "alice", Title: "Merge into release", HeadSHA: head, BaseRef: "release",
		BaseSHA: "2222222222222222222222222222222222222222", HeadRef: "feature-1"})
	w.gh.SetFiles(repoName, second.Number, w.gh.Files(repoName, first))
	w.pr = second.Number
	w.inputs["max_run_tokens"] = "1"
	r := w.run(w.prEvent("opened"))
	wantGate(t, w, "failure", "#1: 1 open blocking")
	if r.code != 1 {
		t.Errorf("the second PR's job passed over the first PR's failure: exit %d\n%s", r.code, r.log)
	}
}
