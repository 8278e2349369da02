package llm

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/llm/fakellm"
)

// The fake refuses requests over its window as OpenAI does; the client,
// told the same window, never sends one: tool results that would not fit
// are answered with a note and the answer is forced.
func TestToolResultsKeptUnderTheWindow(t *testing.T) {
	t.Parallel()
	const window = 4000 // tokens; the fake counts 4 bytes a token, the client 3
	tests := map[string]struct {
		results    []string // what each of the round's calls returns
		wantKept   int      // results sent as they are
		wantForced bool
	}{
		"all fit":              {results: []string{"small", "small"}, wantKept: 2},
		"the second would not": {results: []string{strings.Repeat("a", 4000), strings.Repeat("b", 6000)}, wantKept: 1, wantForced: true},
		"the first would not fit, the second does": {results: []string{strings.Repeat("c", 12000), "small"}, wantKept: 1, wantForced: true},
		"one huge result":                          {results: []string{strings.Repeat("d", 40000)}, wantKept: 0, wantForced: true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t, fakellm.Config{ContextTokens: window})
			var calls []fakellm.ToolCall
			for i := range tc.results {
				calls = append(calls, fakellm.Call("lookup", map[string]int{"i": i}))
			}
			f.AddRule(fakellm.Rule{LastRole: "user", Reply: fakellm.Reply{ToolCalls: calls}})
			f.AddRule(fakellm.Rule{LastRole: "tool", Reply: fakellm.Reply{Text: "answer"}})
			i := 0
			tool := Tool{Name: "lookup", Run: func(context.Context, json.RawMessage) (string, error) {
				i++
				return tc.results[i-1], nil
			}}
			c := newTestClient(t, f, func(o *Options) { o.ContextTokens = window; o.MaxToolOutput = 100000 })
			reply, err := c.NewSession("sys", []Tool{tool}).Ask(context.Background(), Label{Task: "t"}, "go")
			if err != nil || reply.Text != "answer" {
				t.Fatalf("Ask = %+v, %v", reply, err)
			}
			last, _ := f.LastRequest()
			kept := 0
			for _, r := range last.ToolResults() {
				if r.Content == contextNote {
					continue
				}
				kept++
			}
			if kept != tc.wantKept || (last.ToolChoice == "none") != tc.wantForced {
				t.Errorf("results kept %d, tool_choice %q; want %d kept, forced %v", kept, last.ToolChoice, tc.wantKept, tc.wantForced)
			}
			for _, r := range f.Requests() {
				if r.Status != 200 {
					t.Errorf("a request was refused (%d): the client sent one over the window", r.Status)
				}
			}
		})
	}
}

// A prompt that cannot fit is not sent: the caller gets ErrContextLength
// at once and can split it.
func TestPromptOverTheWindowIsNotSent(t *testing.T) {
	t.Parallel()
	f := newFake(t, fakellm.Config{})
	f.SetDefault(fakellm.Reply{Text: "answer"})
	c := newTestClient(t, f, func(o *Options) { o.ContextTokens = 8000; o.MaxOutputTokens = 1000 })
	if c.ContextTokens() != 8000 || estimateTokens(300) != 100 {
		t.Fatalf("ContextTokens = %d, estimateTokens(300 bytes) = %d", c.ContextTokens(), estimateTokens(300))
	}
	s := c.NewSession("sys", nil)
	_, err := s.Ask(context.Background(), Label{Task: "t"}, strings.Repeat("y", 3*7000))
	if !errors.Is(err, ErrContextLength) || !errors.Is(err, ErrRejected) || !strings.Contains(err.Error(), "not sent") {
		t.Fatalf("Ask error = %v, want ErrContextLength, not sent", err)
	}
	if n := len(f.Requests()); n != 0 {
		t.Errorf("%d requests sent", n)
	}
	if _, err := s.Ask(context.Background(), Label{Task: "t"}, strings.Repeat("y", 3*6000)); err != nil {
		t.Errorf("a prompt within the window less the answer's room: %v", err)
	}
}

func TestErrorBodyShapes(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		body    string
		want    apiError
		wantMsg string
	}{
		"OpenAI": {body: `{"error":{"message":"m","type":"invalid_request_error","param":null,"code":"context_length_exceeded"}}`,
			want: apiError{msg: "m", code: "context_length_exceeded", status: "invalid_request_error"}},
		"Gemini array with RetryInfo": {body: `[{"error":{"code":429,"message":"quota","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"1.5s"}]}}]`,
			want: apiError{msg: "quota", status: "RESOURCE_EXHAUSTED", numCode: 429, retryDelay: 1500e6, retryDelayOK: true}},
		"OpenRouter nested raw": {body: `{"error":{"code":400,"message":"Provider returned error","metadata":{"provider_name":"Anthropic","raw":"{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"prompt is too long\"}}"}}}`,
			want: apiError{msg: "Provider returned error: Anthropic said prompt is too long", numCode: 400}},
		"raw that is not JSON": {body: `{"error":{"code":502,"message":"Provider returned error","metadata":{"provider_name":"X","raw":"upstream timeout"}}}`,
			want: apiError{msg: "Provider returned error: X said upstream timeout", numCode: 502}},
		"FastAPI validation list": {body: `{"detail":[{"loc":["body","messages",2,"tool_call_id"],"msg":"Field required","type":"missing"}]}`,
			want: apiError{msg: "body.messages.2.tool_call_id: Field required"}},
		"vLLM top level": {body: `{"object":"error","message":"bad","type":"BadRequestError","param":null,"code":400}`,
			want: apiError{msg: "bad", status: "BadRequestError", numCode: 400}},
		"moderation":   {body: `{"error":{"code":403,"message":"flagged","metadata":{"reasons":["hate"],"flagged_input":"x"}}}`, want: apiError{msg: "flagged (reasons: hate)", numCode: 403, moderation: true}},
		"not JSON":     {body: `<html>`, want: apiError{}},
		"long message": {body: `{"error":{"message":"` + strings.Repeat("z", 3000) + `"}}`, wantMsg: strings.Repeat("z", maxErrorMessage) + "…"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got := parseErrorBody([]byte(tc.body))
			if tc.wantMsg != "" {
				if got.msg != tc.wantMsg {
					t.Errorf("msg = %.80q…", got.msg)
				}
				return
			}
			if got != tc.want {
				t.Errorf("parseErrorBody = %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func TestEcho(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		sent string
		want string
	}{
		"unknown fields kept in order, nulls dropped": {
			sent: `{"role":"assistant","content":null,"reasoning_content":"think","refusal":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"},"extra_content":{"google":{"thought_signature":"sig"}}}]}`,
			want: `{"role":"assistant","reasoning_content":"think","tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"},"extra_content":{"google":{"thought_signature":"sig"}}}]}`,
		},
		"missing id, type and role repaired; object arguments made a string": {
			sent: `{"tool_calls":[{"function":{"name":"f","arguments":{"a":1}}}],"reasoning_details":[{"type":"reasoning.encrypted","data":"x"}]}`,
			want: `{"role":"assistant","tool_calls":[{"id":"rmc000000","function":{"name":"f","arguments":"{\"a\":1}"},"type":"function"}],"reasoning_details":[{"type":"reasoning.encrypted","data":"x"}]}`,
		},
		"an answer without content gets empty content": {
			sent: `{"role":"assistant","reasoning":"r"}`,
			want: `{"role":"assistant","reasoning":"r","content":""}`,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var msg responseMessage
			if err := msg.UnmarshalJSON([]byte(tc.sent)); err != nil {
				t.Fatal(err)
			}
			got, err := echo(withCallIDs(msg, 0)).MarshalJSON()
			if err != nil || string(got) != tc.want {
				t.Errorf("echo =\n%s (%v)\nwant\n%s", got, err, tc.want)
			}
		})
	}
}

func TestRequestSchemaCatches(t *testing.T) {
	t.Parallel()
	ok := `{"model":"m","messages":[{"role":"system","content":[{"type":"text","text":"s","cache_control":{"type":"ephemeral"}}]},{"role":"user","content":"u"},` +
		`{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}],"reasoning_content":"r"},{"role":"tool","tool_call_id":"c","content":"x"}],` +
		`"tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object"}}}],"tool_choice":"none","max_completion_tokens":100,"reasoning_effort":"low","provider":{"order":["a"]}}`
	if err := validateRequestBody([]byte(ok)); err != nil {
		t.Fatalf("a documented request is refused: %v", err)
	}
	// An assistant message with neither content nor tool calls passes the
	// published schema (the API refuses it at run time); echo never sends
	// one (TestEcho).
	bad := map[string]string{
		"no tool_call_id":         `{"model":"m","messages":[{"role":"tool","content":"x"}]}`,
		"arguments as an object":  `{"model":"m","messages":[{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":{}}}]}]}`,
		"unknown tool_choice":     `{"model":"m","messages":[{"role":"user","content":"u"}],"tool_choice":"sometimes"}`,
		"no messages":             `{"model":"m","messages":[]}`,
		"max tokens as a string":  `{"model":"m","messages":[{"role":"user","content":"u"}],"max_completion_tokens":"100"}`,
		"unknown role":            `{"model":"m","messages":[{"role":"robot","content":"u"}]}`,
		"system content not text": `{"model":"m","messages":[{"role":"system","content":5}]}`,
	}
	for name, body := range bad {
		if validateRequestBody([]byte(body)) == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestUsageCost(t *testing.T) {
	t.Parallel()
	u := Usage{PromptTokens: 1_000_000, CachedTokens: 600_000, CacheWriteTokens: 100_000, CompletionTokens: 50_000}
	p := Prices{Input: 3, Cached: 0.3, Output: 15, CacheWrite: 3.75}
	// 300k uncached × 3 + 600k × 0.3 + 100k × 3.75 + 50k × 15, per million.
	if got, want := u.Cost(p), 0.9+0.18+0.375+0.75; got < want-1e-9 || got > want+1e-9 {
		t.Errorf("Cost = %v, want %v", got, want)
	}
	p.CacheWrite = 0 // writes at the input price
	if got, want := u.Cost(p), 0.9+0.18+0.3+0.75; got < want-1e-9 || got > want+1e-9 {
		t.Errorf("Cost without a write price = %v, want %v", got, want)
	}
}

func TestProviderOptions(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		opts    Options
		wantErr string // "" = valid
	}{
		"Azure deployment with api-version": {opts: Options{BaseURL: "https://r.openai.azure.com/openai/deployments/gpt4o?api-version=2025-01-01-preview"}},
		"Azure v1":                          {opts: Options{BaseURL: "https://r.openai.azure.com/openai/v1/"}},
		"Azure full endpoint":               {opts: Options{BaseURL: "https://r.openai.azure.com/openai/deployments/gpt4o/chat/completions"}, wantErr: "must not end in /chat/completions"},
		"Azure resource root":               {opts: Options{BaseURL: "https://r.openai.azure.com/"}, wantErr: "is an Azure host but not an API root"},
		"query elsewhere":                   {opts: Options{BaseURL: "https://api.example.com/v1?x=1"}, wantErr: "must not carry a query"},
		"Azure other query":                 {opts: Options{BaseURL: "https://r.openai.azure.com/openai/deployments/d?key=1"}, wantErr: `"key" is not used`},
		"extra body sets messages":          {opts: Options{ExtraBody: map[string]json.RawMessage{"messages": json.RawMessage(`[]`)}}, wantErr: `may not set "messages"`},
		"extra body twice":                  {opts: Options{ReasoningEffort: "low", ExtraBody: map[string]json.RawMessage{"reasoning_effort": json.RawMessage(`"high"`)}}, wantErr: "set it once"},
		"extra body not JSON":               {opts: Options{ExtraBody: map[string]json.RawMessage{"x": json.RawMessage(`{`)}}, wantErr: "not valid JSON"},
		"extra header sets the key":         {opts: Options{ExtraHeaders: map[string]string{"authorization": "x"}}, wantErr: "may not set authorization"},
		"extra header with a line break":    {opts: Options{ExtraHeaders: map[string]string{"X-A": "a\r\nX-B: b"}}, wantErr: "line break"},
		"effort not a word":                 {opts: Options{ReasoningEffort: "high; drop"}, wantErr: "ReasoningEffort"},
		"output fills the window":           {opts: Options{ContextTokens: 4096, MaxOutputTokens: 4096}, wantErr: "leaves no room"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			o := tc.opts
			o.Model, o.APIKey = "m", "k"
			if o.BaseURL == "" {
				o.BaseURL = "https://api.example.com/v1"
			}
			_, err := New(o)
			if (tc.wantErr == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.wantErr)) {
				t.Errorf("New error = %v, want %q", err, tc.wantErr)
			}
		})
	}
}

func TestBreakpointModels(t *testing.T) {
	t.Parallel()
	for model, want := range map[string]bool{
		"anthropic/claude-sonnet-4.5": true, "claude-opus-4-1": true, "bedrock/anthropic.claude-3-7-sonnet-20250219-v1:0": true,
		"vertex_ai/claude-sonnet-4@20250514": true, "anthropic.claude-3-haiku": true,
		"openai/gpt-5": false, "gemini-2.5-pro": false, "deepseek-chat": false, "meta-llama/llama-3.3-70b-instruct": false,
	} {
		if got := cachesAtBreakpoints(model); got != want {
			t.Errorf("cachesAtBreakpoints(%q) = %v, want %v", model, got, want)
		}
	}
}
