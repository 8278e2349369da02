package fakellm

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
)

// Provider makes the server behave like one provider's OpenAI-compatible
// endpoint, as that provider documents it: the checks it makes on a
// request, the fields it adds to an answer (thinking, cache usage), and
// its error bodies. The zero value is OpenAI.
type Provider string

// Providers.
const (
	OpenAI Provider = ""
	// Gemini's OpenAI-compatible endpoint with a Gemini 3 model: each
	// answer's first tool call carries a thought signature in
	// extra_content.google.thought_signature, and a request whose history
	// has a tool call without the signature the server issued is refused
	// with a 400 whose body is a JSON array.
	Gemini Provider = "gemini"
	// DeepSeek in thinking mode (deepseek-reasoner): every answer has
	// reasoning_content, which must be sent back on the assistant messages
	// with tool calls of the current turn, or the request is a 400; usage
	// reports prompt_cache_hit_tokens and prompt_cache_miss_tokens.
	DeepSeek Provider = "deepseek"
	// OpenRouter with a reasoning model: answers carry reasoning and
	// reasoning_details, which must come back unchanged on the assistant
	// messages with tool calls of the current turn; usage reports
	// prompt_tokens_details.cached_tokens and cache_write_tokens; an
	// Anthropic model ("anthropic/…") caches only up to cache_control
	// breakpoints.
	OpenRouter Provider = "openrouter"
	// LiteLLM proxying an Anthropic model: caching only at cache_control
	// breakpoints, usage with Anthropic's cache_read_input_tokens and
	// cache_creation_input_tokens.
	LiteLLMAnthropic Provider = "litellm-anthropic"
	// VLLMNoToolChoice is vLLM started without --enable-auto-tool-choice:
	// a request with tools (tool_choice "auto", the default with tools) is
	// a 400.
	VLLMNoToolChoice Provider = "vllm-no-auto-tool-choice"
	// LlamaCppNoJinja is llama.cpp's llama-server started without --jinja:
	// a request with tools is a 500.
	LlamaCppNoJinja Provider = "llamacpp-no-jinja"
	// Ollama keeps a small context window (Config.ContextTokens, 4096 when
	// zero) and cuts longer prompts without an error: the usage shows the
	// cut prompt's size.
	Ollama Provider = "ollama"
	// NoCallIDs is a compatible server that sends tool calls without ids.
	NoCallIDs Provider = "no-call-ids"
	// MistralTemplate is a server (vLLM, llama.cpp) running a Mistral
	// model's chat template that sends tool calls without ids and, as
	// mistral_common validates them, refuses a request whose tool call ids
	// are not 9 characters [a-zA-Z0-9], with vLLM's error body.
	MistralTemplate Provider = "mistral-template"
	// DashScopeQwQ is Alibaba Cloud Model Studio serving QwQ, which
	// answers only a streamed request: any other is a 400
	// (https://www.alibabacloud.com/help/en/model-studio/deep-thinking).
	DashScopeQwQ Provider = "dashscope-qwq"
	// Azure is Azure OpenAI: a classic deployment path
	// /openai/deployments/{deployment}/chat/completions with a required
	// api-version query parameter, or the v1 path /openai/v1/chat/completions;
	// the key in the api-key header.
	Azure Provider = "azure"
)

// breakpointCache reports a model that caches only at cache_control
// breakpoints on this server.
func (s *Server) breakpointCache(model string) bool {
	m := strings.ToLower(model)
	// The providers with this quirk; the others cache whole prefixes.
	//exhaustive:ignore
	switch s.cfg.Provider {
	case OpenRouter:
		return strings.HasPrefix(m, "anthropic/")
	case LiteLLMAnthropic:
		return true
	}
	return false
}

// rawError answers with status and a provider's own error body.
func rawError(w http.ResponseWriter, status int, body string) int {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(body))
	return status
}

var azurePath = regexp.MustCompile(`^/openai/deployments/[^/]+/chat/completions$`)

// checkAzure checks an Azure request's path, api-version and api-key,
// with Azure's documented error bodies.
func (s *Server) checkAzure(w http.ResponseWriter, r *http.Request) (int, bool) {
	switch {
	case r.URL.Path == "/openai/v1/chat/completions":
	case !azurePath.MatchString(r.URL.Path):
		return rawError(w, http.StatusNotFound, `{"error":{"code":"404","message":"Resource not found"}}`), false
	case r.URL.Query().Get("api-version") == "":
		return rawError(w, http.StatusNotFound, `{"error":{"code":"404","message":"Resource not found"}}`), false
	}
	if r.Header.Get("api-key") != s.cfg.APIKey {
		return rawError(w, http.StatusUnauthorized, `{"error":{"code":"401","message":"Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource."}}`), false
	}
	return 0, true
}

// refuse applies the provider's request checks after the generic ones;
// it reports whether it answered.
func (s *Server) refuse(w http.ResponseWriter, rec *Request) (int, bool) {
	// The providers with checks of their own; the others have none.
	//exhaustive:ignore
	switch s.cfg.Provider {
	case VLLMNoToolChoice:
		if len(rec.Tools) > 0 && (rec.ToolChoice == "" || rec.ToolChoice == "auto") {
			return rawError(w, http.StatusBadRequest, `{"object":"error","message":"\"auto\" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set","type":"BadRequestError","param":null,"code":400}`), true
		}
	case LlamaCppNoJinja:
		if len(rec.Tools) > 0 {
			return rawError(w, http.StatusInternalServerError, `{"error":{"code":500,"message":"tools param requires --jinja flag","type":"server_error"}}`), true
		}
	case Gemini:
		if i, ok := s.missingSignature(rec); ok {
			body := fmt.Sprintf(`[{"error":{"code":400,"message":"Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call default_api:%s , position %d.","status":"INVALID_ARGUMENT"}}]`, rec.Messages[i].ToolCalls[0].Name, i+1)
			return rawError(w, http.StatusBadRequest, body), true
		}
	case DeepSeek:
		if i, ok := turnAssistant(rec, func(m Message) bool { return m.ReasoningContent == nil }); ok {
			return writeError(w, APIError{Status: http.StatusBadRequest, Code: "invalid_request_error", Message: fmt.Sprintf(
				"Missing `reasoning_content` field in the assistant message at message index %d.", i)}, nil), true
		}
	case OpenRouter:
		if i, ok := turnAssistant(rec, func(m Message) bool { return !s.issued(string(m.ReasoningDetails)) }); ok {
			return writeError(w, APIError{Status: http.StatusBadRequest, Message: fmt.Sprintf(
				"fakellm (openrouter): messages[%d] has tool calls without the reasoning_details they came with", i)}, nil), true
		}
	case MistralTemplate:
		if id, bad := badMistralID(rec); bad {
			return rawError(w, http.StatusBadRequest, fmt.Sprintf(`{"object":"error","message":%q,"type":"BadRequestError","param":null,"code":400}`,
				"Tool call id was "+id+" but must be a-z, A-Z, 0-9, with a length of 9.")), true
		}
	case DashScopeQwQ:
		if !rec.Stream {
			return rawError(w, http.StatusBadRequest, `{"error":{"code":"invalid_parameter_error","param":null,"message":"This model only support stream mode, please enable the stream parameter to access the model. ","type":"invalid_request_error"},"id":"chatcmpl-qwq1","request_id":"qwq1"}`), true
		}
	}
	return 0, false
}

// mistralID is the tool call id mistral_common accepts.
var mistralID = regexp.MustCompile(`^[a-zA-Z0-9]{9}$`)

// badMistralID finds a tool call id, on an assistant message or a tool
// message, that a Mistral template refuses.
func badMistralID(rec *Request) (string, bool) {
	for _, m := range rec.Messages {
		for _, c := range m.ToolCalls {
			if !mistralID.MatchString(c.ID) {
				return c.ID, true
			}
		}
		if m.Role == "tool" && !mistralID.MatchString(m.ToolCallID) {
			return m.ToolCallID, true
		}
	}
	return "", false
}

// turnAssistant finds an assistant message with tool calls after the last
// user message (the current turn's tool loop) for which bad holds.
func turnAssistant(rec *Request, bad func(Message) bool) (int, bool) {
	for i := len(rec.Messages) - 1; i >= 0; i-- {
		m := rec.Messages[i]
		if m.Role == "user" {
			break
		}
		if m.Role == "assistant" && len(m.ToolCalls) > 0 && bad(m) {
			return i, true
		}
	}
	return 0, false
}

// missingSignature finds an assistant message, anywhere in the history,
// whose first tool call lacks a signature this server issued (Gemini 3
// checks the first call of each step).
func (s *Server) missingSignature(rec *Request) (int, bool) {
	for i, m := range rec.Messages {
		if m.Role == "assistant" && len(m.ToolCalls) > 0 && !s.issued(m.ToolCalls[0].ThoughtSignature) {
			return i, true
		}
	}
	return 0, false
}

func (s *Server) issued(token string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return token != "" && s.tokens[token]
}

func (s *Server) issue(token string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tokens[token] = true
	return token
}

// decorate adds the provider's own fields to an answer.
func (s *Server) decorate(msg *wireResponseMessage, id int) {
	// The providers with fields of their own; the others add none.
	//exhaustive:ignore
	switch s.cfg.Provider {
	case Gemini:
		if len(msg.ToolCalls) > 0 {
			msg.ToolCalls[0].ExtraContent = &wireExtraContent{}
			msg.ToolCalls[0].ExtraContent.Google.ThoughtSignature = s.issue(fmt.Sprintf("CpQBAdHtim%04dSig==", id))
		}
	case DeepSeek:
		r := fmt.Sprintf("The user wants a review; step %d: I should look at the code first.", id)
		msg.ReasoningContent = &r
	case OpenRouter:
		r := fmt.Sprintf("Reasoning of step %d.", id)
		msg.Reasoning = &r
		details := fmt.Sprintf(`[{"type":"reasoning.text","text":%q,"signature":"sig-%d","format":"anthropic-claude-v1","index":0}]`, r, id)
		msg.ReasoningDetails = json.RawMessage(s.issue(details))
	case NoCallIDs, MistralTemplate:
		for i := range msg.ToolCalls {
			msg.ToolCalls[i].ID = ""
		}
	}
}

// usageShape puts prompt and cache counts in the provider's fields.
func (s *Server) usageShape(prompt, cached, written, completion int) wireUsage {
	u := wireUsage{PromptTokens: prompt, CompletionTokens: completion, TotalTokens: prompt + completion}
	// The providers with fields of their own; the others use OpenAI's
	// (default).
	//exhaustive:ignore
	switch s.cfg.Provider {
	case DeepSeek:
		miss := prompt - cached
		u.PromptCacheHitTokens, u.PromptCacheMissTokens = &cached, &miss
	case OpenRouter:
		u.PromptTokensDetails = &wirePromptDetails{CachedTokens: cached, CacheWriteTokens: &written}
	case LiteLLMAnthropic:
		u.PromptTokensDetails = &wirePromptDetails{CachedTokens: cached}
		u.CacheReadInputTokens, u.CacheCreationInputTokens = &cached, &written
	case Ollama, LlamaCppNoJinja, NoCallIDs, MistralTemplate:
		// No cache fields.
	default:
		u.PromptTokensDetails = &wirePromptDetails{CachedTokens: cached}
	}
	return u
}

// Documented error bodies, as faults to inject.

// OpenRouterModeration is OpenRouter's 403 for input its moderation
// flagged.
func OpenRouterModeration() Fault {
	return Fault{Status: http.StatusForbidden, Body: `{"error":{"code":403,"message":"anthropic/claude-sonnet-4.5 requires moderation on OpenRouter. Your input was flagged for \"violence\"","metadata":{"reasons":["violence"],"flagged_input":"…","provider_name":"Anthropic","model_slug":"anthropic/claude-sonnet-4.5"}}}`}
}

// OpenRouterErrorIn200 is OpenRouter's answer when the upstream provider
// fails after the response began: HTTP 200 with an error object whose
// code is the failure's status.
func OpenRouterErrorIn200(code int) Fault {
	return Fault{Body: fmt.Sprintf(`{"error":{"code":%d,"message":"Provider returned error","metadata":{"provider_name":"Anthropic","raw":"{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}"}}}`, code)}
}

// OpenRouterFinishError is a completion that failed midway:
// finish_reason "error" with partial text and the choice's error.
func OpenRouterFinishError() Fault {
	return Fault{Body: `{"id":"gen-1","provider":"Anthropic","model":"anthropic/claude-sonnet-4.5","object":"chat.completion","created":1,"choices":[{"index":0,"finish_reason":"error","native_finish_reason":"error","message":{"role":"assistant","content":"The change looks corr"},"error":{"code":502,"message":"Upstream stream terminated"}}],"usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15}}`}
}

// OpenRouterProviderError is OpenRouter's 400 that relays the upstream
// provider's own error body in metadata.raw.
func OpenRouterProviderError() Fault {
	return Fault{Status: http.StatusBadRequest, Body: `{"error":{"code":400,"message":"Provider returned error","metadata":{"provider_name":"Google","raw":"{\n  \"error\": {\n    \"code\": 400,\n    \"message\": \"Invalid JSON payload received. Unknown name \\\"foo\\\": Cannot find field.\",\n    \"status\": \"INVALID_ARGUMENT\"\n  }\n}"}}}`}
}

// GeminiRateLimit is Gemini's 429 (an array body) whose RetryInfo asks to
// wait delay, e.g. "37s".
func GeminiRateLimit(delay string) Fault {
	return Fault{Status: http.StatusTooManyRequests, Body: fmt.Sprintf(`[{"error":{"code":429,"message":"You exceeded your current quota, please check your plan and billing details.","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.QuotaFailure","violations":[{"quotaMetric":"generativelanguage.googleapis.com/generate_content_free_tier_requests","quotaId":"GenerateRequestsPerMinutePerProjectPerModel-FreeTier"}]},{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":%q}]}}]`, delay)}
}

// AzureContentFilter is Azure OpenAI's 400 for a prompt its content
// filter blocked.
func AzureContentFilter() Fault {
	return Fault{Status: http.StatusBadRequest, Body: `{"error":{"message":"The response was filtered due to the prompt triggering Azure OpenAI's content management policy. Please modify your prompt and retry.","type":null,"param":"prompt","code":"content_filter","status":400,"innererror":{"code":"ResponsibleAIPolicyViolation","content_filter_result":{"hate":{"filtered":false,"severity":"safe"},"violence":{"filtered":true,"severity":"medium"}}}}}`}
}

// AnthropicTooLong is Anthropic's context refusal as LiteLLM relays it.
func AnthropicTooLong() Fault {
	return Fault{Status: http.StatusBadRequest, Body: `{"error":{"message":"litellm.BadRequestError: AnthropicException - {\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"prompt is too long: 210000 tokens > 200000 maximum\"}}","type":"invalid_request_error","param":null,"code":"400"}}`}
}

// AzureFilteredAnswer is Azure OpenAI's completion whose answer its
// content filter withheld: finish_reason "content_filter" with the
// categories in content_filter_results
// (https://learn.microsoft.com/azure/ai-foundry/openai/concepts/content-filter).
func AzureFilteredAnswer() Fault {
	return Fault{Body: `{"id":"chatcmpl-az1","object":"chat.completion","created":1,"model":"gpt-4o","choices":[{"index":0,"finish_reason":"content_filter","message":{"role":"assistant","content":null},"content_filter_results":{"hate":{"filtered":false,"severity":"safe"},"self_harm":{"filtered":false,"severity":"safe"},"violence":{"filtered":true,"severity":"high"}}}]}`}
}

// Context-length refusals in each local server's own words, as their
// sources write them.

// LMStudioTooLong is LM Studio's refusal of a prompt over the loaded
// context length; inside a 200 when in200 (some versions answer so:
// https://github.com/lmstudio-ai/lmstudio-bug-tracker/issues/2322).
func LMStudioTooLong(in200 bool) Fault {
	body := `{"error":"Trying to keep the first 9120 tokens when context the overflows. However, the model is loaded with context length of only 4096 tokens, which is not enough. Try to load the model with a larger context length, or provide a shorter input"}`
	if in200 {
		return Fault{Body: body}
	}
	return Fault{Status: http.StatusBadRequest, Body: body}
}

// LlamaCppTooLong is llama-server's 400 (tools/server/utils.hpp,
// format_error_response for ERROR_TYPE_EXCEED_CONTEXT_SIZE).
func LlamaCppTooLong() Fault {
	return Fault{Status: http.StatusBadRequest, Body: `{"error":{"code":400,"message":"request (9120 tokens) exceeds the available context size (4096 tokens), try increasing it","type":"exceed_context_size_error","n_prompt_tokens":9120,"n_ctx":4096}}`}
}

// OllamaTooLong is Ollama's refusal with truncation off; some versions
// answer it with a 500.
func OllamaTooLong() Fault {
	return Fault{Status: http.StatusInternalServerError, Body: `{"error":{"message":"the input length exceeds the context length","type":"api_error","param":null,"code":null}}`}
}

// VLLMTooLong is vLLM's 400 from the engine's input check
// (vllm/v1/engine/processor.py, _validate_model_input).
func VLLMTooLong() Fault {
	return Fault{Status: http.StatusBadRequest, Body: `{"object":"error","message":"The decoder prompt (length 9120) is longer than the maximum model length of 4096. Make sure that ` + "`max_model_len`" + ` is no smaller than the number of text tokens.","type":"BadRequestError","param":null,"code":400}`}
}

// TGITooLong is Text Generation Inference's 422 validation error
// (router/src/validation.rs).
func TGITooLong() Fault {
	return Fault{Status: http.StatusUnprocessableEntity, Body: "{\"error\":\"Input validation error: `inputs` tokens + `max_new_tokens` must be <= 4096. Given: 9120 `inputs` tokens and 1024 `max_new_tokens`\",\"error_type\":\"validation\"}"}
}
