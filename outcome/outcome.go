// Package outcome is what a run reports when it ends: the action's
// outputs, and how the job exits. It is the rule of both; the app reads a
// run's result into an Outcome, writes its outputs and exits with its code.
package outcome

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/review-my-code-bot/rmc/execution"
	"github.com/review-my-code-bot/rmc/gate"
)

// Exit codes.
const (
	ExitOK     = 0
	ExitFailed = 1 // a task failed, or an automatic review found blocking issues
	ExitUsage  = 2 // bad inputs or environment
)

// ReviewStatus is the review_status output: what became of this run's
// review.
type ReviewStatus string

// The review statuses. Only a review that read every file it had to is
// clean or findings.
const (
	ReviewSkipped  ReviewStatus = "skipped"
	ReviewClean    ReviewStatus = "clean"
	ReviewFindings ReviewStatus = "findings"
	ReviewPartial  ReviewStatus = "partial"
	ReviewBlocking ReviewStatus = "blocking"
	ReviewFailed   ReviewStatus = "failed"
)

// ReviewStatuses are the review statuses with what each means, in the
// order the reference lists them; a new status is one line here.
var ReviewStatuses = []struct {
	Status ReviewStatus
	Doc    string
}{
	{ReviewClean, "the review read every file it had to and found nothing"},
	{ReviewBlocking, "the review found blocking problems, whether or not it read every file"},
	{ReviewFindings, "the review read every file it had to and found problems, none blocking"},
	{ReviewPartial, "the review did not read every file it had to (max_run_tokens stopped it, or GitHub sends no diff for a file that large) and found nothing blocking in the rest; issues_found counts what it posted, and the merge gate stays pending until a run reads the rest. Never clean while the review's coverage is partial"},
	{ReviewSkipped, "no review ran: nothing to review, or another run holds this head's review"},
	{ReviewFailed, "a task failed, or the run could not start"},
}

// Outcome is what the run reports through the action's outputs.
type Outcome struct {
	Gated          bool // an automatic review ran: blocking findings fail the job
	Gate           gate.Verdict
	ReviewStatus   ReviewStatus
	IssuesFound    int
	BlockingIssues int
	TasksExecuted  int
	// Stats is the precision stats as JSON when the run recorded a closed
	// pull request's outcome, "" otherwise.
	Stats string
}

// Output is one of the action's outputs: the one place it is declared.
// action.yml's outputs and docs/outputs.md are generated from Outputs (go
// test ./internal/reference -update).
type Output struct {
	Name  string
	Doc   string
	Value func(Outcome) string
}

// Outputs are the action's outputs, in the order the reference lists
// them; a new output is one line here.
var Outputs = []Output{
	{"review_status", "What the run's review concluded: " + statusList() + ".", func(o Outcome) string { return string(o.ReviewStatus) }},
	{"issues_found", "Findings the run's review posted (0 without a review).", func(o Outcome) string { return strconv.Itoa(o.IssuesFound) }},
	{"blocking_issues", "Open blocking findings on the PR after the run (what the merge gate sees).", func(o Outcome) string { return strconv.Itoa(o.BlockingIssues) }},
	{"has_blocking_issues", "true when blocking_issues > 0.", func(o Outcome) string { return strconv.FormatBool(o.BlockingIssues > 0) }},
	{"tasks_executed", "Tasks the run completed (disputes, questions, review).", func(o Outcome) string { return strconv.Itoa(o.TasksExecuted) }},
	{"precision_stats", "When the run recorded a closed pull request's outcome: the stats of the outcome ledger as JSON (last 20 PRs, the 20 before, all time; see docs/stats.md). Empty otherwise.", func(o Outcome) string { return o.Stats }},
}

// statusList is "clean, blocking, ... or failed".
func statusList() string {
	names := make([]string, len(ReviewStatuses))
	for i, s := range ReviewStatuses {
		names[i] = string(s.Status)
	}
	return strings.Join(names[:len(names)-1], ", ") + ", or " + names[len(names)-1]
}

// Failed is the outcome of a run that stopped before its work.
func Failed() Outcome { return Outcome{ReviewStatus: ReviewFailed} }

// SetReview says what became of the run's review (with none, the status
// stays as it was). A review another run at work holds is that run's: it
// gates its own job, and this one does not mirror a gate it did not set.
func (o *Outcome) SetReview(res execution.Result) {
	switch r, ok := res.Review(); {
	case !ok:
	case r.Claimed:
		o.Gated = false
	case r.Err != nil:
		o.ReviewStatus = ReviewFailed
	case r.Blocking > 0:
		o.ReviewStatus, o.IssuesFound = ReviewBlocking, r.Findings
	case !r.Covered():
		o.ReviewStatus, o.IssuesFound = ReviewPartial, r.Findings
	case r.Findings > 0:
		o.ReviewStatus, o.IssuesFound = ReviewFindings, r.Findings
	default:
		o.ReviewStatus = ReviewClean
	}
}

// SetStats takes the precision stats of an outcome the run recorded.
func (o *Outcome) SetStats(res execution.Result) {
	for _, r := range res.Outcomes {
		if r.Err == nil && r.StatsJSON != "" {
			o.Stats = r.StatsJSON
		}
	}
}

// Line is a line the run logs about how it ends: an error (a reason the job
// fails) or a warning.
type Line struct {
	Error bool
	Text  string
}

// Exit is how the job ends, and why: failed tasks, and a gated run's
// blocking findings or pending gate, fail it; a manual review's blocking
// findings are only a warning (the gateContext status carries them).
func (o Outcome) Exit(res execution.Result, gateContext string) (int, []Line) {
	code, lines := ExitOK, []Line(nil)
	if n := res.Failed(); n > 0 {
		lines = append(lines, Line{true, fmt.Sprintf("%d of %d task(s) failed; they stay pending and the next run retries them", n, len(res.Outcomes))})
		code = ExitFailed
	}
	switch {
	case o.Gated && o.BlockingIssues > 0:
		lines = append(lines, Line{true, fmt.Sprintf("merge gate: %d open blocking finding(s) after the automatic review", o.BlockingIssues)})
		code = ExitFailed
	case o.Gated && o.Gate.State == gate.Pending && res.Failed() == 0:
		lines = append(lines, Line{true, "merge gate pending: " + o.Gate.Description})
		code = ExitFailed
	case o.Gated && o.Gate.State == gate.Failure:
		// Another open PR of the same head holds the commit's gate.
		lines = append(lines, Line{true, "merge gate: " + o.Gate.Description})
		code = ExitFailed
	case o.ReviewStatus != ReviewSkipped && o.BlockingIssues > 0:
		lines = append(lines, Line{false, fmt.Sprintf("%d open blocking finding(s); this run's review was manual, so the job does not fail (the %s status does)", o.BlockingIssues, gateContext)})
	}
	return code, lines
}
