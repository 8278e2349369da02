package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"
)

// Tool is a function the model may call. [MustTool] makes one whose
// Parameters come from the Go struct its arguments decode into, and whose
// Run validates them first; that is the way to write a tool.
type Tool struct {
	Name        string         // ^[a-zA-Z0-9_-]{1,64}$
	Description string         // what it does and when to use it, for the model
	Parameters  map[string]any // JSON Schema of the arguments object; nil: none
	// Run executes a call. A returned error is shown to the model as the
	// result ("error: ..."), so it can correct itself; it does not end the
	// Ask.
	Run func(ctx context.Context, args json.RawMessage) (string, error)
}

// maxIdenticalCalls is how often one tool may run with the same arguments
// in one Ask; a model that asks again is looping, and the result would not
// change.
const maxIdenticalCalls = 2

var toolNamePattern = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

func checkTools(tools []Tool) error {
	seen := map[string]bool{}
	var errs []string
	for i, t := range tools {
		switch {
		case !toolNamePattern.MatchString(t.Name):
			errs = append(errs, fmt.Sprintf("tool %d: name %q must match %s", i, t.Name, toolNamePattern))
		case seen[t.Name]:
			errs = append(errs, fmt.Sprintf("tool %d: name %q is used twice", i, t.Name))
		case t.Run == nil:
			errs = append(errs, fmt.Sprintf("tool %q has no Run function", t.Name))
		}
		seen[t.Name] = true
	}
	if len(errs) > 0 {
		return errors.New("invalid session tools: " + strings.Join(errs, "; "))
	}
	return nil
}

// toolParams encodes the tool definitions once per session, so every
// request offers them in the same bytes and a schema that cannot be encoded
// is reported by the first Ask rather than by each request.
func toolParams(tools []Tool) ([]toolDef, error) {
	var out []toolDef
	for _, t := range tools {
		params := t.Parameters
		if params == nil {
			// Some providers reject a function without a parameters schema.
			params = map[string]any{"type": "object", "properties": map[string]any{}}
		}
		raw, err := json.Marshal(params)
		if err != nil {
			return nil, fmt.Errorf("invalid session tools: tool %q: parameters do not encode as JSON: %w", t.Name, err)
		}
		out = append(out, toolDef{Type: "function", Function: functionDef{Name: t.Name, Description: t.Description, Parameters: raw}})
	}
	return out, nil
}

// toolRunner executes the tool calls of one Ask.
type toolRunner struct {
	tools     map[string]Tool
	names     string // for the unknown-tool message
	maxOutput int
	seen      map[string]int // name+arguments -> times run
}

func newToolRunner(tools []Tool, maxOutput int) *toolRunner {
	r := &toolRunner{tools: map[string]Tool{}, maxOutput: maxOutput, seen: map[string]int{}}
	var names []string
	for _, t := range tools {
		r.tools[t.Name] = t
		names = append(names, t.Name)
	}
	r.names = strings.Join(names, ", ")
	if r.names == "" {
		r.names = "none"
	}
	return r
}

// run executes one call and returns the text to send back as its result.
func (r *toolRunner) run(ctx context.Context, name, args string) string {
	return truncate(r.result(ctx, name, args), r.maxOutput)
}

func (r *toolRunner) result(ctx context.Context, name, args string) string {
	t, ok := r.tools[name]
	if !ok {
		return fmt.Sprintf("error: unknown tool %q; available tools: %s", name, r.names)
	}
	if strings.TrimSpace(args) == "" {
		args = "{}"
	}
	var parsed any
	if err := json.Unmarshal([]byte(args), &parsed); err != nil {
		return fmt.Sprintf("error: the arguments for %s are not valid JSON (%v); call it again with a JSON object", name, err)
	}
	key := name + "\x00" + canonicalJSON(parsed)
	r.seen[key]++
	if r.seen[key] > maxIdenticalCalls {
		return fmt.Sprintf("error: not run: %s was already called %d times with these same arguments in this task and its result will not change; use the earlier result, try different arguments, or give your answer", name, maxIdenticalCalls)
	}
	out, err := t.Run(ctx, json.RawMessage(args))
	if err != nil {
		return "error: " + err.Error()
	}
	if out == "" {
		// Some providers reject an empty tool message.
		return "(empty result)"
	}
	return out
}

// canonicalJSON re-encodes a decoded value with sorted keys, so that the
// same arguments in another key order count as the same call.
func canonicalJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// truncate keeps the first limit characters of s and says how much was
// cut, so the model knows the result is partial and can ask for less.
func truncate(s string, limit int) string {
	total := utf8.RuneCountInString(s)
	if total <= limit {
		return s
	}
	cut, n := len(s), 0
	for i := range s {
		if n == limit {
			cut = i
			break
		}
		n++
	}
	return s[:cut] + fmt.Sprintf("\n[output truncated: %d of %d characters cut; ask for a narrower range to see the rest]", total-limit, total)
}
