package e2e

import (
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/llm/fakellm"
)

// A push after the one that fixed Take moves the lines the fix wrote: it
// inserts two lines after the first. A finding the next review raises on
// the moved lines is still a finding on the fix (on the committed
// suggestion, labelled so); one on a line the fix did not write is not.
// The review maps the fix's lines through the diff since the head it was
// verified on.
func TestFixLoopsAfterLaterPush(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.pushOver("1111111111111111111111111111111111111111", loopBefore, addedFile(loopBefore))
	w.llm.AddRule(fakellm.Rule{Name: "fixed?", LastUser: "# Task: is this finding fixed?", Respond: func(fakellm.Request) fakellm.Reply {
		return fakellm.Reply{JSON: map[string]any{"fixed": true, "reason": "Take holds mu."}}
	}})
	take := bug(7, "Unsynchronized map write", 9)
	take.Suggestion = loopSuggestion
	w.scriptReview(false, take, bug(8, "Refill leaks its goroutine", 6))
	if r := w.run(w.prEvent("opened")); r.code != 1 {
		t.Fatalf("first review: exit %d\n%s", r.code, r.log)
	}
	_, takeBlock := w.threadOf("Unsynchronized map write")

	// The fixing push, reviewed with nothing new: the fixes are verified
	// on head2.
	w.pushOver("2222222222222222222222222222222222222222", loopAfter, loopPush)
	w.passOne = []finding{}
	if r := w.run(w.prEvent("synchronize")); r.code == 2 || !strings.Contains(r.log, "incremental since 1111111") {
		t.Fatalf("second review: exit %d\n%s", r.code, r.log)
	}

	// The later push inserts two lines after line 1: every line the fix
	// wrote moves down two.
	const shift = 2
	w.pushOver("3333333333333333333333333333333333333333", strings.Replace(loopAfter, "package limiter\n", "package limiter\n// a\n// b\n", 1),
		"@@ -1,2 +1,4 @@\n package limiter\n+// a\n+// b\n ")
	added, suggestionAt := pushWrote(loopPush, loopSuggestion)
	// Refill, which the fix rewrote by hand, follows the suggestion; the
	// kept line is one the fix did not write, where a line it wrote stood
	// before the later push (read on the old numbering, it would match).
	fixLine := suggestionAt + 1
	onSuggestion, onFix, kept := bug(suggestionAt+shift, "Lock held across a decrement that may panic", 7), bug(fixLine+shift, "Refill ignores ctx cancellation", 6), bug(7, "Buckets grow without bound", 5)
	if !added[fixLine] || added[kept.Line-shift] || !added[kept.Line] {
		t.Fatalf("the script's kept line %d was written by the fix", kept.Line)
	}
	w.passOne = []finding{onSuggestion, onFix, kept}
	if r := w.run(w.prEvent("synchronize")); r.code == 2 || !strings.Contains(r.log, "incremental since 2222222") {
		t.Fatalf("third review: exit %d\n%s", r.code, r.log)
	}
	if _, b := w.threadOf(onSuggestion.Title); b.OnFix != takeBlock.ID || !b.OnSuggestion {
		t.Errorf("the finding on the moved suggestion: %+v", b)
	}
	if _, b := w.threadOf(onFix.Title); b.OnFix == "" || b.OnSuggestion {
		t.Errorf("the finding on the fix's moved lines: %+v", b)
	}
	if th, b := w.threadOf(kept.Title); b.OnFix != "" || strings.Contains(th.Comments[0].Body, "🔁") {
		t.Errorf("a finding on a line the fix did not write is labelled a fix loop: %+v", b)
	}
}
