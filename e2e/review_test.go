package e2e

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/github/fakegithub"
	"github.com/review-my-code-bot/rmc/llm/fakellm"
	"github.com/review-my-code-bot/rmc/rmcoc"
)

type finding struct {
	Path        string `json:"path"`
	Line        int    `json:"line"`
	StartLine   int    `json:"start_line"`
	Side        string `json:"side"`
	Title       string `json:"title"`
	Explanation string `json:"explanation"`
	Score       int    `json:"score"`
	Category    string `json:"category"`
	Suggestion  string `json:"suggestion"`
}

func bug(line int, title string, score int) finding {
	return finding{Path: "limiter/bucket.go", Line: line, Side: "right", Title: title, Explanation: "It races with Refill.", Score: score, Category: "bug"}
}

// scriptReview makes pass 1 report the given findings (passes 2 and 3
// report nothing) and the fix check answer fixed.
func (w *world) scriptReview(fixed bool, findings ...finding) {
	w.passOne = append([]finding{}, findings...) // never null on the wire
	w.llm.AddRule(fakellm.Rule{Name: "classify", LastUser: "Decide what a developer wants", Respond: func(r fakellm.Request) fakellm.Reply {
		intent := "question"
		if m := commentRe.FindStringSubmatch(r.LastUser()); m != nil && strings.Contains(m[1], "review") {
			intent = "review"
		}
		return fakellm.Reply{JSON: map[string]string{"intent": intent}}
	}})
	w.llm.AddRule(fakellm.Rule{Name: "pass 1", LastUser: "# Task: review pass 1 of 3", Respond: func(r fakellm.Request) fakellm.Reply {
		return fakellm.ReviewAnswer(r, w.passOne)
	}})
	w.llm.AddRule(fakellm.Rule{Name: "other passes", LastUserRegexp: regexpMust(`# Task: review pass [23] of 3`), Reply: fakellm.Reply{JSON: map[string]any{"findings": []finding{}}}})
	w.llm.AddRule(fakellm.Rule{Name: "fixed?", LastUser: "# Task: is this finding fixed?", Reply: fakellm.Reply{JSON: map[string]any{"fixed": fixed, "reason": "buckets is now guarded by mu."}}})
}

// prEvent writes a pull_request payload derived from GitHub's example.
func (w *world) prEvent(action string) (string, []byte) {
	w.t.Helper()
	raw, err := os.ReadFile("../testdata/webhooks/pull_request/synchronize.payload.json")
	if err != nil {
		w.t.Fatal(err)
	}
	var p map[string]any
	json.Unmarshal(raw, &p)
	pr, _ := w.gh.PR(repoName, w.pr)
	p["action"], p["number"] = action, w.pr
	body := p["pull_request"].(map[string]any)
	body["number"], body["draft"] = w.pr, pr.Draft
	body["head"].(map[string]any)["sha"] = pr.HeadSHA
	body["base"].(map[string]any)["sha"] = pr.BaseSHA
	repo := p["repository"].(map[string]any)
	repo["full_name"], repo["name"] = repoName, "gateway"
	out, _ := json.Marshal(p)
	return "pull_request", out
}

// push moves the PR's head to a new commit with a new patch.
func (w *world) push(sha, patch string) {
	old, _ := w.gh.PR(repoName, w.pr)
	w.gh.UpdatePR(repoName, w.pr, func(p *fakegithub.PR) { p.HeadSHA = sha })
	files := []fakegithub.File{{Path: "limiter/bucket.go", Status: "added", Additions: strings.Count(patch, "\n+"), Patch: patch}}
	w.gh.SetFiles(repoName, w.pr, files)
	w.gh.SetCompare(repoName, old.HeadSHA, sha, []fakegithub.File{{Path: "limiter/bucket.go", Status: "modified", Patch: patch}})
}

const patchV1 = "@@ -0,0 +1,6 @@\n+package limiter\n+\n+var buckets = map[string]int{}\n+\n+func Take(k string) { buckets[k]-- }\n+func Refill() { go refill() }"

func (w *world) reviews() []fakegithub.Review {
	var out []fakegithub.Review
	for _, r := range w.gh.Reviews(repoName, w.pr) {
		if strings.Contains(r.Body, `"type": "review-run"`) {
			out = append(out, r)
		}
	}
	return out
}

func (w *world) gate() string {
	pr, _ := w.gh.PR(repoName, w.pr)
	state := "" // the latest wins; the fake lists oldest first
	for _, s := range w.gh.Statuses(repoName, pr.HeadSHA) {
		if s.Context == "rmc/merge-gate" {
			state = s.State
		}
	}
	return state
}

func findingThreads(w *world) []fakegithub.Thread {
	var out []fakegithub.Thread
	for _, t := range w.gh.Threads(repoName, w.pr) {
		if len(rmcoc.All[rmcoc.Finding](t.Comments[0].Body)) == 1 {
			out = append(out, t)
		}
	}
	return out
}

func TestReviewLifecycle(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.push("1111111111111111111111111111111111111111", patchV1)
	w.scriptReview(true, bug(5, "Unsynchronized map write", 9))

	// Opened with a planted bug: one review, inline finding with its block, job fails.
	r := w.run(w.prEvent("opened"))
	if r.code != 1 {
		t.Fatalf("exit %d, want 1 (blocking finding)\n%s", r.code, r.log)
	}
	if rv := w.reviews(); len(rv) != 1 || rv[0].State != "CHANGES_REQUESTED" {
		t.Fatalf("reviews = %+v", rv)
	}
	threads := findingThreads(w)
	if len(threads) != 1 || threads[0].Line != 5 || !strings.Contains(threads[0].Comments[0].Body, "Unsynchronized map write") {
		t.Fatalf("finding threads = %+v", threads)
	}
	if w.gate() != "failure" || r.outputs["has_blocking_issues"] != "true" || r.outputs["review_status"] != "blocking" {
		t.Errorf("gate %q, outputs %v", w.gate(), r.outputs)
	}

	// The same event again: nothing new, and the job still fails, since
	// the blocking finding is open (a re-run must not turn the check green).
	writes := w.gh.WriteCount()
	r = w.run(w.prEvent("opened"))
	if w.gh.WriteCount() != writes || r.code != 1 {
		t.Errorf("re-run: exit %d, wrote %v", r.code, w.gh.Writes()[writes:])
	}

	// A push that fixes the line: the thread is resolved, the gate turns green.
	w.passOne = []finding{}
	w.push("2222222222222222222222222222222222222222", strings.Replace(patchV1, "buckets[k]--", "mu.Lock(); buckets[k]--; mu.Unlock()", 1))
	w.gh.SetThreadOutdated(threads[0].ID, true)
	r = w.run(w.prEvent("synchronize"))
	if r.code != 0 {
		t.Fatalf("after the fix: exit %d\n%s", r.code, r.log)
	}
	if th := findingThreads(w); len(th) != 1 || !th[0].Resolved {
		t.Errorf("the fixed finding's thread is not resolved: %+v", th)
	}
	if w.gate() != "success" {
		t.Errorf("gate = %q, want success", w.gate())
	}
	if rv := w.reviews(); len(rv) != 2 || !strings.Contains(rv[1].Body, "incremental since 1111111") {
		t.Errorf("second review is not incremental: %+v", rv)
	}

	// A push that adds a new bug: only the new finding.
	w.passOne = []finding{bug(5, "Unsynchronized map write", 9), bug(7, "Goroutine leak in Refill", 7)}
	w.push("3333333333333333333333333333333333333333", patchV1+"\n+func refill() { for {} }")
	r = w.run(w.prEvent("synchronize"))
	titles := []string{}
	for _, th := range findingThreads(w) {
		titles = append(titles, rmcoc.All[rmcoc.Finding](th.Comments[0].Body)[0].Title)
	}
	if strings.Join(titles, "|") != "Unsynchronized map write|Goroutine leak in Refill" {
		t.Errorf("finding threads after the new bug: %v", titles)
	}
}

var commentRe = regexp.MustCompile(`(?s)source="comment mentioning the bot">\n(.*?)\n</untrusted>`)

func regexpMust(s string) *regexp.Regexp { return regexp.MustCompile(s) }
