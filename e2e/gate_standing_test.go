package e2e

import (
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/github/fakegithub"
	"github.com/review-my-code-bot/rmc/llm/fakellm"
)

// A question changes neither the ledger nor the findings: on the built
// binary it leaves the gate a review published standing, reading no tree
// and no status and writing none, and the model is asked the question
// only. A status that does not carry the facts it was judged on (written
// by hand, or by an older version) is derived again.
func TestGateStandsOnAQuestion(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	const head = "1111111111111111111111111111111111111111"
	w.push(head, patchClean)
	w.scriptReview(true)
	w.llm.AddRule(fakellm.Rule{Name: "answer", LastUser: "# Task: answer a question", Reply: fakellm.Reply{Text: "Take decrements the bucket."}})
	if r := w.run(w.prEvent("opened")); r.code != 0 {
		t.Fatalf("review: exit %d\n%s", r.code, r.log)
	}
	wantGate(t, w, "success", "1111111 reviewed: no open blocking findings")
	published := w.gateStatus()
	if !strings.Contains(published.TargetURL, "#rmc-gate-") {
		t.Fatalf("the status carries no basis: %+v", published)
	}

	ask := func() run {
		t.Helper()
		w.gh.ResetLogs()
		before := len(w.llm.Requests())
		r := w.run(w.commentEvent(w.gh.AddIssueComment(repoName, w.pr, "alice", "@rmc-bot what does Take do?").ID, "alice", "@rmc-bot what does Take do?"))
		if r.code != 0 {
			t.Fatalf("question: exit %d\n%s", r.code, r.log)
		}
		for _, q := range w.llm.Requests()[before:] {
			if u := q.LastUser(); strings.Contains(u, "# Task: review pass") {
				t.Errorf("a question run showed the model a review pass")
			}
		}
		return r
	}
	r := ask()
	if !strings.Contains(fmtComments(w), "Take decrements the bucket.") {
		t.Errorf("the question was not answered\n%s", r.log)
	}
	reads, trees, statusReads := 0, 0, 0
	for _, q := range w.gh.Requests() {
		switch {
		case q.Write:
			continue
		case strings.Contains(q.Path, "/git/trees/"):
			trees++
		case strings.Contains(q.Path, "/status"):
			statusReads++
		}
		reads++
	}
	for _, wr := range w.gh.Writes() {
		if strings.Contains(wr, "status") {
			t.Errorf("the standing gate was written again: %s", wr)
		}
	}
	if trees != 0 || statusReads != 0 {
		t.Errorf("a question read %d trees and %d statuses", trees, statusReads)
	}
	if s := w.gateStatus(); s.ID != published.ID || r.outputs["blocking_issues"] != "0" {
		t.Errorf("gate %+v (was %+v), outputs %v", s, published, r.outputs)
	}
	t.Logf("a question on a reviewed head: %d read requests", reads)

	// A green status without a basis: derived again from the change set,
	// and written with the facts it was judged on.
	w.gh.AddStatus(repoName, head, "alice", fakegithub.Status{State: "success", Context: "rmc/merge-gate", Description: "looks fine to me"})
	ask()
	trees = 0
	for _, q := range w.gh.Requests() {
		if !q.Write && strings.Contains(q.Path, "/git/trees/") {
			trees++
		}
	}
	wantGate(t, w, "success", "1111111 reviewed: no open blocking findings")
	if s := w.gateStatus(); trees == 0 || !strings.Contains(s.TargetURL, "#rmc-gate-") {
		t.Errorf("a status without a basis stood (%d tree reads): %+v", trees, s)
	}
}

func fmtComments(w *world) string {
	var b strings.Builder
	for _, c := range w.botComments() {
		b.WriteString(c.Body)
	}
	return b.String()
}
