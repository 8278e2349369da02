package execution

import (
	"context"
	"fmt"

	"github.com/review-my-code-bot/rmc/llm"
	"github.com/review-my-code-bot/rmc/mention"
	"github.com/review-my-code-bot/rmc/prompts"
)

// Asker is one structured request to a model.
type Asker interface {
	AskJSON(ctx context.Context, task, prompt string, schemaName string, schema map[string]any, out any) (llm.Reply, error)
}

// Classifier decides a mention's intent with the model. It satisfies
// mention.Classifier; detector.Classify falls back to the rules when it errs.
type Classifier struct {
	// NewSession starts a fresh, tool-less conversation per mention, so one
	// comment's text cannot steer how the next is read.
	NewSession func() Asker
}

var _ mention.Classifier = Classifier{}

var intentSchema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"intent": map[string]any{"type": "string", "enum": []any{"question", "review", "full-review"}},
	},
	"required":             []any{"intent"},
	"additionalProperties": false,
}

// Classify asks the model; nonsense is an error, so the rules decide.
func (c Classifier) Classify(ctx context.Context, text string) (mention.Intent, error) {
	prompt, err := prompts.Render("classify", text)
	if err != nil {
		return "", err
	}
	var out struct {
		Intent string `json:"intent"`
	}
	if _, err := c.NewSession().AskJSON(ctx, "classify", prompt, "intent", intentSchema, &out); err != nil {
		return "", fmt.Errorf("classify intent: %w", err)
	}
	switch out.Intent {
	case "question":
		return mention.Question, nil
	case "review":
		return mention.ReviewRequest, nil
	case "full-review":
		return mention.FullReviewRequest, nil
	}
	return "", fmt.Errorf("classify intent: model answered %q", out.Intent)
}
