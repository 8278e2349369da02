package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/review-my-code-bot/rmc/rmcoc"
)

// answerTo is the bot's answer to the comment id, "" when none.
func (w *world) answerTo(id int64) string {
	for _, c := range w.botComments() {
		for _, a := range rmcoc.All[rmcoc.CommandAnswer](c.Body) {
			if int64(a.CommandCommentID) == id {
				return c.Body
			}
		}
	}
	return ""
}

// record has author ask for the record on the world's PR and returns the
// bot's answer.
func (w *world) record(t *testing.T, author string) string {
	t.Helper()
	c := w.gh.AddIssueComment(repoName, w.pr, author, "@rmc-bot record")
	if r := w.run(w.commentEvent(c.ID, author, "@rmc-bot record")); r.code == 2 {
		t.Fatalf("record by %s: exit %d\n%s", author, r.code, r.log)
	}
	return w.answerTo(c.ID)
}

// A pull request closed while the workflow did not listen to closed is
// recorded when a maintainer asks, once: the author and an outsider are
// refused, a second command and a late closed run record nothing again.
func TestRecordOnDemand(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.scriptReview(true)
	id, root := w.finding(1, "Unsynchronized map", 8, true)
	w.settle(id, root, rmcoc.ResolutionFixed, rmcoc.FindingResolved, time.Unix(0, 0).Add(30*time.Minute))
	w.finding(2, "Magic number", 6, false)
	w.closePR(true)

	for _, who := range []string{"alice", "mallory"} {
		if ans := w.record(t, who); strings.Contains(ans, "I recorded") {
			t.Errorf("@%s's record command recorded: %s", who, ans)
		}
	}
	if w.learningsIssue() != 0 {
		t.Fatalf("a refused command created the ledger")
	}
	ans := w.record(t, "bob")
	if !strings.Contains(ans, "I recorded the outcome of #1 in the outcome ledger: 2 finding(s) (ledger block 1)") {
		t.Fatalf("the maintainer's command: %s", ans)
	}
	issue := w.learningsIssue()
	blocks, _ := w.outcomeBlocks(issue)
	// Counted from the script: one PR, a fixed finding and an ignored one.
	if len(blocks) != 1 || len(blocks[0].Recent) != 1 || blocks[0].Recent[0].PR != w.pr || !blocks[0].Recent[0].Merged ||
		len(blocks[0].Recent[0].Findings) != 2 || blocks[0].Recent[0].Findings[0].Fate != rmcoc.FateFixed || blocks[0].Recent[0].Findings[1].Fate != rmcoc.FateIgnored {
		t.Fatalf("the ledger after the command: %+v", blocks)
	}
	if ans := w.record(t, "bob"); !strings.Contains(ans, "the outcome of #1 is already in the outcome ledger; it is not recorded twice") {
		t.Errorf("a second command: %s", ans)
	}
	w.run(w.prEvent("closed"))
	if blocks, _ := w.outcomeBlocks(issue); len(blocks) != 1 {
		t.Errorf("a second command or a late closed run recorded again: %d blocks", len(blocks))
	}
	stats, _ := w.askStats("bob")
	if !strings.Contains(stats, "| findings posted | 2 | 2 |") || !strings.Contains(stats, "| acted on (fixed + accepted) | 1 (1 + 0) | 1 (1 + 0) |") {
		t.Errorf("stats after the record:\n%s", stats)
	}
}

// On a ledger that rolled entries up, the roll-up names the pull requests
// it holds: one it holds (closed, recorded, rolled up, then reopened and
// closed again) is recorded neither by the closing run nor on demand; one
// it does not hold is recorded, however old. The fake GitHub opens the
// pull request at the start of 2026, after the entries were recorded.
func TestRecordRolledUp(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		held    bool
		records bool
	}{
		"reopened and closed again after its entry rolled up": {true, false},
		"never recorded, older than the entries held in full": {false, true},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			w.scriptReview(true)
			var entries []rmcoc.PROutcome
			at := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
			if tc.held {
				entries = append(entries, rmcoc.PROutcome{PR: w.pr, Lines: 3, ClosedAt: at, Findings: fates(1, "bug", 8, rmcoc.FateIgnored)})
			}
			for i := range 55 {
				entries = append(entries, rmcoc.PROutcome{PR: 1000 + i, Lines: 10, ClosedAt: at.Add(time.Duration(i+1) * time.Hour), Findings: fates(1, "bug", 7, rmcoc.FateFixed)})
			}
			issue := w.seedLedger(entries...)
			w.finding(1, "Unsynchronized map", 8, true)
			w.closePR(false)
			r := w.run(w.prEvent("closed"))
			ans := w.record(t, "bob")
			blocks, _ := w.outcomeBlocks(issue)
			head := blocks[len(blocks)-1]
			total := head.RollUp.PRs + len(head.Recent)
			switch {
			case tc.records && (!strings.Contains(r.log, "recorded the outcome of #1") || len(blocks) != 56 || total != 56 || head.Recent[len(head.Recent)-1].PR != w.pr ||
				!strings.Contains(ans, "the outcome of #1 is already in the outcome ledger")):
				t.Errorf("not recorded once: %d blocks, %d PRs\n%s\n%s", len(blocks), total, ans, r.log)
			case !tc.records && (!strings.Contains(r.log, "the outcome of #1 is already recorded") || len(blocks) != len(entries) || total != len(entries) ||
				!strings.Contains(ans, "the outcome of #1 is already in the outcome ledger; it is not recorded twice")):
				t.Errorf("recorded twice, or not said why not: %d blocks, %d PRs\n%s\n%s", len(blocks), total, ans, r.log)
			}
		})
	}
}

// Running the workflow by hand for a closed pull request records its
// outcome when it is missing, and a second run records nothing again.
func TestRecordByDispatch(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.scriptReview(true)
	w.finding(1, "Unsynchronized map", 8, true)
	w.closePR(false)
	r := w.run(w.dispatchEvent("bob", 7001))
	issue := w.learningsIssue()
	if r.code == 2 || issue == 0 {
		t.Fatalf("exit %d, learnings issue %d\n%s", r.code, issue, r.log)
	}
	if blocks, _ := w.outcomeBlocks(issue); len(blocks) != 1 || blocks[0].Recent[0].PR != w.pr || blocks[0].Recent[0].Merged || len(blocks[0].Recent[0].Findings) != 1 {
		t.Fatalf("the ledger after the dispatch: %+v\n%s", blocks, r.log)
	}
	if !strings.Contains(r.summary, "| findings posted | 1 | 1 |") {
		t.Errorf("the dispatch run's summary lacks the stats:\n%s", r.summary)
	}
	r = w.run(w.dispatchEvent("bob", 7002))
	if blocks, _ := w.outcomeBlocks(issue); len(blocks) != 1 || !strings.Contains(r.log, "already recorded") {
		t.Errorf("a second dispatch: %d blocks\n%s", len(blocks), r.log)
	}
}
