package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/review-my-code-bot/rmc/internal/golden"
	"github.com/review-my-code-bot/rmc/llm/fakellm"
)

// lineNo is a line number from 1 to 1000.
type lineNo int

func (lineNo) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "integer", Minimum: jsonschema.Ptr(1.0), Maximum: jsonschema.Ptr(1000.0)}
}

// speed is one of two words.
type speed string

func (speed) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", Enum: []any{"fast", "slow"}}
}

type span struct {
	From lineNo `json:"from"`
	To   lineNo `json:"to,omitempty"`
}

type probeArgs struct {
	Path  string   `json:"path" jsonschema:"File to read."`
	Line  lineNo   `json:"line,omitempty" jsonschema:"A line of it."`
	Speed speed    `json:"speed,omitempty"`
	Span  *span    `json:"span,omitempty"`
	Tags  []string `json:"tags,omitempty"`
	Ratio float64  `json:"ratio,omitempty"`
	Quiet bool     `json:"quiet,omitempty"`
	Count int      `json:"count,omitempty"`
}

func probeTool(got *probeArgs) Tool {
	return MustTool("probe", "Probe a file.", `{"path": "a.go", "line": 3}`, func(_ context.Context, a probeArgs) (string, error) {
		*got = a
		return "ok", nil
	})
}

// The parameters schema is the argument struct's: descriptions from the
// tags, a minimum and an enum from the field types' JSONSchema methods,
// omitempty fields optional, unknown properties refused.
func TestMustToolSchema(t *testing.T) {
	t.Parallel()
	var got probeArgs
	tool := probeTool(&got)
	b, err := json.Marshal(tool.Parameters)
	if err != nil {
		t.Fatal(err)
	}
	golden.Assert(t, "schema/probe-tool.json", string(b))
	if tool.Name != "probe" || tool.Description != "Probe a file." {
		t.Errorf("tool = %q, %q", tool.Name, tool.Description)
	}
	// Each tool gets its own copy of the schema.
	tool.Parameters["type"] = "changed"
	if again := probeTool(&got); again.Parameters["type"] != "object" {
		t.Errorf("a tool's parameters changed another's: %v", again.Parameters["type"])
	}
}

// A call's arguments are normalised, validated by the library, then
// decoded; a bad call's error names the argument and what it must be.
func TestMustToolArguments(t *testing.T) {
	t.Parallel()
	const hint = `; expected a JSON object like {"path": "a.go", "line": 3}`
	tests := map[string]struct {
		args    string
		want    probeArgs
		wantErr string
	}{
		"plain":                    {args: `{"path": "a.go", "line": 3}`, want: probeArgs{Path: "a.go", Line: 3}},
		"every kind":               {args: `{"path": "a", "speed": "slow", "tags": ["x"], "ratio": 0.5, "quiet": true, "count": -2}`, want: probeArgs{Path: "a", Speed: "slow", Tags: []string{"x"}, Ratio: 0.5, Quiet: true, Count: -2}},
		"numeric string":           {args: `{"path": "a", "line": "10"}`, want: probeArgs{Path: "a", Line: 10}},
		"whole float":              {args: `{"path": "a", "line": 10.0}`, want: probeArgs{Path: "a", Line: 10}},
		"exponent":                 {args: `{"path": "a", "line": "1e2", "count": 1.5e1}`, want: probeArgs{Path: "a", Line: 100, Count: 15}},
		"empty string integer":     {args: `{"path": "a", "line": "", "count": ""}`, want: probeArgs{Path: "a"}},
		"null arguments":           {args: `{"path": "a", "line": null, "speed": null, "span": null, "tags": null}`, want: probeArgs{Path: "a"}},
		"nested quirks":            {args: `{"path": "a", "span": {"from": "4", "to": ""}}`, want: probeArgs{Path: "a", Span: &span{From: 4}}},
		"nested null":              {args: `{"path": "a", "span": {"from": 4.0, "to": null}}`, want: probeArgs{Path: "a", Span: &span{From: 4}}},
		"exact big integer":        {args: `{"path": "a", "count": "9007199254740993"}`, want: probeArgs{Path: "a", Count: 9007199254740993}},
		"below the minimum":        {args: `{"path": "a", "line": -1}`, wantErr: `line must be a whole number from 1 to 1000, not -1`},
		"zero for the default":     {args: `{"path": "a", "line": 0, "count": 0}`, want: probeArgs{Path: "a"}},
		"above the maximum":        {args: `{"path": "a", "line": "1001"}`, wantErr: `line must be a whole number from 1 to 1000, not 1001`},
		"fraction":                 {args: `{"path": "a", "line": 2.5}`, wantErr: `line must be a whole number from 1 to 1000, not 2.5`},
		"plain int fraction":       {args: `{"path": "a", "count": "2.5"}`, wantErr: `count must be a whole number, not "2.5"`},
		"not in the enum":          {args: `{"path": "a", "speed": "warp"}`, wantErr: `speed must be one of ["fast","slow"], not "warp"`},
		"wrong item":               {args: `{"path": "a", "tags": ["x", 2]}`, wantErr: `tags must be an array, not ["x",2]`},
		"string for a bool":        {args: `{"path": "a", "quiet": "yes"}`, wantErr: `quiet must be true or false, not "yes"`},
		"string for a number":      {args: `{"path": "a", "ratio": "0.5"}`, wantErr: `ratio must be a number, not "0.5"`},
		"nested bad value":         {args: `{"path": "a", "span": {"from": "x"}}`, wantErr: `span.from must be a whole number from 1 to 1000, not "x"`},
		"nested unknown":           {args: `{"path": "a", "span": {"from": 1, "until": 2}}`, wantErr: `span must be a JSON object, not {"from":1,"until":2}`},
		"nested missing":           {args: `{"path": "a", "span": {}}`, wantErr: `span must be a JSON object, not {}`},
		"missing":                  {args: `{"line": 3}`, wantErr: `missing required argument path`},
		"unknown":                  {args: `{"path": "a", "file": "b"}`, wantErr: `unknown argument "file"; the arguments are: path, line, speed, span, tags, ratio, quiet, count`},
		"unknown before bad":       {args: `{"path": 1, "b": 1, "a": 2}`, wantErr: `unknown argument "a"; the arguments are: path, line, speed, span, tags, ratio, quiet, count`},
		"bad values in order":      {args: `{"speed": 1, "path": 1}`, wantErr: `path must be a string, not 1`},
		"unreadable integer first": {args: `{"file": 1, "path": 1, "count": true}`, wantErr: `count must be a whole number, not true`},
		"not an object":            {args: `[1]`, wantErr: `the arguments must be a JSON object, not an array`},
		"a number":                 {args: `12`, wantErr: `the arguments must be a JSON object, not a number`},
		"not JSON":                 {args: `{path: a}`, wantErr: `not valid JSON: invalid character 'p' looking for beginning of object key string`},
		"two objects":              {args: `{"path": "a"}{"path": "b"}`, wantErr: `not valid JSON: extra text after the arguments object`},
		"value shown shortened":    {args: `{"path": "` + strings.Repeat("é", 100) + `", "speed": "` + strings.Repeat("é", 100) + `"}`, wantErr: `speed must be one of ["fast","slow"], not "` + strings.Repeat("é", 59) + `…`},
		"unknown name shortened":   {args: `{"path": "a", "` + strings.Repeat("k", 100) + `": 1}`, wantErr: `unknown argument "` + strings.Repeat("k", 60) + `"`},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var got probeArgs
			out, err := probeTool(&got).Run(context.Background(), json.RawMessage(tt.args))
			if tt.wantErr != "" {
				want := "invalid arguments (" + tt.wantErr + ")" + hint
				if err == nil || err.Error() != want && !strings.HasPrefix(err.Error(), "invalid arguments ("+tt.wantErr) {
					t.Fatalf("Run(%s) = %q, %v;\nwant the error %s", tt.args, out, err, want)
				}
				return
			}
			if err != nil || out != "ok" {
				t.Fatalf("Run(%s) = %q, %v", tt.args, out, err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Run(%s) decoded %+v %+v, want %+v %+v", tt.args, got, got.Span, tt.want, tt.want.Span)
			}
		})
	}
}

type (
	anyArgs       struct{ X any }
	mapArgs       struct{ M map[string]int }
	nilToolSchema int
	nilArgs       struct{ N nilToolSchema }
	okArgs        struct{ Path string }
	strictArgs    struct {
		Path string `json:"path"`
	}
)

func (nilToolSchema) JSONSchema() *jsonschema.Schema { return nil }

// A tool whose arguments have no usable schema, or whose example does not
// fit it, is a mistake in the program: MustTool panics, naming the tool and
// the place.
func TestMustToolRefuses(t *testing.T) {
	t.Parallel()
	run := func(context.Context, int) (string, error) { return "", nil }
	tests := map[string]struct {
		build func()
		want  string
	}{
		"not a struct": {func() { MustTool("t", "", `{}`, run) }, "the arguments must be a struct, not int"},
		"an any field": {func() {
			MustTool("t", "", `{}`, func(context.Context, anyArgs) (string, error) { return "", nil })
		}, "$.X: accepts anything"},
		"a map field": {func() {
			MustTool("t", "", `{}`, func(context.Context, mapArgs) (string, error) { return "", nil })
		}, `$.M: an object must have "additionalProperties": false`},
		"a nil schema": {func() {
			MustTool("t", "", `{}`, func(context.Context, nilArgs) (string, error) { return "", nil })
		}, "JSONSchema: returned nil"},
		"a bad example": {func() {
			MustTool("t", "", `{"file": "a"}`, func(context.Context, okArgs) (string, error) { return "", nil })
		}, `the example {"file": "a"} does not fit the schema: unknown argument "file"`},
		"an example missing a required argument": {func() {
			MustTool("t", "", `{}`, func(context.Context, strictArgs) (string, error) { return "", nil })
		}, "missing required argument path"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			defer func() {
				r := recover()
				if msg := fmt.Sprint(r); r == nil || !strings.Contains(msg, tt.want) || !strings.Contains(msg, `llm.MustTool("t")`) {
					t.Errorf("panic = %v, want one naming the tool and containing %q", r, tt.want)
				}
			}()
			tt.build()
		})
	}
}

// In a session, a bad call's error reaches the model as the tool result,
// the tool does not run, and the corrected call does.
func TestMustToolInSession(t *testing.T) {
	t.Parallel()
	f := newFake(t, fakellm.Config{})
	f.AddRule(fakellm.Rule{LastRole: "user", Reply: fakellm.Reply{
		ToolCalls: []fakellm.ToolCall{fakellm.Call("probe", `{"path": "a.go", "line": "zero"}`)},
	}})
	f.AddRule(fakellm.Rule{Times: 1, LastRole: "tool", ToolResult: "invalid arguments", Reply: fakellm.Reply{
		ToolCalls: []fakellm.ToolCall{fakellm.Call("probe", `{"path": "a.go", "line": "7"}`)},
	}})
	f.AddRule(fakellm.Rule{LastRole: "tool", ToolResult: "ok", Reply: fakellm.Reply{Text: "done"}})
	var got probeArgs
	s := newTestClient(t, f, nil).NewSession("sys", []Tool{probeTool(&got)})
	reply, err := s.Ask(context.Background(), Label{Task: "probe"}, "probe a.go")
	if err != nil {
		t.Fatal(err)
	}
	if reply.Text != "done" || reply.ToolCalls != 2 || got.Line != 7 {
		t.Fatalf("reply = %+v, decoded %+v; want two calls, the second run with line 7", reply, got)
	}
	reqs := f.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	msgs := reqs[1].Messages
	const want = `error: invalid arguments (line must be a whole number from 1 to 1000, not "zero"); expected a JSON object like {"path": "a.go", "line": 3}`
	if last := msgs[len(msgs)-1]; last.Role != "tool" || last.Content != want {
		t.Errorf("tool result = %q, want %q", last.Content, want)
	}
	if params := string(reqs[0].Tools[0].Parameters); !strings.Contains(params, `"line":{"description":"A line of it.","maximum":1000,"minimum":1,"type":"integer"}`) {
		t.Errorf("parameters sent = %s", params)
	}
}

// What checking a call's arguments costs, against decoding them alone.
func BenchmarkMustToolArguments(b *testing.B) {
	var got probeArgs
	tool := probeTool(&got)
	args := json.RawMessage(`{"path": "src/main.go", "line": "120", "span": {"from": 1, "to": 200.0}, "tags": ["a", "b"]}`)
	b.Run("validate and decode", func(b *testing.B) {
		for b.Loop() {
			if _, err := tool.Run(context.Background(), args); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("decode only", func(b *testing.B) {
		plain := json.RawMessage(`{"path": "src/main.go", "line": 120, "span": {"from": 1, "to": 200}, "tags": ["a", "b"]}`)
		for b.Loop() {
			var a probeArgs
			if err := json.Unmarshal(plain, &a); err != nil {
				b.Fatal(err)
			}
		}
	})
}
