package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/review-my-code-bot/rmc/internal/jsonnum"
)

// MustTool makes a tool whose arguments are the struct T: its Parameters
// are T's JSON Schema, made by the machinery of [SchemaFor] (jsonschema.For
// with the JSONSchema methods of T's field types), and its Run checks a
// call's arguments against that schema, with the library, before decoding
// them into a T for run.
//
// Unlike an answer schema, a parameters schema is not sent with strict: true,
// so a field may be optional: one marked omitempty is left out of
// "required". A field's description is its `jsonschema:"..."` tag; a
// minimum, an enum and the like come from a named field type's
// JSONSchema method. Unknown arguments are refused.
//
// Models write arguments loosely, so before validation the arguments are
// normalised: null or empty arguments count as {}; an argument that is null
// counts as left out; an integer argument is read by jsonnum's rule ("10",
// 10.0 and 1e1 are 10), and "" counts as left out, as does 0 for an
// optional integer whose minimum is above 0 (models send 0 for "the
// default": a line to start from, a count). This applies to the
// arguments object and to the objects nested in it, not inside arrays.
//
// A bad call gets one error, written for the model: it names the argument
// and says what was expected, then shows example, a valid arguments object.
// MustTool panics when T has no usable schema or example does not fit it:
// both are mistakes in the program, found when the tool is built.
func MustTool[T any](name, description, example string, run func(ctx context.Context, args T) (string, error)) Tool {
	ts, err := toolSchemaOf(reflect.TypeFor[T]())
	if err == nil {
		var probe T
		if derr := ts.decode([]byte(example), &probe); derr != nil {
			err = fmt.Errorf("the example %s does not fit the schema: %w", example, derr)
		}
	}
	if err != nil {
		panic(fmt.Sprintf("llm.MustTool(%q): %v", name, err))
	}
	return Tool{
		Name:        name,
		Description: description,
		Parameters:  ts.parameters(),
		Run: func(ctx context.Context, raw json.RawMessage) (string, error) {
			var args T
			if err := ts.decode(raw, &args); err != nil {
				return "", fmt.Errorf("invalid arguments (%v); expected a JSON object like %s", err, example)
			}
			return run(ctx, args)
		},
	}
}

// toolSchema is the parameters schema of a tool's argument struct.
type toolSchema struct {
	params   []byte             // canonical JSON (sorted keys), as sent
	schema   *jsonschema.Schema // as generated: what normalise and explain read
	resolved *jsonschema.Resolved
	props    map[string]*jsonschema.Resolved // each argument's schema alone, to name a bad one
}

var toolSchemaCache typeCache[*toolSchema]

func toolSchemaOf(t reflect.Type) (*toolSchema, error) {
	return toolSchemaCache.get(t, "argument type", buildToolSchema)
}

func buildToolSchema(t reflect.Type) (*toolSchema, error) {
	if t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("the arguments must be a struct, not %s", t.Kind())
	}
	js, params, err := generateWire(t, false)
	if err != nil {
		return nil, err
	}
	ts := &toolSchema{params: params, schema: js, props: map[string]*jsonschema.Resolved{}}
	if ts.resolved, err = js.CloneSchemas().Resolve(nil); err != nil {
		return nil, fmt.Errorf("schema does not resolve: %w", err)
	}
	for name, p := range js.Properties {
		if ts.props[name], err = p.CloneSchemas().Resolve(nil); err != nil {
			return nil, fmt.Errorf("schema of %s does not resolve: %w", name, err)
		}
	}
	return ts, nil
}

// parameters is the schema as Tool.Parameters holds it: a fresh copy, so
// that no caller can change another tool's.
func (ts *toolSchema) parameters() map[string]any {
	var m map[string]any
	if err := json.Unmarshal(ts.params, &m); err != nil {
		panic(err) // params is JSON this package wrote
	}
	return m
}

// decode normalises, validates and decodes a call's arguments into v. Its
// error says what is wrong, for the model: an integer argument jsonnum
// cannot read first (normalising finds it), then the first problem the
// validator's verdict has, in explain's order.
func (ts *toolSchema) decode(raw []byte, v any) error {
	if t := bytes.TrimSpace(raw); len(t) == 0 || string(t) == "null" {
		raw = []byte("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber() // exact, for jsonnum
	var args any
	if err := dec.Decode(&args); err != nil {
		return fmt.Errorf("not valid JSON: %v", err)
	}
	if dec.More() {
		return fmt.Errorf("not valid JSON: extra text after the arguments object")
	}
	obj, ok := args.(map[string]any)
	if !ok {
		return fmt.Errorf("the arguments must be a JSON object, not %s", jsonKind(args))
	}
	if err := normalise(obj, ts.schema, ""); err != nil {
		return err
	}
	norm, err := json.Marshal(obj)
	if err != nil {
		return err
	}
	var plain map[string]any // numbers as float64: the validator reads json.Number as a string
	if err := json.Unmarshal(norm, &plain); err != nil {
		return err
	}
	if err := ts.resolved.Validate(plain); err != nil {
		return ts.explain(plain, err)
	}
	dec = json.NewDecoder(bytes.NewReader(norm))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("does not fit the expected shape: %w", err)
	}
	return nil
}

// normalise applies the tolerances MustTool describes to obj, in place,
// and reports an integer argument jsonnum cannot read.
func normalise(obj map[string]any, s *jsonschema.Schema, path string) error {
	names := make([]string, 0, len(obj))
	for name := range obj {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		p := s.Properties[name]
		if p == nil {
			continue // unknown: the validator refuses it
		}
		v := obj[name]
		switch {
		case v == nil:
			delete(obj, name)
		case hasType(p, "integer") && v == "":
			delete(obj, name)
		case hasType(p, "integer"):
			b, err := json.Marshal(v)
			if err != nil {
				return err
			}
			n, _, err := jsonnum.Parse(b)
			if err != nil {
				return fmt.Errorf("%s must be %s, not %s", path+name, describe(p), shown(v))
			}
			obj[name] = n
			if n == 0 && p.Minimum != nil && *p.Minimum > 0 && !slices.Contains(s.Required, name) {
				delete(obj, name) // 0 for an optional count or line: the default
			}
		case hasType(p, "object"):
			if sub, ok := v.(map[string]any); ok {
				if err := normalise(sub, p, path+name+"."); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// explain turns the validator's verdict on args into a sentence for the
// model, about the first problem in a fixed order: an unknown argument, a
// bad value (in the struct's field order), a missing required argument.
func (ts *toolSchema) explain(args map[string]any, verdict error) error {
	var unknown []string
	for name := range args {
		if ts.schema.Properties[name] == nil {
			unknown = append(unknown, name)
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		known := strings.Join(ts.schema.PropertyOrder, ", ")
		if known == "" {
			known = "none"
		}
		return fmt.Errorf("unknown argument %.60q; the arguments are: %s", unknown[0], known)
	}
	for _, name := range ts.schema.PropertyOrder {
		if v, ok := args[name]; ok {
			if err := ts.props[name].Validate(v); err != nil {
				return fmt.Errorf("%s must be %s, not %s", name, describe(ts.schema.Properties[name]), shown(v))
			}
		}
	}
	for _, name := range ts.schema.Required {
		if _, ok := args[name]; !ok {
			return fmt.Errorf("missing required argument %s", name)
		}
	}
	return verdict // not one of the above: the library's own words
}

// describe says in words what a schema admits.
func describe(s *jsonschema.Schema) string {
	what := "a valid value"
	types := s.Types
	if s.Type != "" {
		types = []string{s.Type}
	}
	for _, t := range types {
		if w, ok := typeWords[t]; ok && t != "null" {
			what = w
			break
		}
	}
	if len(s.Enum) > 0 {
		what = "one of " + canonicalJSON(s.Enum)
	}
	switch {
	case s.Minimum != nil && s.Maximum != nil:
		what += fmt.Sprintf(" from %g to %g", *s.Minimum, *s.Maximum)
	case s.Minimum != nil:
		what += fmt.Sprintf(" of at least %g", *s.Minimum)
	case s.Maximum != nil:
		what += fmt.Sprintf(" of at most %g", *s.Maximum)
	}
	return what
}

var typeWords = map[string]string{
	"string": "a string", "integer": "a whole number", "number": "a number", "boolean": "true or false",
	"array": "an array", "object": "a JSON object",
}

func hasType(s *jsonschema.Schema, t string) bool {
	return s.Type == t || slices.Contains(s.Types, t)
}

// shown is a value the model sent, in JSON, cut to a readable length.
func shown(v any) string {
	const limit = 60
	text := canonicalJSON(v)
	if len([]rune(text)) > limit {
		text = string([]rune(text)[:limit]) + "…"
	}
	return text
}

func jsonKind(v any) string {
	switch v.(type) {
	case []any:
		return "an array"
	case string:
		return "a string"
	case json.Number, float64:
		return "a number"
	case bool:
		return "a boolean"
	}
	return "a JSON value of another kind"
}
