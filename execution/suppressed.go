package execution

import (
	"fmt"
	"strings"

	"github.com/review-my-code-bot/rmc/review"
	"github.com/review-my-code-bot/rmc/sanitize"
)

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
