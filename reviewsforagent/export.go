package reviewsforagent

import (
	"fmt"
	"time"

	"github.com/review-my-code-bot/rmc/agentmd"
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
	jsonData, err := norm.MarshalIndent()
	if err != nil {
		return "", "", err
	}
	w, err := writeSubmission(c.Root, c.Diff, jsonData, []byte(agentmd.Markdown(norm.Review(), c.Files)), at)
	return w.JSON, w.MD, err
}
