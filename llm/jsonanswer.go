package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// JSONAsker is what AskJSON needs: a *Session, or a fake in tests.
type JSONAsker interface {
	AskSchema(ctx context.Context, label Label, prompt string, schema *Schema) (Reply, error)
}

// AskJSON asks for an answer that is JSON matching T's schema (see Schema
// for how T describes it) and decodes it. It is the one way to get a
// structured answer: the schema is generated from T, checked for strict
// mode on first use and cached. T is only decoded from an answer that
// matched the schema; on any error the zero T is returned.
func AskJSON[T any](ctx context.Context, s JSONAsker, label Label, prompt string) (T, Reply, error) {
	var out T
	schema, err := SchemaFor[T]()
	if err != nil {
		return out, Reply{}, fmt.Errorf("llm: %s: %w", label, err)
	}
	reply, err := s.AskSchema(ctx, label, prompt, schema)
	if err != nil {
		return out, reply, err
	}
	if err := json.Unmarshal([]byte(reply.Text), &out); err != nil {
		var zero T
		return zero, reply, fmt.Errorf("llm: %s: %w: the answer does not fit schema %q: %v", label, ErrBadResponse, schema.Name(), err)
	}
	return out, reply, nil
}

// AskSchema is Ask for an answer that must be JSON matching schema; use
// AskJSON, which makes the schema from a Go type and decodes the answer.
// It requests strict structured output (response_format json_schema)
// unless Options.PromptJSON is set or the endpoint rejected it before;
// then the schema goes into the prompt. An answer that does not parse or
// match the schema is sent back once with the error; a second failure is
// an ErrBadResponse. Reply.Text is the JSON, code fences removed.
func (s *Session) AskSchema(ctx context.Context, label Label, prompt string, schema *Schema) (Reply, error) {
	t := s.newTurn()
	defer s.record(label, t)
	if err := s.precheck(prompt); err != nil {
		return t.reply, fmt.Errorf("llm: %s: %w", label, err)
	}
	if schema == nil {
		return t.reply, fmt.Errorf("llm: %s: nil schema (use AskJSON)", label)
	}
	inPrompt := s.client.promptJSON.Load()
	err := s.askJSON(ctx, t, prompt, schema, inPrompt)
	if err != nil && !inPrompt && rejectsResponseFormat(err) {
		s.client.promptJSON.Store(true)
		err = s.askJSON(ctx, t, prompt, schema, true)
	}
	if err != nil {
		return t.reply, fmt.Errorf("llm: %s: %w", label, err)
	}
	return t.reply, nil
}

func (s *Session) askJSON(ctx context.Context, t *turn, prompt string, schema *Schema, inPrompt bool) error {
	var rf *responseFormat
	name := schema.Name()
	if inPrompt {
		prompt += fmt.Sprintf("\n\nAnswer with only a JSON value matching the JSON Schema %q below; no prose, no code fences.\n%s", name, schema.wire)
	} else {
		rf = &responseFormat{Type: "json_schema", JSONSchema: &jsonSchema{Name: name, Schema: schema.wire, Strict: true}}
	}
	t.reset(userMessage(prompt))
	var perr error
	for try := 0; try < 2; try++ {
		if try > 0 {
			t.add(userMessage(fmt.Sprintf(
				"Your answer could not be used: %v. Answer again with only the JSON value matching the schema %q.", perr, name)))
		}
		text, err := s.loop(ctx, t, rf)
		if err != nil {
			return err
		}
		clean := answerJSON(text)
		if perr = schema.Validate(clean); perr == nil {
			t.reply.Text = clean
			return nil
		}
	}
	return fmt.Errorf("%w: the answer does not match schema %q after one correction: %v", ErrBadResponse, name, perr)
}

// rejectsResponseFormat reports an endpoint refusing structured output, as
// some models behind OpenRouter and older local servers do.
func rejectsResponseFormat(err error) bool {
	var e *Error
	if !errors.As(err, &e) || !errors.Is(e.Kind, ErrRejected) {
		return false
	}
	d := strings.ToLower(e.Detail)
	return strings.Contains(d, "response_format") || strings.Contains(d, "json_schema") || strings.Contains(d, "structured output")
}

// reasoningBlock is a reasoning block some models put before the answer
// in its text: gpt-oss's <reasoning>, DeepSeek-R1's and Qwen's <think>.
var reasoningBlock = regexp.MustCompile(`(?is)<(reasoning|think|thinking)>.*?</(?:reasoning|think|thinking)>`)

// maxJSONStarts bounds how many places answerJSON tries a value from, and
// maxJSONScan the answer it looks through: each try may read to the end.
const (
	maxJSONStarts = 64
	maxJSONScan   = 256 << 10
)

// answerJSON is the JSON value in a model's answer: the answer itself, the
// body of its first code fence, or, after reasoning (a reasoning block, or
// prose as gpt-oss writes it before the JSON), the value that runs to the
// end of the text from the earliest { or [ it can. The schema check that
// follows decides whether it is the answer.
func answerJSON(text string) string {
	text = strings.TrimSpace(reasoningBlock.ReplaceAllString(text, ""))
	clean := stripFences(text)
	if json.Valid([]byte(clean)) {
		return clean
	}
	if len(text) > maxJSONScan {
		return clean
	}
	tries := 0
	for i := 0; i < len(text) && tries < maxJSONStarts; i++ {
		if text[i] != '{' && text[i] != '[' {
			continue
		}
		tries++
		dec := json.NewDecoder(strings.NewReader(text[i:]))
		var v json.RawMessage
		if dec.Decode(&v) == nil && strings.TrimSpace(text[i+int(dec.InputOffset()):]) == "" {
			return string(v)
		}
	}
	return clean
}

// stripFences returns the body of the first ``` fenced block in text, or
// text trimmed when it has none.
func stripFences(text string) string {
	text = strings.TrimSpace(text)
	start := strings.Index(text, "```")
	if start < 0 {
		return text
	}
	body := text[start+3:]
	if nl := strings.IndexByte(body, '\n'); nl >= 0 {
		body = body[nl+1:] // drop the info string, e.g. "json"
	} else {
		return text
	}
	if end := strings.Index(body, "```"); end >= 0 {
		body = body[:end]
	}
	return strings.TrimSpace(body)
}
