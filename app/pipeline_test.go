package app

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/review-my-code-bot/rmc/event"
	"github.com/review-my-code-bot/rmc/gate"
	"github.com/review-my-code-bot/rmc/llm/fakellm"
	"github.com/review-my-code-bot/rmc/mention"
	"github.com/review-my-code-bot/rmc/outcome"
	"github.com/review-my-code-bot/rmc/snapshot"
)

// seamPR is a pull request by alice, read by the workflow token's bot.
func seamPR(comments ...snapshot.Comment) snapshot.Snapshot {
	created := time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)
	return snapshot.Snapshot{Repo: snapshot.Repo{Owner: "acme", Name: "svc"},
		PR: snapshot.PullRequest{Number: 7, Title: "Retry failed jobs", URL: "https://github.example/acme/svc/pull/7", State: "OPEN",
			Author: snapshot.Actor{Login: "alice"}, HeadSHA: "1111111111111111111111111111111111111111", BaseSHA: "2222222222222222222222222222222222222222",
			HeadRef: "retry", BaseRef: "main", HeadRepo: "acme/svc", CreatedAt: created},
		Viewer:        snapshot.NewActor("github-actions[bot]", "Bot"),
		IssueComments: comments,
	}
}

var seamFiles = []snapshot.ChangedFile{{Path: "jobs/retry.go", Status: "added", Additions: 3,
	Patch: "@@ -0,0 +1,3 @@\n+func retry(j Job) {\n+\tfor j.Run() != nil {\n+\t}\n+}"}}

// seamPipeline is the pipeline over gh, with the model served by a
// scripted fake and the mention rules deciding intents.
func seamPipeline(t *testing.T, gh GitHub, model *fakellm.Server) (Pipeline, *bytes.Buffer) {
	t.Helper()
	dir := t.TempDir()
	env := map[string]string{"INPUT_GITHUB_TOKEN": "tok", "INPUT_LLM_API_KEY": model.APIKey(), "INPUT_LLM_BASE_URL": model.BaseURL(),
		"GITHUB_OUTPUT": filepath.Join(dir, "out"), "GITHUB_STEP_SUMMARY": filepath.Join(dir, "summary")}
	getenv := func(k string) string { return env[k] }
	cfg, err := configFrom(getenv)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	return Pipeline{Config: cfg, GitHub: gh, Log: newLog(Env{Getenv: getenv, Stdout: &out, ReadFile: os.ReadFile}), Classifier: mention.Rules{}}, &out
}

func newSeamModel(t *testing.T, rules ...fakellm.Rule) *fakellm.Server {
	t.Helper()
	model := fakellm.New(fakellm.Config{APIKey: "sk-seam"})
	t.Cleanup(model.Close)
	for _, r := range rules {
		model.AddRule(r)
	}
	return model
}

// A question run over the in-memory GitHub: the snapshot is read once, the
// answer is posted in the conversation, the gate is published from the
// state read at the start (no second read), and a second run finds nothing
// to do and writes nothing.
func TestPipelineAnswersAQuestionOverTheSeam(t *testing.T) {
	t.Parallel()
	asked := time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)
	question := snapshot.Comment{ID: 501, Author: snapshot.Actor{Login: "alice"}, Association: "OWNER", CreatedAt: asked, UpdatedAt: asked,
		Body: "@rmc-bot why does retry never give up?", URL: "https://github.example/acme/svc/pull/7#issuecomment-501"}
	gh := newMemGitHub(seamPR(question), seamFiles)
	model := newSeamModel(t, fakellm.Rule{Name: "answer", LastUser: "why does retry never give up", Reply: fakellm.Reply{Text: "It loops until Run succeeds: jobs/retry.go:2 has no bound."}})
	p, out := seamPipeline(t, gh, model)
	ev := event.Event{Name: event.IssueComment, Action: "created", Repo: "acme/svc", PRNumber: 7, Sender: "alice",
		Comment: &event.Comment{ID: 501, Body: question.Body, Author: "alice"}}

	rec, code := p.run(context.Background(), gh.pr.Repo, ev)
	if code != outcome.ExitOK {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	calls := gh.calls()
	if n := count(calls, "read acme/svc#7"); n != 1 {
		t.Errorf("the PR was read %d times, want once: %q", n, calls)
	}
	if n := count(calls, "re-read"); n != 0 {
		t.Errorf("an answer cannot change the findings, yet the PR was read again: %q", calls)
	}
	// Nothing reviewed this head and no status is on it: an answer changes
	// neither the ledger nor the findings, so the gate is left to the
	// head's automatic run (an absent required status holds the merge):
	// no status read or written, no tree read.
	if n := count(calls, "status "); n != 0 || gh.trees != 0 {
		t.Errorf("an answer on a head with no gate read or wrote its status (%d tree reads): %q", gh.trees, calls)
	}
	if rec.out.Gate.State != gate.Pending {
		t.Errorf("the outputs say the gate is %+v", rec.out.Gate)
	}
	var answer *snapshot.Comment
	for i, c := range gh.pr.IssueComments {
		if c.Author.Is(gh.pr.Viewer) && strings.Contains(c.Body, "jobs/retry.go:2 has no bound") {
			answer = &gh.pr.IssueComments[i]
		}
	}
	if answer == nil {
		t.Fatalf("no answer in the conversation; calls %q\nlog:\n%s", calls, out)
	}
	if !strings.Contains(answer.Body, "```rmcoc") || !strings.Contains(answer.Body, "question-answer") {
		t.Errorf("the answer carries no question-answer block:\n%s", answer.Body)
	}
	if res := rec.report.Result; res == nil || res.Done() != 1 || res.Failed() != 0 {
		t.Errorf("result %+v", res)
	}
	if counts := rec.report.Counts; counts.Writes == 0 || counts.Reads == 0 {
		t.Errorf("the report's counts come from the client: %+v", counts)
	}

	// The answer's block marks the question answered, and the gate's status
	// is what the first read now sees: nothing to write.
	if _, code := p.run(context.Background(), gh.pr.Repo, ev); code != outcome.ExitOK {
		t.Fatalf("second run: exit %d:\n%s", code, out)
	}
	if again := gh.calls(); len(again) != 1 || again[0] != "read acme/svc#7" {
		t.Errorf("a second run over an answered question did %q, want one read", again)
	}
}

// A review over the in-memory GitHub: the finding is posted in one review,
// the PR is read again (GitHub, not what the run meant to write, says what
// landed), and the gate turns red, which fails the job.
func TestPipelineReviewHoldsTheGateOverTheSeam(t *testing.T) {
	t.Parallel()
	gh := newMemGitHub(seamPR(), seamFiles)
	finding := map[string]any{"path": "jobs/retry.go", "line": 2, "start_line": 0, "side": "right", "title": "retry never gives up",
		"explanation": "A job that always fails loops forever.", "score": 8, "category": "bug", "suggestion": ""}
	model := newSeamModel(t,
		fakellm.Rule{Name: "pass 1", LastUser: "review pass 1 of 3", Respond: func(r fakellm.Request) fakellm.Reply { return fakellm.ReviewAnswer(r, []any{finding}) }},
		fakellm.Rule{Name: "other passes", LastUser: "review pass", Reply: fakellm.Reply{JSON: map[string]any{"findings": []any{}}}})
	p, out := seamPipeline(t, gh, model)
	ev := event.Event{Name: event.PullRequest, Action: "opened", Repo: "acme/svc", PRNumber: 7, Sender: "alice",
		HeadSHA: gh.pr.PR.HeadSHA, BaseSHA: gh.pr.PR.BaseSHA}

	rec, code := p.run(context.Background(), gh.pr.Repo, ev)
	if code != outcome.ExitFailed {
		t.Fatalf("exit %d, want %d (an automatic review with a blocking finding):\n%s", code, outcome.ExitFailed, out)
	}
	calls := gh.calls()
	if count(calls, "review #7") != 1 || !slices.ContainsFunc(calls, func(c string) bool { return strings.HasSuffix(c, "with 1 comment(s)") }) {
		t.Errorf("want one review with one comment: %q", calls)
	}
	if count(calls, "files #7") != 1 {
		t.Errorf("the file list was read %d times, want once: %q", count(calls, "files #7"), calls)
	}
	if count(calls, "re-read acme/svc#7") != 1 {
		t.Errorf("a review may change the findings: want one re-read, got %q", calls)
	}
	if last := calls[len(calls)-1]; !strings.HasPrefix(last, "status 1111111 rmc/merge-gate failure: 1 open blocking finding(s)") {
		t.Errorf("the run's last call is %q, want the red gate; calls %q", last, calls)
	}
	if rec.report.Gate == nil || rec.out.BlockingIssues != 1 || rec.report.After == nil || len(rec.report.After.OpenBlocking()) != 1 {
		t.Errorf("gate %+v, outputs %+v, after %+v", rec.report.Gate, rec.out, rec.report.After)
	}
	// The summary shows the gate the run published, and that it fails the job.
	if g := rec.report.Gate; g == nil || !g.Gated || g.Verdict != rec.out.Gate || g.Verdict.State != gate.Failure {
		t.Errorf("the summary's gate %+v, the published one %+v", g, rec.out)
	}
	if len(gh.pr.Threads) != 1 || !strings.Contains(gh.pr.Threads[0].Comments[0].Body, "retry never gives up") {
		t.Errorf("threads %+v", gh.pr.Threads)
	}
}

// A run that changes neither the ledger nor the findings leaves the gate
// as it found it only when the status on the head was judged on the facts
// the run holds (its basis); a status judged on other facts is derived
// again, and a green one over a ledger cut since is never kept.
func TestQuestionLeavesOnlyAGateJudgedOnItsFacts(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		before func(g *memGitHub)
		trees  bool   // the change set is read
		write  string // the status written, "" for none
	}{
		"the review's own status": {func(*memGitHub) {}, false, ""},
		// The head's review no longer counts: the state ledger is cut, and
		// the run derives the gate again, which fails closed (a failure
		// needs no tree read).
		"the head's bot review edited since": {func(g *memGitHub) {
			g.pr.Reviews[0].Editor = &snapshot.Actor{Login: "alice"}
		}, false, "status 1111111 rmc/merge-gate failure: state ledger cut"},
		// A base retargeted with a file the review never read: the stale
		// success is not kept. The file is owed a review (gate.Owed), so
		// the run reviews it, and the gate is green
		// again on what it read.
		"a success judged against another base": {func(g *memGitHub) {
			g.pr.PR.BaseSHA = strings.Repeat("3", 40)
			g.files = append(slices.Clone(g.files), snapshot.ChangedFile{Path: "jobs/extra.go", Status: "added", Additions: 1, Patch: "@@ -0,0 +1 @@\n+package jobs"})
		}, true, "status 1111111 rmc/merge-gate success: 1111111 reviewed"},
		"a success without a basis (an older run's, or written by hand)": {func(g *memGitHub) {
			s := g.statuses[GateContext]
			s.TargetURL = "https://github.example/acme/svc/pull/7"
			g.statuses[GateContext] = s
		}, true, "status 1111111 rmc/merge-gate success: 1111111 reviewed"},
		"the base's configuration changed since": {func(g *memGitHub) {
			g.pr.Config.Path, g.pr.Config.Text = ".github/rmc.yml", "ignore_paths: [\"docs/**\"]\n"
		}, true, "status 1111111 rmc/merge-gate success: 1111111 reviewed"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			gh := newMemGitHub(seamPR(), seamFiles)
			model := newSeamModel(t,
				fakellm.Rule{Name: "pass 1", LastUser: "review pass 1 of 3", Respond: func(r fakellm.Request) fakellm.Reply { return fakellm.ReviewAnswer(r, []any{}) }},
				fakellm.Rule{Name: "passes", LastUser: "review pass", Reply: fakellm.Reply{JSON: map[string]any{"findings": []any{}}}},
				fakellm.Rule{Name: "walkthrough", LastUser: "# Task: walkthrough", Reply: fakellm.Reply{Text: "A retry loop."}},
				fakellm.Rule{Name: "answer", LastUser: "flush interval", Reply: fakellm.Reply{Text: "50 ms."}})
			p, out := seamPipeline(t, gh, model)
			review := event.Event{Name: event.PullRequest, Action: "opened", Repo: "acme/svc", PRNumber: 7, Sender: "alice",
				HeadSHA: gh.pr.PR.HeadSHA, BaseSHA: gh.pr.PR.BaseSHA}
			if _, code := p.run(context.Background(), gh.pr.Repo, review); code != outcome.ExitOK || gh.statuses[GateContext].State != "success" {
				t.Fatalf("review: exit %d, gate %+v:\n%s", code, gh.statuses[GateContext], out)
			}
			tc.before(gh)
			gh.calls()
			gh.trees = 0
			asked := time.Date(2026, 11, 2, 11, 0, 0, 0, time.UTC)
			gh.pr.IssueComments = append(gh.pr.IssueComments, snapshot.Comment{ID: 502, Author: snapshot.Actor{Login: "alice"}, Association: "OWNER",
				CreatedAt: asked, UpdatedAt: asked, Body: "@rmc-bot what is the flush interval?"})
			ev := event.Event{Name: event.IssueComment, Action: "created", Repo: "acme/svc", PRNumber: 7, Sender: "alice",
				Comment: &event.Comment{ID: 502, Body: "@rmc-bot what is the flush interval?", Author: "alice"}}
			if _, code := p.run(context.Background(), gh.pr.Repo, ev); code != outcome.ExitOK && !strings.Contains(tc.write, "failure") {
				t.Fatalf("question: exit %d:\n%s", code, out)
			}
			calls := gh.calls()
			if (gh.trees > 0) != tc.trees {
				t.Errorf("%d tree reads, want them: %v", gh.trees, tc.trees)
			}
			var wrote []string
			for _, c := range calls {
				if strings.HasPrefix(c, "status 1111111 rmc/merge-gate ") {
					wrote = append(wrote, c)
				}
			}
			switch {
			case tc.write == "" && len(wrote)+count(calls, "status ") > 0:
				t.Errorf("the gate stands, yet the run did %q", calls)
			case tc.write != "" && (len(wrote) != 1 || !strings.HasPrefix(wrote[0], tc.write)):
				t.Errorf("wrote %q, want %q", wrote, tc.write)
			}
		})
	}
}

func count(calls []string, prefix string) int {
	n := 0
	for _, c := range calls {
		if strings.HasPrefix(c, prefix) {
			n++
		}
	}
	return n
}
