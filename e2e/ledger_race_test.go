package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/review-my-code-bot/rmc/precision"
	"github.com/review-my-code-bot/rmc/rmcoc"
)

// Two pull requests close at once: both closing runs read the ledger
// before either appends, so both blocks name the same predecessor (a
// fork). The stats count both pull requests, once each, and say so; the
// next closing folds the run that lost back into the chain, after which
// nothing is reported and nothing is counted twice. Every number is
// counted here from the script.
func TestOutcomeLedgerRace(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.scriptReview(true)
	issue := w.seedLedger(rmcoc.PROutcome{PR: 101, Lines: 10, Findings: fates(1, "bug", 7, rmcoc.FateFixed)})

	// PR A: one finding left open. PR B: a finding fixed and one conceded.
	prA := w.pr
	w.finding(1, "Unsynchronized map", 8, true)
	w.closePR(true)
	nameA, payloadA := w.prEvent("closed")
	w.openPR("2222222222222222222222222222222222222222", patchV1)
	prB := w.pr
	id, root := w.finding(2, "Goroutine leak", 7, true)
	w.settle(id, root, rmcoc.ResolutionFixed, rmcoc.FindingResolved, time.Unix(0, 0).Add(20*time.Minute))
	id, root = w.finding(3, "Magic number", 5, false)
	w.settle(id, root, rmcoc.ResolutionConcession, rmcoc.FindingResolved, time.Unix(0, 0))
	w.closePR(false)
	nameB, payloadB := w.prEvent("closed")

	// A's run has read everything and is held at its first write; B's
	// run records meanwhile; then A's appends after the block it read.
	w.raceClosingRuns(t, closingRun{prA, "9001", nameA, payloadA}, closingRun{prB, "9002", nameB, payloadB})
	blocks, comments := w.outcomeBlocks(issue)
	if len(blocks) != 3 || blocks[1].Prev == nil || blocks[2].Prev == nil || *blocks[1].Prev != *blocks[2].Prev ||
		blocks[1].Recent[len(blocks[1].Recent)-1].PR != prB || blocks[2].Recent[len(blocks[2].Recent)-1].PR != prA {
		t.Fatalf("the runs did not fork the ledger as scripted (B then A after the seed): %+v", blocks)
	}

	// Counted from the script: 3 PRs (101, A, B), 4 findings: 2 fixed
	// (101's and B's), 1 rejected (B's concession), 1 ignored (A's).
	want := []string{"| PRs closed | 3 | 3 |", "| findings posted | 4 | 4 |", "| acted on (fixed + accepted) | 2 (2 + 0) | 2 (2 + 0) |",
		"| rejected | 1 | 1 |", "| ignored | 1 | 1 |"}
	stats, _ := w.askStats("bob")
	for _, line := range append(want, "its pull request #1 counts, and the next record folds it into the chain") {
		if !strings.Contains(stats, line) {
			t.Errorf("stats after the race lack %q:\n%s", line, stats)
		}
	}

	// A fork pasted by someone else, as the bot would write one, counts
	// for nothing and is never folded in.
	forged := precision.Append(&blocks[0], comments[0], rmcoc.PROutcome{PR: 999, Lines: 1, Findings: fates(3, "bug", 9, rmcoc.FateFixed)})
	w.gh.AddIssueComment(repoName, issue, "mallory", "📊 Outcome of #999\n\n"+rmcoc.Render(forged))
	stats, _ = w.askStats("bob")
	for _, line := range want {
		if !strings.Contains(stats, line) || strings.Contains(stats, "#999") {
			t.Errorf("a forged fork changed the stats (%q):\n%s", line, stats)
		}
	}

	// PR C closes, with one finding fixed: its block follows B's and
	// folds A's in.
	w.openPR("3333333333333333333333333333333333333333", patchV1)
	prC := w.pr
	id, root = w.finding(4, "Unbounded map", 6, false)
	w.settle(id, root, rmcoc.ResolutionFixed, rmcoc.FindingResolved, time.Unix(0, 0).Add(10*time.Minute))
	w.closePR(true)
	if c := w.run(w.prEvent("closed")); c.code != 0 || !strings.Contains(c.summary, "folded in 1 pull request(s) another run recorded at the same time") {
		t.Fatalf("C's closing run: exit %d\n%s\n%s", c.code, c.summary, c.log)
	}
	blocks, _ = w.outcomeBlocks(issue)
	c := blocks[len(blocks)-1]
	var prs []int
	for _, e := range c.Recent {
		prs = append(prs, e.PR)
	}
	if len(blocks) != 4 || int64(c.Prev.CommentID) != comments[1] || len(c.Folded) != 1 || int64(c.Folded[0].CommentID) != comments[2] ||
		len(prs) != 4 || prs[0] != 101 || prs[1] != prB || prs[2] != prA || prs[3] != prC {
		t.Fatalf("C's block: follows %+v, folds %+v, holds %v", c.Prev, c.Folded, prs)
	}
	want = []string{"| PRs closed | 4 | 4 |", "| findings posted | 5 | 5 |", "| acted on (fixed + accepted) | 3 (3 + 0) | 3 (3 + 0) |",
		"| rejected | 1 | 1 |", "| ignored | 1 | 1 |"}
	for range 2 {
		stats, _ = w.askStats("bob")
		for _, line := range want {
			if !strings.Contains(stats, line) {
				t.Errorf("stats after the fold lack %q:\n%s", line, stats)
			}
		}
		if strings.Contains(stats, "⚠️") {
			t.Errorf("a folded fork is still reported:\n%s", stats)
		}
	}
}

// closingRun is one PR's closing run: its number, run id and event.
type closingRun struct {
	pr          int
	runID, name string
	payload     []byte
}

// raceClosingRuns holds a's run at its first write, runs b's whole, then
// lets a finish: both must succeed.
func (w *world) raceClosingRuns(t *testing.T, a, b closingRun) {
	t.Helper()
	w.pr = a.pr
	inHook, release := w.holdWrite(t, 1)
	done := make(chan run, 1)
	go func() { done <- w.runWith([]string{"GITHUB_RUN_ID=" + a.runID}, a.name, a.payload) }()
	<-inHook
	w.pr = b.pr
	if r := w.runWith([]string{"GITHUB_RUN_ID=" + b.runID}, b.name, b.payload); r.code != 0 {
		t.Fatalf("B's closing run: exit %d\n%s", r.code, r.log)
	}
	release()
	if r := <-done; r.code != 0 {
		t.Fatalf("A's closing run: exit %d\n%s", r.code, r.log)
	}
	w.gh.OnWrite(nil)
}
