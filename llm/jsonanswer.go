package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// AskJSON is Ask for an answer that must be JSON matching schema, decoded
// into out (a non-nil pointer). It requests strict structured output
// (response_format json_schema) unless Options.PromptJSON is set or the
// endpoint rejected it before; then the schema goes into the prompt. An
// answer that does not parse or match the schema is sent back once with
// the error; a second failure is an ErrBadResponse. Reply.Text is the JSON.
//
// With strict structured output the schema must follow OpenAI's rules:
// every property listed in "required" and "additionalProperties": false.
func (s *Session) AskJSON(ctx context.Context, task, prompt string, schemaName string, schema map[string]any, out any) (Reply, error) {
	s.askMu.Lock()
	defer s.askMu.Unlock()
	t := s.newTurn()
	defer s.record(task, t)
	if err := s.precheck(prompt); err != nil {
		return t.reply, fmt.Errorf("llm: task %q: %w", task, err)
	}
	if err := checkJSONArgs(schemaName, schema, out); err != nil {
		return t.reply, fmt.Errorf("llm: task %q: %w", task, err)
	}
	inPrompt := s.client.promptJSON.Load()
	err := s.askJSON(ctx, t, prompt, schemaName, schema, out, inPrompt)
	if err != nil && !inPrompt && rejectsResponseFormat(err) {
		s.client.promptJSON.Store(true)
		err = s.askJSON(ctx, t, prompt, schemaName, schema, out, true)
	}
	if err != nil {
		return t.reply, fmt.Errorf("llm: task %q: %w", task, err)
	}
	return t.reply, nil
}

func (s *Session) askJSON(ctx context.Context, t *turn, prompt, name string, schema map[string]any, out any, inPrompt bool) error {
	var rf *responseFormat
	if inPrompt {
		prompt += fmt.Sprintf("\n\nAnswer with only a JSON value matching the JSON Schema %q below; no prose, no code fences.\n%s", name, canonicalJSON(schema))
	} else {
		rf = &responseFormat{Type: "json_schema", JSONSchema: &jsonSchema{Name: name, Schema: schema, Strict: true}}
	}
	mark := len(s.history)
	s.history = append(s.history, userMessage(prompt))
	var perr error
	for try := 0; try < 2; try++ {
		if try > 0 {
			s.history = append(s.history, userMessage(fmt.Sprintf(
				"Your answer could not be used: %v. Answer again with only the JSON value matching the schema %q.", perr, name)))
		}
		text, err := s.loop(ctx, t, rf)
		if err != nil {
			s.history = s.history[:mark]
			return err
		}
		var clean string
		if clean, perr = decodeAnswer(text, schema, out); perr == nil {
			t.reply.Text = clean
			return nil
		}
	}
	s.history = s.history[:mark]
	return fmt.Errorf("%w: the answer does not match schema %q after one correction: %v", ErrBadResponse, name, perr)
}

func checkJSONArgs(name string, schema map[string]any, out any) error {
	if !toolNamePattern.MatchString(name) {
		return fmt.Errorf("schema name %q must match %s", name, toolNamePattern)
	}
	if schema == nil {
		return fmt.Errorf("schema %q is nil", name)
	}
	if _, err := json.Marshal(schema); err != nil {
		return fmt.Errorf("schema %q does not encode as JSON: %w", name, err)
	}
	if v := reflect.ValueOf(out); v.Kind() != reflect.Pointer || v.IsNil() {
		return fmt.Errorf("out must be a non-nil pointer, got %T", out)
	}
	return nil
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

// decodeAnswer strips code fences from text, checks it against schema and
// decodes it into out, which is only written when everything succeeds.
func decodeAnswer(text string, schema map[string]any, out any) (string, error) {
	clean := stripFences(text)
	dec := json.NewDecoder(strings.NewReader(clean))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return clean, fmt.Errorf("not valid JSON: %w", err)
	}
	if dec.More() {
		return clean, errors.New("not valid JSON: extra text after the JSON value")
	}
	if err := validate(normalize(schema), v, "$"); err != nil {
		return clean, err
	}
	target := reflect.ValueOf(out).Elem()
	fresh := reflect.New(target.Type())
	if err := json.Unmarshal([]byte(clean), fresh.Interface()); err != nil {
		return clean, fmt.Errorf("does not fit the expected shape: %w", err)
	}
	target.Set(fresh.Elem())
	return clean, nil
}

// normalize round-trips schema through JSON so that Go literals such as
// []string{"a"} read as the []any the validator expects.
func normalize(schema map[string]any) map[string]any {
	b, err := json.Marshal(schema)
	if err != nil {
		return schema
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		return schema
	}
	return out
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

// validate checks v (decoded with UseNumber) against the subset of JSON
// Schema that structured outputs use: type, enum, const, properties,
// required, additionalProperties, items, anyOf. What it cannot check it
// lets through; the decode into out is the last line of defence.
func validate(schema map[string]any, v any, path string) error {
	if alts, ok := schema["anyOf"].([]any); ok {
		var errs []string
		for _, a := range alts {
			sub, _ := a.(map[string]any)
			err := validate(sub, v, path)
			if err == nil {
				return nil
			}
			errs = append(errs, err.Error())
		}
		return fmt.Errorf("%s matches none of anyOf: %s", path, strings.Join(errs, "; "))
	}
	if err := checkType(schema["type"], v, path); err != nil {
		return err
	}
	if c, ok := schema["const"]; ok && !sameJSON(c, v) {
		return fmt.Errorf("%s must be %s", path, canonicalJSON(c))
	}
	if enum, ok := schema["enum"].([]any); ok {
		found := false
		for _, e := range enum {
			found = found || sameJSON(e, v)
		}
		if !found {
			return fmt.Errorf("%s is %s, not one of %s", path, canonicalJSON(v), canonicalJSON(enum))
		}
	}
	switch val := v.(type) {
	case map[string]any:
		return validateObject(schema, val, path)
	case []any:
		if items, ok := schema["items"].(map[string]any); ok {
			for i, e := range val {
				if err := validate(items, e, fmt.Sprintf("%s[%d]", path, i)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func validateObject(schema map[string]any, obj map[string]any, path string) error {
	props, _ := schema["properties"].(map[string]any)
	if req, ok := schema["required"].([]any); ok {
		for _, r := range req {
			if name, _ := r.(string); name != "" {
				if _, ok := obj[name]; !ok {
					return fmt.Errorf("%s is missing required property %q", path, name)
				}
			}
		}
	}
	for k, val := range obj {
		if sub, ok := props[k].(map[string]any); ok {
			if err := validate(sub, val, path+"."+k); err != nil {
				return err
			}
			continue
		}
		switch extra := schema["additionalProperties"].(type) {
		case bool:
			if !extra {
				return fmt.Errorf("%s has unexpected property %q", path, k)
			}
		case map[string]any:
			if err := validate(extra, val, path+"."+k); err != nil {
				return err
			}
		}
	}
	return nil
}

func checkType(t any, v any, path string) error {
	var types []string
	switch tt := t.(type) {
	case string:
		types = []string{tt}
	case []any:
		for _, x := range tt {
			if s, ok := x.(string); ok {
				types = append(types, s)
			}
		}
	default:
		return nil
	}
	got := jsonType(v)
	for _, want := range types {
		if want == got || (want == "number" && got == "integer") {
			return nil
		}
	}
	return fmt.Errorf("%s is %s, want %s", path, got, strings.Join(types, " or "))
}

func jsonType(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case json.Number:
		if _, err := x.Int64(); err == nil {
			return "integer"
		}
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

// sameJSON compares a schema value with a decoded one by their encoding,
// which ignores the json.Number / float64 difference.
func sameJSON(a, b any) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	var na, nb any
	if json.Unmarshal(ja, &na) != nil || json.Unmarshal(jb, &nb) != nil {
		return bytes.Equal(ja, jb)
	}
	return reflect.DeepEqual(na, nb)
}
