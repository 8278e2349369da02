package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/review-my-code-bot/rmc/internal/inproc"
	"github.com/review-my-code-bot/rmc/llm/fakellm"
)

// providerCase runs a whole session (system prompt, a shared chunk, two
// asks with two tool rounds and three calls each) against a fake that behaves like one
// provider, as that provider documents it.
type providerCase struct {
	cfg    fakellm.Config
	model  string
	base   string // BaseURL; the fake's /v1 when empty (then over loopback)
	opts   func(*Options)
	faults []fakellm.Fault
	chunk  string // the shared block; a short diff when empty

	wantErr     error  // the first ask's error; nil: both asks answer
	notErr      error  // an error kind the failure must not be
	wantText    string // in the error, or in the warnings when there is no error
	wantCalls   int    // -1: tools refused, no calls; else 3 per ask (1 + 2 rounds)
	wantWarning string // in Client.Warnings
	check       func(t *testing.T, f *fakellm.Server, replies []Reply)
}

func TestProviders(t *testing.T) {
	t.Parallel()
	for name, tc := range providerCases() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			tc.run(t)
		})
	}
}

func providerCases() map[string]providerCase {
	return map[string]providerCase{
		"OpenAI: automatic prefix cache, no breakpoints": {
			model: "gpt-4.1",
			check: func(t *testing.T, f *fakellm.Server, replies []Reply) {
				noBreakpoints(t, f)
				if replies[1].Usage.CachedTokens == 0 {
					t.Errorf("second ask cached no tokens: %+v", replies[1].Usage)
				}
			},
		},
		"Gemini 3: thought signatures go back with the tool calls": {
			cfg: fakellm.Config{Provider: fakellm.Gemini}, model: "gemini-3-pro-preview",
			check: func(t *testing.T, f *fakellm.Server, _ []Reply) {
				last, _ := f.LastRequest()
				for _, m := range last.Messages {
					if m.Role == "assistant" && len(m.ToolCalls) > 0 && !strings.Contains(string(m.Raw), `"extra_content":{"google":{"thought_signature":"`) {
						t.Errorf("assistant message sent back without its signature: %s", m.Raw)
					}
				}
			},
		},
		"Gemini: 429 array body with RetryInfo is waited out": {
			cfg: fakellm.Config{Provider: fakellm.Gemini}, model: "gemini-2.5-flash",
			faults: []fakellm.Fault{fakellm.GeminiRateLimit("0.01s")},
		},
		"DeepSeek thinking: reasoning_content goes back": {
			cfg: fakellm.Config{Provider: fakellm.DeepSeek}, model: "deepseek-reasoner",
			check: func(t *testing.T, f *fakellm.Server, replies []Reply) {
				if replies[1].Usage.CachedTokens == 0 {
					t.Errorf("prompt_cache_hit_tokens not read: %+v", replies[1].Usage)
				}
			},
		},
		"OpenRouter reasoning model: reasoning_details go back": {
			cfg: fakellm.Config{Provider: fakellm.OpenRouter}, model: "openai/gpt-5",
			opts: func(o *Options) { o.ReasoningEffort = "high"; o.MaxOutputTokens = 4000 },
			check: func(t *testing.T, f *fakellm.Server, _ []Reply) {
				noBreakpoints(t, f)
				first := f.Requests()[0]
				var body map[string]any
				_ = json.Unmarshal(first.Body, &body)
				if body["reasoning_effort"] != "high" || body["max_completion_tokens"] != 4000.0 {
					t.Errorf("reasoning_effort / max_completion_tokens = %v / %v", body["reasoning_effort"], body["max_completion_tokens"])
				}
			},
		},
		"OpenRouter Anthropic model: cache_control breakpoints, reads and writes counted": {
			cfg: fakellm.Config{Provider: fakellm.OpenRouter}, model: "anthropic/claude-sonnet-4.5",
			check: func(t *testing.T, f *fakellm.Server, replies []Reply) {
				breakpointsOnPrefix(t, f)
				if replies[0].Usage.CacheWriteTokens == 0 || replies[1].Usage.CachedTokens == 0 {
					t.Errorf("usage = %+v then %+v; want cache writes, then reads", replies[0].Usage, replies[1].Usage)
				}
			},
		},
		"LiteLLM Anthropic model: breakpoints, Anthropic's usage fields": {
			cfg: fakellm.Config{Provider: fakellm.LiteLLMAnthropic}, model: "bedrock/anthropic.claude-3-7-sonnet-20250219-v1:0",
			check: func(t *testing.T, f *fakellm.Server, replies []Reply) {
				breakpointsOnPrefix(t, f)
				if replies[0].Usage.CacheWriteTokens == 0 || replies[1].Usage.CachedTokens == 0 {
					t.Errorf("usage = %+v then %+v; want cache_creation_input_tokens, then cache_read_input_tokens", replies[0].Usage, replies[1].Usage)
				}
			},
		},
		"vLLM without --enable-auto-tool-choice: goes on without tools": {
			cfg: fakellm.Config{Provider: fakellm.VLLMNoToolChoice}, model: "Qwen/Qwen3-8B",
			wantCalls: -1, wantWarning: "--enable-auto-tool-choice",
			check: refusedOnce,
		},
		"llama.cpp without --jinja: the 500 is not retried; goes on without tools": {
			cfg: fakellm.Config{Provider: fakellm.LlamaCppNoJinja}, model: "qwen2.5-coder",
			wantCalls: -1, wantWarning: "--jinja",
			check: refusedOnce,
		},
		// https://github.com/ollama/ollama/blob/main/docs/faq.md#how-can-i-specify-the-context-window-size:
		// the default window is 4096 tokens and a longer prompt is cut, the
		// usage counting what was kept.
		"Ollama: a prompt cut to the default 4096-token window lowers the window, with one warning": {
			cfg: fakellm.Config{Provider: fakellm.Ollama}, model: "qwen2.5-coder:14b",
			chunk: strings.Repeat("+\tfmt.Println(\"a changed line of the diff\")\n", 1200), wantWarning: "OLLAMA_CONTEXT_LENGTH",
			wantErr: ErrContextLength, wantText: "the endpoint cut the prompt: it counted 4096 tokens",
			check: func(t *testing.T, f *fakellm.Server, _ []Reply) {
				// The next request is measured against the lowered window:
				// not sent, so a review splits its chunk instead.
				if n := len(f.Requests()); n != 1 {
					t.Errorf("%d requests, want 1: the first, whose count gave the cut away", n)
				}
			},
		},
		"a server without tool call ids: ids are made up and answered": {
			cfg: fakellm.Config{Provider: fakellm.NoCallIDs}, model: "local-model",
			check: func(t *testing.T, f *fakellm.Server, _ []Reply) {
				last, _ := f.LastRequest()
				for _, m := range last.ToolResults() {
					if m.ToolCallID == "" {
						t.Errorf("tool message without tool_call_id: %s", m.Raw)
					}
				}
			},
		},
		"Azure classic deployment URL: api-key header and api-version": {
			cfg: fakellm.Config{Provider: fakellm.Azure}, model: "gpt-4o",
			base: "https://contoso.openai.azure.com/openai/deployments/gpt-4o",
			check: func(t *testing.T, f *fakellm.Server, _ []Reply) {
				r := f.Requests()[0]
				if r.Header.Get("Authorization") != "" || r.Header.Get("api-key") != f.APIKey() {
					t.Errorf("headers = %v; want the key in api-key only", r.Header)
				}
			},
		},
		"Azure v1 URL": {
			cfg: fakellm.Config{Provider: fakellm.Azure}, model: "gpt-4o",
			base: "https://contoso.openai.azure.com/openai/v1",
		},
		"extra_body and extra_headers reach every request": {
			cfg: fakellm.Config{Provider: fakellm.OpenRouter}, model: "openai/gpt-5",
			opts: func(o *Options) {
				o.ExtraBody = map[string]json.RawMessage{"provider": json.RawMessage(`{"order": ["openai"], "allow_fallbacks": false}`), "usage": json.RawMessage(`{"include":true}`)}
				o.ExtraHeaders = map[string]string{"X-Gateway-Token": "gw-secret"}
			},
			check: func(t *testing.T, f *fakellm.Server, _ []Reply) {
				for _, r := range f.Requests() {
					if !strings.Contains(string(r.Body), `"provider":{"order":["openai"],"allow_fallbacks":false},"usage":{"include":true}}`) || r.Header.Get("X-Gateway-Token") != "gw-secret" {
						t.Fatalf("request without the extras: %s %v", r.Body, r.Header)
					}
				}
			},
		},
		"OpenRouter: an error inside a 200 with a transient code is retried": {
			cfg: fakellm.Config{Provider: fakellm.OpenRouter}, model: "anthropic/claude-sonnet-4.5",
			faults: []fakellm.Fault{fakellm.OpenRouterErrorIn200(502)},
		},
		"OpenRouter: finish_reason error is a failed attempt, not an answer": {
			cfg: fakellm.Config{Provider: fakellm.OpenRouter}, model: "anthropic/claude-sonnet-4.5",
			faults: []fakellm.Fault{fakellm.OpenRouterFinishError()},
		},
		"OpenRouter: a moderation 403 is not a key problem": {
			cfg: fakellm.Config{Provider: fakellm.OpenRouter}, model: "anthropic/claude-sonnet-4.5",
			faults: []fakellm.Fault{fakellm.OpenRouterModeration()}, wantErr: ErrModeration, notErr: ErrAuth,
			wantText: `flagged by the provider's moderation (HTTP 403): anthropic/claude-sonnet-4.5 requires moderation on OpenRouter. Your input was flagged for "violence" (Anthropic) (reasons: violence)`,
		},
		"OpenRouter: the upstream provider's nested error is shown": {
			cfg: fakellm.Config{Provider: fakellm.OpenRouter}, model: "google/gemini-2.5-pro",
			faults: []fakellm.Fault{fakellm.OpenRouterProviderError()}, wantErr: ErrRejected,
			wantText: `Provider returned error: Google said Invalid JSON payload received. Unknown name "foo": Cannot find field.`,
		},
		"Azure: the content filter is moderation": {
			cfg: fakellm.Config{Provider: fakellm.Azure}, model: "gpt-4o",
			base:   "https://contoso.openai.azure.com/openai/deployments/gpt-4o",
			faults: []fakellm.Fault{fakellm.AzureContentFilter()}, wantErr: ErrModeration, notErr: ErrAuth,
			wantText: "content management policy",
		},
		// The rows of issue 35's table, each against the fake answering as the
		// provider documents it.
		//
		// mistral_common's validation (vLLM and llama.cpp serve it with a
		// Mistral model): https://github.com/mistralai/mistral-common, ids of 9
		// characters [a-zA-Z0-9].
		"a Mistral template without tool call ids: 9-character ids are made up": {
			cfg: fakellm.Config{Provider: fakellm.MistralTemplate}, model: "mistralai/Devstral-Small-2505",
			check: func(t *testing.T, f *fakellm.Server, _ []Reply) {
				for _, r := range f.Requests() {
					if r.Status != http.StatusOK {
						t.Errorf("a request was refused (HTTP %d): %s", r.Status, r.Body)
					}
				}
			},
		},
		// https://www.alibabacloud.com/help/en/model-studio/deep-thinking: QwQ
		// answers only a streamed request.
		"QwQ on DashScope: stream-only, streamed even when turned off": {
			cfg: fakellm.Config{Provider: fakellm.DashScopeQwQ}, model: "qwq-plus",
			base: "https://dashscope-intl.aliyuncs.com/compatible-mode/v1",
			opts: func(o *Options) { off := false; o.Stream = &off },
			check: func(t *testing.T, f *fakellm.Server, _ []Reply) {
				for _, r := range f.Requests() {
					if !r.Stream || !r.StreamUsage || r.Status != http.StatusOK {
						t.Fatalf("a request not streamed with usage (HTTP %d): %.200s", r.Status, r.Body)
					}
				}
			},
		},
		// Behind a URL that hides DashScope, its refusal turns streaming on.
		"QwQ behind a gateway: its refusal of a request without stream turns streaming on": {
			cfg: fakellm.Config{Provider: fakellm.DashScopeQwQ}, model: "qwq-plus",
			check: func(t *testing.T, f *fakellm.Server, _ []Reply) {
				reqs := f.Requests()
				if reqs[0].Stream || reqs[0].Status != http.StatusBadRequest {
					t.Fatalf("first request stream %v, HTTP %d; want refused without stream", reqs[0].Stream, reqs[0].Status)
				}
				for _, r := range reqs[1:] {
					if !r.Stream || r.Status != http.StatusOK {
						t.Fatalf("a later request with stream %v, HTTP %d; want every one streamed", r.Stream, r.Status)
					}
				}
			},
		},
		// https://developers.cloudflare.com/support/troubleshooting/http-status-codes/cloudflare-5xx-errors/error-524/:
		// the gateway gave up on an answer that took over 100 s to start.
		"a gateway's 524 after 100 s: asked again, streamed": {
			model: "gpt-4.1", faults: []fakellm.Fault{{Status: 524, Body: "<html><title>A timeout occurred</title></html>"}},
			check: func(t *testing.T, f *fakellm.Server, _ []Reply) {
				if reqs := f.Requests(); reqs[0].Stream || !reqs[1].Stream {
					t.Fatalf("streams %v then %v; want the retry streamed", reqs[0].Stream, reqs[1].Stream)
				}
			},
		},
		"Gemini 3 streamed: thought signatures assembled and sent back": {
			cfg: fakellm.Config{Provider: fakellm.Gemini}, model: "gemini-3-pro-preview",
			opts: streamOn,
		},
		"DeepSeek streamed: reasoning_content assembled and sent back": {
			cfg: fakellm.Config{Provider: fakellm.DeepSeek}, model: "deepseek-reasoner",
			opts: streamOn,
		},
		"OpenRouter streamed: comments skipped, reasoning_details sent back": {
			cfg: fakellm.Config{Provider: fakellm.OpenRouter}, model: "anthropic/claude-sonnet-4.5",
			opts: streamOn,
		},
		// https://docs.mistral.ai/api/#tag/chat: the cap is max_tokens, and
		// members it does not define are refused.
		"Mistral API: the answer's cap goes as max_tokens": {
			model: "devstral-medium-latest", base: "https://api.mistral.ai/v1",
			opts: func(o *Options) { o.MaxOutputTokens = 1000 },
			check: func(t *testing.T, f *fakellm.Server, _ []Reply) {
				for _, r := range f.Requests() {
					var body map[string]any
					_ = json.Unmarshal(r.Body, &body)
					if body["max_tokens"] != 1000.0 || body["max_completion_tokens"] != nil || body["stream"] != true {
						t.Fatalf("max_tokens %v, max_completion_tokens %v, stream %v; want 1000, none, streamed", body["max_tokens"], body["max_completion_tokens"], body["stream"])
					}
				}
			},
		},
		// https://platform.openai.com/docs/guides/reasoning: reasoning models
		// take only the default temperature.
		"OpenAI reasoning model: no temperature": {
			model: "gpt-5", base: "https://api.openai.com/v1",
			opts: func(o *Options) { zero := 0.0; o.Temperature = &zero },
			check: func(t *testing.T, f *fakellm.Server, _ []Reply) {
				for _, r := range f.Requests() {
					if strings.Contains(string(r.Body), `"temperature"`) {
						t.Fatalf("temperature sent to a reasoning model: %.200s", r.Body)
					}
				}
			},
		},
		"OpenAI chat model: temperature kept": {
			model: "gpt-4.1", base: "https://api.openai.com/v1",
			opts: func(o *Options) { zero := 0.0; o.Temperature = &zero },
			check: func(t *testing.T, f *fakellm.Server, _ []Reply) {
				if !strings.Contains(string(f.Requests()[0].Body), `"temperature":0`) {
					t.Fatalf("temperature not sent: %.300s", f.Requests()[0].Body)
				}
			},
		},
		// https://learn.microsoft.com/azure/ai-foundry/openai/concepts/content-filter:
		// finish_reason content_filter, categories in content_filter_results.
		"Azure: an answer its content filter withheld, in plain words": {
			cfg: fakellm.Config{Provider: fakellm.Azure}, model: "gpt-4o",
			base:   "https://contoso.openai.azure.com/openai/deployments/gpt-4o",
			opts:   func(o *Options) { off := false; o.Stream = &off },
			faults: []fakellm.Fault{fakellm.AzureFilteredAnswer()}, wantErr: ErrModeration, notErr: ErrAuth,
			wantText: "the provider's content filter withheld the answer (finish_reason \"content_filter\"); the prompt or the answer was flagged, not the API key: violence (severity high)",
		},
		// https://lmstudio.ai/docs/app/api/endpoints/openai; the wording is LM
		// Studio's (lmstudio-bug-tracker issues 237 and 546).
		"LM Studio: its context refusal is a context-length error": {
			cfg: fakellm.Config{}, model: "qwen2.5-coder-7b-instruct",
			faults: []fakellm.Fault{fakellm.LMStudioTooLong(false)}, wantErr: ErrContextLength, wantText: "context length of only 4096 tokens",
		},
		"LM Studio: its context refusal inside a 200 too": {
			cfg: fakellm.Config{}, model: "qwen2.5-coder-7b-instruct",
			faults: []fakellm.Fault{fakellm.LMStudioTooLong(true)}, wantErr: ErrContextLength, wantText: "when context the overflows",
		},
		// https://github.com/ggml-org/llama.cpp/tree/master/tools/server: 400,
		// type exceed_context_size_error.
		"llama.cpp: exceed_context_size_error is a context-length error": {
			cfg: fakellm.Config{}, model: "local",
			faults: []fakellm.Fault{fakellm.LlamaCppTooLong()}, wantErr: ErrContextLength, wantText: "exceeds the available context size (4096 tokens)",
		},
		"Ollama with truncation off: its 500 is a context-length error, not retried": {
			cfg: fakellm.Config{}, model: "qwen2.5-coder:14b",
			faults: []fakellm.Fault{fakellm.OllamaTooLong()}, wantErr: ErrContextLength, notErr: ErrUnavailable, wantText: "the input length exceeds the context length",
		},
		// https://docs.vllm.ai/en/latest/serving/openai_compatible_server.html:
		// the engine's input check.
		"vLLM: the decoder prompt longer than the model length": {
			cfg: fakellm.Config{}, model: "Qwen/Qwen3-8B",
			faults: []fakellm.Fault{fakellm.VLLMTooLong()}, wantErr: ErrContextLength, wantText: "longer than the maximum model length of 4096",
		},
		// https://huggingface.co/docs/text-generation-inference/messages_api: a
		// 422 validation error.
		"TGI: the 422 validation error is a context-length error": {
			cfg: fakellm.Config{}, model: "tgi",
			faults: []fakellm.Fault{fakellm.TGITooLong()}, wantErr: ErrContextLength, wantText: "must be <= 4096",
		},
		"LiteLLM: Anthropic's prompt-too-long is a context-length refusal": {
			cfg: fakellm.Config{Provider: fakellm.LiteLLMAnthropic}, model: "claude-sonnet-4-5",
			faults: []fakellm.Fault{fakellm.AnthropicTooLong()}, wantErr: ErrContextLength,
			wantText: "prompt is too long: 210000 tokens > 200000 maximum",
		},
	}
}

func streamOn(o *Options) { on := true; o.Stream = &on }

func (tc providerCase) run(t *testing.T) {
	tc.cfg.CacheMinTokens, tc.cfg.CacheBlockTokens = 64, 16
	f := newFake(t, tc.cfg)
	addReviewRules(f)
	for _, fl := range tc.faults {
		f.InjectNext(1, fl)
	}
	c := newTestClient(t, f, func(o *Options) {
		o.Model = tc.model
		if tc.base != "" {
			o.BaseURL = tc.base
			o.HTTPClient = &http.Client{Transport: inproc.Transport{Handler: f}}
		}
		if tc.opts != nil {
			tc.opts(o)
		}
	})
	system := "You review Go code. " + strings.Repeat("Report only real problems, with the line. ", 20)
	chunk := tc.chunk
	if chunk == "" {
		chunk = "diff --git a/a.go b/a.go\n+func A() int { return 1 }\n"
	}
	sub := c.NewSession(system, []Tool{staticTool("read_file", "package a\nfunc A() int { return 1 }", nil, nil)}).sub(chunk)
	var replies []Reply
	for i := range 2 {
		r, err := sub.Ask(context.Background(), Label{Task: "review", Step: fmt.Sprintf("pass %d", i+1)}, "Review the chunk above.")
		if tc.wantErr != nil {
			if !errors.Is(err, tc.wantErr) || (tc.notErr != nil && errors.Is(err, tc.notErr)) || !strings.Contains(err.Error(), tc.wantText) {
				t.Fatalf("Ask error = %v; want %v (not %v) saying %q", err, tc.wantErr, tc.notErr, tc.wantText)
			}
			if w := c.Warnings(); tc.wantWarning != "" && (len(w) != 1 || !strings.Contains(w[0], tc.wantWarning)) {
				t.Errorf("warnings = %q, want one naming %q", w, tc.wantWarning)
			}
			if tc.check != nil {
				tc.check(t, f, nil)
			}
			return
		}
		if err != nil {
			t.Fatalf("Ask %d: %v", i+1, err)
		}
		replies = append(replies, r)
	}
	tc.checkReplies(t, c, replies)
	total := replies[0].Usage.Add(replies[1].Usage)
	t.Logf("requests %d (answered %d), prompt tokens %d, cached %d, cache writes %d, completion %d",
		len(f.Requests()), total.Requests, total.PromptTokens, total.CachedTokens, total.CacheWriteTokens, total.CompletionTokens)
	if tc.check != nil {
		tc.check(t, f, replies)
	}
}

func (tc providerCase) checkReplies(t *testing.T, c *Client, replies []Reply) {
	t.Helper()
	wantCalls, wantText := 3, "Reviewed: no problems."
	if tc.wantCalls < 0 {
		wantCalls, wantText = 0, "Looks fine from the diff."
	}
	for i, r := range replies {
		if r.Text != wantText || r.ToolCalls != wantCalls {
			t.Errorf("ask %d = %q after %d tool calls; want %q after %d", i+1, r.Text, r.ToolCalls, wantText, wantCalls)
		}
	}
	warnings := c.Warnings()
	switch {
	case tc.wantWarning == "" && len(warnings) > 0:
		t.Errorf("warnings = %q, want none", warnings)
	case tc.wantWarning != "" && (len(warnings) != 1 || !strings.Contains(warnings[0], tc.wantWarning)):
		t.Errorf("warnings = %q, want one naming %q", warnings, tc.wantWarning)
	}
}

// addReviewRules scripts a review: two tool rounds, then the answer; a
// request without tools is answered from the diff at once.
func addReviewRules(f *fakellm.Server) {
	f.AddRule(fakellm.Rule{Name: "no tools", Match: func(r fakellm.Request) bool { return len(r.Tools) == 0 },
		Reply: fakellm.Reply{Text: "Looks fine from the diff."}})
	f.AddRule(fakellm.Rule{Name: "first round", LastRole: "user", Reply: fakellm.Reply{ToolCalls: []fakellm.ToolCall{fakellm.Call("read_file", map[string]string{"path": "a.go"})}}})
	f.AddRule(fakellm.Rule{Name: "second round", LastRole: "tool", Match: func(r fakellm.Request) bool { return turnCalls(r) == 1 },
		Reply: fakellm.Reply{ToolCalls: []fakellm.ToolCall{fakellm.Call("read_file", map[string]string{"path": "a_test.go"}), fakellm.Call("read_file", map[string]string{"path": "b.go"})}}})
	f.AddRule(fakellm.Rule{Name: "answer", LastRole: "tool", Reply: fakellm.Reply{Text: "Reviewed: no problems."}})
}

// turnCalls counts the assistant messages with tool calls after the last
// user message.
func turnCalls(r fakellm.Request) int {
	n := 0
	for i := len(r.Messages) - 1; i >= 0 && r.Messages[i].Role != "user"; i-- {
		if r.Messages[i].Role == "assistant" && len(r.Messages[i].ToolCalls) > 0 {
			n++
		}
	}
	return n
}

func noBreakpoints(t *testing.T, f *fakellm.Server) {
	t.Helper()
	for _, r := range f.Requests() {
		if strings.Contains(string(r.Body), "cache_control") {
			t.Fatalf("cache_control sent to a model that caches by itself: %.300s", r.Body)
		}
	}
}

// breakpointsOnPrefix checks that the system prompt and the shared chunk,
// and nothing else, carry a breakpoint.
func breakpointsOnPrefix(t *testing.T, f *fakellm.Server) {
	t.Helper()
	for _, r := range f.Requests() {
		var marked []int
		for i, m := range r.Messages {
			if m.CacheControl {
				marked = append(marked, i)
			}
		}
		if !slices.Equal(marked, []int{0, 1}) {
			t.Fatalf("breakpoints on messages %v, want [0 1] (system prompt, chunk)", marked)
		}
	}
}

// refusedOnce checks that tools were offered once, refused, and never
// offered again.
func refusedOnce(t *testing.T, f *fakellm.Server, _ []Reply) {
	t.Helper()
	reqs := f.Requests()
	var withTools []int
	for i, r := range reqs {
		if len(r.Tools) > 0 {
			withTools = append(withTools, i)
		}
	}
	if !slices.Equal(withTools, []int{0}) || reqs[0].Status < 400 || len(reqs) != 3 {
		t.Errorf("requests with tools %v of %d (first status %d); want only the first, refused, then two without", withTools, len(reqs), reqs[0].Status)
	}
}

// Gemini's RetryInfo delay is waited exactly, on a fake clock.
func TestGeminiRetryInfoIsWaited(t *testing.T) {
	t.Parallel()
	f := newFake(t, fakellm.Config{Provider: fakellm.Gemini})
	f.SetDefault(fakellm.Reply{Text: "answer"})
	f.InjectNext(1, fakellm.GeminiRateLimit("37s"))
	synctest.Test(t, func(t *testing.T) {
		c := newInProcessClient(t, f, nil)
		ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
		defer cancel()
		if _, err := c.NewSession("", nil).Ask(ctx, Label{Task: "q"}, "question"); err != nil {
			t.Fatalf("Ask: %v", err)
		}
		reqs := f.Requests()
		if len(reqs) != 2 || reqs[1].Time.Sub(reqs[0].Time) != 37*time.Second {
			t.Fatalf("%d requests; want the retry 37s after the 429", len(reqs))
		}
	})
}

// A Retry-After longer than MaxRetryDelay is honoured while the caller's
// deadline allows it, and refused at once when it does not.
func TestRetryAfterUpToTheDeadline(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		deadline time.Duration
		wantErr  bool
	}{
		"within the deadline": {deadline: 10 * time.Minute},
		"past the deadline":   {deadline: 2 * time.Minute, wantErr: true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t, fakellm.Config{})
			f.SetDefault(fakellm.Reply{Text: "answer"})
			f.InjectNext(1, fakellm.Fault{Status: 429, RetryAfter: "300"})
			synctest.Test(t, func(t *testing.T) {
				c := newInProcessClient(t, f, nil) // MaxRetryDelay 5s
				ctx, cancel := context.WithTimeout(t.Context(), tc.deadline)
				defer cancel()
				start := time.Now()
				_, err := c.NewSession("", nil).Ask(ctx, Label{Task: "q"}, "question")
				if tc.wantErr {
					if !errors.Is(err, ErrRateLimited) || !strings.Contains(err.Error(), "asks to wait 5m0s, which would pass the deadline") || time.Since(start) != 0 {
						t.Fatalf("Ask error = %v after %v; want ErrRateLimited at once", err, time.Since(start))
					}
					return
				}
				if err != nil || time.Since(start) != 5*time.Minute {
					t.Fatalf("Ask = %v after %v; want the answer after 5m", err, time.Since(start))
				}
			})
		})
	}
}
