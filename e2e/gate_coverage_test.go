package e2e

import (
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/review-my-code-bot/rmc/github/fakegithub"
	"github.com/review-my-code-bot/rmc/llm/fakellm"
)

// gateStatus is the latest merge-gate status on the head.
func (w *world) gateStatus() fakegithub.Status {
	pr, _ := w.gh.PR(repoName, w.pr)
	var last fakegithub.Status
	for _, s := range w.gh.Statuses(repoName, pr.HeadSHA) {
		if s.Context == "rmc/merge-gate" {
			last = s
		}
	}
	return last
}

func wantGate(t *testing.T, w *world, state, desc string) {
	t.Helper()
	if s := w.gateStatus(); s.State != state || !strings.Contains(s.Description, desc) {
		t.Fatalf("gate %s %q, want %s containing %q", s.State, s.Description, state, desc)
	}
}

const patchClean = "@@ -0,0 +1,3 @@\n+package limiter\n+\n+func Take(k string) {}"

// A review that fails leaves the gate pending with the reason, never
// green; the next run reviews again and only then the gate turns.
func TestGateFailedReviewIsPending(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.push("1111111111111111111111111111111111111111", patchClean)
	var healthy atomic.Bool
	w.llm.AddRule(fakellm.Rule{Name: "flaky pass 1", LastUser: "# Task: review pass 1 of 3", Respond: func(r fakellm.Request) fakellm.Reply {
		if healthy.Load() {
			return fakellm.ReviewAnswer(r, []finding{})
		}
		return fakellm.Reply{Error: &fakellm.APIError{Status: 400, Message: "upstream refused the request"}}
	}})
	w.scriptReview(true)
	r := w.run(w.prEvent("opened"))
	if r.code != 1 {
		t.Fatalf("exit %d, want 1\n%s", r.code, r.log)
	}
	wantGate(t, w, "pending", "review of 1111111 failed")

	healthy.Store(true)
	if r := w.run(w.commentEvent(902, "alice", "thanks")); r.code != 0 {
		t.Fatalf("second run: exit %d\n%s", r.code, r.log)
	}
	wantGate(t, w, "success", "1111111 reviewed")
}

// A review the token ceiling cut short is pending, says how many files it
// did not cover, and the next run reviews those files (and only those).
func TestGatePartialReviewIsPendingUntilCovered(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.push("1111111111111111111111111111111111111111", patchClean)
	w.scriptReview(true)
	w.inputs["max_run_tokens"] = "50"
	if r := w.run(w.prEvent("opened")); r.code != 1 {
		t.Fatalf("partial run: exit %d, want 1 (the gate is pending)\n%s", r.code, r.log)
	}
	wantGate(t, w, "pending", "1 changed file(s) of 1111111 not reviewed yet")
	var run map[string]any
	for _, rv := range w.reviews() {
		run = blockOf(t, rv.Body)
	}
	if run["unreviewed_count"] != float64(1) {
		t.Fatalf("the run block does not record the uncovered file: %v", run)
	}

	delete(w.inputs, "max_run_tokens")
	before := len(w.llm.Requests())
	r := w.run(w.commentEvent(900, "alice", "thanks"))
	if r.code != 0 {
		t.Fatalf("resuming run: exit %d\n%s", r.code, r.log)
	}
	wantGate(t, w, "success", "1111111 reviewed")
	if n := len(w.llm.Requests()) - before; n < 3 {
		t.Errorf("the resuming run made %d model requests, want the three passes", n)
	}
}

// A file skipped by its name in the past (vendor/, *.pb.go) is reviewed
// now: only the base's .gitattributes or content skip a file.
func TestGateSkipsNothingByName(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.push("1111111111111111111111111111111111111111", patchClean)
	w.gh.SetFiles(repoName, w.pr, []fakegithub.File{{Path: "vendor/evil/evil.go", Status: "added", Additions: 3, Patch: patchClean}})
	w.scriptReview(true)
	if r := w.run(w.prEvent("opened")); r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.log)
	}
	if len(w.llm.RequestsContaining("vendor/evil/evil.go")) == 0 {
		t.Fatalf("the vendored-by-name file never reached the model")
	}
	wantGate(t, w, "success", "reviewed")
}

// A fix verified on one commit does not hold once the same problem is
// back (a revert): the fixed finding reopens, blocking, with one reply,
// and no second thread is opened.
func TestGateRevertAfterVerifiedFixReopens(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	fixedOnASecondHead(t, w)

	w.passOne = []finding{bug(5, "Unsynchronized map write", 8)}
	w.push("3333333333333333333333333333333333333333", patchV1)
	r := w.run(w.prEvent("synchronize"))
	if r.code != 1 {
		t.Fatalf("revert run: exit %d, want 1\n%s", r.code, r.log)
	}
	wantGate(t, w, "failure", "1 open blocking finding")
	threads := findingThreads(w)
	if len(threads) != 1 || threads[0].Resolved {
		t.Fatalf("%d finding threads (resolved: %v), want the one, reopened", len(threads), len(threads) > 0 && threads[0].Resolved)
	}
	if got := resolutions(threads[0]); len(got) != 2 || got[1] != "PENDING" || !strings.Contains(threads[0].Comments[len(threads[0].Comments)-1].Body, "This problem is back in `3333333`") {
		t.Errorf("thread resolutions %v, want the fix, then one reply that reopens it", got)
	}
}

// A blocking finding whose thread someone deleted keeps blocking: the
// review's run block recorded it. The PR is told once, the PR's author
// cannot waive it, and a maintainer can.
func TestGateDeletedFindingKeepsBlocking(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	th := reviewed(t, w, false)
	w.gh.DeleteReviewComment(th.Comments[0].ID)
	if len(findingThreads(w)) != 0 {
		t.Fatal("the thread is still there")
	}
	notices := func() int {
		n := 0
		for _, c := range w.botComments() {
			if strings.Contains(c.Body, `"type": "evidence-notice"`) {
				n++
			}
		}
		return n
	}
	for i := range 2 {
		if r := w.run(w.commentEvent(int64(901+i), "alice", "thanks")); r.code != 0 {
			t.Fatalf("exit %d\n%s", r.code, r.log)
		}
		wantGate(t, w, "failure", "1 with a deleted thread")
	}
	if n := notices(); n != 1 {
		t.Fatalf("%d notices of the deleted thread, want exactly one", n)
	}
	id := blockOf(t, w.reviews()[0].Body)["posted"].([]any)[0].(map[string]any)["id"].(string)

	// The PR's author may not waive a finding of their own PR.
	w.gh.AddIssueComment(repoName, w.pr, "alice", "@rmc-bot waive "+id)
	if r := w.run(w.commentEvent(lastCommentID(w), "alice", "@rmc-bot waive "+id)); r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.log)
	}
	wantGate(t, w, "failure", "1 with a deleted thread")

	// A maintainer may.
	w.gh.SetPermission(repoName, "bob", "write")
	w.gh.AddIssueComment(repoName, w.pr, "bob", "@rmc-bot waive "+id)
	if r := w.run(w.commentEvent(lastCommentID(w), "bob", "@rmc-bot waive "+id)); r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.log)
	}
	wantGate(t, w, "success", "reviewed")
	var answers []string
	for _, c := range w.botComments() {
		if strings.Contains(c.Body, `"type": "finding-waiver"`) {
			answers = append(answers, blockOf(t, c.Body)["result"].(string))
		}
	}
	if strings.Join(answers, ",") != "not-allowed,waived" {
		t.Errorf("waiver answers %v, want one refusal for the author, then the maintainer's waiver", answers)
	}
}

func lastCommentID(w *world) int64 {
	cs := w.comments()
	return cs[len(cs)-1].ID
}

// A new base is another diff: the head reviewed against main is given a
// review against the new base, which reads what the new change set owes
// (here nothing: its every blob was read against main; coverage is by
// content), and the gate is green on it.
func TestGateRetargetNeedsAReview(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.push("1111111111111111111111111111111111111111", patchClean)
	w.scriptReview(true)
	if r := w.run(w.prEvent("opened")); r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.log)
	}
	wantGate(t, w, "success", "1111111 reviewed")
	before := len(w.llm.Requests())
	w.gh.UpdatePR(repoName, w.pr, func(p *fakegithub.PR) { p.BaseRef = "release" })
	name, payload := w.prEvent("edited")
	var p map[string]any
	json.Unmarshal(payload, &p)
	p["changes"] = map[string]any{"base": map[string]any{"ref": map[string]any{"from": "main"}, "sha": map[string]any{"from": "0000000000000000000000000000000000000000"}}}
	p["pull_request"].(map[string]any)["base"].(map[string]any)["ref"] = "release"
	payload, _ = json.Marshal(p)
	r := w.run(name, payload)
	if r.code != 0 {
		t.Fatalf("retarget run: exit %d\n%s", r.code, r.log)
	}
	if n := w.passOneRequests(before); n != 0 || !strings.Contains(r.log, "1 file(s) whose content a review read already left out") {
		t.Errorf("the retarget sent %d request(s) to pass 1, want none: every blob was read\n%s", n, r.log)
	}
	wantGate(t, w, "success", "1111111 reviewed")
	rv := w.reviews()
	if run := blockOf(t, rv[len(rv)-1].Body); run["base_ref"] != "release" {
		t.Errorf("the new review's base is %v", run["base_ref"])
	}
}

// fixedOnASecondHead reviews 1111111 with a blocking finding, then pushes
// 2222222, on which the fix is verified and the gate turns green.
func fixedOnASecondHead(t *testing.T, w *world) {
	t.Helper()
	th := reviewed(t, w, true)
	w.passOne = []finding{}
	w.push("2222222222222222222222222222222222222222", patchClean)
	w.gh.SetThreadOutdated(th.ID, true)
	if r := w.run(w.prEvent("synchronize")); r.code != 0 {
		t.Fatalf("fix run: exit %d\n%s", r.code, r.log)
	}
	wantGate(t, w, "success", "2222222 reviewed")
}

// blockOf decodes the review-run block of a review body.
func blockOf(t *testing.T, body string) map[string]any {
	t.Helper()
	i := strings.Index(body, "```rmcoc\n")
	if i < 0 {
		t.Fatalf("no block in %q", body)
	}
	rest := body[i+len("```rmcoc\n"):]
	var out map[string]any
	if err := json.Unmarshal([]byte(rest[:strings.Index(rest, "```")]), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// A fix verified on one commit does not hold on a head that no longer
// contains it: force-pushed back to the reviewed commit with the bug, the
// finding reopens, blocking, with one reply, whatever the later commit's
// gate said.
func TestGateForcePushBackReopensTheFix(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	fixedOnASecondHead(t, w)
	if threads := findingThreads(w); len(threads) != 1 || !threads[0].Resolved {
		t.Fatal("the fix did not resolve the finding")
	}

	w.gh.ForcePush(repoName, w.pr, "1111111111111111111111111111111111111111")
	w.gh.SetFiles(repoName, w.pr, []fakegithub.File{{Path: "limiter/bucket.go", Status: "added", Additions: 6, Patch: patchV1}})
	r := w.run(w.prEvent("synchronize"))
	if r.code != 1 {
		t.Fatalf("force-push run: exit %d, want 1\n%s", r.code, r.log)
	}
	wantGate(t, w, "failure", "1 open blocking finding")
	threads := findingThreads(w)
	if len(threads) != 1 || threads[0].Resolved {
		t.Fatalf("%d finding threads, want the one, reopened", len(threads))
	}
	last := threads[0].Comments[len(threads[0].Comments)-1].Body
	if !strings.Contains(last, "verified on `2222222`, which the head of this pull request (`1111111`) no longer contains") {
		t.Errorf("the reopening reply:\n%s", last)
	}
	// The next run says nothing again.
	before := len(threads[0].Comments)
	if r := w.run(w.commentEvent(903, "alice", "thanks")); r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.log)
	}
	if n := len(findingThreads(w)[0].Comments); n != before {
		t.Errorf("the thread grew from %d to %d comments on a run with nothing new", before, n)
	}
	wantGate(t, w, "failure", "1 open blocking finding")
}

// A file whose diff GitHub does not send (a change too large) was read by
// no pass: the gate waits, says why, and no later run reviews the PR again
// for it; excluding the path on the base releases the gate.
func TestGateFileWithoutADiffIsNotCovered(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.push("1111111111111111111111111111111111111111", patchClean)
	w.gh.SetFiles(repoName, w.pr, []fakegithub.File{
		{Path: "limiter/bucket.go", Status: "added", Additions: 3, Patch: patchClean},
		{Path: "data/huge.json", Status: "added", Additions: 90000}, // no patch: GitHub sends none this large
	})
	w.scriptReview(true)
	if r := w.run(w.prEvent("opened")); r.code != 1 {
		t.Fatalf("exit %d, want 1 (the gate is pending)\n%s", r.code, r.log)
	}
	wantGate(t, w, "pending", "1 changed file(s) of 1111111 too large for GitHub to send a diff")
	reviews := len(w.reviews())
	if r := w.run(w.commentEvent(904, "alice", "thanks")); r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.log)
	}
	if n := len(w.reviews()); n != reviews {
		t.Errorf("a comment run reviewed the PR again (%d reviews, was %d)", n, reviews)
	}
	wantGate(t, w, "pending", "too large for GitHub to send a diff")

	// The base branch excludes the path: nobody needed to read it.
	w.setConfig("ignore_paths: [\"data/**\"]\n", "")
	if r := w.run(w.commentEvent(905, "alice", "thanks")); r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.log)
	}
	wantGate(t, w, "success", "1111111 reviewed")
}
