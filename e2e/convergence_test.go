package e2e

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/review-my-code-bot/rmc/github/fakegithub"
	"github.com/review-my-code-bot/rmc/llm/fakellm"
	"github.com/review-my-code-bot/rmc/precision"
	"github.com/review-my-code-bot/rmc/rmcoc"
)

// The limiter before and after the push that fixes two findings: the
// author commits the bot's suggestion for Take and fixes Refill by hand.
const (
	loopSuggestion = "func Take(k string) { mu.Lock(); buckets[k]--; mu.Unlock() }"
	loopBefore     = "package limiter\n\nimport \"sync\"\n\nvar buckets = map[string]int{}\n\nfunc Take(k string) { buckets[k]-- }\nfunc Refill() { go refill() }"
	loopAfter      = "package limiter\n\nimport \"sync\"\n\nvar buckets = map[string]int{}\n\nvar mu sync.Mutex\n\n" + loopSuggestion + "\nfunc Refill() { go refill(ctx) }"
	loopPush       = "@@ -6,3 +6,5 @@\n \n-func Take(k string) { buckets[k]-- }\n-func Refill() { go refill() }\n+var mu sync.Mutex\n+\n+" + loopSuggestion + "\n+func Refill() { go refill(ctx) }"
)

// addedFile is the patch that adds content as a new file.
func addedFile(content string) string {
	lines := strings.Split(content, "\n")
	return fmt.Sprintf("@@ -0,0 +1,%d @@\n+%s", len(lines), strings.Join(lines, "\n+"))
}

// pushOver moves the head to sha: the PR's diff adds the file as content,
// and the compare with the old head is the patch since.
func (w *world) pushOver(sha, content, since string) {
	old, _ := w.gh.PR(repoName, w.pr)
	w.gh.UpdatePR(repoName, w.pr, func(p *fakegithub.PR) { p.HeadSHA = sha })
	w.gh.SetFiles(repoName, w.pr, []fakegithub.File{{Path: "limiter/bucket.go", Status: "added", Additions: strings.Count(content, "\n") + 1, Patch: addedFile(content)}})
	w.gh.SetCompare(repoName, old.HeadSHA, sha, []fakegithub.File{{Path: "limiter/bucket.go", Status: "modified", Additions: strings.Count(since, "\n+"), Deletions: strings.Count(since, "\n-"), Patch: since}})
}

// threadOf is the finding thread whose finding has the title.
func (w *world) threadOf(title string) (fakegithub.Thread, rmcoc.Finding) {
	w.t.Helper()
	for _, th := range findingThreads(w) {
		if f := rmcoc.All[rmcoc.Finding](th.Comments[0].Body)[0]; f.Title == title {
			return th, f
		}
	}
	w.t.Fatalf("no finding %q", title)
	return fakegithub.Thread{}, rmcoc.Finding{}
}

// pushWrote is the test's own reading of a one-hunk patch: the new-side
// numbers of its added lines, and the line holding text.
func pushWrote(patch, text string) (added map[int]bool, at int) {
	added = map[int]bool{}
	lines := strings.Split(patch, "\n")
	var n int
	fmt.Sscanf(lines[0][strings.Index(lines[0], "+")+1:], "%d", &n)
	for _, l := range lines[1:] {
		switch l[0] {
		case '+':
			added[n] = true
			if l[1:] == text {
				at = n
			}
			n++
		case ' ':
			n++
		}
	}
	return added, at
}

// A fix loop, end to end: a review's findings, a push that commits the
// bot's suggestion for one and fixes another by hand, and a review of that
// push raising findings on the lines the push wrote. Each says in its
// comment that it sits on a fix — the one on the committed suggestion that
// it is the bot's own code —, the fix blocks record the lines, and the
// outcome ledger and the stats count them, as this test counts them from
// its own script.
func TestFixLoops(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.pushOver("1111111111111111111111111111111111111111", loopBefore, addedFile(loopBefore))
	w.llm.AddRule(fakellm.Rule{Name: "fixed? (all but the global state)", LastUser: "# Task: is this finding fixed?", Respond: func(r fakellm.Request) fakellm.Reply {
		return fakellm.Reply{JSON: map[string]any{"fixed": !strings.Contains(r.LastUser(), "Global state"), "reason": "Take holds mu."}}
	}})
	take := bug(7, "Unsynchronized map write", 9)
	take.Suggestion = loopSuggestion
	w.scriptReview(false, take, bug(8, "Refill leaks its goroutine", 6), bug(5, "Global state", 5))
	if r := w.run(w.prEvent("opened")); r.code != 1 {
		t.Fatalf("first review: exit %d\n%s", r.code, r.log)
	}
	_, takeBlock := w.threadOf("Unsynchronized map write")

	// The push, and the second round: one finding on the committed
	// suggestion, one beside it on lines the push wrote, one on a line
	// the push kept.
	const head2 = "2222222222222222222222222222222222222222"
	w.pushOver(head2, loopAfter, loopPush)
	round2 := []finding{bug(9, "Lock held across a decrement that may panic", 7), bug(10, "Refill ignores ctx cancellation", 6), bug(3, "Unused import alias", 5)}
	w.passOne = round2
	if r := w.run(w.prEvent("synchronize")); r.code == 2 {
		t.Fatalf("second review: exit %d\n%s", r.code, r.log)
	}
	added, suggestionAt := pushWrote(loopPush, loopSuggestion)
	wantLoops, wantOwn := 0, 0
	for _, f := range round2 {
		th, b := w.threadOf(f.Title)
		body := th.Comments[0].Body
		switch {
		case f.Line == suggestionAt:
			wantLoops, wantOwn = wantLoops+1, wantOwn+1
			if b.OnFix != takeBlock.ID || !b.OnSuggestion || !strings.Contains(body, "On lines my own suggestion in finding `"+takeBlock.ID+"` wrote") {
				t.Errorf("the finding on the committed suggestion: block %+v\n%s", b, body)
			}
		case added[f.Line]:
			wantLoops++
			if b.OnFix == "" || b.OnSuggestion || !strings.Contains(body, "On lines the fix for finding `"+b.OnFix+"` wrote") {
				t.Errorf("the finding on the fix's lines: block %+v\n%s", b, body)
			}
		default:
			if b.OnFix != "" || strings.Contains(body, "🔁") {
				t.Errorf("a finding on a line the push kept is labelled a fix loop: %+v\n%s", b, body)
			}
		}
	}
	if wantLoops != 2 || wantOwn != 1 {
		t.Fatalf("the script holds %d fix loops, %d on the suggestion: the test's own reading is off", wantLoops, wantOwn)
	}
	th, _ := w.threadOf("Unsynchronized map write")
	fixes := rmcoc.All[rmcoc.DisputeResolution](th.Comments[len(th.Comments)-1].Body)
	if len(fixes) != 1 || fixes[0].Resolution != rmcoc.ResolutionFixed || fmt.Sprint(fixes[0].FixLines) != "[{7 10}]" || fixes[0].FixSuggestion != (rmcoc.LineRange{Start: suggestionAt, End: suggestionAt}) {
		t.Errorf("the fix block of Take: %+v", fixes)
	}

	// The author takes the finding beside the suggestion; the PR closes.
	th, _ = w.threadOf("Refill ignores ctx cancellation")
	w.settle(th.ID, th.Comments[0].ID, rmcoc.ResolutionAcknowledged, rmcoc.FindingAcknowledged, time.Unix(0, 0))
	w.closePR(true)
	r := w.run(w.prEvent("closed"))
	var out struct {
		AllTime precision.Slice `json:"all_time"`
	}
	if err := json.Unmarshal([]byte(r.outputs["precision_stats"]), &out); err != nil {
		t.Fatalf("precision_stats %q: %v\n%s", r.outputs["precision_stats"], err, r.log)
	}
	// Counted from the script: two fix loops, one taken, one left open;
	// one of them on the suggestion; six findings in all.
	if want := (rmcoc.Tally{Posted: wantLoops, Accepted: 1, Ignored: wantLoops - 1}); out.AllTime.FixLoops != want || out.AllTime.OwnSuggestion != wantOwn || out.AllTime.Findings.Posted != 6 {
		t.Errorf("precision_stats: fix loops %+v, %d on the suggestion, %d posted; want %+v, %d, 6", out.AllTime.FixLoops, out.AllTime.OwnSuggestion, out.AllTime.Findings.Posted, want, wantOwn)
	}
	stats, _ := w.askStats("bob")
	for _, line := range []string{
		fmt.Sprintf("| findings on lines a fix wrote (fix loops) | %d (%d%%) | %d (%d%%) |", wantLoops, wantLoops*100/6, wantLoops, wantLoops*100/6),
		fmt.Sprintf("| of them on my own committed suggestion | %d | %d |", wantOwn, wantOwn),
		"| fix loops acted on | 50% | 50% |",
	} {
		if !strings.Contains(stats, line) {
			t.Errorf("stats lack %q:\n%s", line, stats)
		}
	}
}
