package app

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/review-my-code-bot/rmc/gate"
	"github.com/review-my-code-bot/rmc/github"
	"github.com/review-my-code-bot/rmc/github/fakegithub"
	"github.com/review-my-code-bot/rmc/llm/fakellm"
	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/state"
)

// readSize is a PR shape the read budget is measured on: issue comments,
// review threads, and the replies in each thread (from minReplies up to
// maxReplies, spread evenly). On GitHub each reply is its own review.
type readSize struct{ comments, threads, minReplies, maxReplies int }

func (s readSize) String() string {
	out := fmt.Sprintf("%d/%d", s.comments, s.threads)
	if s.maxReplies > 1 {
		out += fmt.Sprintf(" ×%d–%d", s.minReplies, s.maxReplies)
	}
	return out
}

// replies is how many replies thread i gets.
func (s readSize) replies(i int) int {
	return s.minReplies + i%(s.maxReplies-s.minReplies+1)
}

// readSizes are the PR sizes the read budget is measured on; the last is a
// busy PR's realistic shape, 2–5 replies in every thread.
var readSizes = []readSize{{10, 3, 1, 1}, {250, 120, 1, 1}, {1000, 300, 1, 1}, {1000, 300, 2, 5}}

// seedConversation adds people's comments and threads to the bench PR.
func (w *benchWorld) seedConversation(size readSize) {
	for i := range size.comments {
		w.gh.AddIssueComment("acme/svc", w.pr, "alice", fmt.Sprintf("comment %d", i))
	}
	for i := range size.threads {
		_, root := w.gh.AddThread("acme/svc", w.pr, fakegithub.ThreadSpec{Path: "sched/part000.go", Line: 1 + i%100, Author: "alice", Body: fmt.Sprintf("thread %d", i)})
		for j := range size.replies(i) {
			w.gh.AddReply("acme/svc", w.pr, root, []string{"alice", "bob"}[j%2], fmt.Sprintf("reply %d", j))
		}
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

// disputeFirstFinding replies in the thread of the bot's finding with the
// highest score (a blocking one), which the model then concedes.
func disputeFirstFinding(tb testing.TB, w *benchWorld) {
	tb.Helper()
	for _, c := range w.gh.ReviewComments("acme/svc", w.pr) {
		if strings.Contains(c.Body, "Unchecked error number 4") && c.InReplyTo == 0 {
			w.gh.AddReply("acme/svc", w.pr, c.ID, "alice", "@rmc-bot this is not a bug: schedule never fails here.")
			return
		}
	}
	tb.Fatal("the review posted no finding to dispute")
}

// readCost is what one run read: requests, and the bytes their answers
// carried.
type readCost struct{ reads, bytes int }

// measureRun runs one run of the given kind and returns what it read, its
// record and the world after it.
func measureRun(tb testing.TB, kind readRun, size readSize) (readCost, *runRecord, *benchWorld) {
	w := newBenchWorld(tb, 300, 5)
	w.model.AddRule(fakellmDisputeRule())
	w.seedConversation(size)
	before := kind.setup(tb, w)
	mark := len(w.gh.Requests())
	ev := commentEv
	if kind.name == "auto review" {
		ev = pushEv
	}
	r := w.run(tb, ev)
	cost := readCost{reads: w.gh.ReadCount() - before}
	for _, q := range w.gh.Requests()[mark:] {
		if !q.Write {
			cost.bytes += q.Bytes
		}
	}
	return cost, r, w
}

// BenchmarkReads prints the read requests per run kind and PR size, and
// what their answers weighed:
//
//	go test ./app -run '^$' -bench Reads -benchtime 1x
func BenchmarkReads(b *testing.B) {
	var table strings.Builder
	fmt.Fprintf(&table, "\n%-12s", "run")
	for _, s := range readSizes {
		fmt.Fprintf(&table, " %20s", s)
	}
	for range b.N {
		for _, kind := range readRuns {
			fmt.Fprintf(&table, "\n%-12s", kind.name)
			for _, s := range readSizes {
				c, _, _ := measureRun(b, kind, s)
				fmt.Fprintf(&table, " %20s", fmt.Sprintf("%d (%.2f MB)", c.reads, float64(c.bytes)/1e6))
			}
		}
	}
	b.Logf("read requests per run (comments/threads ×replies per thread) and the bytes read:%s", table.String())
}

// fakellmDisputeRule concedes every dispute, so a dispute run resolves a
// thread and turns the gate.
func fakellmDisputeRule() fakellm.Rule {
	return fakellm.Rule{Name: "dispute", LastUser: "# Task: answer a reply on your finding", Reply: fakellm.Reply{JSON: map[string]string{
		"kind": "dispute", "verdict": "concede", "reply": "You are right: schedule cannot fail here.", "reason": "schedule never fails."}}}
}

// The issue's targets, and the gate computed without reading the whole PR
// again is the gate a full read after the run gives: the count in the
// job's outputs, and the status on the head.
func TestReadsAtTheLimit(t *testing.T) {
	t.Parallel()
	busy := readSizes[3]
	for _, tc := range []struct {
		kind           readRun
		size           readSize
		budget         int
		blockingChange int // how the run changes the open blocking findings
	}{
		// A question changes neither the ledger nor the findings: the
		// head's gate stands (here none is on it yet), with no tree or
		// status read.
		{readRuns[0], readSizes[1], 6, 0},
		{readRuns[1], readSizes[2], 15, 1},
		{readRuns[2], readSizes[1], 6, -1},
		{readRuns[0], busy, 12, 0},
		{readRuns[1], busy, 15, 1},
	} {
		t.Run(fmt.Sprintf("%s %s", tc.kind.name, tc.size), func(t *testing.T) {
			t.Parallel()
			var blockingBefore int
			kind := tc.kind
			if tc.kind.name == "dispute" {
				kind.setup = func(tb testing.TB, w *benchWorld) int {
					blockingBefore = w.run(tb, pushEv).out.BlockingIssues
					disputeFirstFinding(tb, w)
					return w.gh.ReadCount()
				}
			}
			cost, rec, w := measureRun(t, kind, tc.size)
			r := rec.report
			if n := cost.reads; n > tc.budget {
				t.Errorf("%d read requests, budget %d", n, tc.budget)
			}
			if r.Result == nil || r.Result.Failed() > 0 || r.Gate == nil || r.After == nil {
				t.Fatalf("run: %+v gate %+v", r.Result, r.Gate)
			}
			if tc.kind.name != "dispute" { // the dispute's world also holds the review before it
				files := 0
				for _, q := range w.gh.Requests() {
					if q.Method == "GET" && strings.HasSuffix(q.Path, "/files") {
						files++
					}
				}
				if files != 1 {
					t.Errorf("the file list was read %d times, want once", files)
				}
			}
			// What a fresh, full read says after the run.
			gh, err := github.New(github.Options{Token: benchToken, APIURL: w.gh.URL, GraphQLURL: w.gh.GraphQLURL()})
			if err != nil {
				t.Fatal(err)
			}
			snap, err := gh.Snapshot(context.Background(), w.repo, w.pr)
			if err != nil {
				t.Fatal(err)
			}
			st := state.Derive(snap, state.Options{Bot: snapshot.BotIdentity("", snap.Viewer)})
			open := len(st.OpenBlocking())
			if rec.out.BlockingIssues != open || len(r.After.OpenBlocking()) != open {
				t.Errorf("gate counts %d (after-state %d), a full read %d", rec.out.BlockingIssues, len(r.After.OpenBlocking()), open)
			}
			statuses := w.gh.Statuses("acme/svc", snap.PR.HeadSHA)
			if tc.kind.name == "question" {
				// No review of the head yet: the question leaves the gate
				// to the head's automatic run, and says it is not green.
				if len(statuses) != 0 || rec.out.Gate.State != gate.Pending {
					t.Errorf("a question wrote %+v; outputs say %+v", statuses, rec.out.Gate)
				}
				return
			}
			if len(statuses) == 0 {
				t.Fatal("no gate status")
			}
			if last := statuses[len(statuses)-1]; (last.State == "failure") != (open > 0) {
				t.Errorf("gate status %s with %d open blocking", last.State, open)
			}
			switch {
			case tc.blockingChange < 0 && open >= blockingBefore:
				t.Errorf("the conceded dispute left %d blocking (before: %d)", open, blockingBefore)
			case tc.blockingChange > 0 && open == 0:
				t.Error("the review posted no blocking finding: the test proves nothing")
			}
		})
	}
}

// The conversation after the run is the start's with the run's own comments
// and edits, in order; an edit makes the token its editor, and comments on
// other issues (the learnings issue) stay out.
func TestRunReaderConversation(t *testing.T) {
	t.Parallel()
	w := newBenchWorld(t, 100, 1)
	human := w.gh.AddIssueComment("acme/svc", w.pr, "alice", "@rmc-bot hello")
	gh, err := github.New(github.Options{Token: benchToken, APIURL: w.gh.URL, GraphQLURL: w.gh.GraphQLURL(), WriteInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	start, err := gh.Snapshot(ctx, w.repo, w.pr)
	if err != nil {
		t.Fatal(err)
	}
	issue := w.gh.AddIssue("acme/svc", "alice", "elsewhere")
	reads := newRunReader(gh)
	posted, err := reads.CreateComment(ctx, w.repo, w.pr, "working on it")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := reads.CreateComment(ctx, w.repo, issue, "not on the PR"); err != nil {
		t.Fatal(err)
	}
	if err := reads.EditComment(ctx, w.repo, posted.ID, "done"); err != nil {
		t.Fatal(err)
	}
	if err := reads.EditComment(ctx, w.repo, 999999, "no such comment"); err == nil {
		t.Fatal("edited a comment that does not exist")
	}
	got := reads.conversation(start)
	full, err := gh.Snapshot(ctx, w.repo, w.pr)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].ID != human.ID || got[0].Editor != nil || got[1].ID != posted.ID || got[1].Body != "done" ||
		got[1].Editor == nil || !got[1].Editor.Is(full.Viewer) || !got[1].Author.Is(full.Viewer) {
		t.Errorf("conversation = %+v", got)
	}
	if len(full.IssueComments) != 2 || full.IssueComments[1].Body != got[1].Body {
		t.Errorf("GitHub holds %+v", full.IssueComments)
	}
	if len(start.IssueComments) != 1 {
		t.Errorf("the start snapshot changed: %+v", start.IssueComments)
	}
}

// The head's change set costs reads in proportion to the directories the
// PR touched, not to the files it changed or the repository's size: a
// monorepo with untouched directories beside, the PR changing every file of
// some directories (3,000 and 30,000 files, 100 a directory), or adding a
// new tree of them. It prints the figures:
//
//	go test ./app -run TestChangeSetReads -v
func TestChangeSetReads(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name        string
		files, dirs int
		added       bool
		limit       int // entries per tree answer, 0 for GitHub's
		budget      int
	}{
		// The merge base, both roots, both sides of svc/ one level and
		// whole (more than a few of its directories changed).
		{"3,000 changed files", 3000, 30, false, 0, 7},
		{"30,000 changed files", 30000, 300, false, 0, 7},
		// svc/ whole is past the limit: one level at a time after it.
		{"30,000 changed files, svc/ past the tree limit", 30000, 300, false, 20000, 7 + 2*300},
		// The merge base, both roots, the new tree whole.
		{"3,000 added files", 3000, 30, true, 0, 4},
		{"30,000 added files", 30000, 300, true, 0, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			gh := fakegithub.New()
			t.Cleanup(gh.Close)
			gh.AddToken(benchToken, fakegithub.Identity{Login: "github-actions[bot]", Kind: fakegithub.TokenInstallation})
			gh.SetTreeLimit(tc.limit)
			pr := gh.AddPR("acme/mono", fakegithub.PR{Author: "alice"})
			for d := range 20 { // untouched
				gh.SetContents("acme/mono", pr.BaseSHA, fmt.Sprintf("other/o%d/x.go", d), "untouched")
			}
			var files []fakegithub.File
			for i := range tc.files {
				p := fmt.Sprintf("svc/d%03d/f%05d.go", i%tc.dirs, i)
				if tc.added {
					p = "new/" + p
				} else {
					gh.SetContents("acme/mono", pr.BaseSHA, p, "old")
				}
				files = append(files, fakegithub.File{Path: p, Status: "modified", Patch: fmt.Sprintf("@@ -1 +1 @@\n-old\n+new %d", i)})
			}
			gh.SetFiles("acme/mono", pr.Number, files)
			// The figure is the reads the change set needs: no attempt may
			// time out and be retried on a loaded machine under -race.
			c, err := github.New(github.Options{Token: benchToken, APIURL: gh.URL, GraphQLURL: gh.GraphQLURL(), WriteInterval: -1, Timeout: time.Hour})
			if err != nil {
				t.Fatal(err)
			}
			before := gh.ReadCount()
			cs := changeSet(context.Background(), c, snapshot.Repo{Owner: "acme", Name: "mono"}, pr.BaseSHA, pr.HeadSHA)
			reads := gh.ReadCount() - before
			if !cs.Known() || len(cs.Changes) != tc.files {
				t.Fatalf("change set: %d changes, unknown %q", len(cs.Changes), cs.Unknown)
			}
			if reads > tc.budget {
				t.Errorf("%d reads, budget %d", reads, tc.budget)
			}
			t.Logf("%s in %d directories: %d reads for the change set", tc.name, tc.dirs, reads)
		})
	}
}
