package e2e

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/github/fakegithub"
	"github.com/review-my-code-bot/rmc/rmcoc"
)

func TestOwnPullRequestFallsBackToComment(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.gh.AddToken("ghp_alice_pat_token", fakegithub.Identity{Login: "alice", Kind: fakegithub.TokenPAT})
	w.token = "ghp_alice_pat_token" // the PR's author runs the action with her own token
	w.push("1111111111111111111111111111111111111111", patchV1)
	w.scriptReview(false, bug(5, "Unsynchronized map write", 9))
	r := w.run(w.prEvent("opened"))
	rv := w.reviews()
	if len(rv) != 1 || rv[0].State != "COMMENTED" || len(findingThreads(w)) != 1 {
		t.Fatalf("reviews = %+v\n%s", rv, r.log)
	}
	if r.code != 1 || !strings.Contains(r.log, "posting the same review as COMMENT") {
		t.Errorf("exit %d; the fallback was not explained\n%s", r.code, r.log)
	}
}

func TestFindingOutsideTheDiffIsStillPosted(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.inputs["blocking_score_threshold"] = "8"
	w.push("1111111111111111111111111111111111111111", patchV1)
	w.scriptReview(false, bug(60, "Refill never stops", 6), finding{Path: "limiter/other.go", Line: 3, Side: "right", Title: "Caller not updated", Explanation: "x", Score: 6, Category: "contract"})
	r := w.run(w.prEvent("opened"))
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.log)
	}
	threads := findingThreads(w)
	if len(threads) != 1 || threads[0].Line != 6 || !strings.Contains(threads[0].Comments[0].Body, "Reported on line 60") {
		t.Errorf("moved finding: %+v", threads)
	}
	if rv := w.reviews(); len(rv) != 1 || !strings.Contains(rv[0].Body, "Caller not updated") {
		t.Errorf("the off-diff finding is not in the body: %+v", rv)
	}
	for _, req := range w.gh.Requests() {
		if req.Status == 422 {
			t.Errorf("GitHub rejected a request: %+v", req)
		}
	}
}

func TestEightyFindingsMakeOneCappedReview(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.push("1111111111111111111111111111111111111111", patchV1)
	var many []finding
	for i := range 80 {
		many = append(many, bug(1+i%6, fmt.Sprintf("Problem number %d", i), 5+i%4))
	}
	w.scriptReview(false, many...)
	before := w.gh.WriteCount()
	r := w.run(w.prEvent("opened"))
	rv := w.reviews()
	if len(rv) != 1 || len(findingThreads(w)) != 30 || strings.Count(rv[0].Body, "Problem number") != 50 {
		t.Fatalf("%d reviews, %d inline, %d in body\n%s", len(rv), len(findingThreads(w)), strings.Count(rv[0].Body, "Problem number"), r.log)
	}
	// Writes: the status comment (trigger), the review, the gate status.
	if n := w.gh.WriteCount() - before; n > 3 {
		t.Errorf("%d writes for one review: %v", n, w.gh.Writes())
	}
	t.Logf("80 findings: %d GitHub writes", w.gh.WriteCount()-before)
}

func TestManualRequestOnADraftInformsOnly(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.push("1111111111111111111111111111111111111111", patchV1)
	w.gh.UpdatePR(repoName, w.pr, func(p *fakegithub.PR) { p.Draft = true })
	w.scriptReview(false, bug(5, "Unsynchronized map write", 9))
	// The draft's automatic review is skipped.
	if r := w.run(w.prEvent("opened")); r.code != 0 || len(w.reviews()) != 0 {
		t.Fatalf("draft auto review: exit %d, %d reviews", r.code, len(w.reviews()))
	}
	req := w.gh.AddIssueComment(repoName, w.pr, "bob", "@rmc-bot please review")
	r := w.run(w.commentEvent(req.ID, "bob", req.Body))
	if r.code != 0 || len(w.reviews()) != 1 {
		t.Fatalf("manual review: exit %d, %d reviews\n%s", r.code, len(w.reviews()), r.log)
	}
	if w.gate() != "failure" || !strings.Contains(r.log, "review was manual") {
		t.Errorf("gate %q; log lacks the informational warning\n%s", w.gate(), r.log)
	}
	var status []string
	for _, c := range w.botComments() {
		for _, b := range rmcoc.All[rmcoc.ManualReview](c.Body) {
			status = append(status, string(b.Status))
		}
	}
	if strings.Join(status, ",") != string(rmcoc.ManualCompleted) {
		t.Errorf("manual status blocks = %v, want one COMPLETED (start comment edited at the end)", status)
	}
}

// Seed 004's scenario: a push starts an automatic review, a question cancels
// the run; the next run answers the question, restarts the review, and still
// fails the job on blocking findings.
func TestCancelledAutomaticReviewIsRestartedAndGates(t *testing.T) {
	if testing.Short() {
		t.Skip("a slow end-to-end test (a killed run and its retries): not in -short (make test runs it)")
	}
	t.Parallel()
	w := newWorld(t)
	w.push("1111111111111111111111111111111111111111", patchV1)
	w.scriptReview(false, bug(5, "Unsynchronized map write", 9))
	w.gh.StopAfterWrites(1) // the first run records its trigger, then is killed
	w.run(w.prEvent("synchronize"))
	if len(w.reviews()) != 0 {
		t.Fatal("the killed run posted a review")
	}
	w.gh.OnWrite(nil)
	w.scriptAnswers()
	q := w.gh.AddIssueComment(repoName, w.pr, "alice", "@rmc-bot what changed?")
	r := w.run(w.commentEvent(q.ID, "alice", q.Body))
	if r.code != 1 || len(w.reviews()) != 1 || answersTo(t, w, "what changed?") != 1 {
		t.Fatalf("exit %d, %d reviews, %d answers\n%s", r.code, len(w.reviews()), answersTo(t, w, "what changed?"), r.log)
	}
	if !strings.Contains(r.log, "cancelled before it finished; restarted") {
		t.Errorf("the restart is not explained in the log")
	}
}

func agentNotices(w *world) []string {
	var out []string
	for _, c := range w.botComments() {
		if len(rmcoc.All[rmcoc.AgentNotice](c.Body)) > 0 {
			out = append(out, c.Body)
		}
	}
	return out
}

func TestCodingAgentIsToldOncePerReviewThatRequestsChanges(t *testing.T) {
	if testing.Short() {
		t.Skip("a slow end-to-end test (a killed run and its retries): not in -short (make test runs it)")
	}
	t.Parallel()
	w := newWorld(t)
	w.inputs["notify_agent"] = "@claude"
	w.push("1111111111111111111111111111111111111111", patchV1)
	w.scriptReview(false, bug(5, "Unsynchronized map write", 9), bug(6, "Minor naming", 5))
	w.inputs["blocking_score_threshold"] = "8"
	// The run is killed right after posting its review (its 2nd write)...
	w.gh.StopAfterWrites(2)
	w.run(w.prEvent("opened"))
	w.gh.OnWrite(nil)
	if len(w.reviews()) != 1 || len(agentNotices(w)) != 0 {
		t.Fatalf("%d reviews, %d notices after the killed run", len(w.reviews()), len(agentNotices(w)))
	}
	// ...and the next run sends the notification, once.
	w.run(w.prEvent("opened"))
	w.run(w.prEvent("opened"))
	notices := agentNotices(w)
	if len(notices) != 1 {
		t.Fatalf("%d notices, want 1", len(notices))
	}
	n := notices[0]
	for _, want := range []string{"@claude", fmt.Sprintf("review %d", w.reviews()[0].ID), "## limiter/bucket.go", "### Line 5", "> +func Take(k string) { buckets[k]-- }", "Unsynchronized map write", "blocking · score 9", "Leave the threads open: I verify each fix"} {
		if !strings.Contains(n, want) {
			t.Errorf("notice lacks %q:\n%s", want, n)
		}
	}
	if strings.Contains(n, "Minor naming") {
		t.Errorf("the notice lists a non-blocking finding")
	}
}

func TestCleanReviewTellsNoAgent(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.inputs["notify_agent"] = "@copilot"
	w.push("1111111111111111111111111111111111111111", patchV1)
	w.scriptReview(false)
	if r := w.run(w.prEvent("opened")); r.code != 0 || len(agentNotices(w)) != 0 {
		t.Fatalf("exit %d, %d notices", r.code, len(agentNotices(w)))
	}
	if rv := w.reviews(); len(rv) != 1 || !strings.Contains(rv[0].Body, "no problems found") {
		t.Errorf("a clean review must say so visibly: %+v", rv)
	}
}

// A pull_request from a fork gets no secrets and a read-only token: the run
// plans, says what would allow the rest, writes nothing and does not fail.
func TestForkPullRequestPlansAndExplains(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.push("1111111111111111111111111111111111111111", patchV1)
	w.inputs["llm_api_key"] = "" // no secrets for forks
	name, payload := w.prEvent("opened")
	var p map[string]any
	json.Unmarshal(payload, &p)
	p["pull_request"].(map[string]any)["head"].(map[string]any)["repo"].(map[string]any)["full_name"] = "mallory/gateway"
	payload, _ = json.Marshal(p)
	before := w.gh.WriteCount()
	r := w.run(name, payload)
	if r.code != 0 || w.gh.WriteCount() != before {
		t.Fatalf("exit %d, %d writes\n%s", r.code, w.gh.WriteCount()-before, r.log)
	}
	if !strings.Contains(r.log, "comes from a fork") || !strings.Contains(r.log, "pull_request_target") || !strings.Contains(r.summary, "dry run") {
		t.Errorf("the fork run does not explain itself:\n%s\n%s", r.log, r.summary)
	}
}
