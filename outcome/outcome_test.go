package outcome

import (
	"errors"
	"slices"
	"testing"

	"github.com/review-my-code-bot/rmc/detector"
	"github.com/review-my-code-bot/rmc/execution"
	"github.com/review-my-code-bot/rmc/gate"
	"github.com/review-my-code-bot/rmc/review"
)

var question = execution.Outcome{Task: detector.Task{Key: "question-x", Work: &detector.QuestionTask{}}, Findings: 7}

func withReview(o execution.Outcome) execution.Result {
	o.Task = detector.Task{Key: "review-auto-1234567", Work: &detector.ReviewTask{}}
	return execution.Result{Outcomes: []execution.Outcome{question, o}}
}

// The job's review outputs say what became of the run's review, whichever
// place it ran in among the tasks; a review another run holds leaves the
// job ungated.
func TestSetReview(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		res    execution.Result
		want   ReviewStatus
		issues int
		gated  bool
	}{
		"no review":                       {execution.Result{Outcomes: []execution.Outcome{question}}, ReviewSkipped, 0, true},
		"held by another run":             {withReview(execution.Outcome{Claimed: true}), ReviewSkipped, 0, false},
		"failed":                          {withReview(execution.Outcome{Err: errors.New("boom"), Findings: 2}), ReviewFailed, 0, true},
		"blocking":                        {withReview(execution.Outcome{Findings: 3, Blocking: 1}), ReviewBlocking, 3, true},
		"findings":                        {withReview(execution.Outcome{Findings: 2}), ReviewFindings, 2, true},
		"clean":                           {withReview(execution.Outcome{}), ReviewClean, 0, true},
		"partial, nothing found":          {withReview(execution.Outcome{Unreviewed: []string{"b.go"}}), ReviewPartial, 0, true},
		"partial, findings":               {withReview(execution.Outcome{Findings: 2, Unreviewed: []string{"b.go"}}), ReviewPartial, 2, true},
		"partial and blocking":            {withReview(execution.Outcome{Findings: 2, Blocking: 1, Unreviewed: []string{"b.go"}}), ReviewBlocking, 2, true},
		"a file GitHub sends no diff for": {withReview(execution.Outcome{Skipped: []review.Skip{{Path: "huge.sql", Unreadable: true}}}), ReviewPartial, 0, true},
		"a file skipped by a rule":        {withReview(execution.Outcome{Skipped: []review.Skip{{Path: "vendor/x.go", Why: "vendored"}}}), ReviewClean, 0, true},
	} {
		out := Outcome{ReviewStatus: ReviewSkipped, Gated: true}
		out.SetReview(tc.res)
		if out.ReviewStatus != tc.want || out.IssuesFound != tc.issues || out.Gated != tc.gated {
			t.Errorf("%s: %s, %d issues, gated %v; want %s, %d, %v", name, out.ReviewStatus, out.IssuesFound, out.Gated, tc.want, tc.issues, tc.gated)
		}
	}
}

// How the job ends: a failed task, or a gated run's blocking findings or
// pending gate, fail it; a manual review's blocking findings only warn.
func TestExit(t *testing.T) {
	t.Parallel()
	failed := execution.Result{Outcomes: []execution.Outcome{{Task: question.Task, Err: errors.New("boom")}, question}}
	done := execution.Result{Outcomes: []execution.Outcome{question}}
	pending := gate.Verdict{State: gate.Pending, Description: "not reviewed yet"}
	for name, tc := range map[string]struct {
		out   Outcome
		res   execution.Result
		code  int
		lines []Line
	}{
		"nothing to say":            {out: Outcome{ReviewStatus: ReviewSkipped}, res: done, code: ExitOK},
		"a task failed":             {out: Outcome{ReviewStatus: ReviewFailed}, res: failed, code: ExitFailed, lines: []Line{{true, "1 of 2 task(s) failed; they stay pending and the next run retries them"}}},
		"gated, one blocking":       {out: Outcome{Gated: true, BlockingIssues: 1, ReviewStatus: ReviewBlocking}, res: done, code: ExitFailed, lines: []Line{{true, "merge gate: 1 open blocking finding(s) after the automatic review"}}},
		"gated, none blocking":      {out: Outcome{Gated: true, ReviewStatus: ReviewClean, Gate: gate.Verdict{State: gate.Success}}, res: done, code: ExitOK},
		"gated, pending":            {out: Outcome{Gated: true, Gate: pending}, res: done, code: ExitFailed, lines: []Line{{true, "merge gate pending: not reviewed yet"}}},
		"gated, pending, task died": {out: Outcome{Gated: true, Gate: pending}, res: failed, code: ExitFailed, lines: []Line{{true, "1 of 2 task(s) failed; they stay pending and the next run retries them"}}},
		"manual, one blocking":      {out: Outcome{BlockingIssues: 1, ReviewStatus: ReviewBlocking}, res: done, code: ExitOK, lines: []Line{{false, "1 open blocking finding(s); this run's review was manual, so the job does not fail (the rmc/merge-gate status does)"}}},
		"no review, one blocking":   {out: Outcome{BlockingIssues: 1, ReviewStatus: ReviewSkipped}, res: done, code: ExitOK},
	} {
		code, lines := tc.out.Exit(tc.res, "rmc/merge-gate")
		if code != tc.code || !slices.Equal(lines, tc.lines) {
			t.Errorf("%s: exit %d %+v, want %d %+v", name, code, lines, tc.code, tc.lines)
		}
	}
}

// Every output writes its value from the outcome, and review_status's
// documentation lists every status.
func TestOutputs(t *testing.T) {
	t.Parallel()
	o := Outcome{ReviewStatus: ReviewBlocking, IssuesFound: 4, BlockingIssues: 2, TasksExecuted: 3, Stats: `{"n":20}`}
	got := map[string]string{}
	for _, out := range Outputs {
		got[out.Name] = out.Value(o)
	}
	want := map[string]string{"review_status": "blocking", "issues_found": "4", "blocking_issues": "2", "has_blocking_issues": "true", "tasks_executed": "3", "precision_stats": `{"n":20}`}
	if len(got) != len(want) {
		t.Errorf("outputs %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
	if v := Outputs[3].Value(Outcome{}); v != "false" {
		t.Errorf("has_blocking_issues with none = %q", v)
	}
	if doc := Outputs[0].Doc; doc != "What the run's review concluded: clean, blocking, findings, partial, skipped, or failed." {
		t.Errorf("review_status's doc: %q", doc)
	}
}
