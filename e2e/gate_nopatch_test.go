package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/github/fakegithub"
)

// Files GitHub sends no patch for, on the built binary: a text file too
// large for GitHub's diff and text under a binary file's name are read from
// the repository at the head and the merge base, and every pass is shown
// the patch built from them (the changed line against its base line); the
// binary is covered by its content; a file past the contents API's 1 MB
// cannot be read and stays named, the gate pending, until the base
// excludes it.
func TestGateReadsWhatGitHubSendsNoPatchFor(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.scriptReview(true)
	pr, _ := w.gh.PR(repoName, w.pr)
	const head = "4444444444444444444444444444444444444444"
	var oldSQL, newSQL strings.Builder
	for i := 1; i <= 400; i++ {
		fmt.Fprintf(&oldSQL, "-- column %d\n", i)
		if i == 200 {
			fmt.Fprintf(&newSQL, "-- column %d MARKSQL\n", i)
			continue
		}
		fmt.Fprintf(&newSQL, "-- column %d\n", i)
	}
	base := map[string]string{"db/schema.sql": oldSQL.String(), "assets/logo.png": "PNG\x00\x01", "assets/icon.png": "PNG\x00\x02"}
	heads := map[string]string{"db/schema.sql": newSQL.String(), "assets/logo.png": "package logo // MARKTEXT\n", "assets/icon.png": "PNG\x00\x03",
		"db/huge.sql": strings.Repeat("-- a line of a dump MARKHUGE\n", 40000), "limiter/bucket.go": "package limiter\n"}
	for p, c := range base {
		w.gh.SetContents(repoName, pr.BaseSHA, p, c)
	}
	for p, c := range heads {
		w.gh.SetContents(repoName, head, p, c)
	}
	w.gh.UpdatePR(repoName, w.pr, func(p *fakegithub.PR) { p.HeadSHA = head })
	w.gh.SetFiles(repoName, w.pr, []fakegithub.File{
		{Path: "limiter/bucket.go", Status: "added", Additions: 1, Patch: "@@ -0,0 +1,1 @@\n+package limiter"},
		{Path: "db/schema.sql", Status: "modified", Additions: 1, Deletions: 1}, // too large for GitHub's diff
		{Path: "assets/logo.png", Status: "modified"},                           // text where a binary was
		{Path: "assets/icon.png", Status: "modified"},                           // a binary
		{Path: "db/huge.sql", Status: "added", Additions: 40000},                // past 1 MB
	})
	w.gh.SetDiff(repoName, w.pr, "")

	r := w.run(w.prEvent("opened"))
	if r.code != 1 {
		t.Fatalf("exit %d, want 1 (one file cannot be read)\n%s", r.code, r.log)
	}
	wantGate(t, w, "pending", "1 changed file(s) of 4444444 too large for GitHub to send a diff")
	for _, want := range []string{`200+-- column 200 MARKSQL`, `200--- column 200\n`, "1+package logo // MARKTEXT"} {
		passes := map[string]bool{}
		for _, q := range w.llm.Requests() {
			task := ""
			for _, pass := range []string{"review pass 1 of 3", "review pass 2 of 3", "review pass 3 of 3"} {
				if strings.Contains(q.LastUser(), pass) {
					task = pass
				}
			}
			if task != "" && strings.Contains(string(q.Body), want) {
				passes[task] = true
			}
		}
		if len(passes) != 3 {
			t.Errorf("%q reached %d of 3 passes", want, len(passes))
		}
	}
	for _, q := range w.llm.Requests() {
		if strings.Contains(string(q.Body), "MARKHUGE") || strings.Contains(string(q.Body), `PNG\u0000`) {
			t.Errorf("the model was sent a file that cannot be read or is binary")
		}
	}
	contents := 0
	for _, q := range w.gh.Requests() {
		if strings.Contains(q.Path, "/contents/db/") || strings.Contains(q.Path, "/contents/assets/") {
			contents++
		}
	}
	// Both sides of the two text files and the binary's head; the
	// added huge file's head only.
	if contents != 6 {
		t.Errorf("%d contents reads of the files without a patch, want 6", contents)
	}

	// The base excludes the dump: nobody needed to read it.
	w.setConfig("ignore_paths: [\"db/huge.sql\"]\n", "")
	if r := w.run(w.commentEvent(906, "alice", "thanks")); r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.log)
	}
	wantGate(t, w, "success", "4444444 reviewed")
}

// Content left out of the review by its path alone is never read, so its
// blob covers nothing else: renamed out of a path the base excludes (gen/
// by ignore_paths) or out of a lock file's name into a path nobody
// excludes, the same content is owed a review, and the push's review
// shows it to every pass before the gate is green.
func TestGateRenameOutOfAnExcludedPathIsReviewed(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, config, from string }{
		{"ignore_paths", "ignore_paths: [\"gen/**\"]\n", "gen/api.go"},
		{"lock file", "", "web/package-lock.json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			renameOutOfExcluded(t, tc.config, tc.from)
		})
	}
}

// renameOutOfExcluded is TestGateRenameOutOfAnExcludedPathIsReviewed for
// content first added at from, which config (or the action's own rule)
// leaves out by its path.
func renameOutOfExcluded(t *testing.T, config, from string) {
	w := newWorld(t)
	w.scriptReview(true)
	if config != "" {
		w.setConfig(config, "")
	}
	const gen = "package gen // GENMARK\n"
	const head1, head2 = "5555555555555555555555555555555555555555", "6666666666666666666666666666666666666666"
	added := func(path, content string) fakegithub.File {
		return fakegithub.File{Path: path, Status: "added", Additions: 1, Patch: "@@ -0,0 +1,1 @@\n+" + strings.TrimSuffix(content, "\n")}
	}
	w.gh.SetContents(repoName, head1, from, gen)
	w.gh.UpdatePR(repoName, w.pr, func(p *fakegithub.PR) { p.HeadSHA = head1 })
	w.gh.SetFiles(repoName, w.pr, []fakegithub.File{added(from, gen)})
	w.gh.SetDiff(repoName, w.pr, "")
	if r := w.run(w.prEvent("opened")); r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.log)
	}
	wantGate(t, w, "success", "5555555 reviewed")
	if sentMark(w, "GENMARK") != 0 {
		t.Fatalf("the model was sent a file left out by its path")
	}

	w.gh.SetContents(repoName, head2, "moved/api.go", gen)
	w.gh.UpdatePR(repoName, w.pr, func(p *fakegithub.PR) { p.HeadSHA = head2 })
	w.gh.SetFiles(repoName, w.pr, []fakegithub.File{added("moved/api.go", gen)})
	if r := w.run(w.prEvent("synchronize")); r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.log)
	}
	if n := sentMark(w, "GENMARK"); n != 3 {
		t.Errorf("the renamed content reached %d of 3 passes", n)
	}
	wantGate(t, w, "success", "6666666 reviewed")
}

// sentMark counts the review passes whose requests carried mark.
func sentMark(w *world, mark string) int {
	passes := map[string]bool{}
	for _, q := range w.llm.Requests() {
		for _, pass := range []string{"review pass 1 of 3", "review pass 2 of 3", "review pass 3 of 3"} {
			if strings.Contains(q.LastUser(), pass) && strings.Contains(string(q.Body), mark) {
				passes[pass] = true
			}
		}
	}
	return len(passes)
}
