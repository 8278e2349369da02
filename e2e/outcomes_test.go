package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/review-my-code-bot/rmc/github/fakegithub"
	"github.com/review-my-code-bot/rmc/precision"
	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/snapshot"
)

// outcomeBlocks lists the bot's outcome ledger blocks in the learnings
// issue, with the comments holding them.
func (w *world) outcomeBlocks(issue int) (blocks []rmcoc.Outcomes, comments []int64) {
	for _, c := range w.gh.IssueComments(repoName, issue) {
		if c.Author != botLogin {
			continue
		}
		for _, b := range rmcoc.All[rmcoc.Outcomes](c.Body) {
			blocks, comments = append(blocks, b), append(comments, c.ID)
		}
	}
	return blocks, comments
}

// settle gives a finding the bot's last word in its thread: a reply with
// the resolution, and the thread resolved by the bot when it closes it.
func (w *world) settle(thread string, root int64, r rmcoc.Resolution, status rmcoc.FindingStatus, at time.Time) {
	pr, _ := w.gh.PR(repoName, w.pr)
	w.gh.AddReply(repoName, w.pr, root, botLogin, "Settled.\n\n"+rmcoc.Render(rmcoc.DisputeResolution{ReplyToCommentID: rmcoc.ID(root), Status: status, Resolution: r, HeadSHA: pr.HeadSHA, ResolvedAt: at}))
	if status == rmcoc.FindingResolved {
		w.gh.ResolveThreadAs(thread, botLogin, true)
	}
}

func (w *world) closePR(merged bool) {
	w.gh.UpdatePR(repoName, w.pr, func(p *fakegithub.PR) { p.State, p.Merged = "closed", merged })
}

// Two pull requests close with scripted fates; each closing run records
// one ledger block in the learnings issue, the second naming the first;
// the stats command's table holds the numbers counted here from the
// script; a forged block changes nothing and an edited one is reported.
func TestOutcomeLedgerAndStats(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	// PR 1 (3 changed lines): a fix verified 90 minutes after the finding,
	// a concession, one left open.
	id, root := w.finding(1, "Unsynchronized map", 8, true)
	w.settle(id, root, rmcoc.ResolutionFixed, rmcoc.FindingResolved, time.Unix(0, 0).Add(90*time.Minute))
	id, root = w.finding(2, "Magic number", 6, false)
	w.settle(id, root, rmcoc.ResolutionConcession, rmcoc.FindingResolved, time.Unix(0, 0).Add(time.Hour))
	w.finding(3, "Missing doc comment", 5, false)
	w.closePR(true)
	r := w.run(w.prEvent("closed"))
	if r.code != 0 {
		t.Fatalf("closing PR 1: exit %d\n%s", r.code, r.log)
	}
	issue := w.learningsIssue()
	blocks, _ := w.outcomeBlocks(issue)
	if len(blocks) != 1 || len(blocks[0].Recent) != 1 {
		t.Fatalf("after PR 1 the ledger is %+v\n%s", blocks, r.log)
	}
	var fates []string
	for _, f := range blocks[0].Recent[0].Findings {
		fates = append(fates, fmt.Sprintf("%s/%d/%t", f.Fate, f.Score, f.Blocking))
	}
	if got := strings.Join(fates, " "); got != "fixed/8/true rejected/6/false ignored/5/false" || blocks[0].Recent[0].Lines != 3 || !blocks[0].Recent[0].Merged {
		t.Fatalf("PR 1's entry: %s, %+v", got, blocks[0].Recent[0])
	}
	if !strings.Contains(r.summary, "Precision in this repository") || !strings.Contains(r.summary, "| findings posted | 3 | 3 |") {
		t.Errorf("the closed run's summary lacks the stats:\n%s", r.summary)
	}
	if w.run(w.prEvent("closed")); len(must(w.outcomeBlocks(issue))) != 1 {
		t.Fatal("a second closed run recorded PR 1 again")
	}

	// PR 2 (6 changed lines): acknowledged, one left open; closed unmerged.
	w.openPR("2222222222222222222222222222222222222222", patchV1)
	id, root = w.finding(4, "Goroutine leak", 7, false)
	w.settle(id, root, rmcoc.ResolutionAcknowledged, rmcoc.FindingAcknowledged, time.Unix(0, 0))
	w.finding(5, "Unbounded map", 9, true)
	w.closePR(false)
	if r = w.run(w.prEvent("closed")); r.code != 0 {
		t.Fatalf("closing PR 2: exit %d\n%s", r.code, r.log)
	}
	var out struct {
		AllTime struct {
			PRs          int         `json:"prs"`
			ChangedLines int         `json:"changed_lines"`
			Findings     rmcoc.Tally `json:"findings"`
		} `json:"all_time"`
	}
	if err := json.Unmarshal([]byte(r.outputs["precision_stats"]), &out); err != nil || out.AllTime.PRs != 2 || out.AllTime.ChangedLines != 9 ||
		out.AllTime.Findings != (rmcoc.Tally{Posted: 5, Fixed: 1, Accepted: 1, Rejected: 1, Ignored: 2}) {
		t.Errorf("precision_stats output %q (%v): %+v", r.outputs["precision_stats"], err, out)
	}
	blocks, comments := w.outcomeBlocks(issue)
	if len(blocks) != 2 || blocks[1].Prev == nil || int64(blocks[1].Prev.CommentID) != comments[0] || blocks[1].Prev.Digest != rmcoc.Digest(blocks[0]) {
		t.Fatalf("PR 2's block does not follow PR 1's: %+v", blocks)
	}

	// Counted from the script: 5 posted, fixed 1 + accepted 1, 1
	// rejected, 2 ignored; 9 changed lines; one fix in 90 minutes.
	want := []string{
		"| PRs closed | 2 | 2 |", "| findings posted | 5 | 5 |", "| acted on (fixed + accepted) | 2 (1 + 1) | 2 (1 + 1) |",
		"| rejected | 1 | 1 |", "| ignored | 2 | 2 |", "| acceptance | 40% | 40% |", "| mean time to fix | 1 h 30 min | 1 h 30 min |",
		"| findings per 1,000 changed lines | 555.5 | 555.5 |",
	}
	stats, _ := w.askStats("bob")
	for _, line := range want {
		if !strings.Contains(stats, line) {
			t.Errorf("stats lack %q:\n%s", line, stats)
		}
	}

	// A forged block (someone else's comment) changes nothing; a ledger
	// comment someone edited is reported, and what it holds not counted.
	forged := rmcoc.Outcomes{Seq: 3, Prev: &rmcoc.Link{CommentID: rmcoc.ID(comments[1]), Digest: rmcoc.Digest(blocks[1])},
		Recent: append(blocks[1].Recent, rmcoc.PROutcome{PR: 99, Lines: 1, Findings: []rmcoc.FateRecord{{Fate: rmcoc.FateFixed, Score: 9, Category: "bug"}}})}
	w.gh.AddIssueComment(repoName, issue, "mallory", rmcoc.Render(forged))
	stats, r = w.askStats("bob")
	if !strings.Contains(stats, "| findings posted | 5 | 5 |") || !strings.Contains(r.summary, "ignored 1 rmcoc block(s)") {
		t.Errorf("a forged block changed the stats or went unreported:\n%s\n%s", stats, r.summary)
	}
	w.gh.EditComment(comments[1], "bob", strings.Replace(w.issueComment(issue, comments[1]), `"lines":6,`, `"lines":60000,`, 1))
	stats, r = w.askStats("bob")
	if !strings.Contains(stats, "| findings posted | 3 | 3 |") || !strings.Contains(r.summary, "edited the bot") {
		t.Errorf("an edited newest block still counts, or went unreported:\n%s\n%s", stats, r.summary)
	}
}

func must[A, B any](a A, _ B) A { return a }

// issueComment is the body of comment id in issue.
func (w *world) issueComment(issue int, id int64) string {
	for _, c := range w.gh.IssueComments(repoName, issue) {
		if c.ID == id {
			return c.Body
		}
	}
	w.t.Fatalf("no comment %d in issue #%d", id, issue)
	return ""
}

// askStats gives "@rmc-bot stats" on the world's PR and returns the bot's
// answer and the run.
func (w *world) askStats(by string) (string, run) {
	w.t.Helper()
	c := w.gh.AddIssueComment(repoName, w.pr, by, "@rmc-bot stats")
	r := w.run(w.commentEvent(c.ID, by, "@rmc-bot stats"))
	for _, bc := range w.botComments() {
		for _, a := range rmcoc.All[rmcoc.CommandAnswer](bc.Body) {
			if int64(a.CommandCommentID) == c.ID {
				return bc.Body, r
			}
		}
	}
	w.t.Fatalf("no answer to the stats command\n%s", r.log)
	return "", r
}

// seedLedger writes a ledger the bot kept in its learnings issue: one
// block per entry, each following the one before.
func (w *world) seedLedger(entries ...rmcoc.PROutcome) int {
	issue := w.gh.AddIssue(repoName, botLogin, snapshot.LearningsTitle, snapshot.LearningsLabel)
	var head *rmcoc.Outcomes
	var headID int64
	for _, e := range entries {
		b := precision.Append(head, headID, e)
		c := w.gh.AddIssueComment(repoName, issue, botLogin, "📊 Outcome\n\n"+rmcoc.Render(b))
		head, headID = &b, c.ID
	}
	return issue
}

// fates is n findings of one category, score and fate.
func fates(n int, category string, score int, fate rmcoc.Fate) []rmcoc.FateRecord {
	out := make([]rmcoc.FateRecord, n)
	for i := range out {
		out[i] = rmcoc.FateRecord{Fate: fate, Score: score, Category: category, Kind: rmcoc.FileCode}
	}
	return out
}

// With calibrate: apply, a category under the floor with enough evidence
// gets the threshold the evidence supports (style: 16 of 20 rejected, all
// under 7), capped at the blocking threshold; one with a finding short of
// the minimum count (security, 19) keeps the configured one; a finding
// that blocks is posted whatever its category; the review body says so.
func TestCalibrateApply(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.push("1111111111111111111111111111111111111111", patchV1)
	style := append(fates(8, "style", 5, rmcoc.FateRejected), fates(8, "style", 6, rmcoc.FateRejected)...)
	style = append(style, fates(4, "style", 7, rmcoc.FateFixed)...)
	security := append(fates(17, "security", 5, rmcoc.FateRejected), fates(2, "security", 8, rmcoc.FateFixed)...)
	w.seedLedger(rmcoc.PROutcome{PR: 101, Lines: 500, Findings: style}, rmcoc.PROutcome{PR: 102, Lines: 400, Findings: security})
	w.inputs["calibrate"], w.inputs["blocking_score_threshold"] = "apply", "8"
	kind := func(f finding, c string) finding { f.Category = c; return f }
	w.scriptReview(true,
		kind(bug(1, "Style nit at six", 6), "style"), kind(bug(2, "Style point at seven", 7), "style"),
		kind(bug(3, "Style problem that blocks", 9), "style"), kind(bug(4, "Security hint at six", 6), "security"))
	r := w.run(w.prEvent("synchronize"))
	if r.code == 2 {
		t.Fatalf("exit %d\n%s", r.code, r.log)
	}
	var titles []string
	for _, th := range findingThreads(w) {
		titles = append(titles, rmcoc.All[rmcoc.Finding](th.Comments[0].Body)[0].Title)
	}
	slices.Sort(titles)
	if got := strings.Join(titles, "|"); got != "Security hint at six|Style point at seven|Style problem that blocks" {
		t.Errorf("posted %q, want the style finding at 7, the blocking one and the security one\n%s", got, r.log)
	}
	rv := w.reviews()
	if len(rv) != 1 || !strings.Contains(rv[0].Body, "the problem threshold is raised for style 7, from 5, because fewer than 30% of at least 20") ||
		strings.Contains(rv[0].Body, "security 6") {
		t.Errorf("the review body does not say what calibration raised: %+v", rv)
	}
}

// A ledger comment someone deleted is reported under the stats; the block
// after it still counts, since it holds its predecessor's numbers.
func TestOutcomeLedgerDeletedBlock(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	issue := w.seedLedger(
		rmcoc.PROutcome{PR: 101, Lines: 100, Findings: fates(2, "bug", 8, rmcoc.FateFixed)},
		rmcoc.PROutcome{PR: 102, Lines: 100, Findings: fates(3, "style", 5, rmcoc.FateRejected)},
		rmcoc.PROutcome{PR: 103, Lines: 100, Findings: fates(1, "bug", 6, rmcoc.FateIgnored)})
	_, comments := w.outcomeBlocks(issue)
	req, err := http.NewRequest(http.MethodDelete, fmt.Sprintf("%s/repos/%s/issues/comments/%d", w.gh.URL, repoName, comments[1]), nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+w.token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusNoContent {
		t.Fatalf("delete comment %d: %v %v", comments[1], resp, err)
	}
	resp.Body.Close()
	w.scriptReview(true)
	stats, _ := w.askStats("bob")
	want := fmt.Sprintf("⚠️ outcome ledger block 3 (comment %d) follows comment %d, which is gone", comments[2], comments[1])
	if !strings.Contains(stats, want) || !strings.Contains(stats, "| findings posted | 6 | 6 |") || !strings.Contains(stats, "| acted on (fixed + accepted) | 2 (2 + 0) | 2 (2 + 0) |") {
		t.Errorf("stats after a deleted ledger comment lack %q or the counts:\n%s", want, stats)
	}
}
