package summary

import (
	"fmt"
	"strings"

	"github.com/review-my-code-bot/rmc/sanitize"
)

// Failure is a run that stopped before it could do its work: bad inputs, an
// unusable environment, GitHub out of reach. Its log lines and job summary
// say why, with the run's secrets redacted from both (the runner masks them
// in the log as well, but an input pasted in the wrong place is echoed by
// its error).
type Failure struct {
	Title    string   // what stopped the run
	Problems []string // each reason, one line each
	Hint     string   // what to do about it
	Secrets  []string // the run's secrets
}

// LogLines are the failure's problems, redacted, one line each.
func (f Failure) LogLines() []string {
	lines := make([]string, len(f.Problems))
	for i, p := range f.Problems {
		lines[i] = sanitize.Redact(p, f.Secrets...)
	}
	return lines
}

// Markdown renders the job summary of the failed run.
func (f Failure) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "## review-my-code-bot — failed\n\n❌ **%s**\n\n", f.Title)
	for _, p := range f.LogLines() {
		fmt.Fprintf(&b, "- %s\n", sanitize.InlineMarkdown(p))
	}
	if f.Hint != "" {
		fmt.Fprintf(&b, "\n%s\n", f.Hint)
	}
	b.WriteString("\n<sub>Nothing was written to the pull request; the outputs say review_status=failed.</sub>\n")
	return b.String()
}

// NothingToDo is the job summary of a run on an event the action does not
// handle: why tells which (the event parser's error, which names it).
func NothingToDo(why string) string {
	return fmt.Sprintf("## review-my-code-bot\n\nNothing to do: %s\n", mdEscape(why))
}
