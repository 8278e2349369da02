package e2e

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/github/fakegithub"
	"github.com/review-my-code-bot/rmc/rmcoc"
)

// owedFile is file i's content at version v: lines lines, its first
// carrying a marker that names the file and the version.
func owedFile(i, v, lines int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "// OWED%03dV%d\n", i, v)
	for j := 1; j < lines; j++ {
		fmt.Fprintf(&b, "\tif v%d := lookup(ctx, \"key-%d-%d-%d\"); v%d != nil { total += v%d.size }\n", j, v, i, j, j, j)
	}
	return b.String()
}

// pushFiles makes the PR's head a new commit holding files (path →
// content) added on an empty base, each content stored under the head, so
// the files list, the trees and the blob ids agree; changed are the files
// the push changed since from ("" for none), for the comparison.
func (w *world) pushFiles(sha, from string, files map[string]string, changed []string) {
	w.gh.UpdatePR(repoName, w.pr, func(p *fakegithub.PR) { p.HeadSHA = sha })
	patch := func(c string) string {
		lines := strings.Split(strings.TrimSuffix(c, "\n"), "\n")
		return fmt.Sprintf("@@ -0,0 +1,%d @@\n+", len(lines)) + strings.Join(lines, "\n+")
	}
	var list, cmp []fakegithub.File
	for _, p := range sortedPaths(files) {
		w.gh.SetContents(repoName, sha, p, files[p])
		list = append(list, fakegithub.File{Path: p, Status: "added", Patch: patch(files[p])})
	}
	for _, p := range changed {
		cmp = append(cmp, fakegithub.File{Path: p, Status: "modified", Patch: patch(files[p])})
	}
	w.gh.SetFiles(repoName, w.pr, list)
	w.gh.SetDiff(repoName, w.pr, "")
	if from != "" {
		w.gh.SetCompare(repoName, from, sha, cmp)
	}
}

func sortedPaths(files map[string]string) []string {
	out := make([]string, 0, len(files))
	for p := range files {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

var owedMarkRe = regexp.MustCompile(`OWED\d{3}V\d`)

// passOneMarks are the file markers the model's pass-1 requests carried
// from request from on.
func (w *world) passOneMarks(from int) map[string]bool {
	out := map[string]bool{}
	for _, q := range w.llm.Requests()[from:] {
		if strings.Contains(q.LastUser(), "# Task: review pass 1 of 3") {
			for _, m := range owedMarkRe.FindAllString(string(q.Body), -1) {
				out[m] = true
			}
		}
	}
	return out
}

// passOneRequests counts the model's pass-1 requests from request from on.
func (w *world) passOneRequests(from int) int {
	n := 0
	for _, q := range w.llm.Requests()[from:] {
		if strings.Contains(q.LastUser(), "# Task: review pass 1 of 3") {
			n++
		}
	}
	return n
}

// A review that max_run_tokens cut short owes the files it did not read;
// the author then reverts one of them to the content an earlier review
// read. The next run reviews exactly what the gate owes: the files still
// owed, and not the reverted one (its content is covered, under another
// head), and the gate ends green. It used to review the reverted file
// again: the plan took its list from the head's run block and the push's
// comparison, not from the ledger the gate judges by.
func TestOwedRevertToReviewedContent(t *testing.T) {
	t.Parallel()
	const total, lines = 160, 30
	w := newWorld(t)
	w.scriptReview(true)
	w.scriptGroupedWalkthrough()
	path := func(i int) string { return fmt.Sprintf("svc/owed%03d.go", i) }

	// Version 1 of every file, reviewed whole.
	v1, v2 := map[string]string{}, map[string]string{}
	var all []string
	for i := range total {
		v1[path(i)], v2[path(i)] = owedFile(i, 1, lines), owedFile(i, 2, lines)
		all = append(all, path(i))
	}
	h1, h2, h3 := strings.Repeat("1", 40), strings.Repeat("2", 40), strings.Repeat("3", 40)
	w.pushFiles(h1, "", v1, nil)
	if r := w.run(w.prEvent("opened")); r.code != 0 {
		t.Fatalf("the first review: exit %d\n%s", r.code, r.log)
	}
	wantGate(t, w, "success", "1111111 reviewed")

	// Version 2 of every file, reviewed as far as the ceiling lets.
	w.pushFiles(h2, h1, v2, all)
	w.inputs["max_run_tokens"] = "250000"
	if r := w.run(w.prEvent("synchronize")); r.code == 2 {
		t.Fatalf("the capped review: exit %d\n%s", r.code, r.log)
	}
	delete(w.inputs, "max_run_tokens")
	read := map[string]bool{}
	for _, k := range rmcoc.UnpackBlobs(lastRun(t, w).Blobs) {
		read[k] = true
	}
	var owed []string
	for _, p := range all {
		if !read[blobOfContent(v2[p])[:rmcoc.BlobKeyLen]] {
			owed = append(owed, p)
		}
	}
	if len(owed) < 2 || len(owed) == total {
		t.Fatalf("the capped review owes %d of %d files: the ceiling should stop it part way", len(owed), total)
	}
	if s := w.gateStatus(); s.State != "pending" || !strings.Contains(s.Description, fmt.Sprintf("%d changed file(s) of 2222222 not reviewed yet", len(owed))) {
		t.Fatalf("after the capped review the gate is %s %q, want pending owing %d", s.State, s.Description, len(owed))
	}

	// The author reverts one owed file to version 1.
	reverted := owed[len(owed)/2]
	t.Logf("the capped review left %d of %d files owed; %s is reverted", len(owed), total, reverted)
	v3 := map[string]string{}
	for p, c := range v2 {
		v3[p] = c
	}
	v3[reverted] = v1[reverted]
	w.pushFiles(h3, h2, v3, []string{reverted})
	before := len(w.llm.Requests())
	r := w.run(w.prEvent("synchronize"))
	if r.code != 0 {
		t.Fatalf("the review after the revert: exit %d\n%s", r.code, r.log)
	}
	want := map[string]bool{}
	for _, p := range owed {
		if p != reverted {
			want[strings.TrimSuffix(strings.TrimPrefix(p, "svc/owed"), ".go")] = true
		}
	}
	got := map[string]bool{}
	for m := range w.passOneMarks(before) {
		if strings.HasSuffix(m, "V1") {
			t.Errorf("%s reached pass 1 again, yet its content was reviewed before", m)
		}
		got[strings.TrimSuffix(strings.TrimPrefix(m, "OWED"), "V2")] = true
	}
	if fmt.Sprint(sortedKeys(got)) != fmt.Sprint(sortedKeys(want)) {
		t.Errorf("pass 1 read %d file(s) %.120v, want the %d still owed %.120v (not %s)", len(got), sortedKeys(got), len(want), sortedKeys(want), reverted)
	}
	wantGate(t, w, "success", "3333333 reviewed")
}
