package e2e

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/github/fakegithub"
	"github.com/review-my-code-bot/rmc/rmcoc"
)

// setHead makes the PR's head a new commit holding files (path → content,
// each with its blob id from its content) against an empty base: what its
// files list, diff and trees say agree. noPatch names files GitHub sends no
// patch for.
func (w *world) setHead(sha string, files map[string]string, noPatch map[string]int) {
	w.gh.UpdatePR(repoName, w.pr, func(p *fakegithub.PR) { p.HeadSHA = sha })
	var list []fakegithub.File
	for p, c := range files {
		w.gh.SetContents(repoName, sha, p, c)
		f := fakegithub.File{Path: p, Status: "added"}
		if n, ok := noPatch[p]; ok {
			f.Additions = n
		} else {
			f.Patch = "@@ -0,0 +1,1 @@\n+" + c
		}
		list = append(list, f)
	}
	w.gh.SetFiles(repoName, w.pr, list)
	w.gh.SetDiff(repoName, w.pr, "")
}

// The gate's proof over the head's whole change set, on the built binary:
// each case is a way the gate used to turn green over code nobody read.
func TestGateProofCases(t *testing.T) {
	t.Parallel()
	many := func(n int) map[string]string {
		out := map[string]string{}
		for i := range n {
			out[fmt.Sprintf("pkg/f%04d.go", i)] = fmt.Sprintf("package pkg // %d", i)
		}
		return out
	}
	for name, tc := range map[string]struct {
		files   map[string]string
		noPatch map[string]int
		limit   int
		state   string
		desc    string
		code    int
	}{
		// GitHub sends no patch for a file that was binary at the base: the
		// text now under its name is read from the repository, found to be
		// text, and reviewed from the patch built here, not waved through
		// as binary (TestGateReadsWhatGitHubSendsNoPatchFor shows it).
		"text replacing a binary": {files: map[string]string{"logo.png": "package main // not an image", "ok.go": "package ok"},
			noPatch: map[string]int{"logo.png": 0}, state: "success", desc: "3333333 reviewed", code: 0},
		// A real binary is covered by its content.
		"a real binary": {files: map[string]string{"logo.png": "PNG\x00\x01\x02", "ok.go": "package ok"},
			noPatch: map[string]int{"logo.png": 0}, state: "success", desc: "3333333 reviewed", code: 0},
		// The files list stops at 3,000: the five past it are named by the
		// trees and reviewed from the repository, and what one review-run
		// block cannot record (rmcoc.MaxBlobs: 1,500) goes to continuation
		// blocks (TestGateResumesExactlyWhatIsOwed).
		"past the files list": {files: many(3005), state: "success", desc: "3333333 reviewed", code: 0},
		// A tree GitHub truncates makes the change set unknown.
		"a truncated tree": {files: map[string]string{"a/1.go": "package a", "a/2.go": "package a", "a/3.go": "package a"}, limit: 2,
			state: "pending", desc: "changed files of 3333333 unknown (GitHub truncated the tree of \"a\")", code: 1},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			w.scriptReview(true)
			w.gh.SetTreeLimit(tc.limit)
			w.setHead("3333333333333333333333333333333333333333", tc.files, tc.noPatch)
			r := w.run(w.prEvent("opened"))
			if s := w.gateStatus(); s.State != tc.state || !strings.Contains(s.Description, tc.desc) {
				t.Fatalf("gate %s %q, want %s containing %q\n%s", s.State, s.Description, tc.state, tc.desc, r.log)
			}
			if r.code != tc.code || len(w.reviews()) != 1 {
				t.Errorf("exit %d, %d reviews; want exit %d, one review\n%s", r.code, len(w.reviews()), tc.code, r.log)
			}
			if tc.state != "success" && !strings.Contains(r.log, "merge gate pending") {
				t.Errorf("the log does not say why the gate waits:\n%s", r.log)
			}
		})
	}
}

// A push of 301 files after a review: the comparison GitHub sends for the
// incremental review stops at 300, so the 301st file is not in it; it is
// owed by the ledger all the same, reviewed, and only then is the gate
// green. (It used to turn green with that file unread.)
func TestGatePushPastTheComparisonLimit(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.scriptReview(true)
	first := "4444444444444444444444444444444444444444"
	w.setHead(first, map[string]string{"a.go": "package a"}, nil)
	if r := w.run(w.prEvent("opened")); r.code != 0 {
		t.Fatalf("first review: exit %d\n%s", r.code, r.log)
	}
	files := map[string]string{"a.go": "package a"}
	var pushed []fakegithub.File
	for i := range 301 {
		p := fmt.Sprintf("z/f%03d.go", i)
		files[p] = fmt.Sprintf("package z // LATE%03d", i)
		pushed = append(pushed, fakegithub.File{Path: p, Status: "added", Patch: "@@ -0,0 +1,1 @@\n+" + files[p]})
	}
	second := "5555555555555555555555555555555555555555"
	w.setHead(second, files, nil)
	w.gh.SetCompare(repoName, first, second, pushed)
	if r := w.run(w.prEvent("synchronize")); r.code != 0 {
		t.Fatalf("second review: exit %d\n%s", r.code, r.log)
	}
	wantGate(t, w, "success", "5555555 reviewed")
	if len(w.llm.RequestsContaining("LATE300")) == 0 {
		t.Error("the 301st file never reached the model, yet the gate is green")
	}
}

// A PR past GitHub's 3,000-file list: the five files past the list are
// named by the head's trees with their blob ids, read from the repository
// and reviewed like the rest. One review-run block records 1,500 files;
// the review records the other 1,505 it read in continuation blocks in two
// comments naming it, so one run turns the gate green. A continuation cut
// by someone else's edit leaves exactly its files owed, and the next run
// reviews those and nothing else; the cut state ledger keeps the gate shut
// until a maintainer clears it.
func TestGateResumesExactlyWhatIsOwed(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	files := reviewMarkedFiles(t, w, 3005)
	if past := pastTheList(w, 3000); len(past) != 5 || !shownToEveryPass(w, past) {
		t.Fatalf("the files past GitHub's list %v were not shown to every pass", past)
	}
	run := lastRun(t, w)
	var spills []fakegithub.Comment
	recorded := len(rmcoc.UnpackBlobs(run.Blobs))
	for _, c := range w.botComments() {
		for _, b := range rmcoc.ParseTrusted(c.Body).Blocks {
			if rr, ok := b.(rmcoc.ReviewRun); ok && rr.Continues != 0 {
				spills = append(spills, c)
				recorded += len(rmcoc.UnpackBlobs(rr.Blobs))
			}
		}
	}
	if len(w.reviews()) != 1 || len(spills) != 2 || run.Spilled != 1505 || recorded != 3005 {
		t.Fatalf("%d reviews, %d continuation comments, %d spilled, %d recorded; want 1, 2, 1505, 3005", len(w.reviews()), len(spills), run.Spilled, recorded)
	}

	// Someone edits the last continuation: its five files are owed again.
	w.gh.EditComment(spills[1].ID, "alice", spills[1].Body+"\n")
	cut := map[string]bool{}
	for _, b := range rmcoc.ParseTrusted(spills[1].Body).Blocks {
		if rr, ok := b.(rmcoc.ReviewRun); ok {
			for _, k := range rmcoc.UnpackBlobs(rr.Blobs) {
				for p, c := range files {
					if strings.HasPrefix(blobOfContent(c), k) {
						cut["MARK"+strings.TrimSuffix(strings.TrimPrefix(p, "pkg/f"), ".go")] = true
					}
				}
			}
		}
	}
	before := len(w.llm.Requests())
	c := w.gh.AddIssueComment(repoName, w.pr, "bob", "lgtm")
	r := w.run(w.commentEvent(c.ID, "bob", "lgtm"))
	// The edit cut the state ledger too: the gate fails closed until a
	// maintainer clears it, however the files were reviewed again.
	if s := w.gateStatus(); r.code != 1 || s.State != "failure" || !strings.Contains(s.Description, "state ledger cut") {
		t.Fatalf("exit %d, gate %+v\n%s", r.code, s, r.log)
	}
	sent := map[string]bool{}
	for _, q := range w.llm.Requests()[before:] {
		if strings.Contains(q.LastUser(), "review pass 1 of 3") {
			for _, m := range markRe.FindAllString(string(q.Body), -1) {
				sent[m] = true
			}
		}
	}
	if len(cut) != 5 || fmt.Sprint(sortedKeys(sent)) != fmt.Sprint(sortedKeys(cut)) || len(w.reviews()) != 2 {
		t.Errorf("the run after the cut sent %d files (%.80v), want exactly the cut files %v (%d reviews)", len(sent), sortedKeys(sent), sortedKeys(cut), len(w.reviews()))
	}
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

var markRe = regexp.MustCompile(`MARK\d{4}`)

// reviewMarkedFiles makes n files, each with its marker, the PR's head and
// runs the job for the PR's opening: every file reviewed and recorded, the
// gate green. It returns the files, by path.
func reviewMarkedFiles(t *testing.T, w *world, n int) map[string]string {
	t.Helper()
	w.scriptReview(true)
	w.scriptGroupedWalkthrough()
	files := map[string]string{}
	for i := range n {
		files[fmt.Sprintf("pkg/f%04d.go", i)] = fmt.Sprintf("package pkg // %d MARK%04d", i, i)
	}
	w.setHead("3333333333333333333333333333333333333333", files, nil)
	if r := w.run(w.prEvent("opened")); r.code != 0 {
		t.Fatalf("exit %d, want 0 (every file reviewed and recorded)\n%s", r.code, r.log)
	}
	wantGate(t, w, "success", "3333333 reviewed")
	return files
}

// pastTheList are the paths of the PR's files that GitHub's list, which
// stops at listed files in its order, leaves out.
func pastTheList(w *world, listed int) []string {
	var out []string
	for i, f := range w.gh.Files(repoName, w.pr) {
		if i >= listed {
			out = append(out, f.Path)
		}
	}
	return out
}

// shownToEveryPass reports whether each path's marker reached all three
// review passes.
func shownToEveryPass(w *world, paths []string) bool {
	for _, p := range paths {
		mark := "MARK" + strings.TrimSuffix(strings.TrimPrefix(p, "pkg/f"), ".go")
		passes := map[string]bool{}
		for _, q := range w.llm.Requests() {
			for _, pass := range []string{"review pass 1 of 3", "review pass 2 of 3", "review pass 3 of 3"} {
				if strings.Contains(q.LastUser(), pass) && strings.Contains(string(q.Body), mark) {
					passes[pass] = true
				}
			}
		}
		if len(passes) != 3 {
			return false
		}
	}
	return true
}

// blobOfContent is git's blob id of a content.
func blobOfContent(c string) string {
	sum := sha1.Sum([]byte(fmt.Sprintf("blob %d\x00%s", len(c), c)))
	return hex.EncodeToString(sum[:])
}

// lastRun is the review-run block of the bot's latest review.
func lastRun(t *testing.T, w *world) rmcoc.ReviewRun {
	t.Helper()
	rv := w.reviews()
	if len(rv) == 0 {
		t.Fatal("no review")
	}
	for _, b := range rmcoc.ParseTrusted(rv[len(rv)-1].Body).Blocks {
		if run, ok := b.(rmcoc.ReviewRun); ok {
			return run
		}
	}
	t.Fatal("the review carries no review-run block")
	return rmcoc.ReviewRun{}
}

// A files list GitHub cut before 3,000 (a smaller cap, or a push between
// the reads): it holds 8 of the PR's 12 files, and the pull request counts
// 12. The run knows the list was cut by that count, reads the other four
// from the head's trees and reviews them: green, every file shown to every
// pass. Taken for whole, the list would leave four files owed for ever.
func TestGateReadsPastAListShortOfThePRsCount(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.gh.SetFilesLimit(8)
	reviewMarkedFiles(t, w, 12)
	if past := pastTheList(w, 8); len(past) != 4 || !shownToEveryPass(w, past) {
		t.Fatalf("the files past the short list %v were not shown to every pass", past)
	}
}
