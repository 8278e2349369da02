package llm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/review-my-code-bot/rmc/internal/jsonnum"
)

// This file is the Chat Completions wire format, as documented by OpenAI,
// limited to what the package sends and reads. Requests are encoded
// exactly; responses are decoded tolerantly, because OpenAI-compatible
// servers differ in the details: unknown fields are ignored, and the few
// fields known to vary between providers accept each form seen in
// practice.

// chatRequest is the body of POST {base}/chat/completions.
type chatRequest struct {
	Model          string          `json:"model"`
	Messages       []message       `json:"messages"`
	Tools          []toolDef       `json:"tools,omitempty"`
	ToolChoice     string          `json:"tool_choice,omitempty"` // "auto", "none" or "required"
	ResponseFormat *responseFormat `json:"response_format,omitempty"`
	// ReasoningEffort and MaxCompletionTokens come from Options; zero
	// values are left out, so the provider's defaults apply.
	ReasoningEffort     string   `json:"reasoning_effort,omitempty"`
	MaxCompletionTokens int      `json:"max_completion_tokens,omitempty"`
	Temperature         *float64 `json:"temperature,omitempty"`
	// Stream asks for server-sent events (see stream.go), with the usage
	// in the last one.
	Stream        bool           `json:"stream,omitempty"`
	StreamOptions *streamOptions `json:"stream_options,omitempty"`
}

// message is one request message. Content is omitted only when empty,
// which happens for an assistant message that carries tool calls alone;
// every other role always has text (see Session and toolRunner).
type message struct {
	Role       string     `json:"role"` // system, user, assistant or tool
	Content    string     `json:"content,omitempty"`
	ToolCalls  []toolCall `json:"tool_calls,omitempty"`   // assistant
	ToolCallID string     `json:"tool_call_id,omitempty"` // tool

	// cache sends Content as one text part carrying an ephemeral
	// cache_control breakpoint (Anthropic-family models; see cachesAtBreakpoints).
	cache bool
	// raw is an assistant message as the provider sent it, with the few
	// repairs echo makes; it is sent as is, so fields this package does not
	// know (thought signatures, reasoning) go back to the provider.
	raw json.RawMessage
}

// MarshalJSON sends raw when set, content parts when cache is set, and the
// plain fields otherwise.
func (m message) MarshalJSON() ([]byte, error) {
	if m.raw != nil {
		return m.raw, nil
	}
	type plain message // no methods: no recursion
	if !m.cache {
		return marshalText(plain(m))
	}
	return marshalText(struct {
		Role    string        `json:"role"`
		Content []contentPart `json:"content"`
	}{m.Role, []contentPart{{Type: "text", Text: m.Content, CacheControl: &cacheControl{Type: "ephemeral"}}}})
}

// marshalText encodes v without escaping <, > and &, like the request
// encoder (see encodeRequest).
func marshalText(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// contentPart is a text part of a request message's content.
type contentPart struct {
	Type         string        `json:"type"` // "text"
	Text         string        `json:"text"`
	CacheControl *cacheControl `json:"cache_control,omitempty"`
}

// cacheControl marks the end of a prefix the provider should cache
// (Anthropic's prompt caching, passed through by OpenRouter and LiteLLM).
type cacheControl struct {
	Type string `json:"type"` // "ephemeral"
}

func systemMessage(text string) message { return message{Role: "system", Content: text} }
func userMessage(text string) message   { return message{Role: "user", Content: text} }

// contextMessage is a block several turns share after the system prompt
// (see Session.Sub).
func contextMessage(text string) message { return message{Role: "user", Content: text} }

func toolMessage(result, callID string) message {
	return message{Role: "tool", Content: result, ToolCallID: callID}
}

// toolCall is a function call, in a response and echoed back in the
// assistant message of the next request.
type toolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function functionCall `json:"function"`
}

type functionCall struct {
	Name      string        `json:"name"`
	Arguments argumentsText `json:"arguments"`
}

// argumentsText is a call's arguments as JSON text. The API sends a string
// holding JSON; a few compatible servers send the JSON object itself, which
// is kept as its text so the tool still gets its arguments.
type argumentsText string

func (a *argumentsText) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case string(b) == "null":
		*a = ""
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return fmt.Errorf("decode tool call arguments: %w", err)
		}
		*a = argumentsText(s)
	default:
		*a = argumentsText(b)
	}
	return nil
}

type toolDef struct {
	Type     string      `json:"type"` // always "function"
	Function functionDef `json:"function"`
}

type functionDef struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	// Parameters is encoded once, when the session starts, so that every
	// request of the session carries the same bytes.
	Parameters json.RawMessage `json:"parameters"`
}

type responseFormat struct {
	Type       string      `json:"type"` // "json_schema"
	JSONSchema *jsonSchema `json:"json_schema,omitempty"`
}

type jsonSchema struct {
	Name   string          `json:"name"`
	Schema json.RawMessage `json:"schema"`
	Strict bool            `json:"strict"`
}

// chatResponse is a completion. Error is set instead of Choices by gateways
// that answer 200 with an error object.
type chatResponse struct {
	ID      looseString     `json:"id"`
	Choices []choice        `json:"choices"`
	Usage   usage           `json:"usage"`
	Error   json.RawMessage `json:"error"`
}

type choice struct {
	Message      responseMessage `json:"message"`
	FinishReason looseString     `json:"finish_reason"`
	// Error is OpenRouter's error of a generation that failed midway
	// (finish_reason "error").
	Error json.RawMessage `json:"error"`
	// ContentFilterResults (Azure OpenAI) and NativeFinishReason
	// (OpenRouter) say why a content filter stopped the answer.
	ContentFilterResults map[string]json.RawMessage `json:"content_filter_results"`
	NativeFinishReason   looseString                `json:"native_finish_reason"`
}

type responseMessage struct {
	Content   contentText `json:"content"`
	Refusal   looseString `json:"refusal"`
	ToolCalls []toolCall  `json:"tool_calls"`
	// raw is the message as sent, for echo.
	raw json.RawMessage
}

func (m *responseMessage) UnmarshalJSON(b []byte) error {
	type fields responseMessage // no methods: no recursion
	var f fields
	if err := json.Unmarshal(b, &f); err != nil {
		return err
	}
	*m = responseMessage(f)
	m.raw = bytes.Clone(b)
	return nil
}

// usage is the token accounting. Its counts accept what some servers send
// instead of integers (floats, strings), since a wrong count must not cost
// the answer. Cached prompt tokens come in each provider's own field:
// prompt_tokens_details.cached_tokens (OpenAI, OpenRouter, Gemini, vLLM),
// prompt_cache_hit_tokens (DeepSeek), cache_read_input_tokens (Anthropic's
// name, which LiteLLM passes on); cache writes as
// prompt_tokens_details.cache_write_tokens (OpenRouter) or
// cache_creation_input_tokens (Anthropic, LiteLLM).
type usage struct {
	PromptTokens        looseInt `json:"prompt_tokens"`
	CompletionTokens    looseInt `json:"completion_tokens"`
	TotalTokens         looseInt `json:"total_tokens"`
	PromptTokensDetails struct {
		CachedTokens     looseInt `json:"cached_tokens"`
		CacheWriteTokens looseInt `json:"cache_write_tokens"`
	} `json:"prompt_tokens_details"`
	PromptCacheHitTokens     looseInt `json:"prompt_cache_hit_tokens"`
	CacheReadInputTokens     looseInt `json:"cache_read_input_tokens"`
	CacheCreationInputTokens looseInt `json:"cache_creation_input_tokens"`
}

// cached is the prompt tokens read from the cache, whichever field the
// provider used.
func (u usage) cached() int {
	return int(max(u.PromptTokensDetails.CachedTokens, u.PromptCacheHitTokens, u.CacheReadInputTokens))
}

// cacheWrites is the prompt tokens written to the cache.
func (u usage) cacheWrites() int {
	return int(max(u.PromptTokensDetails.CacheWriteTokens, u.CacheCreationInputTokens))
}

// contentText is a message's text. The API sends a string or null; some
// providers send an array of content parts, whose text parts are joined.
type contentText string

func (c *contentText) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case string(b) == "null":
		*c = ""
		return nil
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return fmt.Errorf("decode message content: %w", err)
		}
		*c = contentText(s)
		return nil
	case len(b) > 0 && b[0] == '[':
		var parts []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}
		if err := json.Unmarshal(b, &parts); err != nil {
			return fmt.Errorf("decode message content parts: %w", err)
		}
		var sb strings.Builder
		for _, p := range parts {
			// Other parts (images, reasoning) are not part of the answer.
			if p.Type == "text" {
				sb.WriteString(p.Text)
			}
		}
		*c = contentText(sb.String())
		return nil
	}
	return fmt.Errorf("message content must be a string, null or an array of content parts, not %.40s", b)
}

// looseString reads a string, null as "", and any other JSON value as its
// text, for fields that only label or explain (id, finish_reason, refusal).
type looseString string

func (s *looseString) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var v string
		if err := json.Unmarshal(b, &v); err != nil {
			return fmt.Errorf("decode string: %w", err)
		}
		*s = looseString(v)
		return nil
	}
	if string(b) == "null" {
		b = nil
	}
	*s = looseString(b)
	return nil
}

// looseInt is a token count, read by jsonnum's rule. A count must not cost
// the answer: one jsonnum cannot read (a fraction, a word), a negative one or
// an absurd one (from 1e15 on, which summing could overflow) reads as 0, and
// so does null.
type looseInt int

func (n *looseInt) UnmarshalJSON(b []byte) error {
	var v jsonnum.Int
	if v.UnmarshalJSON(b) != nil || v < 0 || v >= 1e15 {
		v = 0
	}
	*n = looseInt(v)
	return nil
}
