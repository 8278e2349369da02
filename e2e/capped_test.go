package e2e

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/github/fakegithub"
)

// cappedFile is one added file of lines lines; its first line carries a
// marker no other file's text contains, so a request that sends the file is
// told by it.
func cappedFile(i, lines int) (fakegithub.File, string) {
	mark := fmt.Sprintf("CAPPED%04dMARK", i)
	var b strings.Builder
	fmt.Fprintf(&b, "@@ -0,0 +1,%d @@\n+// %s\n", lines, mark)
	for j := 1; j < lines; j++ {
		fmt.Fprintf(&b, "+\tif v%d := lookup(ctx, \"key-%d-%d\"); v%d != nil { total += v%d.size }\n", j, i, j, j, j)
	}
	return fakegithub.File{Path: fmt.Sprintf("svc/capped%04d.go", i), Status: "added", Additions: lines, Patch: b.String()}, mark
}

var owedRe = regexp.MustCompile(`(\d+) changed file\(s\) of 3333333 not reviewed yet`)

// A PR of 400 files whose automatic review max_run_tokens caps: each run
// reviews part of it, the next run (a comment on the PR, as a user causes
// one) reviews only what is still owed, every run owes fewer files than
// the one before, no file is sent to pass 1 twice, and the review finishes
// in as many runs as the first run's share implies. Until then
// review_status is partial and the gate pending with the count owed; after
// the last run, the gate is green.
//
// Chunks are reviewed review_concurrency at once (action.yml's default)
// or one at a time: side by side, a run used to start more chunks than it
// could finish and cover none, so no run progressed; one at a time, its
// last chunk had pass 1 and no more, and the next run sent it again.
func TestCappedReviewFinishesAndProgresses(t *testing.T) {
	t.Parallel()
	for name, concurrency := range map[string]string{"side by side": "", "one at a time": "1"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			cappedReview(t, concurrency)
		})
	}
}

// cappedReview is TestCappedReviewFinishesAndProgresses with
// review_concurrency ("" = action.yml's default).
func cappedReview(t *testing.T, concurrency string) {
	const total = 400
	w := newWorld(t)
	w.scriptReview(true)
	w.scriptGroupedWalkthrough()
	var files []fakegithub.File
	marks := map[string]string{} // path → marker
	for i := range total {
		f, m := cappedFile(i, 30)
		files = append(files, f)
		marks[f.Path] = m
	}
	w.gh.UpdatePR(repoName, w.pr, func(p *fakegithub.PR) { p.HeadSHA = "3333333333333333333333333333333333333333" })
	w.gh.SetFiles(repoName, w.pr, files)
	w.gh.SetDiff(repoName, w.pr, "")
	// About 1M characters of diff, some nine chunks of 120,000: a run may
	// spend what about two chunks' three passes cost.
	w.inputs["max_run_tokens"] = "250000"
	if concurrency != "" {
		w.inputs["review_concurrency"] = concurrency
	}

	owedAfter := func(i int, r run) int {
		t.Helper()
		s := w.gateStatus()
		rv := w.reviews()
		block := blockOf(t, rv[len(rv)-1].Body)
		count, _ := block["unreviewed_count"].(float64)
		if m := owedRe.FindStringSubmatch(s.Description); m != nil {
			n, _ := strconv.Atoi(m[1])
			if n != int(count) {
				t.Fatalf("run %d: the gate owes %d file(s), the run block %v", i, n, block["unreviewed_count"])
			}
			if r.outputs["review_status"] != "partial" || s.State != "pending" {
				t.Fatalf("run %d: %d file(s) owed, yet review_status %q, gate %s %q\n%s", i, n, r.outputs["review_status"], s.State, s.Description, r.log)
			}
			return n
		}
		if count != 0 {
			t.Fatalf("run %d: the run block owes %v file(s), the gate says %s %q", i, count, s.State, s.Description)
		}
		return 0
	}

	r := w.run(w.prEvent("opened"))
	owed := []int{owedAfter(1, r)}
	if owed[0] == 0 {
		t.Fatalf("the first run owes nothing: max_run_tokens should stop it part way\n%s", r.log)
	}
	if owed[0] == total {
		t.Fatalf("the first run made no progress: all %d files owed\n%s", total, r.log)
	}
	perRun := total - owed[0]
	want := (total + perRun - 1) / perRun
	t.Logf("the first run reviewed %d of %d files: %d runs expected", perRun, total, want)

	for run := 2; owed[len(owed)-1] > 0; run++ {
		if run > want+1 {
			t.Fatalf("%d runs and still %d file(s) owed (owed after each run: %v; %d runs expected)", run-1, owed[len(owed)-1], owed, want)
		}
		r = w.run(w.commentEvent(int64(9000+run), "bob", "thanks"))
		n := owedAfter(run, r)
		if n >= owed[len(owed)-1] {
			t.Fatalf("run %d made no progress: %d file(s) owed, %d before (owed after each run: %v)\n%s", run, n, owed[len(owed)-1], owed, r.log)
		}
		owed = append(owed, n)
	}
	t.Logf("owed after each run: %v", owed)
	if r.code != 0 || r.outputs["review_status"] != "clean" {
		t.Errorf("the last run: exit %d, review_status %q, want 0 and clean\n%s", r.code, r.outputs["review_status"], r.log)
	}
	wantGate(t, w, "success", "3333333 reviewed")

	// No file reached pass 1 twice, and every file reached it.
	sent := map[string]int{}
	for _, q := range w.llm.Requests() {
		if !strings.Contains(q.LastUser(), "# Task: review pass 1 of 3") {
			continue
		}
		for p, m := range marks {
			if strings.Contains(string(q.Body), m) {
				sent[p]++
			}
		}
	}
	for p := range marks {
		if sent[p] != 1 {
			t.Errorf("%s was sent to pass 1 %d time(s), want once", p, sent[p])
		}
	}
}
