package execution

import (
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/diff"
	"github.com/review-my-code-bot/rmc/internal/golden"
)

// The notice to the PR's coding agent, whole: who is asked to do what,
// the line that says how to work through the findings from the
// reviews-for-agent inbox (its commands name this pull request), and the
// findings in the agent-ready format.
func TestAgentNotice(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	x := newTestExecutor(rec, &testLog{})
	x.Options.NotifyAgent = "@claude"
	files := []diff.File{{OldPath: "a.go", NewPath: "a.go", Status: diff.Modified, Hunks: []diff.Hunk{{OldStart: 1, OldLines: 3, NewStart: 1, NewLines: 3,
		Lines: []diff.Line{{Kind: diff.Context, Text: "package a", OldLine: 1, NewLine: 1}, {Kind: diff.Delete, Text: "var x = 1", OldLine: 2},
			{Kind: diff.Add, Text: "var x = f()", NewLine: 2}, {Kind: diff.Context, Text: "", OldLine: 3, NewLine: 3}}}}}}
	findings := []AgentFinding{{Path: "a.go", Line: 2, Side: diff.Right, Title: "f can fail", Text: "Check the error f returns.", Score: 8}}
	if err := x.run().notify.send(t.Context(), 7, headSHA, findings, files); err != nil {
		t.Fatal(err)
	}
	if len(rec.calls) != 1 {
		t.Fatalf("%d comments posted, want 1", len(rec.calls))
	}
	body := rec.calls[0].Body
	pr := x.run().repo().String() + "#"
	if !strings.Contains(body, "`reviews-for-agent inbox list --pr "+pr) {
		t.Errorf("the notice names no inbox command for this pull request:\n%s", body)
	}
	golden.Assert(t, "agent_notice.golden", body)
}
