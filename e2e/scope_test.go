package e2e

import (
	"bytes"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/github/fakegithub"
	"github.com/review-my-code-bot/rmc/llm/fakellm"
)

// What the scope test's PR holds besides the limiter: each marker is in
// one file's content only.
const (
	vendoredMarker = "VENDORED-c0ffee"
	lockedMarker   = "LOCKED-c0ffee"
	privateMarker  = "acme-corp-4111-c0ffee"
	privateRow     = "1," + privateMarker + ",jane@example.com"
)

const scopeConfig = "ignore_paths: [\"vendor/**\"]\nprivate_paths: [\"fixtures/**\"]\n" + checksConfig

// scopedPush moves the head to sha: the limiter with patch, beside a
// vendored file (ignore_paths), a lock file and a private fixture.
func (w *world) scopedPush(sha, patch string) {
	old, _ := w.gh.PR(repoName, w.pr)
	w.gh.UpdatePR(repoName, w.pr, func(p *fakegithub.PR) { p.HeadSHA = sha })
	limiter := fakegithub.File{Path: "limiter/bucket.go", Status: "added", Additions: strings.Count(patch, "\n+"), Patch: patch}
	w.gh.SetFiles(repoName, w.pr, []fakegithub.File{limiter,
		{Path: "vendor/gen/client.go", Status: "added", Additions: 2, Patch: "@@ -0,0 +1,2 @@\n+package gen\n+// " + vendoredMarker + " generated client"},
		{Path: "package-lock.json", Status: "modified", Additions: 1, Deletions: 1, Patch: "@@ -1,3 +1,3 @@\n {\n-  \"lockfileVersion\": 2\n+  \"lockfileVersion\": 3, \"note\": \"" + lockedMarker + "\"\n }"},
		{Path: "fixtures/customers.csv", Status: "added", Additions: 2, Patch: "@@ -0,0 +1,2 @@\n+id,name,email\n+" + privateRow},
	})
	limiter.Status = "modified"
	w.gh.SetCompare(repoName, old.HeadSHA, sha, []fakegithub.File{limiter})
	w.checkout = map[string]string{"fixtures/customers.csv": "id,name,email\n" + privateRow + "\n", "vendor/gen/client.go": "package gen\n// " + vendoredMarker + "\n"}
}

// scriptCuriousModel makes review pass 2 and every question reach for the
// private fixture with every tool before answering; the answer to a
// question quotes the row anyway (a model that saw it elsewhere).
func (w *world) scriptCuriousModel() {
	reach := []fakellm.ToolCall{
		fakellm.Call("read_file", `{"path":"fixtures/customers.csv"}`),
		fakellm.Call("search", `{"pattern":"acme"}`),
		fakellm.Call("get_pr_diff", `{"path":"fixtures/customers.csv"}`),
		fakellm.Call("get_pr_diff", `{}`),
		fakellm.Call("list_files", `{"path":"fixtures"}`),
	}
	w.llm.AddRule(fakellm.Rule{Name: "pass 2, after the tools", LastUser: "# Task: review pass 2 of 3", LastRole: "tool", Reply: fakellm.Reply{JSON: map[string]any{"findings": []finding{}}}})
	w.llm.AddRule(fakellm.Rule{Name: "pass 2 reaches", LastUser: "# Task: review pass 2 of 3", Reply: fakellm.Reply{ToolCalls: reach}})
	w.llm.AddRule(fakellm.Rule{Name: "question, after the tools", LastUser: "# Task: answer a question", LastRole: "tool", Reply: fakellm.Reply{Text: "@bob The fixture holds `" + privateRow + "`."}})
	w.llm.AddRule(fakellm.Rule{Name: "question reaches", LastUser: "# Task: answer a question", Reply: fakellm.Reply{ToolCalls: reach}})
}

// Done when, for issue 33: an ignore_paths file's content (and a lock
// file's) is in no request of any task, a private_paths file's content in
// no request body at all, also when a question names the file or is asked
// on its line, whatever tool the model reaches for; and no reply quotes it.
func TestNothingOutOfScopeReachesTheModel(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.scopedPush("1111111111111111111111111111111111111111", patchV1)
	w.setConfig(scopeConfig, "")
	w.scriptCuriousModel()
	w.scriptReview(true, bug(5, "Unsynchronized map write", 9))
	w.scriptWalkthrough()
	w.scriptChecks()
	w.scriptDisputes()

	// The automatic review: three passes, the checks, the walkthrough.
	if r := w.run(w.prEvent("opened")); r.code != 1 {
		t.Fatalf("opened: exit %d, want 1 (a blocking finding)\n%s", r.code, r.log)
	}
	// A push that fixes the finding: its fix is verified, the rest reviewed again.
	w.passOne = []finding{}
	w.scopedPush("2222222222222222222222222222222222222222", strings.Replace(patchV1, "buckets[k]--", "mu.Lock(); buckets[k]--; mu.Unlock()", 1))
	w.gh.SetThreadOutdated(findingThreads(w)[0].ID, true)
	if r := w.run(w.prEvent("synchronize")); r.code != 0 {
		t.Fatalf("after the fix: exit %d\n%s", r.code, r.log)
	}
	// A dispute on a finding.
	_, root := w.finding(3, "Map never shrinks", 6, false)
	reply := w.gh.AddReply(repoName, w.pr, root, "alice", "No: mu guards every write, and the map is bounded.")
	if r := w.run(w.reviewCommentEvent(reply, root, "alice", "No: mu guards every write, and the map is bounded.")); r.code != 0 {
		t.Fatalf("dispute: exit %d\n%s", r.code, r.log)
	}
	// A question that names the private file, and one asked on its line.
	asked := w.gh.AddIssueComment(repoName, w.pr, "bob", "@rmc-bot what rows does fixtures/customers.csv hold?").ID
	if r := w.run(w.commentEvent(asked, "bob", "@rmc-bot what rows does fixtures/customers.csv hold?")); r.code != 0 {
		t.Fatalf("question: exit %d\n%s", r.code, r.log)
	}
	_, onLine := w.gh.AddThread(repoName, w.pr, fakegithub.ThreadSpec{Path: "fixtures/customers.csv", Line: 2, Author: "bob", Body: "@rmc-bot is this a real customer?"})
	if r := w.run(w.reviewCommentEvent(onLine, 0, "bob", "@rmc-bot is this a real customer?")); r.code != 0 {
		t.Fatalf("question on the private file's line: exit %d\n%s", r.code, r.log)
	}

	reqs := w.llm.Requests()
	for _, task := range []string{"# Task: review pass 1 of 3", "# Task: review pass 2 of 3", "# Task: review pass 3 of 3", "# Task: evaluate the repository's checks",
		"# Task: walkthrough of the pull request", "# Task: is this finding fixed?", "# Task: answer a reply on your finding", "# Task: answer a question"} {
		n, scoped := 0, 0
		// The passes and checks read the limiter's diff; the walkthrough
		// the line pass 1 wrote on it.
		inScope := []byte("buckets")
		if strings.Contains(task, "walkthrough") {
			inScope = []byte("limiter/bucket.go (added, +6 -0): changes limiter/bucket.go")
		}
		for _, r := range reqs {
			if strings.Contains(r.LastUser(), task) {
				n++
				if bytes.Contains(r.Body, inScope) {
					scoped++
				}
			}
		}
		if n == 0 {
			t.Errorf("no request for %q: the test does not cover that task", task)
		}
		if strings.Contains(task, "pass") || strings.Contains(task, "checks") || strings.Contains(task, "walkthrough") {
			if scoped == 0 {
				t.Errorf("no %q request carries the limiter's diff or line: the scope withholds too much", task)
			}
		}
	}
	for i, r := range reqs {
		for _, marker := range []string{vendoredMarker, lockedMarker, privateMarker, "fixtures/customers.csv (added"} {
			if bytes.Contains(r.Body, []byte(marker)) {
				t.Errorf("request %d (%.60q) carries %q", i, r.LastUser(), marker)
			}
		}
	}
	refusals := 0
	for _, r := range reqs {
		for _, m := range r.ToolResults() {
			if strings.Contains(m.Content, "private_paths") {
				refusals++
			}
		}
	}
	if refusals < 3 {
		t.Errorf("%d tool results said why a private file was refused; want the model told every time it reached", refusals)
	}
	for _, c := range append(w.comments(), threadComments(w)...) {
		if c.Author == botLogin && strings.Contains(c.Body, privateMarker) {
			t.Errorf("a reply quotes the private file:\n%s", c.Body)
		}
	}
}

func threadComments(w *world) []fakegithub.Comment {
	var out []fakegithub.Comment
	for _, t := range w.gh.Threads(repoName, w.pr) {
		for _, c := range t.Comments {
			out = append(out, c.Comment)
		}
	}
	return out
}
