package app

import (
	"errors"
	"fmt"
	"strings"

	"github.com/review-my-code-bot/rmc/sanitize"
	"github.com/review-my-code-bot/rmc/snapshot"
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
	writeOutputs(log, Outcome{ReviewStatus: ReviewFailed})
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

// readFailureHint says what to do when the pull request could not be read.
// A token GitHub does not accept fails the same way every time, so that
// hint sends the reader to the token, not to another run.
func readFailureHint(err error) string {
	if errors.Is(err, snapshot.ErrBadCredentials) {
		return "GitHub did not accept the token (the `github_token` input; GITHUB_TOKEN for `rmc plan`): it is mistyped, expired or revoked. " +
			"Give the step a valid token; nothing was written, and the next run after that (any new comment, reply or push) does all pending work."
	}
	return "Nothing is lost: the next run (any new comment, reply or push, or a re-run of this job) does all pending work."
}
