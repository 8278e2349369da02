package e2e

import (
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/llm/fakellm"
	"github.com/review-my-code-bot/rmc/rmcoc"
)

const checksConfig = `checks:
  - name: no key logging
    mode: error
    paths: ["limiter/**"]
    instructions: Keys are client identifiers; never log them.
  - name: changelog
    mode: warning
    instructions: A user-visible change adds a CHANGELOG entry.
`

// scriptChecks makes the model fail "no key logging" when the diff logs,
// and every other check it is asked about pass.
func (w *world) scriptChecks() {
	w.llm.AddRule(fakellm.Rule{Name: "checks", LastUser: "# Task: evaluate the repository's checks", Respond: func(r fakellm.Request) fakellm.Reply {
		var results []map[string]any
		for _, name := range []string{"no key logging", "changelog", "pr's own check"} {
			if !strings.Contains(r.LastUser(), `Check "`+name+`"`) {
				continue
			}
			res := map[string]any{"name": name, "result": "pass", "reason": "Nothing logs a key.", "locations": []any{}}
			if name == "no key logging" && strings.Contains(r.LastUser(), "log.Printf") {
				res = map[string]any{"name": name, "result": "fail", "reason": "Take logs the key k.", "locations": []map[string]any{{"path": "limiter/bucket.go", "line": 2}}}
			}
			results = append(results, res)
		}
		return fakellm.Reply{JSON: map[string]any{"results": results}}
	}})
}

// A failing error check holds the gate in a thread of its own; the push
// that makes it pass resolves the thread and releases the gate. The
// review body and the job summary show the table.
func TestFailingErrorCheckHoldsTheGate(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.push("1111111111111111111111111111111111111111", "@@ -0,0 +1,3 @@\n+package limiter\n+func Take(k string) { log.Printf(\"take %s\", k) }\n+")
	w.setConfig(checksConfig, "")
	w.scriptReview(true)
	w.scriptWalkthrough()
	w.scriptChecks()
	r := w.run(w.prEvent("opened"))
	if r.code != 1 {
		t.Fatalf("exit %d, want 1 (the check holds the gate)\n%s", r.code, r.log)
	}
	wantGate(t, w, "failure", "1 open blocking finding(s)")
	threads := findingThreads(w)
	if len(threads) != 1 || !strings.Contains(threads[0].Comments[0].Body, "Check failed: no key logging") || threads[0].Line != 2 {
		t.Fatalf("the check's thread: %+v", threads)
	}
	if f := rmcoc.All[rmcoc.Finding](threads[0].Comments[0].Body)[0]; f.Category != "check" || !f.Blocking {
		t.Errorf("the check's finding block: %+v", f)
	}
	rv := w.reviews()
	if !strings.Contains(rv[0].Body, "| `no key logging` | error | ❌ fail (holds the gate) | Take logs the key k. `limiter/bucket.go:2` |") ||
		!strings.Contains(rv[0].Body, "| `changelog` | warning | ✅ pass |") {
		t.Errorf("the review body's table:\n%s", rv[0].Body)
	}
	if !strings.Contains(r.summary, "| `no key logging` | error | ❌ fail (holds the gate) |") {
		t.Errorf("the summary's table:\n%s", r.summary)
	}

	// The check fails again on the next push: no second thread.
	w.push("2222222222222222222222222222222222222222", "@@ -0,0 +1,3 @@\n+package limiter\n+func Take(k string) { log.Printf(\"take2 %s\", k) }\n+")
	if r := w.run(w.prEvent("synchronize")); r.code != 1 {
		t.Fatalf("second push: exit %d\n%s", r.code, r.log)
	}
	if n := len(findingThreads(w)); n != 1 {
		t.Errorf("%d check threads after a second failing push, want 1", n)
	}
	wantGate(t, w, "failure", "1 open blocking finding(s)")

	w.push("3333333333333333333333333333333333333333", "@@ -0,0 +1,3 @@\n+package limiter\n+func Take(k string) {}\n+")
	if r := w.run(w.prEvent("synchronize")); r.code != 0 {
		t.Fatalf("fixing push: exit %d\n%s", r.code, r.log)
	}
	wantGate(t, w, "success", "3333333 reviewed")
	threads = findingThreads(w)
	if len(threads) != 1 || !threads[0].Resolved || !strings.Contains(threads[0].Comments[len(threads[0].Comments)-1].Body, "check passes on `3333333`") {
		t.Errorf("the check's thread after the fixing push: %+v", threads)
	}
}

// A checks entry the PR adds to its own copy of the file is ignored: the
// model is never asked about it and the gate does not wait on it.
func TestChecksFromThePRsOwnConfigAreIgnored(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.push("1111111111111111111111111111111111111111", patchClean)
	w.setConfig("walkthrough: false\n", checksConfig+"  - name: pr's own check\n    mode: error\n    instructions: Everything passes.\n")
	w.scriptReview(true)
	w.scriptChecks()
	r := w.run(w.prEvent("opened"))
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.log)
	}
	for _, req := range w.llm.Requests() {
		if strings.Contains(req.LastUser(), "# Task: evaluate the repository's checks") || strings.Contains(req.LastUser(), "# Task: walkthrough") {
			t.Errorf("the model was asked:\n%s", req.LastUser())
		}
	}
	if strings.Contains(w.reviews()[0].Body, "### Checks") || len(w.walkthroughs()) != 0 {
		t.Errorf("checks or a walkthrough from the PR's copy:\n%s", w.reviews()[0].Body)
	}
	if !strings.Contains(r.summary, "This pull request changes `.github/rmc.yml`") {
		t.Errorf("the summary does not say the PR's copy is not used:\n%s", r.summary)
	}
}

// A check evaluation that fails leaves no review posted and the gate
// pending: a check nobody evaluated never lets the gate open.
func TestFailedCheckEvaluationHoldsTheGate(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.push("1111111111111111111111111111111111111111", patchClean)
	w.setConfig(checksConfig, "")
	w.llm.AddRule(fakellm.Rule{Name: "checks down", LastUser: "# Task: evaluate the repository's checks",
		Reply: fakellm.Reply{Error: &fakellm.APIError{Status: 400, Message: "upstream refused the request"}}})
	w.scriptReview(true)
	if r := w.run(w.prEvent("opened")); r.code != 1 {
		t.Fatalf("exit %d, want 1\n%s", r.code, r.log)
	}
	wantGate(t, w, "pending", "review of 1111111 failed")
	if n := len(w.reviews()); n != 0 {
		t.Errorf("%d review(s) posted without the checks", n)
	}
}
