package summary_test

import (
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/detector"
	"github.com/review-my-code-bot/rmc/execution"
	"github.com/review-my-code-bot/rmc/gate"
	"github.com/review-my-code-bot/rmc/internal/golden"
	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/state"
	"github.com/review-my-code-bot/rmc/summary"
)

// finding is an open finding on a thread, as state.Derive leaves it.
func finding(title, path string, line int, blocking bool, status rmcoc.FindingStatus, url string) state.Finding {
	return state.Finding{Block: rmcoc.Finding{Title: title, Path: path, Line: line, Blocking: blocking, Status: status}, Status: status,
		Thread: snapshot.Thread{Path: path, Line: line, Comments: []snapshot.ReviewComment{{Comment: snapshot.Comment{ID: 1, URL: url}}}}}
}

// The summary lists the open blocking findings after the run (title,
// path:line, thread, what unblocks each), then the others collapsed. Titles
// come from the model and paths from developers: neither can add markup.
func TestSummaryListsOpenFindings(t *testing.T) {
	t.Parallel()
	r := baseReport()
	r.State = openBlocking() // before the run: not what the list shows
	r.Plan = detector.Plan{Tasks: []detector.Task{reviewTask}}
	r.Result = &execution.Result{Outcomes: []execution.Outcome{{Task: reviewTask, Findings: 4, Blocking: 3, Note: "posted review 9: 4 finding(s), 3 blocking"}}}
	after := state.State{Bot: bot, Findings: []state.Finding{
		finding("Unsynchronized map write", "limiter/bucket.go", 5, true, rmcoc.FindingOpen, "https://github.com/o/r/pull/7#discussion_r101"),
		finding("Token logged </details><img src=x onerror=alert(1)> [click](https://evil.example)", "src/**/a|b.go", 12, true, rmcoc.FindingDisputed, "https://github.com/o/r/pull/7#discussion_r102"),
		finding("Close the file", "io/read.go", 0, true, rmcoc.FindingAcknowledged, "javascript:alert(1)"),
		finding("Escalated one", "x.go", 3, true, rmcoc.FindingEscalated, "https://github.com/o/r/pull/7#discussion_r(104)"),
		finding("Name could be clearer", "limiter/bucket.go", 9, false, rmcoc.FindingOpen, "https://github.com/o/r/pull/7#discussion_r105"),
		finding("Fixed already", "limiter/bucket.go", 2, true, rmcoc.FindingResolved, "https://github.com/o/r/pull/7#discussion_r106"),
	}}
	r.After = &after
	r.Gate = &summary.Gate{Gated: true, Verdict: gate.Verdict{State: gate.Failure, Description: "4 open blocking finding(s): fix, or reply in the thread to dispute"}}
	md := r.Markdown(false)
	golden.Assert(t, "summary_findings.golden", md)
	for _, bad := range []string{"<img", "](https://evil", "javascript:", "Fixed already", "(104)"} {
		if unescaped(md, bad) {
			t.Errorf("summary contains %q unescaped", bad)
		}
	}
	blocking, others := section(md, "### Blocking findings (4)", "<details><summary>Open non-blocking"), section(md, "<details><summary>Open non-blocking findings (1)</summary>", "</details>")
	if strings.Count(blocking, "\n- ") != 4 || !strings.Contains(blocking, "limiter/bucket.go:5 — [thread](https://github.com/o/r/pull/7#discussion_r101)") {
		t.Errorf("blocking list:\n%s", blocking)
	}
	if strings.Count(others, "\n- ") != 1 || !strings.Contains(others, "Name could be clearer") {
		t.Errorf("collapsed list:\n%s", others)
	}
}

// A dry run lists what is open now; an executed run whose re-read failed
// lists nothing rather than a stale list.
func TestSummaryFindingsSource(t *testing.T) {
	t.Parallel()
	r := baseReport()
	r.State = state.State{Findings: []state.Finding{finding("Open before", "a.go", 1, true, rmcoc.FindingOpen, "")}}
	if md := r.Markdown(true); !strings.Contains(md, "Open before") {
		t.Errorf("dry run summary misses the open finding:\n%s", md)
	}
	r.Gate = &summary.Gate{}
	if md := r.Markdown(false); strings.Contains(md, "Open before") {
		t.Errorf("executed run without a re-read lists the old state:\n%s", md)
	}
}

// unescaped reports whether s occurs in md without a backslash before it.
func unescaped(md, s string) bool {
	for i := 0; ; {
		j := strings.Index(md[i:], s)
		if j < 0 {
			return false
		}
		if i+j == 0 || md[i+j-1] != '\\' {
			return true
		}
		i += j + 1
	}
}

func section(md, from, to string) string {
	_, rest, ok := strings.Cut(md, from)
	if !ok {
		return ""
	}
	before, _, _ := strings.Cut(rest, to)
	return before
}
