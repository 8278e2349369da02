package execution

import (
	"context"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/review-my-code-bot/rmc/llm"
	"github.com/review-my-code-bot/rmc/mention"
	"github.com/review-my-code-bot/rmc/prompts"
)

// Asker is one structured request to a model.
type Asker = llm.JSONAsker

// Classifier decides a mention's intent with the model. It satisfies
// mention.Classifier; detector.Classify falls back to the rules when it errs.
type Classifier struct {
	// NewSession starts a fresh, tool-less conversation per mention, so one
	// comment's text cannot steer how the next is read.
	NewSession func() Asker
}

var _ mention.Classifier = Classifier{}

// intentAnswer is the model's answer.
type intentAnswer struct {
	Intent intent `json:"intent"`
}

func (intentAnswer) SchemaName() string { return "intent" }

type intent string

func (intent) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", Enum: []any{"question", "review", "full-review"}}
}

// Classify asks the model; nonsense is an error, so the rules decide.
func (c Classifier) Classify(ctx context.Context, text string) (mention.Intent, error) {
	prompt, err := prompts.Classify(text)
	if err != nil {
		return "", err
	}
	out, _, err := llm.AskJSON[intentAnswer](ctx, c.NewSession(), llm.Label{Step: "classify"}, prompt)
	if err != nil {
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
