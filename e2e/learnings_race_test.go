package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/snapshot"
)

// Two pull requests close at once before the bot has a learnings issue:
// both closing runs read none, and both create one. The run whose issue is
// not the oldest (which every run reads) writes in the oldest and closes
// its own, so the ledger does not split: the stats count both pull
// requests, and the next closing folds the fork in.
func TestLearningsIssueCreateRace(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.scriptReview(true)

	// PR A: one finding left open. PR B: one finding fixed.
	prA := w.pr
	w.finding(1, "Unsynchronized map", 8, true)
	w.closePR(true)
	nameA, payloadA := w.prEvent("closed")
	w.openPR("2222222222222222222222222222222222222222", patchV1)
	prB := w.pr
	id, root := w.finding(2, "Goroutine leak", 7, true)
	w.settle(id, root, rmcoc.ResolutionFixed, rmcoc.FindingResolved, time.Unix(0, 0).Add(20*time.Minute))
	w.closePR(false)
	nameB, payloadB := w.prEvent("closed")

	// A's run has read everything (no learnings issue) and is held at its
	// first write, creating the issue; B's run creates one and records;
	// then A's creates a second.
	w.raceClosingRuns(t, closingRun{prA, "9101", nameA, payloadA}, closingRun{prB, "9102", nameB, payloadB})

	var learnings []int
	var states []string
	for _, is := range w.gh.Issues(repoName) {
		if is.Author == botLogin && is.Title == snapshot.LearningsTitle {
			learnings, states = append(learnings, is.Number), append(states, is.State)
		}
	}
	if len(learnings) != 2 || states[0] != "open" || states[1] != "closed" {
		t.Fatalf("the runs did not both create a learnings issue, the later one closed: %v %v", learnings, states)
	}
	if blocks, _ := w.outcomeBlocks(learnings[1]); len(blocks) != 0 {
		t.Fatalf("a block went to the later issue #%d: %+v", learnings[1], blocks)
	}
	blocks, comments := w.outcomeBlocks(learnings[0])
	if len(blocks) != 2 || blocks[0].Recent[0].PR != prB || blocks[1].Recent[0].PR != prA || blocks[0].Seq != 1 || blocks[1].Seq != 1 {
		t.Fatalf("the oldest issue does not hold both first blocks, B's then A's: %+v", blocks)
	}

	// Counted from the script: 2 PRs, 2 findings, 1 fixed (B's), 1
	// ignored (A's).
	want := []string{"| PRs closed | 2 | 2 |", "| findings posted | 2 | 2 |", "| acted on (fixed + accepted) | 1 (1 + 0) | 1 (1 + 0) |", "| ignored | 1 | 1 |"}
	stats, _ := w.askStats("bob")
	for _, line := range want {
		if !strings.Contains(stats, line) {
			t.Errorf("stats after the race lack %q:\n%s", line, stats)
		}
	}

	// PR C closes with no finding: its block follows B's and folds A's in.
	w.openPR("3333333333333333333333333333333333333333", patchV1)
	prC := w.pr
	w.closePR(true)
	if c := w.run(w.prEvent("closed")); c.code != 0 || !strings.Contains(c.summary, "folded in 1 pull request(s)") {
		t.Fatalf("C's closing run: exit %d\n%s\n%s", c.code, c.summary, c.log)
	}
	blocks, _ = w.outcomeBlocks(learnings[0])
	c := blocks[len(blocks)-1]
	if len(blocks) != 3 || int64(c.Prev.CommentID) != comments[0] || len(c.Folded) != 1 || int64(c.Folded[0].CommentID) != comments[1] ||
		len(c.Recent) != 3 || c.Recent[2].PR != prC {
		t.Fatalf("C's block: follows %+v, folds %+v, holds %+v", c.Prev, c.Folded, c.Recent)
	}
	stats, _ = w.askStats("bob")
	if !strings.Contains(stats, "| PRs closed | 3 | 3 |") || !strings.Contains(stats, "| findings posted | 2 | 2 |") || strings.Contains(stats, "⚠️") {
		t.Errorf("stats after the fold:\n%s", stats)
	}
}
