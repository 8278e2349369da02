package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
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
// package llm.) The rows of issue 35's table follow, each answered as the
// provider's documentation (cited in package llm's tests) says.
func TestProvidersReviewThroughTheBinary(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		provider fakellm.Provider
		model    string
		inputs   map[string]string
		tools    bool   // the model gets to call a tool
		warning  string // a warning the log must hold
		faults   []fakellm.Fault
		// gptOSS answers pass 1 with reasoning text before the JSON.
		gptOSS  bool
		refused int    // requests answered with an error status, besides a refusal of tools
		stream  bool   // every request asks for a stream
		summary string // in the job summary
		long    int    // extra lines that make the diff long enough to split
		window  int    // the fake's context window (Ollama's cuts to it)
	}{
		"OpenAI":                                   {provider: fakellm.OpenAI, model: "gpt-4.1", tools: true},
		"Gemini 3 thought signatures":              {provider: fakellm.Gemini, model: "gemini-3-pro-preview", tools: true},
		"DeepSeek thinking":                        {provider: fakellm.DeepSeek, model: "deepseek-reasoner", tools: true},
		"OpenRouter, Claude":                       {provider: fakellm.OpenRouter, model: "anthropic/claude-sonnet-4.5", inputs: map[string]string{"model_prices": `{"input": 3, "cached": 0.3, "output": 15}`}, tools: true},
		"OpenRouter reasoning":                     {provider: fakellm.OpenRouter, model: "openai/gpt-5", inputs: map[string]string{"reasoning_effort": "high"}, tools: true},
		"LiteLLM, Claude":                          {provider: fakellm.LiteLLMAnthropic, model: "anthropic/claude-sonnet-4-5", tools: true},
		"vLLM without tool choice":                 {provider: fakellm.VLLMNoToolChoice, model: "Qwen/Qwen3-32B", tools: false, warning: "--enable-auto-tool-choice"},
		"llama.cpp without --jinja":                {provider: fakellm.LlamaCppNoJinja, model: "local", tools: false, warning: "--jinja"},
		"no tool call ids":                         {provider: fakellm.NoCallIDs, model: "local", tools: true},
		"a Mistral template without tool call ids": {provider: fakellm.MistralTemplate, model: "mistralai/Devstral-Small-2505", tools: true},
		// The fake is on loopback, so the provider is named, as a gateway's
		// user would.
		"QwQ on DashScope, stream-only":            {provider: fakellm.DashScopeQwQ, model: "qwq-plus", inputs: map[string]string{"llm_provider": "dashscope"}, tools: true, stream: true},
		"QwQ behind a gateway, provider not named": {provider: fakellm.DashScopeQwQ, model: "qwq-plus", tools: true, stream: true, refused: 1},
		"OpenRouter streamed":                      {provider: fakellm.OpenRouter, model: "anthropic/claude-sonnet-4.5", inputs: map[string]string{"llm_stream": "true"}, tools: true, stream: true},
		"Gemini 3 streamed":                        {provider: fakellm.Gemini, model: "gemini-3-pro-preview", inputs: map[string]string{"llm_provider": "gemini"}, tools: true, stream: true},
		"429 with only x-ratelimit-reset-tokens": {model: "gpt-4.1", tools: true, refused: 1, summary: "waited 1s for the model endpoint's rate limits",
			faults: []fakellm.Fault{{Status: http.StatusTooManyRequests, Header: map[string]string{"x-ratelimit-remaining-tokens": "0", "x-ratelimit-reset-tokens": "1s", "x-ratelimit-reset-requests": "6m0s"}}}},
		"200 with empty choices":             {model: "gpt-4.1", tools: true, faults: []fakellm.Fault{{Body: `{"id":"x","object":"chat.completion","choices":[]}`}}},
		"content_filter, then an answer":     {model: "gpt-4o", tools: true, faults: []fakellm.Fault{fakellm.AzureFilteredAnswer()}},
		"gpt-oss, reasoning before the JSON": {model: "openai/gpt-oss-120b", tools: true, gptOSS: true},
		// A context refusal splits the chunk; the halves are answered.
		"LM Studio's context refusal": {model: "qwen2.5-coder-7b-instruct", tools: true, refused: 1, long: 200, faults: []fakellm.Fault{fakellm.LMStudioTooLong(false)}},
		// Ollama's window (8,192 tokens here: 4,096, its default, does not
		// hold the review's instructions and tools at all) cuts the long
		// diff's first request: the window is lowered, the chunk split, one
		// warning.
		"Ollama cutting prompts to its window": {provider: fakellm.Ollama, window: 8192, model: "qwen2.5-coder:14b", tools: true, long: 500, warning: "OLLAMA_CONTEXT_LENGTH"},
		"llama.cpp's context refusal":          {model: "local", tools: true, refused: 1, long: 200, faults: []fakellm.Fault{fakellm.LlamaCppTooLong()}},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			w.llm = fakellm.New(fakellm.Config{APIKey: "sk-e2e-test-key", Provider: tc.provider, CacheMinTokens: 64, CacheBlockTokens: 16, ContextTokens: tc.window})
			t.Cleanup(w.llm.Close)
			for _, f := range tc.faults {
				w.llm.InjectNext(1, f)
			}
			w.inputs["model"] = tc.model
			for k, v := range tc.inputs {
				w.inputs[k] = v
			}
			patch := patchV1
			if tc.long > 0 {
				patch = longPatch(tc.long)
			}
			w.push("1111111111111111111111111111111111111111", patch)
			toolRounds := 0
			w.llm.AddRule(fakellm.Rule{Name: "pass 1", LastUser: "# Task: review pass 1 of 3", Respond: func(r fakellm.Request) fakellm.Reply {
				if len(r.Tools) > 0 && r.LastRole() == "user" {
					toolRounds++
					return fakellm.Reply{ToolCalls: []fakellm.ToolCall{fakellm.Call("read_file", `{"path":"limiter/bucket.go"}`)}}
				}
				answer := fakellm.ReviewAnswer(r, []finding{bug(5, "Unsynchronized map write", 9)})
				if tc.gptOSS {
					b, _ := json.Marshal(answer.JSON)
					return fakellm.Reply{Text: "We need to review the chunk. The map write in Take {line 5} is unsynchronized. Output the JSON.\n\n" + string(b)}
				}
				return answer
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
			if want := map[bool]int{true: 0, false: 1}[tc.tools] + tc.refused; refused != want {
				t.Errorf("%d refused requests, want %d (a server that refuses tools is asked once with them, and not retried)", refused, want)
			}
			for _, q := range w.llm.Requests() {
				if q.Stream != tc.stream && q.Status < 400 {
					t.Errorf("a request with stream %v, want %v", q.Stream, tc.stream)
					break
				}
			}
			if tc.summary != "" && !strings.Contains(r.summary, tc.summary) {
				t.Errorf("the summary does not say %q:\n%s", tc.summary, r.summary)
			}
			if _, ok := tc.inputs["model_prices"]; ok && !strings.Contains(r.summary, "at the configured model_prices") {
				t.Errorf("the summary shows no cost:\n%s", r.summary)
			}
		})
	}
}

// longPatch is patchV1 with n more lines, long enough for a review to
// split it when the model's window refuses it.
func longPatch(n int) string {
	var b strings.Builder
	b.WriteString(strings.Replace(patchV1, "+1,6", fmt.Sprintf("+1,%d", n+6), 1))
	for i := range n {
		fmt.Fprintf(&b, "\n+// note %03d: a comment line that makes the file long enough to split", i)
	}
	return b.String()
}

// A content filter's reason is the provider's text: through the binary it
// reaches the log, the summary and GitHub only as plain words, never as a
// mention, a link, markup or a workflow command.
func TestContentFilterReasonRelayedAsWords(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.inputs["model"] = "gpt-4o"
	w.push("1111111111111111111111111111111111111111", patchV1)
	hostile := `{"id":"c","object":"chat.completion","choices":[{"index":0,"finish_reason":"content_filter","message":{"role":"assistant","content":null,` +
		`"refusal":"@org/admins <img src=x onerror=alert(1)> [see](https://evil.example/x)"},` +
		`"content_filter_results":{"@everyone\n::error::pwned-category":{"filtered":true,"severity":"high\r::warning::pwned-severity"}},` +
		`"native_finish_reason":"##[error]pwned-native https://evil.example"}]}`
	w.llm.InjectNext(50, fakellm.Fault{Body: hostile})
	w.llm.SetDefault(fakellm.Reply{JSON: map[string]any{"findings": []finding{}}})
	r := w.run(w.prEvent("opened"))
	if !strings.Contains(r.log, "content filter withheld the answer") {
		t.Fatalf("the log does not say the content filter withheld the answer:\n%s", r.log)
	}
	var published []string
	for _, c := range w.gh.IssueComments(repoName, w.pr) {
		published = append(published, c.Body)
	}
	for _, rv := range w.gh.Reviews(repoName, w.pr) {
		published = append(published, rv.Body)
	}
	for where, text := range map[string]string{"log": r.log, "summary": r.summary, "GitHub": strings.Join(published, "\n")} {
		for _, bad := range []string{"@everyone", "@org", "<img", "https://evil", "[see]", "pwned-category\n", "::error::pwned", "::warning::pwned", "##[error]"} {
			if strings.Contains(text, bad) {
				t.Errorf("the %s relays %q", where, bad)
			}
		}
	}
	if bad := injectedCommands(r.log); len(bad) > 0 {
		t.Errorf("injected workflow commands: %q", bad)
	}
}
