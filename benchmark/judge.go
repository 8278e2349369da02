package benchmark

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/review-my-code-bot/rmc/llm"
	"github.com/review-my-code-bot/rmc/prompts"
)

// Judge decides, as the public benchmark's LLM judge does, whether a
// candidate issue is the same as a golden comment, and splits a review's
// comments into single issues (upstream's extraction step).
type Judge interface {
	Same(ctx context.Context, golden, candidate string) (Verdict, llm.Usage, error)
	Extract(ctx context.Context, comments string) ([]string, llm.Usage, error)
}

// ErrJudgeAnswer marks a judge answer that does not parse: the pair counts
// as no match and the PR's result lists the error.
var ErrJudgeAnswer = errors.New("the judge's answer does not parse")

// judgeAttempts is how often a question is asked when the answer does not
// parse: upstream's pipeline tries three times.
const judgeAttempts = 3

// ModelJudge asks a model, one fresh conversation per question, so that no
// verdict depends on an earlier one. The client should send temperature 0
// (llm.Options.Temperature), as upstream does.
type ModelJudge struct {
	Client  *llm.Client
	Prompts Prompts
}

var _ Judge = ModelJudge{}

// Same asks whether candidate describes the golden issue. Both texts are
// put in the template fenced as data: the candidate is model text.
func (j ModelJudge) Same(ctx context.Context, golden, candidate string) (Verdict, llm.Usage, error) {
	prompt, err := pyFormat(j.Prompts.Judge, map[string]string{
		"golden_comment": prompts.Data("golden comment", golden),
		"candidate":      prompts.Data("candidate issue", candidate),
	})
	if err != nil {
		return Verdict{}, llm.Usage{}, err
	}
	var v Verdict
	u, err := j.ask(ctx, "judge match", j.Prompts.JudgeSystem, prompt, func(text []byte) (err error) {
		v, err = ParseVerdict(text)
		return err
	})
	return v, u, err
}

// Extract splits the review's comments into single issues.
func (j ModelJudge) Extract(ctx context.Context, comments string) ([]string, llm.Usage, error) {
	prompt, err := pyFormat(j.Prompts.Extract, map[string]string{"comment": prompts.Data("review comments", comments)})
	if err != nil {
		return nil, llm.Usage{}, err
	}
	var issues []string
	u, err := j.ask(ctx, "extract issues", j.Prompts.ExtractSystem, prompt, func(text []byte) (err error) {
		issues, err = ParseIssues(text)
		return err
	})
	return issues, u, err
}

// ask puts the question to a fresh session up to judgeAttempts times while
// the answer does not parse; any other failure (rate limit, auth) returns
// at once.
func (j ModelJudge) ask(ctx context.Context, step, system, prompt string, parse func([]byte) error) (llm.Usage, error) {
	var total llm.Usage
	var last error
	for range judgeAttempts {
		reply, err := j.Client.NewSession(system, nil).Ask(ctx, llm.Label{Step: step}, prompt)
		total = total.Add(reply.Usage)
		switch {
		case errors.Is(err, llm.ErrBadResponse):
			last = fmt.Errorf("%w: %w", ErrJudgeAnswer, err)
			continue
		case err != nil:
			return total, err
		}
		if last = parse(unfence(reply.Text)); last == nil {
			return total, nil
		}
	}
	return total, last
}

// unfence removes one Markdown code fence around an answer, as upstream
// does before it parses.
func unfence(text string) []byte {
	t := strings.TrimSpace(text)
	if rest, ok := strings.CutPrefix(t, "```"); ok {
		body, _, _ := strings.Cut(rest, "```")
		body = strings.TrimPrefix(body, "json")
		t = strings.TrimSpace(body)
	}
	return []byte(t)
}

// ParseVerdict reads a match answer strictly: exactly the three fields,
// a non-empty reason, a confidence from 0 to 1, nothing after the object.
func ParseVerdict(text []byte) (Verdict, error) {
	var a struct {
		Reasoning  *string  `json:"reasoning"`
		Match      *bool    `json:"match"`
		Confidence *float64 `json:"confidence"`
	}
	if err := decodeStrict(text, &a); err != nil {
		return Verdict{}, err
	}
	switch {
	case a.Reasoning == nil || a.Match == nil || a.Confidence == nil:
		return Verdict{}, fmt.Errorf("%w: it needs reasoning, match and confidence: %.200q", ErrJudgeAnswer, text)
	case strings.TrimSpace(*a.Reasoning) == "":
		return Verdict{}, fmt.Errorf("%w: the reasoning is empty", ErrJudgeAnswer)
	case *a.Confidence < 0 || *a.Confidence > 1:
		return Verdict{}, fmt.Errorf("%w: confidence %v is outside 0 to 1", ErrJudgeAnswer, *a.Confidence)
	}
	return Verdict{Reasoning: strings.TrimSpace(*a.Reasoning), Match: *a.Match, Confidence: *a.Confidence}, nil
}

// maxIssues bounds an extraction answer: more is a runaway answer, not a
// review.
const maxIssues = 200

// ParseIssues reads an extraction answer strictly: {"issues": [...]} with
// non-empty strings only.
func ParseIssues(text []byte) ([]string, error) {
	var a struct {
		Issues *[]string `json:"issues"` // a pointer: a missing list is an error, not no issues
	}
	if err := decodeStrict(text, &a); err != nil {
		return nil, err
	}
	if a.Issues == nil {
		return nil, fmt.Errorf("%w: no issues list: %.200q", ErrJudgeAnswer, text)
	}
	if len(*a.Issues) > maxIssues {
		return nil, fmt.Errorf("%w: %d issues, more than %d", ErrJudgeAnswer, len(*a.Issues), maxIssues)
	}
	out := make([]string, 0, len(*a.Issues))
	for i, s := range *a.Issues {
		if strings.TrimSpace(s) == "" {
			return nil, fmt.Errorf("%w: issue %d is empty", ErrJudgeAnswer, i+1)
		}
		out = append(out, strings.TrimSpace(s))
	}
	return out, nil
}

func decodeStrict(text []byte, out any) error {
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.DisallowUnknownFields()
	if err := dec.Decode(out); err != nil {
		return fmt.Errorf("%w: %v: %.200q", ErrJudgeAnswer, err, text)
	}
	if dec.More() {
		return fmt.Errorf("%w: text after the JSON object: %.200q", ErrJudgeAnswer, text)
	}
	return nil
}
