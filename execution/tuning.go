package execution

import (
	"fmt"
	"strings"

	"github.com/review-my-code-bot/rmc/llm"
	"github.com/review-my-code-bot/rmc/review"
	"github.com/review-my-code-bot/rmc/sanitize"
	"github.com/review-my-code-bot/rmc/state"
)

// Tuning are the settings a repository may set in .github/rmc.yml (or as
// inputs) beyond the thresholds and ignore_paths, and the learnings that
// apply to the PR.
type Tuning struct {
	Passes       []string // review passes that run, by name; empty = all
	MaxInline    int      // inline comments per review; 0 = the review's default
	MaxRunTokens int      // prompt + completion tokens the run may spend; 0 = no ceiling
	Language     string   // what the bot writes in; "" = English
	// Learnings are the repository's; those matching the PR's files drop
	// the new findings they match.
	Learnings state.Learnings
}

// suppressedNote says which findings learnings kept from the review, with
// links to the learnings.
func suppressedNote(sup []review.Suppressed) string {
	if len(sup) == 0 {
		return ""
	}
	var links []string
	seen := map[string]bool{}
	for _, s := range sup {
		if !seen[s.Learning.ID] {
			seen[s.Learning.ID] = true
			links = append(links, fmt.Sprintf("[%s](%s)", s.Learning.ID, s.Learning.URL))
		}
	}
	what := "1 finding suppressed by a learning"
	if len(sup) > 1 {
		what = fmt.Sprintf("%d findings suppressed by learnings", len(sup))
	}
	blocking := 0
	for _, s := range sup {
		if s.Finding.Blocking {
			blocking++
		}
	}
	if blocking > 0 {
		return fmt.Sprintf("%s (%s), %d of them blocking", what, strings.Join(links, ", "), blocking)
	}
	return fmt.Sprintf("%s (%s)", what, strings.Join(links, ", "))
}

// suppressedList names each finding a learning suppressed, with the
// learning's id and the maintainer who confirmed it, so none is dropped
// silently, a blocking one least of all. The title is the model's text.
func (p poster) suppressedList(sup []review.Suppressed) string {
	if len(sup) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n\n<details><summary>Suppressed by learnings (%d)</summary>\n\n", len(sup))
	for _, s := range sup {
		f, kind := s.Finding, "non-blocking"
		if f.Blocking {
			kind = "🔴 blocking"
		}
		fmt.Fprintf(&b, "- %s **%s** (%s, score %d): suppressed by [%s](%s), confirmed by %s\n", sanitize.Code(fmt.Sprintf("%s:%d", f.Path, f.Line)),
			p.fromModelLine(f.Title), kind, f.Score, sanitize.Code(s.Learning.ID), s.Learning.URL, sanitize.Code(s.Learning.ConfirmedBy))
	}
	b.WriteString("\n</details>")
	return b.String()
}

// ceiling is the review's token ceiling: max_run_tokens against the whole
// session's usage.
func (x *reviewRunner) ceiling() review.Ceiling { return ceilingOf(x.Session, x.Options) }

// ceilingOf is the run's token ceiling (max_run_tokens) over the session.
func ceilingOf(s Session, o Options) review.Ceiling {
	u, ok := s.(interface{ Usage() llm.Usage })
	if !ok || o.Tuning.MaxRunTokens <= 0 {
		return review.Ceiling{}
	}
	return review.Ceiling{Max: o.Tuning.MaxRunTokens, Spent: u.Usage}
}
