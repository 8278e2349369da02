package summary_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/internal/golden"
	"github.com/review-my-code-bot/rmc/summary"
)

// A failed run's summary and log lines name each problem with the run's
// secrets redacted; a problem quotes what someone typed, so it cannot add
// markup to the summary.
func TestFailure(t *testing.T) {
	t.Parallel()
	const secret = "sk-live-123456"
	f := summary.Failure{Title: "Invalid inputs: the run did nothing",
		Problems: []string{"llm_base_url: not a URL: " + secret + "<img src=x>", "model_timeout: must be 10s–2h, got \"[x](https://evil.example)\""},
		Hint:     "Fix these in the `with:` block.", Secrets: []string{secret}}
	md := f.Markdown()
	golden.Assert(t, "failure.golden", md)
	lines := f.LogLines()
	if len(lines) != 2 || !strings.Contains(lines[0], "not a URL") || !slices.Equal(lines[1:], f.Problems[1:]) {
		t.Errorf("log lines %q", lines)
	}
	for _, out := range append(lines, md) {
		if strings.Contains(out, secret) {
			t.Errorf("the secret is shown: %q", out)
		}
	}
	if unescaped(md, "<img") || unescaped(md, "](https://evil") {
		t.Errorf("a problem adds markup to the summary:\n%s", md)
	}
}

// An event the action does not handle: the parser's error is shown on one
// line, without markup.
func TestNothingToDo(t *testing.T) {
	t.Parallel()
	got := summary.NothingToDo("event \"check_run\" | <b>x</b>\nis not handled")
	if want := "## review-my-code-bot\n\nNothing to do: event \"check_run\" \\| &lt;b>x&lt;/b> is not handled\n"; got != want {
		t.Errorf("NothingToDo = %q, want %q", got, want)
	}
}
