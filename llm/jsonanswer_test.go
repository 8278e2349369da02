package llm

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/review-my-code-bot/rmc/internal/golden"
	"github.com/review-my-code-bot/rmc/llm/fakellm"
)

type verdict struct {
	Verdict verdictKind `json:"verdict"`
	Issues  []string    `json:"issues"`
}

// verdictKind is one of two strings: a constraint plain Go cannot state.
type verdictKind string

func (verdictKind) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", Enum: []any{"approve", "comment"}}
}

const goodJSON = `{"verdict":"comment","issues":["nil check missing"]}`

func TestAskJSON(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		replies      []string // answers in order; the last one repeats
		wantErr      error
		wantRequests int
		wantFixNote  string // in the correction prompt
	}{
		"plain JSON":                  {replies: []string{goodJSON}, wantRequests: 1},
		"fenced JSON":                 {replies: []string{"```json\n" + goodJSON + "\n```"}, wantRequests: 1},
		"prose around a fence":        {replies: []string{"Here it is:\n```\n" + goodJSON + "\n```\nHope that helps."}, wantRequests: 1},
		"invalid then valid":          {replies: []string{`{"verdict": "comment", `, goodJSON}, wantRequests: 2, wantFixNote: "not valid JSON"},
		"schema mismatch then valid":  {replies: []string{`{"verdict":"maybe","issues":[]}`, goodJSON}, wantRequests: 2, wantFixNote: `enum: maybe`},
		"missing property then valid": {replies: []string{`{"verdict":"approve"}`, goodJSON}, wantRequests: 2, wantFixNote: `issues`},
		"extra property then valid":   {replies: []string{`{"verdict":"approve","issues":[],"zzz":1}`, goodJSON}, wantRequests: 2, wantFixNote: `zzz`},
		"wrong item type then valid":  {replies: []string{`{"verdict":"approve","issues":["a",2]}`, goodJSON}, wantRequests: 2, wantFixNote: `issues/items: type: 2`},
		"extra text after JSON":       {replies: []string{goodJSON + " and more", goodJSON}, wantRequests: 2, wantFixNote: "extra text"},
		"failing twice":               {replies: []string{"I think it looks fine.", "Still fine!"}, wantErr: ErrBadResponse, wantRequests: 2},
		// gpt-oss writes its analysis before the answer when a server does
		// not split the harmony channels
		// (https://cookbook.openai.com/articles/openai-harmony); Amazon Bedrock
		// returns it in <reasoning> tags
		// (https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-openai.html).
		"gpt-oss: reasoning text before the JSON":         {replies: []string{"We need to review the diff. It adds a map write without a lock {see line 5}. Output JSON.\n\n" + goodJSON}, wantRequests: 1},
		"gpt-oss on Bedrock: <reasoning> before the JSON": {replies: []string{`<reasoning>The user wants {"verdict": ...}; the nil check is missing.</reasoning>` + goodJSON}, wantRequests: 1},
		"<think> then a fenced answer":                    {replies: []string{"<think>Maybe ```approve```? No.</think>\n```json\n" + goodJSON + "\n```"}, wantRequests: 1},
		"reasoning, then JSON the schema refuses":         {replies: []string{`Thinking it over. {"verdict":"maybe","issues":[]}`, goodJSON}, wantRequests: 2, wantFixNote: `enum: maybe`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t, fakellm.Config{})
			for i, r := range tc.replies {
				times := 1
				if i == len(tc.replies)-1 {
					times = 0
				}
				f.AddRule(fakellm.Rule{Times: times, Reply: fakellm.Reply{Text: r}})
			}
			s := newTestClient(t, f, nil).NewSession("sys", nil)
			got, reply, err := AskJSON[verdict](context.Background(), s, Label{Task: "review-1", Step: "pass 1"}, "Review this diff.")
			reqs := f.Requests()
			if len(reqs) != tc.wantRequests {
				t.Errorf("requests = %d, want %d", len(reqs), tc.wantRequests)
			}
			rf := reqs[0].ResponseFormat
			if rf == nil || rf.Type != "json_schema" || rf.Name != "verdict" || !rf.Strict || !strings.Contains(string(rf.Schema), `"additionalProperties":false`) {
				t.Errorf("response_format = %+v, want strict json_schema %q", rf, "verdict")
			}
			if tc.wantFixNote != "" {
				fix := reqs[len(reqs)-1].LastUser()
				if !strings.Contains(fix, "could not be used") || !strings.Contains(fix, tc.wantFixNote) {
					t.Errorf("correction prompt = %q, want it to mention %q", fix, tc.wantFixNote)
				}
			}
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) || !strings.Contains(err.Error(), `schema "verdict" after one correction`) ||
					!strings.Contains(err.Error(), `task "review-1" (pass 1)`) {
					t.Fatalf("AskJSON error = %v, want %v", err, tc.wantErr)
				}
				if got.Verdict != "" || got.Issues != nil {
					t.Errorf("a value was decoded on failure: %+v", got)
				}
				return
			}
			if err != nil {
				t.Fatalf("AskJSON: %v", err)
			}
			if got.Verdict != "comment" || len(got.Issues) != 1 || reply.Text != goodJSON {
				t.Errorf("decoded %+v, reply text %q", got, reply.Text)
			}
		})
	}
}

// rating has the constraints the library's validator must enforce:
// minimum/maximum from a type's own schema, an enum, a nested object.
type rating struct {
	Score score    `json:"score"`
	Kind  kind     `json:"kind"`
	Note  string   `json:"note" jsonschema:"one sentence"`
	Tags  []string `json:"tags"`
	Where struct {
		Line int `json:"line"`
	} `json:"where"`
}

type score int

func (score) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "integer", Minimum: jsonschema.Ptr(1.0), Maximum: jsonschema.Ptr(10.0)}
}

type kind string

func (kind) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", Enum: []any{"bug", "style"}}
}

const goodRating = `{"score":7,"kind":"bug","note":"n","tags":null,"where":{"line":3}}`

// TestAskJSONCorrectsConstraints: an answer outside the type's minimum,
// maximum or enum is sent back once, and the corrected one is decoded.
func TestAskJSONCorrectsConstraints(t *testing.T) {
	t.Parallel()
	tests := map[string]struct{ first, note string }{
		"above maximum":      {first: `{"score":11,"kind":"bug","note":"n","tags":[],"where":{"line":3}}`, note: "maximum"},
		"below minimum":      {first: `{"score":0,"kind":"bug","note":"n","tags":[],"where":{"line":3}}`, note: "minimum"},
		"not in the enum":    {first: `{"score":5,"kind":"nit","note":"n","tags":[],"where":{"line":3}}`, note: "enum"},
		"nested wrong type":  {first: `{"score":5,"kind":"bug","note":"n","tags":[],"where":{"line":"3"}}`, note: "line"},
		"fraction for int":   {first: `{"score":5.5,"kind":"bug","note":"n","tags":[],"where":{"line":3}}`, note: "integer"},
		"too big for an int": {first: `{"score":5,"kind":"bug","note":"n","tags":[],"where":{"line":1e30}}`, note: "expected shape"},
	}
	for name, tc := range tests {
		for _, promptJSON := range []bool{false, true} {
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				f := newFake(t, fakellm.Config{})
				f.AddRule(fakellm.Rule{Times: 1, Reply: fakellm.Reply{Text: tc.first}})
				f.AddRule(fakellm.Rule{Reply: fakellm.Reply{Text: goodRating}})
				s := newTestClient(t, f, func(o *Options) { o.PromptJSON = promptJSON }).NewSession("sys", nil)
				got, _, err := AskJSON[rating](context.Background(), s, Label{Step: "rate"}, "Rate it.")
				if err != nil {
					t.Fatalf("AskJSON: %v", err)
				}
				reqs := f.Requests()
				if len(reqs) != 2 {
					t.Fatalf("requests = %d, want the answer and one correction", len(reqs))
				}
				if fix := reqs[1].LastUser(); !strings.Contains(fix, "could not be used") || !strings.Contains(fix, tc.note) {
					t.Errorf("correction = %q, want it to mention %q", fix, tc.note)
				}
				if got.Score != 7 || got.Kind != "bug" || got.Where.Line != 3 {
					t.Errorf("decoded %+v", got)
				}
			})
		}
	}
}

// TestAskJSONWireSchema pins the schema generated from the type
// (testdata/schema/rating.json), as sent in response_format and, in prompt
// mode, in the prompt.
func TestAskJSONWireSchema(t *testing.T) {
	t.Parallel()
	schema, err := SchemaFor[rating]()
	if err != nil {
		t.Fatal(err)
	}
	golden.Assert(t, "schema/rating.json", string(schema.JSON()))
	want := string(schema.JSON())
	for _, promptJSON := range []bool{false, true} {
		f := newFake(t, fakellm.Config{})
		f.AddRule(fakellm.Rule{Reply: fakellm.Reply{Text: goodRating}})
		s := newTestClient(t, f, func(o *Options) { o.PromptJSON = promptJSON }).NewSession("sys", nil)
		if _, _, err := AskJSON[rating](context.Background(), s, Label{Step: "rate"}, "Rate it."); err != nil {
			t.Fatalf("AskJSON: %v", err)
		}
		req, _ := f.LastRequest()
		if promptJSON {
			wantPrompt := "Rate it.\n\nAnswer with only a JSON value matching the JSON Schema \"rating\" below; no prose, no code fences.\n" + want
			if req.ResponseFormat != nil || req.LastUser() != wantPrompt {
				t.Errorf("prompt = %q, want %q", req.LastUser(), wantPrompt)
			}
			continue
		}
		if rf := req.ResponseFormat; rf == nil || rf.Name != "rating" || !rf.Strict || string(rf.Schema) != want {
			t.Errorf("response_format = %+v\nschema %s\nwant   %s", rf, rf.Schema, want)
		}
	}
}

func TestAskJSONFallsBackToPromptSchema(t *testing.T) {
	t.Parallel()
	f := newFake(t, fakellm.Config{})
	f.AddRule(fakellm.Rule{
		Match: func(r fakellm.Request) bool { return r.ResponseFormat != nil },
		Reply: fakellm.Reply{Error: &fakellm.APIError{Status: 400, Message: "This model does not support response_format json_schema"}},
	})
	f.AddRule(fakellm.Rule{Reply: fakellm.Reply{JSON: map[string]any{"verdict": "approve", "issues": []string{}}}})
	c := newTestClient(t, f, nil)
	ctx := context.Background()
	got, _, err := AskJSON[verdict](ctx, c.NewSession("sys", nil), Label{Task: "review"}, "Review.")
	if err != nil {
		t.Fatalf("AskJSON: %v", err)
	}
	reqs := f.Requests()
	if len(reqs) != 2 || reqs[1].ResponseFormat != nil || !strings.Contains(reqs[1].LastUser(), `JSON Schema "verdict"`) ||
		len(reqs[1].Messages) != 2 {
		t.Fatalf("requests = %+v, want the rejected one then one with the schema in the prompt", reqs)
	}
	if got.Verdict != "approve" {
		t.Errorf("decoded %+v", got)
	}
	// The client remembers: the next session asks with the prompt at once.
	if _, _, err := AskJSON[verdict](ctx, c.NewSession("sys", nil), Label{Task: "review"}, "Again."); err != nil {
		t.Fatalf("second AskJSON: %v", err)
	}
	if n := len(f.Requests()); n != 3 {
		t.Errorf("requests = %d, want 3", n)
	}
}

// Types strict structured output would reject.
type (
	withOmitempty struct {
		A string `json:"a,omitempty"`
	}
	withMap struct {
		M map[string]int `json:"m"`
	}
	withAny struct {
		V any `json:"v"`
	}
	withFunc struct {
		F func() `json:"f"`
	}
	nested struct {
		Inner []withOmitempty `json:"inner"`
	}
	badName   struct{}
	nilSchema struct {
		N nilDefiner `json:"n"`
	}
	nilDefiner   int
	withNot      struct{ X notDefiner }
	notDefiner   int
	topLevelList []string
	badList      struct {
		L badItems `json:"l"`
	}
	badItems []withMap
	goodList struct {
		L goodItems `json:"l"`
	}
	goodItems  []withNumber
	withNumber struct {
		N score `json:"n"`
	}
)

func (badItems) JSONSchema() *jsonschema.Schema  { return ArrayOf[withMap]() }
func (goodItems) JSONSchema() *jsonschema.Schema { return ArrayOf[withNumber]() }

func (badName) SchemaName() string                { return "my schema" }
func (nilDefiner) JSONSchema() *jsonschema.Schema { return nil }
func (notDefiner) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "integer", Not: &jsonschema.Schema{Const: jsonschema.Ptr[any](3)}}
}

// TestStrictSchemaRefused: a type that would break strict mode is refused
// at its first use, before any request, with an error naming the place.
func TestStrictSchemaRefused(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		ask     func(context.Context, JSONAsker) error
		wantErr string
	}{
		"omitempty":                         {ask: asker[withOmitempty], wantErr: "$.a: every property must be required"},
		"map":                               {ask: asker[withMap], wantErr: `$.m: an object must have "additionalProperties": false`},
		"any":                               {ask: asker[withAny], wantErr: "$.v: accepts anything"},
		"func":                              {ask: asker[withFunc], wantErr: "unsupported"},
		"nested omitempty":                  {ask: asker[nested], wantErr: "$.inner[].a: every property must be required"},
		"unsupported keyword":               {ask: asker[withNot], wantErr: `$.X: keyword "not" is not supported`},
		"root not an object":                {ask: asker[topLevelList], wantErr: "the root must be an object"},
		"root pointer":                      {ask: asker[*verdict], wantErr: "the root must be an object"},
		"anonymous root":                    {ask: asker[struct{ A int }], wantErr: "unnamed type needs a SchemaName method"},
		"bad name":                          {ask: asker[badName], wantErr: `schema name "my schema"`},
		"nil own schema":                    {ask: asker[nilSchema], wantErr: "JSONSchema: returned nil"},
		"own list schema, items not strict": {ask: asker[badList], wantErr: `$.l[].m: an object must have "additionalProperties": false`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t, fakellm.Config{})
			err := tc.ask(context.Background(), newTestClient(t, f, nil).NewSession("", nil))
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("AskJSON error = %v, want %q", err, tc.wantErr)
			}
			if n := len(f.Requests()); n != 0 {
				t.Errorf("requests = %d, want none", n)
			}
		})
	}
}

func asker[T any](ctx context.Context, s JSONAsker) error {
	_, _, err := AskJSON[T](ctx, s, Label{Step: "t"}, "p")
	return err
}

func TestSchemaFor(t *testing.T) {
	t.Parallel()
	l, err := SchemaFor[goodList]()
	if err != nil {
		t.Fatal(err)
	}
	golden.Assert(t, "schema/good-list.json", string(l.JSON()))
	if err := l.Validate(`{"l":null}`); err == nil {
		t.Errorf("ArrayOf allows null")
	}
	a, err := SchemaFor[rating]()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := SchemaFor[rating]()
	if a != b {
		t.Errorf("SchemaFor built the schema twice")
	}
	type matchResult struct {
		OK bool `json:"ok"`
	}
	m, err := SchemaFor[matchResult]()
	if err != nil || m.Name() != "match_result" {
		t.Errorf("SchemaFor[matchResult] = %v, %v; want the name match_result", m, err)
	}
	if err := a.Validate(goodRating); err != nil {
		t.Errorf("Validate(%s) = %v", goodRating, err)
	}
	var back map[string]any
	if err := json.Unmarshal(a.JSON(), &back); err != nil || back["type"] != "object" {
		t.Errorf("JSON() = %s (%v)", a.JSON(), err)
	}
}

// TestAskSchemaNil: the session method refuses a nil schema; AskJSON is
// the way to make one.
func TestAskSchemaNil(t *testing.T) {
	t.Parallel()
	f := newFake(t, fakellm.Config{})
	_, err := newTestClient(t, f, nil).NewSession("", nil).AskSchema(context.Background(), Label{Step: "t"}, "p", nil)
	if err == nil || !strings.Contains(err.Error(), "nil schema") {
		t.Fatalf("AskSchema error = %v, want nil schema", err)
	}
}

func TestStripFences(t *testing.T) {
	t.Parallel()
	tests := map[string]struct{ in, want string }{
		"bare":             {in: " {\"a\":1}\n", want: `{"a":1}`},
		"json fence":       {in: "```json\n{\"a\":1}\n```", want: `{"a":1}`},
		"plain fence":      {in: "```\n[1,2]\n```", want: `[1,2]`},
		"unclosed fence":   {in: "```json\n{\"a\":1}", want: `{"a":1}`},
		"prose and fence":  {in: "Sure:\n```json\n{}\n```\nbye", want: `{}`},
		"inline backticks": {in: "```{}```", want: "```{}```"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if got := stripFences(tc.in); got != tc.want {
				t.Errorf("stripFences(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestLabelString(t *testing.T) {
	t.Parallel()
	for l, want := range map[Label]string{
		{Task: "review-auto-1", Step: "pass 2"}: `task "review-auto-1" (pass 2)`,
		{Task: "question-3"}:                    `task "question-3"`,
		{Step: "classify"}:                      `"classify"`,
	} {
		if got := l.String(); got != want {
			t.Errorf("%+v.String() = %q, want %q", l, got, want)
		}
	}
}
