package summary_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/review-my-code-bot/rmc/detector"
	"github.com/review-my-code-bot/rmc/event"
	"github.com/review-my-code-bot/rmc/execution"
	"github.com/review-my-code-bot/rmc/gate"
	"github.com/review-my-code-bot/rmc/internal/golden"
	"github.com/review-my-code-bot/rmc/llm"
	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/state"
	"github.com/review-my-code-bot/rmc/summary"
)

const head = "1234567890abcdef1234567890abcdef12345678"

var (
	alice = snapshot.NewActor("alice", "User")
	bot   = snapshot.NewActor("github-actions[bot]", "")
)

func baseReport() summary.Report {
	return summary.Report{
		Repo:  snapshot.Repo{Owner: "o", Name: "r"},
		Event: event.Event{Name: event.IssueComment, Action: "created", Repo: "o/r", PRNumber: 7},
		PR: snapshot.PullRequest{Number: 7, Title: "Cache <b>all</b> the | lookups", URL: "https://github.com/o/r/pull/7", HeadSHA: head,
			Author: alice, State: "OPEN"},
		Bot:      bot,
		Counts:   snapshot.Counts{Reads: 4, Writes: 0, GraphQLCost: 2},
		Comments: 12,
		Threads:  3,
	}
}

// Tasks as detector.Build writes them.
var (
	disputeTask = detector.Task{Key: "dispute-305", Reason: "1 unanswered developer reply on a finding", Work: &detector.DisputeTask{}}
	// A reason holds people's text: a path with a pipe, a login.
	questionTask = detector.Task{Key: "question-review-comment-205",
		Reason: "unanswered question by @alice in a review thread on src/a|b<x>.go:42", Work: &detector.QuestionTask{}}
	reviewTask = detector.Task{Key: "review-auto-1234567", Reason: "pull_request synchronize: automatic review of 1234567 (gates the merge)",
		Work: &detector.ReviewTask{Mode: rmcoc.ModeAuto, Gate: true, HeadSHA: head}}
	manualTask = detector.Task{Key: "review-manual-1234567", Reason: "manual review requested by @alice (informational: does not gate the merge)",
		Work: &detector.ReviewTask{Mode: rmcoc.ModeManual, HeadSHA: head}}
)

func openBlocking() state.State {
	return state.State{Bot: bot, Findings: []state.Finding{
		{Block: rmcoc.Finding{ID: "f-1", Blocking: true}, Status: rmcoc.FindingOpen},
		{Block: rmcoc.Finding{ID: "f-2", Blocking: false}, Status: rmcoc.FindingOpen},
		{Block: rmcoc.Finding{ID: "f-3", Blocking: true}, Status: rmcoc.FindingDisputed},
		{Block: rmcoc.Finding{ID: "f-4", Blocking: true}, Status: rmcoc.FindingResolved},
	}}
}

func reports() map[string]struct {
	report summary.Report
	dry    bool
} {
	cases := map[string]struct {
		report summary.Report
		dry    bool
	}{}

	r := baseReport()
	r.Event = event.Event{Name: event.PullRequest, Action: "synchronize", Repo: "o/r", PRNumber: 7, HeadSHA: head}
	cases["dry_nothing_pending"] = struct {
		report summary.Report
		dry    bool
	}{r, true}

	r = baseReport()
	r.State = openBlocking()
	r.State.Notices = []string{
		"ignored 1 rmcoc block(s) in comment 5 by @mallory: only the bot's own blocks count",
		"skipped a malformed rmcoc block in comment 9: rmcoc block at line 3: unknown type \"<img src=x>\"",
	}
	r.Plan = detector.Plan{
		Tasks:         []detector.Task{disputeTask, questionTask, reviewTask},
		RecordTrigger: &rmcoc.AutoReviewTrigger{HeadSHA: head, Action: "synchronize"},
		Explain:       []state.Ref{{Source: state.SourceIssueComment, ID: 55}},
		Skipped: []detector.Skip{{What: "question by @bob", Why: "failed 3 times already; not retried automatically (mention the bot again to retry)"},
			{What: "automatic review", Why: "the pull request is a draft | <wip>"}},
	}
	cases["dry_planned_gate"] = struct {
		report summary.Report
		dry    bool
	}{r, true}

	r = baseReport()
	r.State = openBlocking()
	r.Plan = detector.Plan{Tasks: []detector.Task{questionTask, reviewTask}}
	r.Result = &execution.Result{Outcomes: []execution.Outcome{
		{Task: questionTask, Note: "answered @alice (1200 prompt tokens, 1000 cached)", URL: "https://github.com/o/r/pull/7#discussion_r9001"},
		{Task: reviewTask, Err: fmt.Errorf("review pass 2 (structure), chunk 1 of 1: %w", &llm.Error{Kind: llm.ErrUnavailable, Status: 503, Attempts: 4, Detail: "upstream | down"})},
	}}
	r.Usage = []llm.TaskUsage{
		{Label: llm.Label{Task: questionTask.Key}, Usage: llm.Usage{Requests: 1, PromptTokens: 700, CachedTokens: 600, CompletionTokens: 50}},
		{Label: llm.Label{Task: reviewTask.Key, Step: "pass 1"}, Usage: llm.Usage{Requests: 1, PromptTokens: 3000, CachedTokens: 0, CompletionTokens: 10}},
		{Label: llm.Label{Task: questionTask.Key}, Usage: llm.Usage{Requests: 1, PromptTokens: 500, CachedTokens: 400, CompletionTokens: 30}},
	}
	r.Total = llm.Usage{Requests: 3, PromptTokens: 4200, CachedTokens: 1000, CompletionTokens: 90}
	r.Counts = snapshot.Counts{Reads: 6, Writes: 3, GraphQLCost: 3}
	r.Gate = &summary.Gate{Gated: true, Verdict: gate.Verdict{State: gate.Failure, Description: "2 open blocking finding(s): fix, or reply in the thread to dispute"}}
	cases["executed_failed_and_done_gated"] = struct {
		report summary.Report
		dry    bool
	}{r, false}

	r = baseReport()
	r.Plan = detector.Plan{Tasks: []detector.Task{manualTask}}
	r.Result = &execution.Result{Outcomes: []execution.Outcome{
		{Task: manualTask, Findings: 2, Blocking: 1, ReviewID: 9002, Note: "posted review 9002: 2 finding(s), 1 blocking (full review)"},
	}}
	r.Usage = []llm.TaskUsage{{Label: llm.Label{Task: manualTask.Key, Step: "pass 1"}, Usage: llm.Usage{Requests: 1, PromptTokens: 100}}}
	r.Total = llm.Usage{Requests: 3, PromptTokens: 300, CachedTokens: 0, CompletionTokens: 20, RateLimitWait: 95 * time.Second}
	r.Gate = &summary.Gate{Verdict: gate.Verdict{State: gate.Failure, Description: "1 open blocking finding(s): fix, or reply in the thread to dispute"}}
	cases["executed_manual_blocking_not_gated"] = struct {
		report summary.Report
		dry    bool
	}{r, false}

	r = baseReport()
	r.State = openBlocking() // before the run; the gate after it is what counts
	r.Plan = detector.Plan{Tasks: []detector.Task{disputeTask}}
	r.Result = &execution.Result{Outcomes: []execution.Outcome{{Task: disputeTask, Note: "dispute from @alice: concession (RESOLVED)"}}}
	r.Gate = &summary.Gate{Verdict: gate.Verdict{State: gate.Success, Description: "1234567 reviewed: no open blocking findings"}}
	cases["executed_green_no_usage"] = struct {
		report summary.Report
		dry    bool
	}{r, false}
	return cases
}

func TestReportMarkdown(t *testing.T) {
	t.Parallel()
	for name, tc := range reports() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			md := tc.report.Markdown(tc.dry)
			golden.Assert(t, "report_"+name+".golden", md)

			title := "## review-my-code-bot\n\n"
			if tc.dry {
				title = "## review-my-code-bot — dry run (nothing was written)\n\n"
			}
			if !strings.HasPrefix(md, title) {
				t.Errorf("summary does not start with %q", title)
			}
			if strings.Contains(md, "<b>") || strings.Contains(md, "<img") || strings.Contains(md, "<wip>") || strings.Contains(md, "<x>") {
				t.Errorf("people's text reaches the summary as HTML:\n%s", md)
			}
			// Every table row has as many cells as its header.
			var cols int
			for _, line := range strings.Split(md, "\n") {
				if !strings.HasPrefix(line, "|") {
					cols = 0
					continue
				}
				n := strings.Count(strings.ReplaceAll(line, `\|`, ""), "|")
				if cols == 0 {
					cols = n
				} else if n != cols {
					t.Errorf("table row has %d separators, header %d: %s", n, cols, line)
				}
			}
		})
	}
}

func TestReportMarkdownGateLines(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		gate     *summary.Gate
		plan     detector.Plan
		before   bool // an open blocking finding before the run
		want     string
		excluded []string
	}{
		"gated run fails the job": {
			gate: &summary.Gate{Gated: true, Verdict: gate.Verdict{State: gate.Failure, Description: "3 open blocking finding(s)"}},
			want: "🔴 **Merge gate: failure** — 3 open blocking finding(s). This automatic review fails the job.\n\n",
		},
		"ungated run only shows the status": {
			gate: &summary.Gate{Verdict: gate.Verdict{State: gate.Failure, Description: "1 open blocking finding(s)"}},
			want: "🔴 **Merge gate: failure** — 1 open blocking finding(s). Shown on the `rmc/merge-gate` status; this run does not fail the job.\n\n",
		},
		"pending": {
			gate: &summary.Gate{Gated: true, Verdict: gate.Verdict{State: gate.Pending, Description: "3 changed file(s) of 1234567 not reviewed yet"}},
			want: "⏳ **Merge gate: pending** — 3 changed file(s) of 1234567 not reviewed yet.\n\n",
		},
		"green": {
			gate:     &summary.Gate{Gated: true, Verdict: gate.Verdict{State: gate.Success, Description: "1234567 reviewed: no open blocking findings"}},
			before:   true,
			want:     "🟢 **Merge gate: success** — 1234567 reviewed: no open blocking findings.\n\n",
			excluded: []string{"before this run"},
		},
		"dry run of a gating review": {
			plan: detector.Plan{Tasks: []detector.Task{reviewTask}},
			want: "🚦 This run's review **gates the merge**: blocking findings fail the job.\n\n",
		},
		"dry run of a manual review says nothing about the gate": {
			plan:     detector.Plan{Tasks: []detector.Task{manualTask}},
			excluded: []string{"Merge gate", "gates the merge", "🔴"},
		},
		"dry run with findings already blocking": {
			plan:     detector.Plan{Tasks: []detector.Task{manualTask}},
			before:   true,
			want:     "🔴 2 open blocking finding(s) on the PR before this run.\n\n",
			excluded: []string{"Merge gate"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r := baseReport()
			r.Plan, r.Gate = tc.plan, tc.gate
			if tc.before {
				r.State = openBlocking()
			}
			if tc.gate != nil {
				r.Result = &execution.Result{}
			}
			md := r.Markdown(tc.gate == nil)
			if tc.want != "" && !strings.Contains(md, tc.want) {
				t.Errorf("summary lacks %q:\n%s", tc.want, md)
			}
			for _, s := range tc.excluded {
				if strings.Contains(md, s) {
					t.Errorf("summary contains %q:\n%s", s, md)
				}
			}
		})
	}
}

func TestReportLogLines(t *testing.T) {
	t.Parallel()
	cases := reports()
	tests := map[string][]string{
		"dry_nothing_pending": {
			"trigger pull_request.synchronize on o/r#7 (head 1234567, bot @github-actions[bot])",
			"read 12 comments, 3 review threads in 4 requests (GraphQL cost 2)",
			"nothing pending",
		},
		"dry_planned_gate": {
			"trigger issue_comment.created on o/r#7 (head 1234567, bot @github-actions[bot])",
			"read 12 comments, 3 review threads in 4 requests (GraphQL cost 2)",
			"record: automatic review requested for 1234567",
			"task 1 [dispute] dispute-305: 1 unanswered developer reply on a finding",
			"task 2 [question] question-review-comment-205: unanswered question by @alice in a review thread on src/a|b<x>.go:42",
			"task 3 [review] review-auto-1234567: pull_request synchronize: automatic review of 1234567 (gates the merge)",
			"explain: manual request issue-comment-55 was dismissed by an automatic review; post the reply",
			"skip question by @bob: failed 3 times already; not retried automatically (mention the bot again to retry)",
			"skip automatic review: the pull request is a draft | <wip>",
		},
	}
	for name, want := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got := cases[name].report.LogLines()
			if !slices.Equal(got, want) {
				t.Errorf("LogLines:\n got:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
			}
		})
	}
}

// TestReportWorkflowDispatchTrigger: an event without an action is named
// by itself.
func TestReportWorkflowDispatchTrigger(t *testing.T) {
	t.Parallel()
	r := baseReport()
	r.Event = event.Event{Name: event.WorkflowDispatch, Repo: "o/r", PRNumber: 7}
	if got, want := r.LogLines()[0], "trigger workflow_dispatch on o/r#7 (head 1234567, bot @github-actions[bot])"; got != want {
		t.Errorf("first line = %q, want %q", got, want)
	}
	if md := r.Markdown(true); !strings.Contains(md, "**workflow_dispatch** on [o/r#7](https://github.com/o/r/pull/7)") {
		t.Errorf("summary does not name the trigger:\n%s", md)
	}
}

// TestReportReviewTokens: a review's model calls (its passes and fix
// checks) carry its task key; the summary shows what the review spent, and
// nothing another task or the run itself spent (a reopened finding's fix
// check, the injection check); the run's own fix checks have their row.
func TestReportReviewTokens(t *testing.T) {
	t.Parallel()
	r := baseReport()
	r.Plan = detector.Plan{Tasks: []detector.Task{reviewTask, disputeTask}}
	r.Result = &execution.Result{Outcomes: []execution.Outcome{{Task: reviewTask, Note: "posted review 9002: 0 finding(s), 0 blocking (full review)"},
		{Task: disputeTask, Note: "maintained"}}}
	r.Usage = []llm.TaskUsage{ // as llm.Session records a run
		{Label: llm.Label{Step: "verify f-1"}, Usage: llm.Usage{Requests: 1, PromptTokens: 900, CompletionTokens: 5}},
		{Label: llm.Label{Task: disputeTask.Key}, Usage: llm.Usage{Requests: 1, PromptTokens: 1000, CompletionTokens: 7}},
		{Label: llm.Label{Task: reviewTask.Key, Step: "pass 1"}, Usage: llm.Usage{Requests: 1, PromptTokens: 3000, CompletionTokens: 40}},
		{Label: llm.Label{Task: reviewTask.Key, Step: "pass 2"}, Usage: llm.Usage{Requests: 1, PromptTokens: 3100, CachedTokens: 2900, CompletionTokens: 30}},
		{Label: llm.Label{Task: reviewTask.Key, Step: "pass 3"}, Usage: llm.Usage{Requests: 1, PromptTokens: 3200, CachedTokens: 3000, CompletionTokens: 20}},
		{Label: llm.Label{Task: reviewTask.Key, Step: "verify f-2"}, Usage: llm.Usage{Requests: 1, PromptTokens: 3300, CachedTokens: 3100, CompletionTokens: 4}},
	}
	r.Total = llm.Usage{Requests: 6, PromptTokens: 14500, CachedTokens: 9000, CompletionTokens: 106}
	r.Gate = &summary.Gate{Gated: true}
	md := r.Markdown(false)
	if !strings.Contains(md, "| 12600 / 9000 / 94 |") || !strings.Contains(md, "| 1000 / 0 / 7 |") {
		t.Errorf("the task rows do not show each task's own tokens:\n%s", md)
	}
	if !strings.Contains(md, "| | 🔁 resolutions | 1 fix check(s) of findings resolved by someone whose resolution does not count | | 900 / 0 / 5 |") {
		t.Errorf("the run-level fix check has no row of its own:\n%s", md)
	}
	r.Usage = r.Usage[1:]
	if md := r.Markdown(false); strings.Contains(md, "🔁 resolutions") {
		t.Errorf("a run without run-level calls shows a resolutions row:\n%s", md)
	}
}
