package config

import (
	"strings"
	"testing"
	"time"

	"github.com/review-my-code-bot/rmc/llm"
)

func TestModelSettings(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		in      map[string]string
		wantErr []string // every substring must appear; none: valid
		check   func(t *testing.T, c Config)
	}{
		"defaults": {
			check: func(t *testing.T, c Config) {
				if c.ModelTimeout != 0 || c.ReasoningEffort != "" || c.MaxOutputTokens != 0 || c.Review.ContextTokens != 128000 ||
					c.ExtraBody != nil || c.ExtraHeaders != nil || c.ModelPrices != nil {
					t.Errorf("model settings = %+v", c)
				}
			},
		},
		"all set": {
			in: map[string]string{"model_timeout": "10m", "reasoning_effort": "high", "max_output_tokens": "8000", "model_context_tokens": "32768",
				"extra_body":    `{"options": {"num_ctx": 32768}, "provider": {"order": ["anthropic"]}}`,
				"extra_headers": `{"X-Gateway-Key": "gw-123", "cf-aig-authorization": "Bearer cf"}`,
				"model_prices":  `{"input": 3, "cached": 0.3, "output": 15, "cache_write": 3.75}`},
			check: func(t *testing.T, c Config) {
				o := c.LLMOptions(c.Model)
				if o.RequestTimeout != 10*time.Minute || o.ReasoningEffort != "high" || o.MaxOutputTokens != 8000 || o.ContextTokens != 32768 {
					t.Errorf("options = %+v", o)
				}
				if string(o.ExtraBody["options"]) != `{"num_ctx": 32768}` || o.ExtraHeaders["X-Gateway-Key"] != "gw-123" {
					t.Errorf("extras = %s %v", o.ExtraBody, o.ExtraHeaders)
				}
				if *c.ModelPrices != (llm.Prices{Input: 3, Cached: 0.3, Output: 15, CacheWrite: 3.75}) {
					t.Errorf("prices = %+v", *c.ModelPrices)
				}
				secrets := strings.Join(c.Secrets(), " ")
				if !strings.Contains(secrets, "gw-123") || !strings.Contains(secrets, "Bearer cf") {
					t.Errorf("Secrets = %q, want the header values", secrets)
				}
				if _, err := llm.New(o); err != nil {
					t.Errorf("the client refuses the options: %v", err)
				}
			},
		},
		"timeout in seconds":       {in: map[string]string{"model_timeout": "300"}, check: func(t *testing.T, c Config) { wantDuration(t, c.ModelTimeout, 5*time.Minute) }},
		"cached price defaults":    {in: map[string]string{"model_prices": `{"input": 1.25, "output": 10}`}, check: func(t *testing.T, c Config) { wantCached(t, c, 1.25) }},
		"timeout too short":        {in: map[string]string{"model_timeout": "1s"}, wantErr: []string{"model_timeout", "from 10s to 2h0m0s"}},
		"timeout not a duration":   {in: map[string]string{"model_timeout": "ten minutes"}, wantErr: []string{"model_timeout", "e.g. 300 (seconds), 90s or 10m"}},
		"effort typo":              {in: map[string]string{"reasoning_effort": "hgih"}, wantErr: []string{`reasoning_effort: "hgih" is not one of none, minimal, low, medium, high, xhigh`}},
		"output over the window":   {in: map[string]string{"max_output_tokens": "200000"}, wantErr: []string{"max_output_tokens (200000) must be less than model_context_tokens (128000)"}},
		"window too small":         {in: map[string]string{"model_context_tokens": "512"}, wantErr: []string{"model_context_tokens", "from 1024"}},
		"extra_body not an object": {in: map[string]string{"extra_body": `["a"]`}, wantErr: []string{"extra_body: not a JSON object"}},
		"extra_body trailing text": {in: map[string]string{"extra_body": `{"a": 1} x`}, wantErr: []string{"extra_body: not a JSON object"}},
		"extra_body sets messages": {in: map[string]string{"extra_body": `{"messages": []}`}, wantErr: []string{`extra_body may not set "messages"`}},
		"extra_body twice":         {in: map[string]string{"reasoning_effort": "low", "extra_body": `{"reasoning_effort": "high"}`}, wantErr: []string{`extra_body sets "reasoning_effort"`, "set it once"}},
		"header not a string":      {in: map[string]string{"extra_headers": `{"X-A": 1}`}, wantErr: []string{`extra_headers: the value of "X-A" must be a string`}},
		"header sets the key":      {in: map[string]string{"extra_headers": `{"Authorization": "Bearer x"}`}, wantErr: []string{"extra_headers may not set Authorization"}},
		"header injection":         {in: map[string]string{"extra_headers": `{"X-A": "a\r\nX-B: b"}`}, wantErr: []string{"extra_headers: the value of X-A contains a line break"}},
		"prices without output":    {in: map[string]string{"model_prices": `{"input": 3}`}, wantErr: []string{`model_prices: "input" and "output" are required`}},
		"prices negative":          {in: map[string]string{"model_prices": `{"input": -3, "output": 1}`}, wantErr: []string{"model_prices: input is -3"}},
		"prices unknown key":       {in: map[string]string{"model_prices": `{"input": 3, "output": 1, "outptu": 2}`}, wantErr: []string{"model_prices", "unknown field"}},
		"provider and stream": {in: map[string]string{"llm_provider": "Mistral", "llm_stream": "false"}, check: func(t *testing.T, c Config) {
			if o := c.LLMOptions(c.Model); o.Provider != "mistral" || o.Stream == nil || *o.Stream {
				t.Errorf("Provider %q, Stream %v; want mistral, false", o.Provider, o.Stream)
			}
		}},
		"provider and stream unset": {check: func(t *testing.T, c Config) {
			if o := c.LLMOptions(c.Model); o.Provider != "" || o.Stream != nil {
				t.Errorf("Provider %q, Stream %v; want detection", o.Provider, o.Stream)
			}
		}},
		"provider unknown":     {in: map[string]string{"llm_provider": "skynet"}, wantErr: []string{`llm_provider: "skynet" is not one of`, "openai-compatible", "ollama"}},
		"stream not a boolean": {in: map[string]string{"llm_stream": "sometimes"}, wantErr: []string{`llm_stream: "sometimes" is not a boolean`}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			in := map[string]string{"llm_api_key": "sk-test"}
			for k, v := range tc.in {
				in[k] = v
			}
			c, err := Load(getter(in), true)
			if len(tc.wantErr) == 0 {
				if err != nil {
					t.Fatalf("Load: %v", err)
				}
				if tc.check != nil {
					tc.check(t, c)
				}
				return
			}
			for _, w := range tc.wantErr {
				if err == nil || !strings.Contains(err.Error(), w) {
					t.Errorf("Load error = %v, want %q", err, w)
				}
			}
		})
	}
}

func wantDuration(t *testing.T, got, want time.Duration) {
	t.Helper()
	if got != want {
		t.Errorf("duration = %v, want %v", got, want)
	}
}

func wantCached(t *testing.T, c Config, want float64) {
	t.Helper()
	if c.ModelPrices == nil || c.ModelPrices.Cached != want {
		t.Errorf("prices = %+v, want cached %v", c.ModelPrices, want)
	}
}
