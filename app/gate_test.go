package app

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/state"
)

// botReview is a clean automatic review of the head, as the bot posts it.
func botReview(snap snapshot.Snapshot) snapshot.Review {
	run := rmcoc.ReviewRun{HeadSHA: snap.PR.HeadSHA, BaseRef: snap.PR.BaseRef, Mode: rmcoc.ModeAuto, CompletedAt: snap.PR.CreatedAt}
	return snapshot.Review{ID: 77, Author: snap.Viewer, State: snapshot.ReviewCommented, Body: "clean\n\n" + rmcoc.Fence(run), SubmittedAt: snap.PR.CreatedAt}
}

// A run that read the PR before another run wrote the gate never replaces
// that run's status with a success from its older read: it reads the status,
// sees it moved, and derives the gate again from a fresh read.
func TestPublishNeverWritesAStaleSuccess(t *testing.T) {
	t.Parallel()
	start := seamPR()
	start.Reviews = append(start.Reviews, botReview(start))
	start.Config.Read = true
	start.Config.HeadStatuses = []snapshot.Status{{Context: GateContext, State: "pending", Description: "automatic review of 1111111 in progress"}}
	bot := snapshot.BotIdentity("", start.Viewer)

	// Meanwhile another run found a blocking problem: GitHub now
	// holds a blocking finding and that run's failure status.
	now := start
	now.Reviews = slices.Clone(start.Reviews)
	f := rmcoc.Finding{ID: "f-1", Title: "Race", Score: 9, Blocking: true, Status: rmcoc.FindingOpen}
	now.Threads = []snapshot.Thread{{ID: "T1", Path: "jobs/retry.go", Line: 2, Comments: []snapshot.ReviewComment{{Comment: snapshot.Comment{ID: 9, Author: start.Viewer,
		Body: "Race\n\n" + rmcoc.Fence(f), CreatedAt: start.PR.CreatedAt}, Path: "jobs/retry.go", Line: 2}}}}
	gh := newMemGitHub(now, seamFiles)
	gh.statuses[GateContext] = snapshot.Status{Context: GateContext, State: "failure", Description: "1 open blocking finding(s): fix, or reply in the thread to dispute"}

	states := newDeriver(gh, state.Options{Bot: bot}, newLog(Env{Getenv: func(string) string { return "" }, Stdout: &strings.Builder{}}))
	g := gateRun{p: Pipeline{GitHub: gh}, states: states, reads: newRunReader(gh), start: start, snap: start, st: states.derive(context.Background(), start)}
	v, n, err := g.publish(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	calls := gh.calls()
	if v.State != "failure" || n != 1 || slices.ContainsFunc(calls, func(c string) bool { return strings.Contains(c, "success") }) {
		t.Fatalf("verdict %s with %d blocking; calls %q", v.State, n, calls)
	}
	if !slices.Contains(calls, "re-read acme/svc#7") {
		t.Errorf("the run did not read the PR again before writing: %q", calls)
	}
}
