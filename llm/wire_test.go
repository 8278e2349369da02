package llm

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// rawEndpoint serves one fixed answer and records the request bodies and
// headers it received.
type rawEndpoint struct {
	srv     *httptest.Server
	mu      sync.Mutex
	bodies  []string
	headers []http.Header
}

func (e *rawEndpoint) received() ([]string, []http.Header) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.bodies...), append([]http.Header(nil), e.headers...)
}

func newRawEndpoint(t *testing.T, status int, contentType, body string) *rawEndpoint {
	t.Helper()
	e := &rawEndpoint{}
	e.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		checkRequestBody(t, b)
		e.mu.Lock()
		e.bodies = append(e.bodies, string(b))
		e.headers = append(e.headers, r.Header.Clone())
		e.mu.Unlock()
		if contentType != "" {
			w.Header().Set("Content-Type", contentType)
		}
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}))
	t.Cleanup(e.srv.Close)
	return e
}

func rawClient(t *testing.T, base, key string) *Client {
	t.Helper()
	c, err := New(Options{BaseURL: base, APIKey: key, Model: testModel, MaxRetries: -1, RequestTimeout: 5 * time.Second})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return c
}

func completion(message string) string {
	return `{"id":"c1","object":"chat.completion","choices":[{"index":0,"message":` + message +
		`,"finish_reason":"stop","logprobs":null,"extra":{"a":1}}],"usage":{"prompt_tokens":12,"completion_tokens":3.0,"total_tokens":"15","prompt_tokens_details":null},"system_fingerprint":"fp"}`
}

func TestTolerantDecoding(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		contentType string
		message     string
		want        string
	}{
		"string content":          {message: `{"role":"assistant","content":"plain"}`, want: "plain"},
		"content parts":           {message: `{"role":"assistant","content":[{"type":"text","text":"one "},{"type":"image_url","image_url":{}},{"type":"text","text":"two"}]}`, want: "one two"},
		"text/plain content type": {contentType: "text/plain", message: `{"role":"assistant","content":"still JSON"}`, want: "still JSON"},
		"unknown message fields":  {message: `{"role":"assistant","content":"x","annotations":[],"reasoning":"hm","audio":null}`, want: "x"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ct := tc.contentType
			if ct == "" {
				ct = "application/json"
			}
			e := newRawEndpoint(t, 200, ct, completion(tc.message))
			reply, err := rawClient(t, e.srv.URL, "sk-raw-test-key").NewSession("", nil).Ask(context.Background(), Label{Task: "t"}, "p")
			if err != nil || reply.Text != tc.want {
				t.Fatalf("Ask = %q, %v; want %q", reply.Text, err, tc.want)
			}
			if reply.Usage.PromptTokens != 12 || reply.Usage.CompletionTokens != 3 || reply.Usage.CachedTokens != 0 {
				t.Errorf("usage = %+v", reply.Usage)
			}
		})
	}
}

// A token count a provider writes oddly reads as jsonnum reads it, and one
// it cannot read, a negative one or an absurd one reads as 0: the answer is
// never lost over a count.
func TestUsageCountsTolerateQuirks(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		in   string
		want int
	}{
		"integer": {`12`, 12}, "string": {`"12"`, 12}, "whole float": {`12.0`, 12}, "exponent": {`"1.2e1"`, 12},
		"null": {`null`, 0}, "fraction": {`3.7`, 0}, "word": {`"many"`, 0}, "negative": {`-5`, 0},
		"absurd": {`1e15`, 0}, "beyond int64": {`"99999999999999999999"`, 0}, "object": {`{"n":1}`, 0}, "bool": {`true`, 0},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var u usage
			if err := json.Unmarshal([]byte(`{"prompt_tokens":`+tc.in+`,"completion_tokens":1}`), &u); err != nil {
				t.Fatalf("decode: %v", err)
			}
			if int(u.PromptTokens) != tc.want || u.CompletionTokens != 1 {
				t.Errorf("prompt_tokens %s read as %d (completion %d), want %d", tc.in, u.PromptTokens, u.CompletionTokens, tc.want)
			}
		})
	}
}

func TestNullContentWithToolCalls(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if calls.Add(1) == 1 {
			// Arguments as an object, as a few compatible servers send them.
			_, _ = io.WriteString(w, completion(`{"role":"assistant","content":null,"refusal":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"lookup","arguments":{"path":"a.go"}}}]}`))
			return
		}
		body, _ := io.ReadAll(r.Body)
		checkRequestBody(t, body)
		var req struct {
			Messages []map[string]any `json:"messages"`
		}
		_ = json.Unmarshal(body, &req)
		asst, _ := json.Marshal(req.Messages[1])
		want := `{"role":"assistant","tool_calls":[{"function":{"arguments":"{\"path\":\"a.go\"}","name":"lookup"},"id":"call_1","type":"function"}]}`
		if string(asst) != want {
			http.Error(w, `{"error":{"message":"assistant message `+strings.ReplaceAll(string(asst), `"`, `'`)+`"}}`, 400)
			return
		}
		_, _ = io.WriteString(w, completion(`{"role":"assistant","content":"done"}`))
	}))
	defer srv.Close()
	var got string
	tool := Tool{Name: "lookup", Run: func(ctx context.Context, args json.RawMessage) (string, error) {
		got = string(args)
		return "ok", nil
	}}
	reply, err := rawClient(t, srv.URL, "sk-raw-test-key").NewSession("", []Tool{tool}).Ask(context.Background(), Label{Task: "t"}, "p")
	if err != nil || reply.Text != "done" {
		t.Fatalf("Ask = %q, %v", reply.Text, err)
	}
	if got != `{"path":"a.go"}` {
		t.Errorf("tool arguments = %s", got)
	}
}

func TestErrorBodies(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		status     int
		body       string
		wantErr    error
		wantDetail string
	}{
		"OpenAI shape":      {status: 400, body: `{"error":{"message":"This model's maximum context length is 128000 tokens","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`, wantErr: ErrRejected, wantDetail: "maximum context length is 128000 tokens [context_length_exceeded]"},
		"numeric code":      {status: 404, body: `{"error":{"message":"No endpoints found","code":404}}`, wantErr: ErrRejected, wantDetail: ": No endpoints found"},
		"error as a string": {status: 400, body: `{"error":"model not loaded"}`, wantErr: ErrRejected, wantDetail: "model not loaded"},
		"top-level message": {status: 400, body: `{"object":"error","message":"response_format is not supported","type":"BadRequestError","code":400}`, wantErr: ErrRejected, wantDetail: "response_format is not supported"},
		"detail":            {status: 422, body: `{"detail":"invalid messages"}`, wantErr: ErrRejected, wantDetail: "invalid messages"},
		"HTML page":         {status: 502, body: `<html><body>Bad Gateway</body></html>`, wantErr: ErrUnavailable, wantDetail: "(HTTP 502): Bad Gateway"},
		"200 with HTML":     {status: 200, body: `<html></html>`, wantErr: ErrBadResponse, wantDetail: "is not a chat completion"},
		"200 with an error": {status: 200, body: `{"error":{"message":"upstream failed"}}`, wantErr: ErrBadResponse, wantDetail: `answered HTTP 200 with an error instead of a completion: upstream failed`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e := newRawEndpoint(t, tc.status, "application/json", tc.body)
			_, err := rawClient(t, e.srv.URL, "sk-raw-test-key").NewSession("", nil).Ask(context.Background(), Label{Task: "t"}, "p")
			if !errors.Is(err, tc.wantErr) || !strings.Contains(err.Error(), tc.wantDetail) {
				t.Fatalf("Ask error = %v, want %v with %q", err, tc.wantErr, tc.wantDetail)
			}
			if strings.Contains(err.Error(), "[404]") {
				t.Errorf("numeric code repeated in %v", err)
			}
		})
	}
}

func TestRequestWireFormat(t *testing.T) {
	t.Parallel()
	e := newRawEndpoint(t, 200, "application/json", completion(`{"role":"assistant","content":"{\"ok\":true}"}`))
	c := rawClient(t, e.srv.URL+"/v1/", "")
	type answer struct {
		OK bool `json:"ok"`
	}
	if _, _, err := AskJSON[answer](context.Background(), c.NewSession("sys <b>&", []Tool{staticTool("lookup", "x", nil, nil)}), Label{Task: "t"}, "p"); err != nil {
		t.Fatalf("AskJSON: %v", err)
	}
	want := `{"model":"test/model","messages":[{"role":"system","content":"sys <b>&"},{"role":"user","content":"p"}],` +
		`"tools":[{"type":"function","function":{"name":"lookup","description":"test tool lookup","parameters":{"properties":{"path":{"type":"string"}},"type":"object"}}}],` +
		`"response_format":{"type":"json_schema","json_schema":{"name":"answer","schema":{"additionalProperties":false,"properties":{"ok":{"type":"boolean"}},"required":["ok"],"type":"object"},"strict":true}}}`
	bodies, headers := e.received()
	if len(bodies) != 1 || bodies[0] != want {
		t.Fatalf("request body =\n%s\nwant\n%s", bodies, want)
	}
	h := headers[0]
	if h.Get("Authorization") != "" || h.Get("Content-Type") != "application/json" {
		t.Errorf("headers = %v; want JSON and no Authorization without a key", h)
	}
}

func TestCrossOriginRedirectKeepsTheKey(t *testing.T) {
	t.Parallel()
	const key = "sk-redirect-secret-0123456789"
	elsewhere := newRawEndpoint(t, 200, "application/json", completion(`{"content":"stolen"}`))
	redirector := httptest.NewServer(http.RedirectHandler(elsewhere.srv.URL+"/v1/chat/completions", http.StatusTemporaryRedirect))
	defer redirector.Close()
	_, err := rawClient(t, redirector.URL+"/v1", key).NewSession("", nil).Ask(context.Background(), Label{Task: "t"}, "p")
	if !errors.Is(err, ErrBadResponse) || !strings.Contains(err.Error(), "another origin") {
		t.Fatalf("Ask error = %v, want ErrBadResponse for the redirect", err)
	}
	if strings.Contains(err.Error(), key) {
		t.Errorf("error leaks the key: %v", err)
	}
	if bodies, _ := elsewhere.received(); len(bodies) != 0 {
		t.Errorf("the redirect was followed: %d requests elsewhere", len(bodies))
	}
}
