package reviewsforagent

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/review-my-code-bot/rmc/agentmd"
	"github.com/review-my-code-bot/rmc/inbox"
)

// Write writes a submission for c as the page's submit does: normalized
// JSON and agent-ready Markdown in rfa/, atomically. Other producers of
// review comments (the machine review) use it, so every round on disk has the
// same two files in the same format.
func Write(c Changes, sub agentmd.Submission, at time.Time) (jsonPath, mdPath string, err error) {
	if err := sub.Validate(c.Files); err != nil {
		return "", "", fmt.Errorf("invalid review comments: %w", err)
	}
	norm := sub.Normalize(c.Files)
	jsonData, err := exportJSON(norm, c.Reviewed)
	if err != nil {
		return "", "", err
	}
	w, err := writeSubmission(c.Root, c.Diff, jsonData, []byte(agentmd.Markdown(norm.Review(), c.Files)+reviewedMarkdown(c.Reviewed)), at)
	return w.JSON, w.MD, err
}

// exported is a submission's JSON file: the comments, and what they were
// made on (absent for changes whose source is not known).
type exported struct {
	GlobalComment *string                    `json:"globalComment"`
	Comments      []agentmd.SubmittedComment `json:"comments"`
	Reviewed      *inbox.Reviewed            `json:"reviewed,omitempty"`
}

// exportJSON encodes a normalized submission with what was reviewed, as
// agentmd encodes a submission: indented, "<" and "&" as themselves.
func exportJSON(norm agentmd.Submission, r inbox.Reviewed) ([]byte, error) {
	e := exported{GlobalComment: norm.GlobalComment, Comments: norm.Comments}
	if e.Comments == nil {
		e.Comments = []agentmd.SubmittedComment{}
	}
	if r.Source != "" {
		e.Reviewed = &r
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(e); err != nil {
		return nil, fmt.Errorf("encode review submission: %w", err)
	}
	return buf.Bytes(), nil
}

// reviewedMarkdown is the Markdown part naming what was reviewed; "" when
// that is not known.
func reviewedMarkdown(r inbox.Reviewed) string {
	if r.Source == "" {
		return ""
	}
	return inbox.ReviewedMarkdown(r)
}
