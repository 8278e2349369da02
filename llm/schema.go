package llm

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/google/jsonschema-go/jsonschema"
)

// Schema is the JSON Schema of a Go type that a model answers with, ready
// for strict structured output and for validation. SchemaFor makes it,
// once per type.
//
// The schema is jsonschema.For's, with two hooks on the Go type:
//
//   - A named type with a method JSONSchema() *jsonschema.Schema (on the
//     value) supplies its own schema wherever it appears in T: that is how
//     a field says what plain Go cannot, e.g. a score from 1 to 10
//     (minimum/maximum), one of a few strings (enum), or an array that is
//     never null. The method is called on the zero value, once.
//   - The root type names the schema: its method SchemaName() string, or
//     else its Go name in snake_case ("matchResult" → "match_result").
//
// The result must be usable as OpenAI strict structured output: the root
// is an object; every object lists all its properties in "required" and
// has "additionalProperties": false (so no maps and no omitempty fields);
// only the keywords strict mode supports are used. A type that breaks
// these rules is refused with an error naming the offending place.
type Schema struct {
	name     string
	typ      reflect.Type
	wire     json.RawMessage // canonical JSON: sorted keys, no spaces
	resolved *jsonschema.Resolved
}

// Name is the schema's name, as sent in response_format and the prompt.
func (s *Schema) Name() string { return s.name }

// JSON is the schema as sent: canonical JSON (sorted keys, no spaces), so
// the same type always gives the same request bytes.
func (s *Schema) JSON() []byte { return slices.Clone(s.wire) }

// Validate checks a JSON text against the schema, then that it decodes
// into the Go type (a number too large for an int field passes the schema
// but not the decoder).
func (s *Schema) Validate(text string) error {
	dec := json.NewDecoder(strings.NewReader(text))
	var v any // numbers as float64: the validator reads json.Number as a string
	if err := dec.Decode(&v); err != nil {
		return fmt.Errorf("not valid JSON: %w", err)
	}
	if dec.More() {
		return fmt.Errorf("not valid JSON: extra text after the JSON value")
	}
	if err := s.resolved.Validate(v); err != nil {
		return err
	}
	if err := json.Unmarshal([]byte(text), reflect.New(s.typ).Interface()); err != nil {
		return fmt.Errorf("does not fit the expected shape: %w", err)
	}
	return nil
}

// SchemaFor returns T's answer schema, built on first use and cached.
func SchemaFor[T any]() (*Schema, error) {
	return schemaOf(reflect.TypeFor[T]())
}

var schemaCache typeCache[*Schema]

func schemaOf(t reflect.Type) (*Schema, error) {
	return schemaCache.get(t, "answer type", buildSchema)
}

// typeCache holds what was built from each Go type, errors included: a
// type's schema is built once per process.
type typeCache[V any] struct{ m sync.Map } // reflect.Type → cacheEntry[V]

type cacheEntry[V any] struct {
	v   V
	err error
}

func (c *typeCache[V]) get(t reflect.Type, what string, build func(reflect.Type) (V, error)) (V, error) {
	if e, ok := c.m.Load(t); ok {
		return e.(cacheEntry[V]).v, e.(cacheEntry[V]).err
	}
	v, err := build(t)
	if err != nil {
		err = fmt.Errorf("%s %s: %w", what, t, err)
	}
	e, _ := c.m.LoadOrStore(t, cacheEntry[V]{v, err})
	return e.(cacheEntry[V]).v, e.(cacheEntry[V]).err
}

// schemaDefiner is a type that supplies its own schema.
type schemaDefiner interface{ JSONSchema() *jsonschema.Schema }

// schemaNamer is a root type that names its schema.
type schemaNamer interface{ SchemaName() string }

func buildSchema(t reflect.Type) (*Schema, error) {
	if t.Kind() == reflect.Pointer {
		return nil, fmt.Errorf("not usable as strict structured output: the root must be an object, not a pointer")
	}
	name, err := schemaName(t)
	if err != nil {
		return nil, err
	}
	js, wire, err := generateWire(t, true)
	if err != nil {
		return nil, err
	}
	resolved, err := js.Resolve(nil)
	if err != nil {
		return nil, fmt.Errorf("schema does not resolve: %w", err)
	}
	return &Schema{name: name, typ: t, wire: wire, resolved: resolved}, nil
}

// generateWire generates t's schema and its canonical wire form (sorted
// keys), checked for what the OpenAI API accepts: strict structured output
// when strict, tool parameters otherwise.
func generateWire(t reflect.Type, strict bool) (*jsonschema.Schema, []byte, error) {
	js, err := generate(t)
	if err != nil {
		return nil, nil, err
	}
	b, err := json.Marshal(js)
	if err != nil {
		return nil, nil, fmt.Errorf("schema does not encode: %w", err)
	}
	var generic any // through a map: sorted keys, the canonical form
	if err := json.Unmarshal(b, &generic); err != nil {
		return nil, nil, err
	}
	if err := checkStrict(generic, "$", true, strict); err != nil {
		if strict {
			return nil, nil, fmt.Errorf("not usable as strict structured output: %w", err)
		}
		return nil, nil, fmt.Errorf("not usable as tool parameters: %w", err)
	}
	wire, err := json.Marshal(generic)
	if err != nil {
		return nil, nil, err
	}
	return js, wire, nil
}

// generate is jsonschema.ForType with the schemas t's types define.
func generate(t reflect.Type) (*jsonschema.Schema, error) {
	own := map[reflect.Type]*jsonschema.Schema{}
	if err := collectSchemas(t, own, map[reflect.Type]bool{}); err != nil {
		return nil, err
	}
	return jsonschema.ForType(t, &jsonschema.ForOptions{TypeSchemas: own})
}

// ArrayOf is the schema of an array of T that is never null, for the
// JSONSchema method of a slice type (jsonschema.For allows null for a
// slice, as encoding/json writes a nil one). It panics when T has no
// schema; SchemaFor turns that into its error.
func ArrayOf[T any]() *jsonschema.Schema {
	items, err := generate(reflect.TypeFor[T]())
	if err != nil {
		panic(err)
	}
	return &jsonschema.Schema{Type: "array", Items: items}
}

func schemaName(t reflect.Type) (string, error) {
	name := snakeCase(t.Name())
	if n, ok := reflect.Zero(t).Interface().(schemaNamer); ok {
		name = n.SchemaName()
	}
	if name == "" {
		return "", fmt.Errorf("an unnamed type needs a SchemaName method")
	}
	if !toolNamePattern.MatchString(name) {
		return "", fmt.Errorf("schema name %q must match %s", name, toolNamePattern)
	}
	return name, nil
}

// snakeCase turns a Go name into a schema name: "matchResult" →
// "match_result".
func snakeCase(s string) string {
	var b strings.Builder
	for i, r := range s {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// collectSchemas walks t and records every named type that defines its
// own schema; it does not look inside those.
func collectSchemas(t reflect.Type, own map[reflect.Type]*jsonschema.Schema, seen map[reflect.Type]bool) error {
	if seen[t] {
		return nil
	}
	seen[t] = true
	if t.Name() != "" && t.Kind() != reflect.Interface {
		if d, ok := reflect.Zero(t).Interface().(schemaDefiner); ok {
			s, err := ownSchema(d)
			if err != nil {
				return fmt.Errorf("%s.JSONSchema: %w", t, err)
			}
			own[t] = s
			return nil
		}
	}
	// Only the kinds that hold other types can lead to more schemas.
	//exhaustive:ignore
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
		return collectSchemas(t.Elem(), own, seen)
	case reflect.Struct:
		for _, f := range reflect.VisibleFields(t) {
			if f.IsExported() {
				if err := collectSchemas(f.Type, own, seen); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// ownSchema calls a type's JSONSchema method; a panic (ArrayOf's) is an
// error.
func ownSchema(d schemaDefiner) (s *jsonschema.Schema, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	if s = d.JSONSchema(); s == nil {
		return nil, fmt.Errorf("returned nil")
	}
	return s, nil
}

// strictKeywords are the JSON Schema keywords OpenAI's strict structured
// output accepts (https://platform.openai.com/docs/guides/structured-outputs,
// "Supported schemas").
var strictKeywords = map[string]bool{
	"type": true, "description": true, "title": true, "enum": true, "const": true, "anyOf": true,
	"properties": true, "required": true, "additionalProperties": true, "items": true,
	"minItems": true, "maxItems": true, "minimum": true, "maximum": true,
	"exclusiveMinimum": true, "exclusiveMaximum": true, "multipleOf": true,
	"pattern": true, "format": true,
}

// checkStrict reports the first place in a schema (decoded JSON) that
// strict structured output would reject. With strict false it checks a
// tool's parameters instead, which are sent without strict: true and so may
// have optional properties (omitempty fields); every other rule holds.
func checkStrict(v any, path string, root, strict bool) error {
	s, ok := v.(map[string]any)
	if v == true {
		return fmt.Errorf("%s: accepts anything (an interface or any field?)", path)
	}
	if !ok {
		return fmt.Errorf("%s: a schema must be an object, not %s", path, canonicalJSON(v))
	}
	for k := range s {
		if !strictKeywords[k] {
			return fmt.Errorf("%s: keyword %q is not supported", path, k)
		}
	}
	types := schemaTypes(s["type"])
	if len(types) == 0 && s["anyOf"] == nil && s["enum"] == nil && s["const"] == nil {
		return fmt.Errorf("%s: no type (an interface or any field?)", path)
	}
	if root && s["type"] != "object" {
		return fmt.Errorf("%s: the root must be an object, not %s", path, canonicalJSON(s["type"]))
	}
	if slices.Contains(types, "object") {
		if err := checkObject(s, path, strict); err != nil {
			return err
		}
	}
	if items, ok := s["items"]; ok {
		if err := checkStrict(items, path+"[]", false, strict); err != nil {
			return err
		}
	}
	if alts, ok := s["anyOf"].([]any); ok {
		for i, a := range alts {
			if err := checkStrict(a, fmt.Sprintf("%s.anyOf[%d]", path, i), false, strict); err != nil {
				return err
			}
		}
	}
	return nil
}

func checkObject(s map[string]any, path string, strict bool) error {
	if ap, ok := s["additionalProperties"].(bool); !ok || ap {
		return fmt.Errorf("%s: an object must have \"additionalProperties\": false (a map is not allowed)", path)
	}
	props, _ := s["properties"].(map[string]any)
	required := map[string]bool{}
	if req, ok := s["required"].([]any); ok {
		for _, r := range req {
			name, _ := r.(string)
			required[name] = true
		}
	}
	names := make([]string, 0, len(props))
	for name := range props {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if strict && !required[name] {
			return fmt.Errorf("%s.%s: every property must be required (drop omitempty; use a pointer for a value that may be null)", path, name)
		}
		if err := checkStrict(props[name], path+"."+name, false, strict); err != nil {
			return err
		}
	}
	return nil
}

func schemaTypes(t any) []string {
	switch tt := t.(type) {
	case string:
		return []string{tt}
	case []any:
		var out []string
		for _, x := range tt {
			if s, ok := x.(string); ok && s != "null" {
				out = append(out, s)
			}
		}
		if len(out) == 0 && len(tt) > 0 {
			return []string{"null"}
		}
		return out
	}
	return nil
}
