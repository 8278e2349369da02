package inbox

import (
	"fmt"
	"strings"

	"github.com/review-my-code-bot/rmc/agentmd"
	"github.com/review-my-code-bot/rmc/diff"
)

// ReviewMarkdown is the agent's document of a submitted local review: the
// comments as package agentmd renders them, under a header that names the
// review, what its diff was taken against, and the commands that claim and
// resolve it. The same text is written to rfa/ and shown by inbox get, so
// an agent that was pasted the file and one polling the inbox see the
// same review and settle it in one place.
func ReviewMarkdown(r Record, files []diff.File) string {
	var sub agentmd.Submission
	if r.Submission != nil {
		sub = r.Submission.Submission
	}
	doc := SubmissionMarkdown(sub, files)
	title, rest, _ := strings.Cut(doc, "\n")
	doc = title + "\n\n" + reviewHeader(r) + rest
	if r.Request != nil && r.Request.Reviewed != nil {
		doc += ReviewedMarkdown(*r.Request.Reviewed)
	}
	return doc
}

// QuoteContext is how many lines around its quoted lines each line
// comment shows, so that a comment on a "}" can be found.
const QuoteContext = 3

// SubmissionMarkdown is the agent's document of a person's comments: each
// quote with its hunk header and QuoteContext lines around it, each body
// fenced, since a person's Markdown must not break the document.
func SubmissionMarkdown(sub agentmd.Submission, files []diff.File) string {
	r := sub.Review()
	r.Context, r.FenceBodies = QuoteContext, true
	return agentmd.Markdown(r, files)
}

func reviewHeader(r Record) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Review %s from the reviews-for-agent inbox", r.ID)
	if q := r.Request; q != nil && q.Reviewed != nil {
		b.WriteString(", of " + q.Reviewed.Phrase())
	} else if q != nil {
		against := oneLine(q.Base)
		if q.Commit != "" {
			against = strings.TrimSpace(against + " at commit " + q.Commit)
		}
		if against != "" {
			b.WriteString(", of the uncommitted changes against " + against)
		}
	}
	b.WriteString(".\n")
	fmt.Fprintf(&b, "Before you work on it: `reviews-for-agent inbox claim %s --by NAME`.\n", r.ID)
	fmt.Fprintf(&b, "When you have addressed it: `reviews-for-agent inbox resolve %s --by NAME --note \"what you did\"`.\n", r.ID)
	return b.String()
}
