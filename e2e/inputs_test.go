package e2e

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/github/fakegithub"
	"github.com/review-my-code-bot/rmc/llm/fakellm"
	"github.com/review-my-code-bot/rmc/rmcoc"
)

// dispatchEvent writes a workflow_dispatch payload, GitHub's example with the
// example workflow's "pr" input, started by sender; the runner's
// GITHUB_RUN_ID is set to run.
func (w *world) dispatchEvent(sender string, run int64) (string, []byte) {
	w.t.Helper()
	raw, err := os.ReadFile("../testdata/webhooks/workflow_dispatch/payload.json")
	if err != nil {
		w.t.Fatal(err)
	}
	var p map[string]any
	if err := json.Unmarshal(raw, &p); err != nil {
		w.t.Fatal(err)
	}
	p["inputs"] = map[string]any{"pr": fmt.Sprint(w.pr)}
	p["sender"].(map[string]any)["login"] = sender
	repo := p["repository"].(map[string]any)
	repo["full_name"], repo["name"] = repoName, "gateway"
	out, _ := json.Marshal(p)
	w.env = append(w.env, fmt.Sprintf("GITHUB_RUN_ID=%d", run))
	return "workflow_dispatch", out
}

// unescape undoes the summary's Markdown escaping, to read it as rendered.
func unescape(md string) string { return strings.ReplaceAll(md, `\`, "") }

// A manual run of the workflow with a PR number reviews that PR: one review,
// COMMENT (a manual review informs), the job does not fail on its findings
// while the status carries the gate, and re-running the same run reviews
// nothing twice. Dispatching again reviews again.
func TestWorkflowDispatchReviewsThePullRequest(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.push("1111111111111111111111111111111111111111", patchV1)
	w.scriptReview(false, bug(5, "Unsynchronized map write", 9))

	r := w.run(w.dispatchEvent("bob", 7001))
	if r.code != 0 {
		t.Fatalf("exit %d, want 0 (a manual review never fails the job)\n%s", r.code, r.log)
	}
	rv := w.reviews()
	if len(rv) != 1 || rv[0].State != "COMMENTED" {
		t.Fatalf("reviews = %+v, want one COMMENTED", rv)
	}
	runs := rmcoc.All[rmcoc.ReviewRun](rv[0].Body)
	if len(runs) != 1 || runs[0].Mode != rmcoc.ModeManual || !slices.Equal(runs[0].RequestRunIDs, []rmcoc.ID{7001}) {
		t.Errorf("review-run blocks = %+v, want a manual review answering run 7001", runs)
	}
	if w.gate() != "failure" || r.outputs["review_status"] != "blocking" || r.outputs["has_blocking_issues"] != "true" || r.outputs["tasks_executed"] != "1" {
		t.Errorf("gate %q, outputs %v", w.gate(), r.outputs)
	}
	if !strings.Contains(r.log, "review was manual") {
		t.Errorf("the log does not say why the job stays green:\n%s", r.log)
	}
	var status []string
	for _, c := range w.botComments() {
		for _, b := range rmcoc.All[rmcoc.ManualReview](c.Body) {
			status = append(status, fmt.Sprintf("%s %s %d", b.Source, b.Status, b.RequestCommentID))
		}
		if len(rmcoc.All[rmcoc.ManualReview](c.Body)) > 0 && !strings.HasPrefix(c.Body, "@bob ") {
			t.Errorf("status comment does not address the person who started the run: %q", c.Body)
		}
	}
	if !slices.Equal(status, []string{"workflow-dispatch COMPLETED 7001"}) {
		t.Errorf("status blocks = %v", status)
	}

	// Re-running the same run (same GITHUB_RUN_ID) reviews nothing twice.
	writes := w.gh.WriteCount()
	r = w.run(w.dispatchEvent("bob", 7001))
	if r.code != 0 || w.gh.WriteCount() != writes || len(w.reviews()) != 1 {
		t.Errorf("re-run: exit %d, %d reviews, wrote %v\n%s", r.code, len(w.reviews()), w.gh.Writes()[writes:], r.log)
	}
	if !strings.Contains(r.log, "skip manual review requested by workflow run 7001: already reviewed") {
		t.Errorf("the re-run does not say why it skips:\n%s", r.log)
	}

	// A new dispatch is a new request.
	r = w.run(w.dispatchEvent("bob", 7002))
	if r.code != 0 || len(w.reviews()) != 2 {
		t.Errorf("second dispatch: exit %d, %d reviews\n%s", r.code, len(w.reviews()), r.log)
	}
}

// A dispatch with no GITHUB_RUN_ID cannot be recorded: refused, with outputs.
func TestWorkflowDispatchWithoutRunID(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	name, payload := w.dispatchEvent("bob", 1)
	w.env = append(w.env, "GITHUB_RUN_ID=")
	r := w.run(name, payload)
	if r.code != 2 || r.outputs["review_status"] != "failed" || !strings.Contains(unescape(r.summary), "workflow_dispatch needs GITHUB_RUN_ID") {
		t.Errorf("exit %d, outputs %v, summary:\n%s", r.code, r.outputs, r.summary)
	}
	if n := w.gh.WriteCount(); n != 0 {
		t.Errorf("%d writes", n)
	}
}

// Invalid inputs stop the run before it touches GitHub, and still write the
// outputs and a summary naming every bad input.
func TestInvalidInputsWriteOutputsAndSummary(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.inputs["problem_score_threshold"] = "0"
	w.inputs["enable_web"] = "maybe"
	w.inputs["ignore_paths"] = "docs/**, src/[ab.go"
	w.inputs["notify_agent"] = "<img src=x> @claude"
	w.inputs["llm_base_url"] = w.llm.APIKey() // a secret pasted in the wrong input: its error must not echo it
	r := w.run(w.prEvent("opened"))
	if r.code != 2 {
		t.Fatalf("exit %d, want 2\n%s", r.code, r.log)
	}
	want := map[string]string{"review_status": "failed", "issues_found": "0", "blocking_issues": "0", "has_blocking_issues": "false", "tasks_executed": "0"}
	for k, v := range want {
		if r.outputs[k] != v {
			t.Errorf("output %s = %q, want %q (all: %v)", k, r.outputs[k], v, r.outputs)
		}
	}
	summary := unescape(r.summary)
	for _, input := range []string{`problem_score_threshold: "0"`, `enable_web: "maybe"`, `ignore_paths: "src/[ab.go" is not a valid glob`, "notify_agent:", `llm_base_url: "[REDACTED]" is not an http(s) URL`} {
		if !strings.Contains(summary, input) {
			t.Errorf("summary does not name %s:\n%s", input, r.summary)
		}
	}
	if strings.Contains(r.summary, "<img") && !strings.Contains(r.summary, `\<img`) {
		t.Errorf("an input's value became markup in the summary:\n%s", r.summary)
	}
	if strings.Count(r.log, "::error::") != 5 {
		t.Errorf("want one error per bad input:\n%s", r.log)
	}
	if n := len(w.gh.Requests()); n != 0 {
		t.Errorf("%d requests to GitHub", n)
	}
}

// GitHub out of reach: the run fails, and says so in its outputs and summary.
func TestGitHubUnreachableWritesOutputsAndSummary(t *testing.T) {
	if testing.Short() {
		t.Skip("slow end-to-end (the client retries an unreachable GitHub): not in -short (make test runs it)")
	}
	t.Parallel()
	w := newWorld(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	// The port stays bound, so no other test's server can take it on a
	// busy machine; every connection is dropped before a byte of HTTP.
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	dead := "http://" + l.Addr().String()
	w.env = append(w.env, "GITHUB_API_URL="+dead, "GITHUB_GRAPHQL_URL="+dead+"/graphql")
	r := w.run(w.prEvent("opened"))
	if r.code != 1 || r.outputs["review_status"] != "failed" || r.outputs["tasks_executed"] != "0" {
		t.Errorf("exit %d, outputs %v\n%s", r.code, r.outputs, r.log)
	}
	summary := unescape(r.summary)
	// The error's wording is the platform's (EOF, reset, broken pipe); the
	// summary names the read, the address, and that nothing is lost.
	if !strings.Contains(summary, "Could not read acme/gateway#") || !strings.Contains(summary, l.Addr().String()) || !strings.Contains(summary, "Nothing is lost") {
		t.Errorf("summary does not say why:\n%s", r.summary)
	}
}

// A failed task: the review's model calls fail, the job fails, and the
// outputs and summary say so.
func TestFailedTaskWritesFailedStatus(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.push("1111111111111111111111111111111111111111", patchV1)
	w.inputs["max_review_retries"] = "0"
	w.scriptReview(false, bug(5, "Unsynchronized map write", 9))
	w.llm.InjectNext(100, fakellm.Fault{Status: 503, RetryAfterMS: "10"})
	r := w.run(w.prEvent("opened"))
	if r.code != 1 || r.outputs["review_status"] != "failed" {
		t.Errorf("exit %d, outputs %v\n%s", r.code, r.outputs, r.log)
	}
	if !strings.Contains(r.summary, "❌") || !strings.Contains(r.summary, "review-auto-1111111") {
		t.Errorf("summary does not show the failed task:\n%s", r.summary)
	}
}

// The job summary lists each open blocking finding with its file and line,
// a link to its thread and what unblocks it, then the rest collapsed; the
// model's titles cannot add markup.
func TestSummaryListsBlockingFindings(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.push("1111111111111111111111111111111111111111", patchV1)
	w.scriptReview(false,
		bug(5, "Unsynchronized map write", 9),
		bug(6, "Leaks a goroutine <img src=x onerror=alert(1)> [docs](https://evil.example)", 8),
		bug(3, "Name the map for what it holds", 5))
	w.inputs["problem_score_threshold"] = "5"
	w.inputs["blocking_score_threshold"] = "8"
	r := w.run(w.prEvent("opened"))
	if r.code != 1 {
		t.Fatalf("exit %d\n%s", r.code, r.log)
	}
	roots := map[string]int64{}
	for _, th := range findingThreads(w) {
		for _, b := range rmcoc.All[rmcoc.Finding](th.Comments[0].Body) {
			roots[b.Title] = th.Comments[0].ID
		}
	}
	blocking, _, ok := strings.Cut(r.summary, "<details><summary>Open non-blocking findings (1)</summary>")
	if !ok || !strings.Contains(blocking, "### Blocking findings (2)") {
		t.Fatalf("summary has no blocking list and collapsed rest:\n%s", r.summary)
	}
	for _, want := range []string{
		fmt.Sprintf("- **Unsynchronized map write** — limiter/bucket.go:5 — [thread](%s/%s/pull/%d#discussion_r%d)", w.gh.URL, repoName, w.pr, roots["Unsynchronized map write"]),
		fmt.Sprintf("limiter/bucket.go:6 — [thread](%s/%s/pull/%d#discussion_r%d)", w.gh.URL, repoName, w.pr, roots["Leaks a goroutine <img src=x onerror=alert(1)> [docs](https://evil.example)"]),
		`Leaks a goroutine \<img src=x onerror=alert(1)\> \[docs\](https://evil.example)`,
		"Push a fix, reply in the thread to dispute it, or a maintainer resolves it.",
	} {
		if !strings.Contains(blocking, want) {
			t.Errorf("blocking list lacks %q:\n%s", want, blocking)
		}
	}
	if strings.Contains(blocking, "Name the map") {
		t.Errorf("a non-blocking finding is in the blocking list")
	}
	_, rest, _ := strings.Cut(r.summary, "Open non-blocking findings (1)</summary>")
	if !strings.Contains(rest, "Name the map for what it holds** — limiter/bucket.go:3") {
		t.Errorf("collapsed list:\n%s", rest)
	}
}

// ignore_paths uses the globs people write: each skipped file is listed in
// the review with the reason, and only the rest reaches the model.
func TestIgnorePathsGlobs(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.scriptReview(false)
	hunk := "@@ -0,0 +1,1 @@\n+x"
	files := []fakegithub.File{{Path: "limiter/bucket.go", Status: "added", Additions: 3, Patch: "@@ -0,0 +1,3 @@\n+package limiter\n+\n+var buckets = map[string]int{}"}}
	ignored := []string{"c.snap", "ui/__snapshots__/button.snap", "docs/guide.md", "src/a/b/gen.go", "src/gen.go", "third/vendored/x.go"}
	kept := []string{"pkg/docs/notes.md", "src/a/gen_test.go", "snapshot.go"}
	for _, p := range append(append([]string{}, ignored...), kept...) {
		files = append(files, fakegithub.File{Path: p, Status: "added", Additions: 1, Patch: hunk})
	}
	w.gh.SetFiles(repoName, w.pr, files)
	w.inputs["ignore_paths"] = "**/*.snap, docs/**\nsrc/**/gen.go, vendored/"
	r := w.run(w.prEvent("opened"))
	if r.code != 0 || len(w.reviews()) != 1 {
		t.Fatalf("exit %d, %d reviews\n%s", r.code, len(w.reviews()), r.log)
	}
	body := w.reviews()[0].Body
	for _, p := range ignored {
		if !strings.Contains(body, "- `"+p+"`: matches ignore_paths") {
			t.Errorf("%s is not skipped as ignored:\n%s", p, body)
		}
	}
	for _, p := range append(kept, "limiter/bucket.go") {
		if strings.Contains(body, "- `"+p+"`:") {
			t.Errorf("%s was skipped:\n%s", p, body)
		}
		if len(w.llm.RequestsContaining(p)) == 0 {
			t.Errorf("%s never reached the model", p)
		}
	}
}

// GitHub Enterprise Server: the runner sets GITHUB_API_URL to
// https://HOST/api/v3 and, in older versions, no GITHUB_GRAPHQL_URL. The
// binary must find GraphQL at https://HOST/api/graphql.
func TestEnterpriseServerURLs(t *testing.T) {
	t.Parallel()
	w := newWorldOn(t, fakegithub.NewEnterprise())
	w.push("1111111111111111111111111111111111111111", patchV1)
	w.scriptReview(false, bug(5, "Unsynchronized map write", 9))
	w.env = append(w.env, "GITHUB_GRAPHQL_URL=")
	if !strings.HasSuffix(w.gh.URL, "/api/v3") {
		t.Fatalf("fake REST URL %q", w.gh.URL)
	}
	r := w.run(w.prEvent("opened"))
	if r.code != 1 || len(w.reviews()) != 1 || w.gate() != "failure" {
		t.Fatalf("exit %d, %d reviews, gate %q\n%s", r.code, len(w.reviews()), w.gate(), r.log)
	}
	if u := w.gh.Unhandled(); len(u) > 0 {
		t.Errorf("requests outside /api/v3 and /api/graphql: %v", u)
	}
	gql := 0
	for _, req := range w.gh.Requests() {
		if req.Path == "/graphql" {
			gql++
		}
	}
	if gql == 0 {
		t.Error("no GraphQL request reached /api/graphql")
	}
}
