package execution

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/review-my-code-bot/rmc/detector"
	"github.com/review-my-code-bot/rmc/precision"
	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/state"
)

// outcomeGitHub is what recording a closed pull request's outcome reads
// and writes: the PR's files (its changed lines), and the comment that
// appends to the ledger (in the learnings issue, created on first use).
type outcomeGitHub interface {
	Files(ctx context.Context, repo snapshot.Repo, number int) ([]snapshot.ChangedFile, error)
	CreateLearningsIssue(ctx context.Context, repo snapshot.Repo, body string) (number int, url string, err error)
	CreateComment(ctx context.Context, repo snapshot.Repo, number int, body string) (snapshot.Comment, error)
}

// outcomeRunner appends a closed pull request's entry to the outcome
// ledger in the learnings issue, once.
type outcomeRunner struct {
	env
	GitHub   outcomeGitHub
	pr       snapshot.PullRequest
	findings []state.Finding
	// learnings is the learnings issue as the run read it: the ledger's
	// newest block there is the one the new block follows.
	learnings state.Learnings
}

func newOutcomeRunner(r *run) *outcomeRunner {
	return &outcomeRunner{env: r.env, GitHub: r.GitHub, pr: r.Snap.PR, findings: r.State.Findings, learnings: r.Options.Learnings}
}

func (x *outcomeRunner) Run(ctx context.Context, t detector.Task, w *detector.RecordTask) Outcome {
	o := Outcome{Task: t}
	ls := x.learnings
	if ls.Off {
		o.Warned, o.Note = true, "learning is off (the learnings issue is closed): the outcome is not recorded"
		return o
	}
	ledger := precision.Read(ls.Outcomes)
	for _, p := range ledger.Problems {
		x.Log.Warningf("%s", p)
	}
	if precision.Has(ledger.Head, x.pr.Number) {
		o.Note = fmt.Sprintf("the outcome of #%d is already recorded", x.pr.Number)
		return o
	}
	files, err := x.GitHub.Files(ctx, x.repo(), x.pr.Number)
	if err != nil {
		o.Err = fmt.Errorf("list the files of #%d to record its outcome: %w", x.pr.Number, err)
		return o
	}
	lines := 0
	for _, f := range files {
		lines += f.Additions + f.Deletions
	}
	e, skipped := precision.Entry(precision.PR{Number: x.pr.Number, Author: x.pr.Author.Login, Merged: w.Merged, Lines: lines, ClosedAt: x.now()}, x.findings)
	next := precision.Append(ledger.Head, ledger.HeadComment, e)
	if o.Err = x.post(ctx, ls.Issue, next, len(e.Findings)); o.Err != nil {
		return o
	}
	o.Note = fmt.Sprintf("recorded the outcome of #%d: %d finding(s) (ledger block %d)", x.pr.Number, len(e.Findings), next.Seq)
	if skipped > 0 {
		o.Note += fmt.Sprintf("; %d finding(s) whose comment someone edited are not counted", skipped)
	}
	stats := precision.Compute(&next, StatsWindow)
	o.Stats = precision.Table(stats)
	if js, err := json.Marshal(stats); err == nil {
		o.StatsJSON = string(js)
	}
	return o
}

// post appends the block in a new comment of the learnings issue, creating
// the issue on first use.
func (x *outcomeRunner) post(ctx context.Context, issue int, next rmcoc.Outcomes, findings int) error {
	if issue == 0 {
		n, _, err := x.GitHub.CreateLearningsIssue(ctx, x.repo(), x.compose(learningsIntro))
		if err != nil {
			return fmt.Errorf("create the learnings issue to record the outcome of #%d (the token needs issues: write): %w", x.pr.Number, err)
		}
		issue = n
	}
	text := fmt.Sprintf("📊 Outcome of #%d: %d finding(s). The bot keeps this ledger to measure how often its findings are acted on (`@rmc-bot stats` on any pull request); each block names the one before it.", x.pr.Number, findings)
	if _, err := x.GitHub.CreateComment(ctx, x.repo(), issue, x.compose(text, next)); err != nil {
		return fmt.Errorf("append the outcome of #%d to the ledger in issue #%d: %w", x.pr.Number, issue, err)
	}
	return nil
}
