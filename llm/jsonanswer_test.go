package llm

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/llm/fakellm"
)

type verdict struct {
	Verdict string   `json:"verdict"`
	Issues  []string `json:"issues"`
}

var verdictSchema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"verdict": map[string]any{"type": "string", "enum": []string{"approve", "comment"}},
		"issues":  map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
	},
	"required":             []string{"verdict", "issues"},
	"additionalProperties": false,
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
		"schema mismatch then valid":  {replies: []string{`{"verdict":"maybe","issues":[]}`, goodJSON}, wantRequests: 2, wantFixNote: `$.verdict is "maybe", not one of ["approve","comment"]`},
		"missing property then valid": {replies: []string{`{"verdict":"approve"}`, goodJSON}, wantRequests: 2, wantFixNote: `missing required property "issues"`},
		"extra text after JSON":       {replies: []string{goodJSON + " and more", goodJSON}, wantRequests: 2, wantFixNote: "extra text"},
		"failing twice":               {replies: []string{"I think it looks fine.", "Still fine!"}, wantErr: ErrBadResponse, wantRequests: 2},
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
			var got verdict
			reply, err := s.AskJSON(context.Background(), "review", "Review this diff.", "verdict", verdictSchema, &got)
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
				if !errors.Is(err, tc.wantErr) || !strings.Contains(err.Error(), `schema "verdict" after one correction`) {
					t.Fatalf("AskJSON error = %v, want %v", err, tc.wantErr)
				}
				if got.Verdict != "" || got.Issues != nil {
					t.Errorf("out was written on failure: %+v", got)
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
	var got verdict
	if _, err := c.NewSession("sys", nil).AskJSON(ctx, "review", "Review.", "verdict", verdictSchema, &got); err != nil {
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
	if _, err := c.NewSession("sys", nil).AskJSON(ctx, "review", "Again.", "verdict", verdictSchema, &got); err != nil {
		t.Fatalf("second AskJSON: %v", err)
	}
	if n := len(f.Requests()); n != 3 {
		t.Errorf("requests = %d, want 3", n)
	}
}

func TestAskJSONArguments(t *testing.T) {
	t.Parallel()
	var v verdict
	tests := map[string]struct {
		name    string
		schema  map[string]any
		out     any
		wantErr string
	}{
		"bad schema name": {name: "my schema", schema: verdictSchema, out: &v, wantErr: `schema name "my schema"`},
		"nil schema":      {name: "v", out: &v, wantErr: `schema "v" is nil`},
		"non-pointer out": {name: "v", schema: verdictSchema, out: v, wantErr: "out must be a non-nil pointer"},
		"nil out":         {name: "v", schema: verdictSchema, out: (*verdict)(nil), wantErr: "out must be a non-nil pointer"},
		"unencodable":     {name: "v", schema: map[string]any{"f": func() {}}, out: &v, wantErr: "does not encode"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t, fakellm.Config{})
			_, err := newTestClient(t, f, nil).NewSession("", nil).AskJSON(context.Background(), "t", "p", tc.name, tc.schema, tc.out)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("AskJSON error = %v, want %q", err, tc.wantErr)
			}
		})
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

func TestValidate(t *testing.T) {
	t.Parallel()
	schema := normalize(map[string]any{
		"type": "object",
		"properties": map[string]any{
			"n":     map[string]any{"type": "integer"},
			"x":     map[string]any{"type": "number"},
			"opt":   map[string]any{"type": []string{"string", "null"}},
			"kind":  map[string]any{"const": "review"},
			"tags":  map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
			"union": map[string]any{"anyOf": []any{map[string]any{"type": "string"}, map[string]any{"type": "boolean"}}},
			"meta":  map[string]any{"type": "object", "additionalProperties": map[string]any{"type": "integer"}},
		},
		"required":             []string{"n"},
		"additionalProperties": false,
	})
	tests := map[string]struct {
		doc     string
		wantErr string
	}{
		"valid":              {doc: `{"n":1,"x":2.5,"opt":null,"kind":"review","tags":["a"],"union":true,"meta":{"a":1}}`},
		"integer for number": {doc: `{"n":1,"x":2}`},
		"float for integer":  {doc: `{"n":1.5}`, wantErr: "$.n is number, want integer"},
		"missing required":   {doc: `{}`, wantErr: `missing required property "n"`},
		"extra property":     {doc: `{"n":1,"zzz":1}`, wantErr: `unexpected property "zzz"`},
		"bad item":           {doc: `{"n":1,"tags":["a",2]}`, wantErr: "$.tags[1] is integer, want string"},
		"bad const":          {doc: `{"n":1,"kind":"other"}`, wantErr: `$.kind must be "review"`},
		"bad union":          {doc: `{"n":1,"union":3}`, wantErr: "matches none of anyOf"},
		"bad extra value":    {doc: `{"n":1,"meta":{"a":"x"}}`, wantErr: "$.meta.a is string, want integer"},
		"not an object":      {doc: `[1]`, wantErr: "$ is array, want object"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var out map[string]any
			_, err := decodeAnswer(tc.doc, schema, &out)
			if tc.wantErr == "" {
				if err != nil {
					t.Fatalf("decodeAnswer: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("decodeAnswer error = %v, want %q", err, tc.wantErr)
			}
		})
	}
}

func TestDecodeAnswerReplacesOut(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		start map[string]int
		doc   string
		want  map[string]int
	}{
		"old keys dropped": {start: map[string]int{"old": 1}, doc: `{"new":2}`, want: map[string]int{"new": 2}},
		"nil map filled":   {doc: `{"a":1}`, want: map[string]int{"a": 1}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			out := tc.start
			if _, err := decodeAnswer(tc.doc, map[string]any{"type": "object"}, &out); err != nil {
				t.Fatal(err)
			}
			got, _ := json.Marshal(out)
			want, _ := json.Marshal(tc.want)
			if string(got) != string(want) {
				t.Errorf("out = %s, want %s", got, want)
			}
		})
	}
}
