package llm

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/review-my-code-bot/rmc/llm/fakellm"
)

func TestNewValidatesOptions(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		opts    Options
		wantErr string // substring; "" means valid
	}{
		"defaults need a key":      {opts: Options{Model: "m"}, wantErr: "APIKey is required"},
		"model required":           {opts: Options{APIKey: "k"}, wantErr: "Model is required"},
		"relative base URL":        {opts: Options{BaseURL: "openrouter.ai/api/v1", APIKey: "k", Model: "m"}, wantErr: "absolute http(s) URL"},
		"credentials in base URL":  {opts: Options{BaseURL: "https://u:p@example.com/v1", APIKey: "k", Model: "m"}, wantErr: "must not carry credentials"},
		"negative timeout":         {opts: Options{APIKey: "k", Model: "m", RequestTimeout: -time.Second}, wantErr: "RequestTimeout -1s is negative"},
		"negative tool rounds":     {opts: Options{APIKey: "k", Model: "m", MaxToolRounds: -1}, wantErr: "MaxToolRounds -1 is negative"},
		"header injection":         {opts: Options{APIKey: "k", Model: "m", Title: "a\r\nX-Evil: 1"}, wantErr: "neither Referer nor Title may contain a line break"},
		"several problems at once": {opts: Options{BaseURL: "ftp://x", MaxToolOutput: -5}, wantErr: "MaxToolOutput -5 is negative"},
		"default endpoint":         {opts: Options{APIKey: "k", Model: "m"}},
		"local endpoint, no key":   {opts: Options{BaseURL: "http://localhost:11434/v1", Model: "llama3"}},
		"no retries":               {opts: Options{APIKey: "k", Model: "m", MaxRetries: -1}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c, err := New(tc.opts)
			if tc.wantErr == "" {
				if err != nil {
					t.Fatalf("New: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("New error = %v, want it to contain %q", err, tc.wantErr)
			}
			if c != nil {
				t.Errorf("New returned a client along with an error")
			}
		})
	}
}

func TestNewAppliesDefaults(t *testing.T) {
	t.Parallel()
	c, err := New(Options{APIKey: "k", Model: "m", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	o := c.opts
	if o.BaseURL != DefaultBaseURL || o.MaxToolRounds != defaultMaxToolRounds || o.MaxToolOutput != defaultMaxToolOutput ||
		o.RequestTimeout != DefaultRequestTimeout || o.MaxRetryDelay != defaultMaxRetryDelay || o.MaxRetries != 0 {
		t.Errorf("options after defaults = %+v", o)
	}
}

func TestRequestHeadersAndBaseURLs(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		base           func(f *fakellm.Server) string
		referer, title string
	}{
		"root":                  {base: func(f *fakellm.Server) string { return f.URL }},
		"/v1 with trailing /":   {base: func(f *fakellm.Server) string { return f.BaseURL() + "/" }},
		"OpenRouter-style path": {base: func(f *fakellm.Server) string { return f.URL + "/api/v1" }, referer: "https://github.com/o/r", title: "rmc"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t, fakellm.Config{APIKey: "sk-header-test"})
			f.SetDefault(fakellm.Reply{Text: "hi"})
			c := newTestClient(t, f, func(o *Options) { o.BaseURL, o.Referer, o.Title = tc.base(f), tc.referer, tc.title })
			if _, err := c.NewSession("sys", nil).Ask(context.Background(), Label{Task: "t"}, "hello"); err != nil {
				t.Fatalf("Ask: %v", err)
			}
			r, _ := f.LastRequest()
			checks := map[string]string{
				"Authorization": "Bearer sk-header-test",
				"HTTP-Referer":  tc.referer,
				"X-Title":       tc.title,
				// Set from the environment by the SDK; stripped.
				"OpenAI-Organization": "",
			}
			for h, want := range checks {
				if got := r.Header.Get(h); got != want {
					t.Errorf("header %s = %q, want %q", h, got, want)
				}
			}
			if r.Model != testModel {
				t.Errorf("model = %q, want %q", r.Model, testModel)
			}
		})
	}
}
