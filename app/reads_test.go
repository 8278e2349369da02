package app

import (
	"fmt"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/github/fakegithub"
	"github.com/review-my-code-bot/rmc/llm/fakellm"
)

// readSizes are the PR sizes the read budget is measured on: issue comments
// and review threads.
var readSizes = []struct{ comments, threads int }{{10, 3}, {250, 120}, {1000, 300}}

// seedConversation adds people's comments and threads to the bench PR.
func (w *benchWorld) seedConversation(comments, threads int) {
	for i := range comments {
		w.gh.AddIssueComment("acme/svc", w.pr, "alice", fmt.Sprintf("comment %d", i))
	}
	for i := range threads {
		_, root := w.gh.AddThread("acme/svc", w.pr, fakegithub.ThreadSpec{Path: "sched/part000.go", Line: 1 + i%100, Author: "alice", Body: fmt.Sprintf("thread %d", i)})
		w.gh.AddReply("acme/svc", w.pr, root, "alice", "reply")
	}
}

// readRun is one run kind: it prepares the world and returns the event.
type readRun struct {
	name  string
	setup func(tb testing.TB, w *benchWorld) (readsBefore int)
}

var readRuns = []readRun{
	{"question", func(tb testing.TB, w *benchWorld) int {
		w.question("@rmc-bot what is the flush interval?")
		return w.gh.ReadCount()
	}},
	{"auto review", func(tb testing.TB, w *benchWorld) int { return w.gh.ReadCount() }},
	{"dispute", func(tb testing.TB, w *benchWorld) int {
		w.run(tb, pushEv) // the bot's review, with findings to dispute
		disputeFirstFinding(tb, w)
		return w.gh.ReadCount()
	}},
}

// disputeFirstFinding replies in the thread of the bot's first finding.
func disputeFirstFinding(tb testing.TB, w *benchWorld) {
	tb.Helper()
	for _, c := range w.gh.ReviewComments("acme/svc", w.pr) {
		if strings.Contains(c.Body, "```rmcoc") && c.InReplyTo == 0 {
			w.gh.AddReply("acme/svc", w.pr, c.ID, "alice", "@rmc-bot this is not a bug: schedule never fails here.")
			return
		}
	}
	tb.Fatal("the review posted no finding to dispute")
}

// measureReads returns the read requests of one run of the given kind.
func measureReads(tb testing.TB, kind readRun, comments, threads int) int {
	w := newBenchWorld(tb, 300, 5)
	w.model.AddRule(fakellmDisputeRule())
	w.seedConversation(comments, threads)
	before := kind.setup(tb, w)
	ev := commentEv
	if kind.name == "auto review" {
		ev = pushEv
	}
	w.run(tb, ev)
	return w.gh.ReadCount() - before
}

// BenchmarkReads prints the read requests per run kind and PR size:
//
//	go test ./app -run '^$' -bench Reads -benchtime 1x
func BenchmarkReads(b *testing.B) {
	var table strings.Builder
	fmt.Fprintf(&table, "\n%-12s", "run")
	for _, s := range readSizes {
		fmt.Fprintf(&table, " %14s", fmt.Sprintf("%d/%d", s.comments, s.threads))
	}
	for range b.N {
		for _, kind := range readRuns {
			fmt.Fprintf(&table, "\n%-12s", kind.name)
			for _, s := range readSizes {
				fmt.Fprintf(&table, " %14d", measureReads(b, kind, s.comments, s.threads))
			}
		}
	}
	b.Logf("read requests per run (comments/threads):%s", table.String())
}

// fakellmDisputeRule concedes every dispute, so a dispute run resolves a
// thread and turns the gate.
func fakellmDisputeRule() fakellm.Rule {
	return fakellm.Rule{Name: "dispute", LastUser: "# Task: answer a reply on your finding", Reply: fakellm.Reply{JSON: map[string]string{
		"kind": "dispute", "verdict": "concede", "reply": "You are right: schedule cannot fail here.", "reason": "schedule never fails."}}}
}
