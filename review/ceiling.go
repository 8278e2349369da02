package review

import (
	"fmt"
	"strings"

	"github.com/review-my-code-bot/rmc/llm"
)

// Ceiling stops a review before a request would take the run past its token
// budget (max_run_tokens): prompt + completion tokens of every model call
// of the run, the review's and the other tasks'.
type Ceiling struct {
	Max   int              // 0 = no ceiling
	Spent func() llm.Usage // the run's usage so far; nil = no ceiling
}

// Partial says where a review stopped and what it did not cover.
type Partial struct {
	Max, Spent int
	StoppedAt  string // "pass 2 (structure), part 1 of 1"
	// NotCovered are the files some pass did not see whole.
	NotCovered []string
}

func tokens(u llm.Usage) int { return u.PromptTokens + u.CompletionTokens }

// over reports whether a request of about next tokens would take the run
// past the ceiling, and what the run spent so far.
func (c Ceiling) over(next int) (spent int, over bool) {
	if c.Spent == nil {
		return 0, false
	}
	spent = tokens(c.Spent())
	return spent, c.Max > 0 && spent+next > c.Max
}

// Over reports whether a request of about next tokens would take the run
// past the ceiling: other model work of the run (the walkthrough) stops
// where the review would.
func (c Ceiling) Over(next int) bool {
	_, over := c.over(next)
	return over
}

// Note is the partial review's label, for the review body and the summary.
func (p *Partial) Note() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Partial review: the run reached max_run_tokens (%d tokens, %d spent) and stopped before %s.", p.Max, p.Spent, p.StoppedAt)
	if len(p.NotCovered) > 0 {
		fmt.Fprintf(&b, " Not reviewed by every pass: %s.", strings.Join(quoted(p.NotCovered), ", "))
	}
	b.WriteString(" The merge gate stays pending until the next run reviews them.")
	return b.String()
}

// maxListed bounds each list of paths in the note: a partial review of a
// huge PR must not outgrow the review body.
const maxListed = 20

// quoted renders paths (which the PR's author chose) as code spans on one
// line each, at most maxListed of them.
func quoted(paths []string) []string {
	var out []string
	for i, p := range paths {
		if i == maxListed {
			out = append(out, fmt.Sprintf("and %d more", len(paths)-maxListed))
			break
		}
		p = strings.Map(func(r rune) rune {
			if r < 0x20 || r == 0x7f || r == '`' {
				return '?'
			}
			return r
		}, p)
		out = append(out, "`"+p+"`")
	}
	return out
}
