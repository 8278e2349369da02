package app

import (
	"errors"

	"github.com/review-my-code-bot/rmc/outcome"
	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/summary"
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
// code. secrets are redacted from both.
func fail(log *Log, f failure, secrets ...string) int {
	report := summary.Failure{Title: f.title, Problems: f.problems, Hint: f.hint, Secrets: secrets}
	for _, line := range report.LogLines() {
		log.Errorf("%s", line)
	}
	log.Summary(report.Markdown())
	writeOutputs(log, outcome.Failed())
	return f.code
}

// inputFailure is the failure for invalid inputs: every problem, each naming
// its input.
func inputFailure(err error) failure {
	return failure{code: outcome.ExitUsage, title: "Invalid inputs: the run did nothing", problems: splitErrors(err),
		hint: "Fix these in the `with:` block of the step that uses the action (the inputs are described in the action's docs/inputs.md)."}
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
