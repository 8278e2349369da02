package app

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/review-my-code-bot/rmc/gate"
	"github.com/review-my-code-bot/rmc/review"
	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/state"
)

// botReview is a clean automatic review of the head, as the bot posts it.
func botReview(snap snapshot.Snapshot) snapshot.Review {
	run := rmcoc.ReviewRun{HeadSHA: snap.PR.HeadSHA, BaseRef: snap.PR.BaseRef, Mode: rmcoc.ModeAuto, CompletedAt: snap.PR.CreatedAt}
	run.Blobs, _, _ = rmcoc.PackBlobs(seamBlobs(), rmcoc.MaxBlobs)
	return snapshot.Review{ID: 77, Author: snap.Viewer, State: snapshot.ReviewCommented, Body: "clean\n\n" + rmcoc.Fence(run), SubmittedAt: snap.PR.CreatedAt}
}

// seamBlobs are the blob ids of seamFiles' heads.
func seamBlobs() []string {
	var out []string
	for _, f := range seamFiles {
		out = append(out, memBlob(f))
	}
	return out
}

// seamChanges is the change set of seamPR's head.
func seamChanges() gate.ChangeSet {
	var cs gate.ChangeSet
	for _, f := range seamFiles {
		cs.Changes = append(cs.Changes, gate.Change{Path: f.Path, Blob: memBlob(f), Kind: gate.KindBlob})
	}
	return cs
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

	states := state.NewPermissions(gh, state.Options{Bot: bot}, newLog(Env{Getenv: func(string) string { return "" }, Stdout: &strings.Builder{}}).Warningf)
	g := gateRun{p: Pipeline{GitHub: gh}, states: states, reads: newRunReader(gh), start: start, snap: start, st: states.Derive(context.Background(), start),
		changes: readChanges(context.Background(), gh, start, states.Derive(context.Background(), start))}
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

// The gate under commands: a pause or an ignore holds an unreviewed head
// pending whoever gave it, never green; a covered head keeps its verdict;
// a resolve counts only as a maintainer's waivers, never the author's.
func TestVerdictUnderCommands(t *testing.T) {
	t.Parallel()
	at := func(snap snapshot.Snapshot, min int) time.Time {
		return snap.PR.CreatedAt.Add(time.Duration(min) * time.Minute)
	}
	say := func(snap *snapshot.Snapshot, id int64, login, body string) {
		snap.IssueComments = append(snap.IssueComments, snapshot.Comment{ID: id, Author: snapshot.Actor{Login: login}, Association: "COLLABORATOR", Body: body, CreatedAt: at(*snap, int(id))})
	}
	finding := func(snap *snapshot.Snapshot) {
		f := rmcoc.Finding{ID: "f-1a2b3c", Title: "Race", Score: 9, Blocking: true, Status: rmcoc.FindingOpen}
		snap.Threads = append(snap.Threads, snapshot.Thread{ID: "T1", Path: "jobs/retry.go", Line: 2, Comments: []snapshot.ReviewComment{{Comment: snapshot.Comment{ID: 9, Author: snap.Viewer,
			Body: "Race\n\n" + rmcoc.Fence(f), CreatedAt: at(*snap, 1)}, Path: "jobs/retry.go", Line: 2}}})
	}
	for name, tc := range map[string]struct {
		setup func(s *snapshot.Snapshot)
		state string
		desc  string
	}{
		"paused, not reviewed": {func(s *snapshot.Snapshot) { say(s, 5, "bob", "@rmc-bot pause") }, "pending", "1111111 not reviewed: automatic reviews paused by @bob"},
		"paused by the author": {func(s *snapshot.Snapshot) { say(s, 5, "alice", "@rmc-bot pause") }, "pending", "paused by @alice"},
		"paused, reviewed before": {func(s *snapshot.Snapshot) {
			s.Reviews = append(s.Reviews, botReview(*s))
			say(s, 5, "bob", "@rmc-bot pause")
		}, "success", "1111111 reviewed"},
		"ignored in the description": {func(s *snapshot.Snapshot) { s.PR.Body = "@rmc-bot ignore" }, "pending", "the description says ignore"},
		"paused with a blocking finding": {func(s *snapshot.Snapshot) {
			finding(s)
			say(s, 5, "bob", "@rmc-bot pause")
		}, "failure", "1 open blocking finding(s)"},
		"resolve by the author": {func(s *snapshot.Snapshot) {
			s.Reviews = append(s.Reviews, botReview(*s))
			finding(s)
			say(s, 5, "alice", "@rmc-bot resolve")
		}, "failure", "1 open blocking finding(s)"},
		"resolve by a maintainer": {func(s *snapshot.Snapshot) {
			s.Reviews = append(s.Reviews, botReview(*s))
			finding(s)
			say(s, 5, "maria", "@rmc-bot resolve")
		}, "success", "1111111 reviewed"},
		"resolve by a maintainer, head not reviewed": {func(s *snapshot.Snapshot) {
			finding(s)
			say(s, 5, "maria", "@rmc-bot resolve")
		}, "pending", "not reviewed yet"},
	} {
		snap := seamPR()
		tc.setup(&snap)
		st := state.Derive(snap, state.Options{Bot: snapshot.BotIdentity("", snap.Viewer), Handles: []string{"@rmc-bot"}, Writers: map[string]bool{"maria": true, "alice": true}})
		v, _, _ := verdict(snap, st, seamChanges(), review.Settings{})
		if string(v.State) != tc.state || !strings.Contains(v.Description, tc.desc) {
			t.Errorf("%s: %s %q, want %s containing %q", name, v.State, v.Description, tc.state, tc.desc)
		}
	}
}

// overtaken: another run's status between this run's read and its write
// makes the run derive again; a later write than ours, or one equal to it,
// does not.
func TestOvertaken(t *testing.T) {
	t.Parallel()
	st := func(state, desc string) snapshot.Status {
		return snapshot.Status{Context: GateContext, State: state, Description: desc}
	}
	ours := st("pending", "not reviewed yet")
	tests := map[string]struct {
		since []snapshot.Status
		want  bool
	}{
		"nothing listed":                             {nil, false},
		"only ours":                                  {[]snapshot.Status{ours}, false},
		"a failure landed before ours":               {[]snapshot.Status{ours, st("failure", "1 blocking")}, true},
		"a success landed before ours":               {[]snapshot.Status{ours, st("success", "reviewed")}, true},
		"the same state, another description":        {[]snapshot.Status{ours, st("pending", "review failed")}, true},
		"an equal status landed before ours":         {[]snapshot.Status{ours, ours}, false},
		"a later write leads: its run owns the gate": {[]snapshot.Status{st("failure", "1 blocking"), ours, st("success", "reviewed")}, false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if got := overtaken(tc.since, ours); got != tc.want {
				t.Errorf("overtaken = %v, want %v", got, tc.want)
			}
		})
	}
}
