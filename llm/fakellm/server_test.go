package fakellm

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

func newServer(t *testing.T, cfg Config) *Server {
	t.Helper()
	s := New(cfg)
	t.Cleanup(s.Close)
	return s
}

type result struct {
	status int
	header http.Header
	body   map[string]any
}

func post(t *testing.T, s *Server, path, key string, body any) result {
	t.Helper()
	raw, ok := body.(string)
	if !ok {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		raw = string(b)
	}
	req, err := http.NewRequest(http.MethodPost, s.URL+path, strings.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	out := result{status: res.StatusCode, header: res.Header}
	if err := json.NewDecoder(res.Body).Decode(&out.body); err != nil {
		t.Fatalf("decode answer: %v", err)
	}
	return out
}

func chat(msgs ...map[string]any) map[string]any {
	return map[string]any{"model": "m", "messages": msgs}
}

func msg(role, content string) map[string]any {
	return map[string]any{"role": role, "content": content}
}

func errMessage(r result) string {
	e, _ := r.body["error"].(map[string]any)
	m, _ := e["message"].(string)
	return m
}

func TestAuthAndEndpoints(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		path, key  string
		wantStatus int
		wantMsg    string
	}{
		"no key":            {path: "/v1/chat/completions", wantStatus: 401, wantMsg: "didn't provide an API key"},
		"wrong key, masked": {path: "/v1/chat/completions", key: "sk-wrong-123456789", wantStatus: 401, wantMsg: "sk-***********6789"},
		"root path":         {path: "/chat/completions", key: "k", wantStatus: 200},
		"v1 path":           {path: "/v1/chat/completions", key: "k", wantStatus: 200},
		"OpenRouter path":   {path: "/api/v1/chat/completions", key: "k", wantStatus: 200},
		"unknown path":      {path: "/v2/chat/completions", key: "k", wantStatus: 404, wantMsg: "Invalid URL"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := newServer(t, Config{APIKey: "k"})
			s.SetDefault(Reply{Text: "hi"})
			r := post(t, s, tc.path, tc.key, chat(msg("user", "hello")))
			if r.status != tc.wantStatus || !strings.Contains(errMessage(r), tc.wantMsg) {
				t.Errorf("status %d, error %q; want %d, %q", r.status, errMessage(r), tc.wantStatus, tc.wantMsg)
			}
		})
	}
}

func TestRequestValidation(t *testing.T) {
	t.Parallel()
	call := map[string]any{"role": "assistant", "tool_calls": []any{map[string]any{"id": "c1", "type": "function", "function": map[string]any{"name": "f", "arguments": "{}"}}}}
	tool := []any{map[string]any{"type": "function", "function": map[string]any{"name": "f", "parameters": map[string]any{"type": "object"}}}}
	tests := map[string]struct {
		body    any
		wantMsg string // "" means accepted
	}{
		"minimal":              {body: chat(msg("user", "hi"))},
		"content parts":        {body: chat(map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": "hi"}}})},
		"answered tool call":   {body: chat(msg("user", "hi"), call, map[string]any{"role": "tool", "tool_call_id": "c1", "content": "r"})},
		"not JSON":             {body: "{", wantMsg: "could not parse the JSON body"},
		"no model":             {body: map[string]any{"messages": []any{msg("user", "hi")}}, wantMsg: "model parameter"},
		"no messages":          {body: map[string]any{"model": "m", "messages": []any{}}, wantMsg: "at least one message"},
		"bad role":             {body: chat(msg("robot", "hi")), wantMsg: `role "robot"`},
		"unanswered tool call": {body: chat(msg("user", "hi"), call, msg("user", "again")), wantMsg: "did not have response messages: c1"},
		"trailing tool call":   {body: chat(msg("user", "hi"), call), wantMsg: "did not have response messages: c1"},
		"orphan tool result":   {body: chat(msg("user", "hi"), map[string]any{"role": "tool", "tool_call_id": "zz", "content": "r"}), wantMsg: "must be a response to a preceding message with 'tool_calls'"},
		"empty assistant":      {body: chat(msg("user", "hi"), map[string]any{"role": "assistant"}), wantMsg: "needs content or tool_calls"},
		"tool_choice no tools": {body: map[string]any{"model": "m", "messages": []any{msg("user", "hi")}, "tool_choice": "none"}, wantMsg: "only allowed when 'tools'"},
		"bad tool_choice":      {body: map[string]any{"model": "m", "messages": []any{msg("user", "hi")}, "tools": tool, "tool_choice": "maybe"}, wantMsg: "not one of none, auto, required"},
		"bad tool name": {body: map[string]any{"model": "m", "messages": []any{msg("user", "hi")},
			"tools": []any{map[string]any{"type": "function", "function": map[string]any{"name": "a b"}}}}, wantMsg: "must match"},
		"schema without name": {body: map[string]any{"model": "m", "messages": []any{msg("user", "hi")},
			"response_format": map[string]any{"type": "json_schema", "json_schema": map[string]any{"schema": map[string]any{}}}}, wantMsg: "json_schema.name is required"},
		"stream_options without stream": {body: map[string]any{"model": "m", "messages": []any{msg("user", "hi")}, "stream_options": map[string]any{"include_usage": true}}, wantMsg: "only allowed when 'stream' is enabled"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := newServer(t, Config{})
			s.SetDefault(Reply{Text: "ok"})
			r := post(t, s, "/v1/chat/completions", s.APIKey(), tc.body)
			if tc.wantMsg == "" {
				if r.status != 200 {
					t.Fatalf("status %d: %s", r.status, errMessage(r))
				}
				return
			}
			if r.status != 400 || !strings.Contains(errMessage(r), tc.wantMsg) {
				t.Errorf("status %d, error %q; want 400 with %q", r.status, errMessage(r), tc.wantMsg)
			}
			if e := r.body["error"].(map[string]any); e["type"] != "invalid_request_error" {
				t.Errorf("error type = %v", e["type"])
			}
		})
	}
}

func TestReplyShapes(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		reply       Reply
		wantContent any // nil means JSON null
		wantFinish  string
		wantCalls   int
	}{
		"text":       {reply: Reply{Text: "hello"}, wantContent: "hello", wantFinish: "stop"},
		"JSON":       {reply: Reply{JSON: map[string]int{"a": 1}}, wantContent: `{"a":1}`, wantFinish: "stop"},
		"tool calls": {reply: Reply{ToolCalls: []ToolCall{Call("f", map[string]int{"x": 1}), {ID: "mine", Name: "g", Arguments: "{}"}}}, wantFinish: "tool_calls", wantCalls: 2},
		"both":       {reply: Reply{Text: "let me look", ToolCalls: []ToolCall{Call("f", "{}")}}, wantContent: "let me look", wantFinish: "tool_calls", wantCalls: 1},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := newServer(t, Config{})
			s.SetDefault(tc.reply)
			r := post(t, s, "/v1/chat/completions", s.APIKey(), chat(msg("user", "hi")))
			if r.status != 200 || r.body["object"] != "chat.completion" || r.body["model"] != "m" || !strings.HasPrefix(r.body["id"].(string), "chatcmpl-") {
				t.Fatalf("answer = %v", r.body)
			}
			choice := r.body["choices"].([]any)[0].(map[string]any)
			m := choice["message"].(map[string]any)
			if m["role"] != "assistant" || m["content"] != tc.wantContent || choice["finish_reason"] != tc.wantFinish {
				t.Errorf("choice = %v", choice)
			}
			calls, _ := m["tool_calls"].([]any)
			if len(calls) != tc.wantCalls {
				t.Fatalf("tool_calls = %v", calls)
			}
			for _, c := range calls {
				c := c.(map[string]any)
				fn := c["function"].(map[string]any)
				if c["id"] == "" || c["type"] != "function" || fn["name"] == "" || fn["arguments"] == nil {
					t.Errorf("tool call = %v", c)
				}
			}
			u := r.body["usage"].(map[string]any)
			if u["prompt_tokens"].(float64)+u["completion_tokens"].(float64) != u["total_tokens"].(float64) || u["prompt_tokens_details"] == nil {
				t.Errorf("usage = %v", u)
			}
		})
	}
}

func TestRules(t *testing.T) {
	t.Parallel()
	s := newServer(t, Config{})
	s.AddRule(Rule{Name: "once", LastUser: "ping", Times: 1, Reply: Reply{Text: "pong 1"}})
	s.AddRule(Rule{LastUserRegexp: regexp.MustCompile(`^ping$`), Reply: Reply{Text: "pong n"}})
	s.AddRule(Rule{ToolResult: "42", Reply: Reply{Text: "the answer"}})
	s.AddRule(Rule{Any: "system secret", Respond: func(r Request) Reply { return Reply{Text: "echo " + r.LastUser()} }})
	call := map[string]any{"role": "assistant", "tool_calls": []any{map[string]any{"id": "c1", "type": "function", "function": map[string]any{"name": "f", "arguments": "{}"}}}}
	tests := []struct { // ordered: Times depends on it
		name string
		body any
		want string // content, or the error substring
	}{
		{"first ping", chat(msg("user", "ping")), "pong 1"},
		{"second ping", chat(msg("user", "ping")), "pong n"},
		{"tool result", chat(msg("user", "compute"), call, map[string]any{"role": "tool", "tool_call_id": "c1", "content": "42"}), "the answer"},
		{"computed", chat(msg("system", "system secret"), msg("user", "hello")), "echo hello"},
		{"no match", chat(msg("user", "nothing")), `no rule matched the request (last user message "nothing")`},
	}
	for _, tc := range tests {
		r := post(t, s, "/chat/completions", s.APIKey(), tc.body)
		got := errMessage(r)
		if r.status == 200 {
			got = r.body["choices"].([]any)[0].(map[string]any)["message"].(map[string]any)["content"].(string)
		}
		if !strings.Contains(got, tc.want) {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
	if n := len(s.RequestsContaining("ping")); n != 2 {
		t.Errorf("RequestsContaining(ping) = %d, want 2", n)
	}
	if last, ok := s.LastRequest(); !ok || last.LastUser() != "nothing" || last.Status != 400 {
		t.Errorf("LastRequest = %+v", last)
	}
}

func TestPrefixCache(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 400) // 100 tokens
	base := func() map[string]any { return chat(msg("system", long), msg("user", "one")) }
	tests := map[string]struct {
		min, block int
		second     func() map[string]any
		wantCached int
	}{
		// system: (6+400)/4 rounded up, plus 3 per message = 105 tokens; user "one": 5.
		"same system prompt": {min: 16, block: 2, second: func() map[string]any { return chat(msg("system", long), msg("user", "two")) }, wantCached: 104},
		"longer conversation": {min: 16, block: 2, second: func() map[string]any {
			return chat(msg("system", long), msg("user", "one"), msg("assistant", long), msg("user", "two"))
		}, wantCached: 110},
		"below the minimum": {min: 1024, block: 128, second: func() map[string]any { return chat(msg("system", long), msg("user", "two")) }},
		"different system":  {min: 16, block: 8, second: func() map[string]any { return chat(msg("system", long+"!"), msg("user", "one")) }},
		"different model": {min: 16, block: 8, second: func() map[string]any {
			b := base()
			b["model"] = "other"
			return b
		}},
		"schema added": {min: 16, block: 8, second: func() map[string]any {
			b := base()
			b["response_format"] = map[string]any{"type": "json_schema", "json_schema": map[string]any{"name": "v", "schema": map[string]any{"type": "object"}}}
			return b
		}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := newServer(t, Config{CacheMinTokens: tc.min, CacheBlockTokens: tc.block})
			s.SetDefault(Reply{Text: "ok"})
			first := post(t, s, "/v1/chat/completions", s.APIKey(), base())
			if c := cached(first); c != 0 {
				t.Fatalf("first request cached %d tokens", c)
			}
			second := post(t, s, "/v1/chat/completions", s.APIKey(), tc.second())
			if c := cached(second); c != tc.wantCached {
				t.Errorf("cached = %d, want %d (usage %v)", c, tc.wantCached, second.body["usage"])
			}
		})
	}
}

func cached(r result) int {
	u, _ := r.body["usage"].(map[string]any)
	d, _ := u["prompt_tokens_details"].(map[string]any)
	n, _ := d["cached_tokens"].(float64)
	return int(n)
}

func TestFaults(t *testing.T) {
	t.Parallel()
	s := newServer(t, Config{})
	s.SetDefault(Reply{Text: "ok"})
	s.InjectNext(1, Fault{Status: 429, RetryAfter: "2", RetryAfterMS: "2000"})
	s.FailNext(2, 503)
	s.InjectNext(1, Fault{Body: "not json"})
	s.DelayNext(1, time.Minute)

	r := post(t, s, "/v1/chat/completions", s.APIKey(), chat(msg("user", "hi")))
	if r.status != 429 || r.header.Get("Retry-After") != "2" || r.header.Get("retry-after-ms") != "2000" || errMessage(r) == "" {
		t.Errorf("first: %d %v %v", r.status, r.header, r.body)
	}
	for range 2 {
		if r := post(t, s, "/v1/chat/completions", s.APIKey(), chat(msg("user", "hi"))); r.status != 503 {
			t.Errorf("want 503, got %d", r.status)
		}
	}
	res, err := http.Post(s.BaseURL()+"/chat/completions", "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	_, _ = buf.ReadFrom(res.Body)
	res.Body.Close()
	if res.StatusCode != 401 { // auth comes before faults, so the fault is still queued
		t.Errorf("unauthenticated request: %d", res.StatusCode)
	}
	req, _ := http.NewRequest(http.MethodPost, s.BaseURL()+"/chat/completions", strings.NewReader("{}"))
	req.Header.Set("Authorization", "Bearer "+s.APIKey())
	res, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	buf.Reset()
	_, _ = buf.ReadFrom(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || buf.String() != "not json" {
		t.Errorf("garbage fault: %d %q", res.StatusCode, buf.String())
	}

	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	req, _ = http.NewRequestWithContext(ctx, http.MethodPost, s.BaseURL()+"/chat/completions", strings.NewReader("{}"))
	req.Header.Set("Authorization", "Bearer "+s.APIKey())
	if _, err := http.DefaultClient.Do(req); err == nil {
		t.Errorf("delayed request answered within the client's timeout")
	}
	if r := post(t, s, "/v1/chat/completions", s.APIKey(), chat(msg("user", "hi"))); r.status != 200 {
		t.Errorf("after the faults: %d", r.status)
	}
	var statuses []int
	for _, r := range s.Requests() {
		statuses = append(statuses, r.Status)
	}
	want := []int{429, 503, 503, 401, 200, 0, 200}
	if len(statuses) != len(want) {
		t.Fatalf("statuses = %v, want %v", statuses, want)
	}
	for i := range want {
		if statuses[i] != want[i] {
			t.Errorf("statuses = %v, want %v", statuses, want)
			break
		}
	}
}

func TestClearFaults(t *testing.T) {
	t.Parallel()
	s := newServer(t, Config{})
	s.SetDefault(Reply{Text: "ok"})
	s.FailNext(10, 503)
	if r := post(t, s, "/v1/chat/completions", s.APIKey(), chat(msg("user", "hi"))); r.status != 503 {
		t.Fatalf("status %d, want the injected 503", r.status)
	}
	s.ClearFaults()
	if r := post(t, s, "/v1/chat/completions", s.APIKey(), chat(msg("user", "hi"))); r.status != 200 {
		t.Errorf("status %d after ClearFaults, want 200", r.status)
	}
}

// Each provider's fake refuses what that provider documents it refuses,
// with its own error body.
func TestProviderRefusals(t *testing.T) {
	t.Parallel()
	const toolTurn = `[{"role":"user","content":"go"},{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}]},{"role":"tool","tool_call_id":"c1","content":"r"}]`
	const tools = `[{"type":"function","function":{"name":"f","parameters":{"type":"object","properties":{}}}}]`
	tests := map[string]struct {
		provider   Provider
		body       string
		wantStatus int
		wantBody   string
	}{
		"Gemini: a tool call without its signature": {provider: Gemini, body: `{"model":"gemini-3-pro-preview","messages":` + toolTurn + `}`,
			wantStatus: 400, wantBody: `[{"error":{"code":400,"message":"Function call is missing a thought_signature`},
		"DeepSeek: a tool call without reasoning_content": {provider: DeepSeek, body: `{"model":"deepseek-reasoner","messages":` + toolTurn + `}`,
			wantStatus: 400, wantBody: "Missing `reasoning_content` field in the assistant message at message index 1."},
		"OpenRouter: a tool call without reasoning_details": {provider: OpenRouter, body: `{"model":"openai/gpt-5","messages":` + toolTurn + `}`,
			wantStatus: 400, wantBody: "without the reasoning_details"},
		"vLLM: tools without auto tool choice": {provider: VLLMNoToolChoice, body: `{"model":"m","messages":[{"role":"user","content":"go"}],"tools":` + tools + `}`,
			wantStatus: 400, wantBody: `"message":"\"auto\" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set"`},
		"vLLM: tool_choice none is served": {provider: VLLMNoToolChoice, body: `{"model":"m","messages":[{"role":"user","content":"go"}],"tools":` + tools + `,"tool_choice":"none"}`,
			wantStatus: 200, wantBody: `"content":"ok"`},
		"llama.cpp: tools without --jinja": {provider: LlamaCppNoJinja, body: `{"model":"m","messages":[{"role":"user","content":"go"}],"tools":` + tools + `}`,
			wantStatus: 500, wantBody: `{"error":{"code":500,"message":"tools param requires --jinja flag","type":"server_error"}}`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := New(Config{Provider: tc.provider})
			defer s.Close()
			s.SetDefault(Reply{Text: "ok"})
			req, _ := http.NewRequest(http.MethodPost, s.BaseURL()+"/chat/completions", strings.NewReader(tc.body))
			req.Header.Set("Authorization", "Bearer "+s.APIKey())
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			b, _ := io.ReadAll(res.Body)
			if res.StatusCode != tc.wantStatus || !strings.Contains(string(b), tc.wantBody) {
				t.Errorf("HTTP %d %s\nwant %d with %s", res.StatusCode, b, tc.wantStatus, tc.wantBody)
			}
		})
	}
}

// A streamed answer is the documented events: the role first, the text in
// pieces, each tool call's head and then its arguments by index, the
// finish reason, the usage when asked, and [DONE].
func TestStreamedAnswer(t *testing.T) {
	t.Parallel()
	s := newServer(t, Config{})
	s.SetDefault(Reply{Text: "Looks fine.", ToolCalls: []ToolCall{Call("read_file", `{"path":"a.go"}`)}})
	body := map[string]any{"model": "m", "messages": []any{msg("user", "hi")}, "stream": true, "stream_options": map[string]any{"include_usage": true}}
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest(http.MethodPost, s.BaseURL()+"/chat/completions", strings.NewReader(string(b)))
	req.Header.Set("Authorization", "Bearer "+s.APIKey())
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	if ct := res.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type %q", ct)
	}
	var text, args strings.Builder
	var events []string
	for _, line := range strings.Split(string(raw), "\n") {
		data, ok := strings.CutPrefix(line, "data: ")
		if !ok {
			continue
		}
		if data == "[DONE]" {
			events = append(events, "done")
			continue
		}
		var c struct {
			Choices []struct {
				Delta struct {
					Role      string `json:"role"`
					Content   string `json:"content"`
					ToolCalls []struct {
						Index    int    `json:"index"`
						ID       string `json:"id"`
						Function struct {
							Name      string `json:"name"`
							Arguments string `json:"arguments"`
						} `json:"function"`
					} `json:"tool_calls"`
				} `json:"delta"`
				FinishReason *string `json:"finish_reason"`
			} `json:"choices"`
			Usage *struct {
				PromptTokens int `json:"prompt_tokens"`
			} `json:"usage"`
		}
		if err := json.Unmarshal([]byte(data), &c); err != nil {
			t.Fatalf("event %q: %v", data, err)
		}
		switch {
		case c.Usage != nil:
			events = append(events, "usage")
		case c.Choices[0].FinishReason != nil:
			events = append(events, "finish:"+*c.Choices[0].FinishReason)
		case c.Choices[0].Delta.Role != "":
			events = append(events, "role")
		case len(c.Choices[0].Delta.ToolCalls) > 0 && c.Choices[0].Delta.ToolCalls[0].ID != "":
			events = append(events, "call:"+c.Choices[0].Delta.ToolCalls[0].Function.Name)
		case len(c.Choices[0].Delta.ToolCalls) > 0:
			args.WriteString(c.Choices[0].Delta.ToolCalls[0].Function.Arguments)
		default:
			text.WriteString(c.Choices[0].Delta.Content)
		}
	}
	want := []string{"role", "call:read_file", "finish:tool_calls", "usage", "done"}
	if !slices.Equal(events, want) || text.String() != "Looks fine." || args.String() != `{"path":"a.go"}` {
		t.Errorf("events %v, text %q, arguments %q; want %v, %q, %q", events, text.String(), args.String(), want, "Looks fine.", `{"path":"a.go"}`)
	}
}
