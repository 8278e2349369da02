package execution

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/review-my-code-bot/rmc/detector"
	"github.com/review-my-code-bot/rmc/precision"
	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/sanitize"
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
	said, err := x.record(ctx, w, &o)
	if err != nil {
		// The commands stay pending: the next run records and answers.
		o.Err = err
		return o
	}
	for _, m := range w.Commands {
		block := rmcoc.CommandAnswer{CommandCommentID: rmcoc.ID(m.Ref.ID), Command: string(m.Command), By: m.Author.Login, Result: rmcoc.CommandDone, At: x.now()}
		text := fmt.Sprintf("📊 @%s: %s", sanitize.Name(m.Author.Login), said)
		if _, err := x.GitHub.CreateComment(ctx, x.repo(), x.number(), x.compose(text, block)); err != nil {
			x.Log.Warningf("could not answer @%s's record command: %v", m.Author.Login, err)
		}
	}
	return o
}

// record appends the pull request's entry to the ledger unless it holds
// it already, and says what it did in a sentence a record command's answer
// carries. On demand, a pull request the ledger may hold in its roll-up
// is not recorded: counting it twice would be worse than not at all.
func (x *outcomeRunner) record(ctx context.Context, w *detector.RecordTask, o *Outcome) (said string, err error) {
	ls, n := x.learnings, x.pr.Number
	if ls.Off {
		o.Warned, o.Note = true, "learning is off (the learnings issue is closed): the outcome is not recorded"
		return "learning is off here (the learnings issue is closed), so no outcome is recorded.", nil
	}
	ledger := precision.Read(ls.Outcomes)
	for _, p := range ledger.Problems {
		x.Log.Warningf("%s", p)
	}
	recorded, known := precision.Recorded(ledger.View(), n, x.pr.CreatedAt)
	switch {
	case recorded:
		o.Note = fmt.Sprintf("the outcome of #%d is already recorded", n)
		return fmt.Sprintf("the outcome of #%d is already in the outcome ledger; it is not recorded twice.", n), nil
	case !known && w.OnDemand:
		o.Note = fmt.Sprintf("the outcome of #%d is not recorded: the ledger may hold it in its roll-up", n)
		return fmt.Sprintf("#%d was opened before the oldest pull request the outcome ledger still holds in full was recorded, so it may already be counted in the ledger's roll-up; to never count it twice, it is not recorded.", n), nil
	}
	e, skipped, err := x.entry(ctx, w)
	if err != nil {
		return "", err
	}
	folds := ledger.Folds()
	next := precision.AppendFolding(ledger.Head, ledger.HeadComment, folds, e)
	if err := x.post(ctx, ls.Issue, next, len(e.Findings)); err != nil {
		return "", err
	}
	o.Note = fmt.Sprintf("recorded the outcome of #%d: %d finding(s) (ledger block %d)", n, len(e.Findings), next.Seq)
	if skipped > 0 {
		o.Note += fmt.Sprintf("; %d finding(s) whose comment someone edited are not counted", skipped)
	}
	if len(folds) > 0 {
		o.Note += fmt.Sprintf("; folded in %d pull request(s) another run recorded at the same time", len(folds))
	}
	stats := precision.Compute(&next, StatsWindow)
	o.Stats = precision.Table(stats)
	if js, err := json.Marshal(stats); err == nil {
		o.StatsJSON = string(js)
	}
	return fmt.Sprintf("I recorded the outcome of #%d in the outcome ledger: %d finding(s) (ledger block %d). `@rmc-bot stats` shows the numbers.", n, len(e.Findings), next.Seq), nil
}

// entry is the pull request's ledger entry, with its changed lines.
func (x *outcomeRunner) entry(ctx context.Context, w *detector.RecordTask) (rmcoc.PROutcome, int, error) {
	files, err := x.GitHub.Files(ctx, x.repo(), x.pr.Number)
	if err != nil {
		return rmcoc.PROutcome{}, 0, fmt.Errorf("list the files of #%d to record its outcome: %w", x.pr.Number, err)
	}
	lines := 0
	for _, f := range files {
		lines += f.Additions + f.Deletions
	}
	e, skipped := precision.Entry(precision.PR{Number: x.pr.Number, Author: x.pr.Author.Login, Merged: w.Merged, Lines: lines, ClosedAt: x.now()}, x.findings)
	return e, skipped, nil
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
