package benchmark

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/review-my-code-bot/rmc/llm"
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

// Same asks whether candidate describes the golden issue. The texts go
// into the template as the prompts say: as they are for upstream's
// (byte-identical to its step 3), fenced as data for the local set's.
func (j ModelJudge) Same(ctx context.Context, golden, candidate string) (Verdict, llm.Usage, error) {
	prompt, err := pyFormat(j.Prompts.Judge, map[string]string{
		"golden_comment": j.Prompts.field("golden comment", golden),
		"candidate":      j.Prompts.field("candidate issue", candidate),
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
	prompt, err := pyFormat(j.Prompts.Extract, map[string]string{"comment": j.Prompts.field("review comments", comments)})
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

// ParseVerdict reads a match answer as upstream's step 3 does at the
// pinned commit: any JSON object (json.loads after one fence is removed)
// whose "match" is true in Python's sense (true, a number other than 0, a
// non-empty string, list or object) and whose "confidence" (0 when absent)
// is then compared as a number. Missing or extra members, a confidence
// above 1 and "match": "yes" are all accepted there, so here too. What
// upstream cannot score is an error: text that is not JSON, JSON that is
// not an object (its .get fails), an object whose "error" member is true
// (upstream reads it as a failed call), and a matching answer whose
// confidence is not a number (upstream's comparison raises).
func ParseVerdict(text []byte) (Verdict, error) {
	var obj map[string]json.RawMessage
	if err := decodeOne(text, &obj); err != nil {
		return Verdict{}, err
	}
	if obj == nil {
		return Verdict{}, fmt.Errorf("%w: not a JSON object: %.200q", ErrJudgeAnswer, text)
	}
	if pyTruthy(obj["error"]) {
		return Verdict{}, fmt.Errorf("%w: the answer reports an error: %.200s", ErrJudgeAnswer, obj["error"])
	}
	v := Verdict{Reasoning: reasoningText(obj["reasoning"]), Match: pyTruthy(obj["match"])}
	if !v.Match {
		return v, nil
	}
	conf, ok := pyNumber(obj["confidence"])
	if !ok {
		return Verdict{}, fmt.Errorf("%w: confidence %.50s is not a number", ErrJudgeAnswer, obj["confidence"])
	}
	v.Confidence = conf
	return v, nil
}

// pyTruthy is Python's truth value of a JSON value; an absent one is
// false, as dict.get gives None.
func pyTruthy(raw json.RawMessage) bool {
	var v any
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil {
		return false
	}
	switch x := v.(type) {
	case bool:
		return x
	case float64:
		return x != 0
	case string:
		return x != ""
	case []any:
		return len(x) > 0
	case map[string]any:
		return len(x) > 0
	}
	return false // null
}

// pyNumber reads a confidence as Python compares it: a number, or a bool
// (True is 1); absent is 0.
func pyNumber(raw json.RawMessage) (float64, bool) {
	if len(raw) == 0 {
		return 0, true
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return 0, false
	}
	switch x := v.(type) {
	case float64:
		return x, true
	case bool:
		if x {
			return 1, true
		}
		return 0, true
	}
	return 0, false
}

// reasoningText keeps the judge's reason for the report, whatever its type.
func reasoningText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return strings.TrimSpace(s)
	}
	return strings.TrimSpace(string(raw))
}

// maxIssues bounds an extraction answer: more is a runaway answer, not a
// review.
const maxIssues = 200

// ParseIssues reads an extraction answer as upstream's step 2 does: a JSON
// object with an "issues" member (other members are ignored); an answer
// without it, or one that is not JSON, is an error, and the review's
// comments are then judged as they are. Empty issues are dropped, as step 3
// drops candidates without text; an item that is not a string is an error.
func ParseIssues(text []byte) ([]string, error) {
	var obj map[string]json.RawMessage
	if err := decodeOne(text, &obj); err != nil {
		return nil, err
	}
	raw, ok := obj["issues"]
	if !ok {
		return nil, fmt.Errorf("%w: no issues list: %.200q", ErrJudgeAnswer, text)
	}
	var issues []string
	if err := json.Unmarshal(raw, &issues); err != nil {
		return nil, fmt.Errorf("%w: issues is not a list of strings: %.200q", ErrJudgeAnswer, raw)
	}
	if len(issues) > maxIssues {
		return nil, fmt.Errorf("%w: %d issues, more than %d", ErrJudgeAnswer, len(issues), maxIssues)
	}
	out := []string{}
	for _, s := range issues {
		if strings.TrimSpace(s) != "" {
			out = append(out, s)
		}
	}
	return out, nil
}

// decodeOne reads one JSON value and nothing after it, as json.loads does.
// A value of another type than out's is an error, except null.
func decodeOne(text []byte, out any) error {
	dec := json.NewDecoder(bytes.NewReader(text))
	if err := dec.Decode(out); err != nil {
		return fmt.Errorf("%w: %v: %.200q", ErrJudgeAnswer, err, text)
	}
	if dec.More() {
		return fmt.Errorf("%w: text after the JSON object: %.200q", ErrJudgeAnswer, text)
	}
	return nil
}
