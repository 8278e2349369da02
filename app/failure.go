package app

import (
	"fmt"
	"strings"

	"github.com/review-my-code-bot/rmc/sanitize"
)

// failure is a run that stopped before it could do its work: bad inputs, an
// unusable environment, GitHub out of reach. Such a run still writes its
// outputs (review_status "failed") and a job summary that says why, so a
// workflow that reads them, and the person who opens the run, see the reason.
type failure struct {
	code     int
	title    string   // what stopped the run
	problems []string // each reason, one line each
	hint     string   // what to do about it
}

// fail logs a failure, writes its summary and outputs, and returns its exit
// code. secrets are redacted from both (the runner masks them in the log as
// well, but an input pasted in the wrong place is echoed by its error).
func fail(log *Log, f failure, secrets ...string) int {
	for _, p := range f.problems {
		log.Errorf("%s", sanitize.Redact(p, secrets...))
	}
	log.Summary(f.markdown(secrets))
	writeOutputs(log, Outcome{ReviewStatus: "failed"})
	return f.code
}

func (f failure) markdown(secrets []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## review-my-code-bot — failed\n\n❌ **%s**\n\n", f.title)
	for _, p := range f.problems {
		fmt.Fprintf(&b, "- %s\n", sanitize.InlineMarkdown(sanitize.Redact(p, secrets...)))
	}
	if f.hint != "" {
		fmt.Fprintf(&b, "\n%s\n", f.hint)
	}
	b.WriteString("\n<sub>Nothing was written to the pull request; the outputs say review_status=failed.</sub>\n")
	return b.String()
}

// inputFailure is the failure for invalid inputs: every problem, each naming
// its input.
func inputFailure(err error) failure {
	return failure{code: ExitUsage, title: "Invalid inputs: the run did nothing", problems: splitErrors(err),
		hint: "Fix these in the `with:` block of the step that uses the action (inputs are described in its README)."}
}
