package e2e

import (
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/llm/fakellm"
)

// The built action runs a whole automatic review, with a round of tool
// calls, against one loopback fake per provider behaviour (written from
// each provider's documentation): thinking fields go back, refused tools
// are dropped with one warning naming the server setting, a server that
// omits call ids still gets every tool result answered, and a small local
// window is reported. (Azure is recognised by its host names, which a
// loopback server cannot have; its URL forms and headers are tested in
// package llm.)
func TestProvidersReviewThroughTheBinary(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		provider fakellm.Provider
		model    string
		inputs   map[string]string
		tools    bool   // the model gets to call a tool
		warning  string // a warning the log must hold
	}{
		"OpenAI":                      {fakellm.OpenAI, "gpt-4.1", nil, true, ""},
		"Gemini 3 thought signatures": {fakellm.Gemini, "gemini-3-pro-preview", nil, true, ""},
		"DeepSeek thinking":           {fakellm.DeepSeek, "deepseek-reasoner", nil, true, ""},
		"OpenRouter, Claude":          {fakellm.OpenRouter, "anthropic/claude-sonnet-4.5", map[string]string{"model_prices": `{"input": 3, "cached": 0.3, "output": 15}`}, true, ""},
		"OpenRouter reasoning":        {fakellm.OpenRouter, "openai/gpt-5", map[string]string{"reasoning_effort": "high"}, true, ""},
		"LiteLLM, Claude":             {fakellm.LiteLLMAnthropic, "anthropic/claude-sonnet-4-5", nil, true, ""},
		"vLLM without tool choice":    {fakellm.VLLMNoToolChoice, "Qwen/Qwen3-32B", nil, false, "--enable-auto-tool-choice"},
		"llama.cpp without --jinja":   {fakellm.LlamaCppNoJinja, "local", nil, false, "--jinja"},
		"no tool call ids":            {fakellm.NoCallIDs, "local", nil, true, ""},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			w.llm = fakellm.New(fakellm.Config{APIKey: "sk-e2e-test-key", Provider: tc.provider, CacheMinTokens: 64, CacheBlockTokens: 16})
			t.Cleanup(w.llm.Close)
			w.inputs["model"] = tc.model
			for k, v := range tc.inputs {
				w.inputs[k] = v
			}
			w.push("1111111111111111111111111111111111111111", patchV1)
			toolRounds := 0
			w.llm.AddRule(fakellm.Rule{Name: "pass 1", LastUser: "# Task: review pass 1 of 3", Respond: func(r fakellm.Request) fakellm.Reply {
				if len(r.Tools) > 0 && r.LastRole() == "user" {
					toolRounds++
					return fakellm.Reply{ToolCalls: []fakellm.ToolCall{fakellm.Call("read_file", `{"path":"limiter/bucket.go"}`)}}
				}
				return fakellm.Reply{JSON: map[string]any{"findings": []finding{bug(5, "Unsynchronized map write", 9)}}}
			}})
			w.llm.SetDefault(fakellm.Reply{JSON: map[string]any{"findings": []finding{}}})
			r := w.run(w.prEvent("opened"))
			if r.code != 1 || len(w.reviews()) != 1 || w.gate() != "failure" {
				t.Fatalf("exit %d, %d reviews, gate %q (want 1, one review, failure)\n%s", r.code, len(w.reviews()), w.gate(), r.log)
			}
			if (toolRounds > 0) != tc.tools {
				t.Errorf("tool rounds %d, want tools used: %v", toolRounds, tc.tools)
			}
			if tc.warning != "" && (strings.Count(r.log, tc.warning) == 0 || !strings.Contains(r.log, "::warning")) {
				t.Errorf("no warning naming %s:\n%s", tc.warning, r.log)
			}
			refused := 0
			for _, q := range w.llm.Requests() {
				if q.Status >= 400 {
					refused++
				}
			}
			if want := map[bool]int{true: 0, false: 1}[tc.tools]; refused != want {
				t.Errorf("%d refused requests, want %d (a server that refuses tools is asked once with them, and not retried)", refused, want)
			}
			if _, ok := tc.inputs["model_prices"]; ok && !strings.Contains(r.summary, "at the configured model_prices") {
				t.Errorf("the summary shows no cost:\n%s", r.summary)
			}
		})
	}
}
