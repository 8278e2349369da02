package fakellm

import (
	"encoding/json"
	"fmt"
	"strings"
)

// This file holds the documented Chat Completions wire format, written out
// independently of any SDK so that the fake checks a client against the API
// as documented rather than against one client's own types.

// Message is one chat message as the client sent it.
type Message struct {
	Role       string
	Content    string // text; an array of content parts is joined
	ToolCalls  []ToolCall
	ToolCallID string // set on role "tool"
	Name       string

	// CacheControl: a content part carries a cache_control breakpoint.
	CacheControl bool
	// ReasoningContent is DeepSeek's reasoning_content, sent back on an
	// assistant message.
	ReasoningContent *string
	// ReasoningDetails is OpenRouter's reasoning_details, sent back on an
	// assistant message.
	ReasoningDetails json.RawMessage
	// Raw is the message as the client sent it.
	Raw json.RawMessage

	contentNull bool // content was absent or null
}

// ToolCall is a function call requested by the model.
type ToolCall struct {
	ID        string // assigned by the server when a rule leaves it empty
	Name      string
	Arguments string // JSON text, exactly as sent
	// ThoughtSignature is Gemini's extra_content.google.thought_signature.
	ThoughtSignature string
}

// Call builds a ToolCall whose arguments are args marshalled as JSON; a
// string or json.RawMessage is used as is, so a test can send broken JSON.
func Call(name string, args any) ToolCall {
	switch a := args.(type) {
	case string:
		return ToolCall{Name: name, Arguments: a}
	case json.RawMessage:
		return ToolCall{Name: name, Arguments: string(a)}
	}
	b, err := json.Marshal(args)
	if err != nil {
		// A test helper has no caller to return to; the broken arguments
		// make the mistake visible in the request log instead.
		return ToolCall{Name: name, Arguments: fmt.Sprintf("marshal %T: %v", args, err)}
	}
	return ToolCall{Name: name, Arguments: string(b)}
}

// Tool is a function tool offered in the request.
type Tool struct {
	Name        string
	Description string
	Parameters  json.RawMessage
	Strict      bool
}

// ResponseFormat is the request's response_format.
type ResponseFormat struct {
	Type   string // "text", "json_object" or "json_schema"
	Name   string // json_schema.name
	Strict bool
	Schema json.RawMessage
}

type wireFunctionCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

type wireToolCall struct {
	ID           string            `json:"id,omitempty"`
	Type         string            `json:"type"`
	Function     wireFunctionCall  `json:"function"`
	ExtraContent *wireExtraContent `json:"extra_content,omitempty"`
}

// wireExtraContent is Gemini's per-call extra, holding the thought
// signature the model needs back.
type wireExtraContent struct {
	Google struct {
		ThoughtSignature string `json:"thought_signature,omitempty"`
	} `json:"google"`
}

type wireMessage struct {
	Role             string          `json:"role"`
	Content          json.RawMessage `json:"content,omitempty"`
	ToolCalls        []wireToolCall  `json:"tool_calls,omitempty"`
	ToolCallID       string          `json:"tool_call_id,omitempty"`
	Name             string          `json:"name,omitempty"`
	ReasoningContent *string         `json:"reasoning_content,omitempty"`
	ReasoningDetails json.RawMessage `json:"reasoning_details,omitempty"`
}

type wireTool struct {
	Type     string `json:"type"`
	Function struct {
		Name        string          `json:"name"`
		Description string          `json:"description,omitempty"`
		Parameters  json.RawMessage `json:"parameters,omitempty"`
		Strict      *bool           `json:"strict,omitempty"`
	} `json:"function"`
}

type wireResponseFormat struct {
	Type       string `json:"type"`
	JSONSchema *struct {
		Name   string          `json:"name"`
		Strict *bool           `json:"strict,omitempty"`
		Schema json.RawMessage `json:"schema,omitempty"`
	} `json:"json_schema,omitempty"`
}

type wireRequest struct {
	Model          string              `json:"model"`
	Messages       []wireMessage       `json:"messages"`
	Tools          []wireTool          `json:"tools,omitempty"`
	ToolChoice     json.RawMessage     `json:"tool_choice,omitempty"`
	ResponseFormat *wireResponseFormat `json:"response_format,omitempty"`
	Stream         bool                `json:"stream,omitempty"`
	StreamOptions  *struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options,omitempty"`
}

type wireResponseMessage struct {
	Role      string         `json:"role"`
	Content   *string        `json:"content"`
	Refusal   *string        `json:"refusal"`
	ToolCalls []wireToolCall `json:"tool_calls,omitempty"`
	// Thinking, as DeepSeek (reasoning_content) and OpenRouter (reasoning,
	// reasoning_details) send it.
	ReasoningContent *string         `json:"reasoning_content,omitempty"`
	Reasoning        *string         `json:"reasoning,omitempty"`
	ReasoningDetails json.RawMessage `json:"reasoning_details,omitempty"`
}

type wireChoice struct {
	Index        int                 `json:"index"`
	Message      wireResponseMessage `json:"message"`
	Logprobs     *struct{}           `json:"logprobs"`
	FinishReason string              `json:"finish_reason"`
}

type wirePromptDetails struct {
	CachedTokens     int  `json:"cached_tokens"`
	CacheWriteTokens *int `json:"cache_write_tokens,omitempty"` // OpenRouter
}

// wireUsage is OpenAI's usage, with the fields other providers use for
// the cache instead (set per Provider; see usageShape).
type wireUsage struct {
	PromptTokens        int                `json:"prompt_tokens"`
	CompletionTokens    int                `json:"completion_tokens"`
	TotalTokens         int                `json:"total_tokens"`
	PromptTokensDetails *wirePromptDetails `json:"prompt_tokens_details,omitempty"`
	// DeepSeek
	PromptCacheHitTokens  *int `json:"prompt_cache_hit_tokens,omitempty"`
	PromptCacheMissTokens *int `json:"prompt_cache_miss_tokens,omitempty"`
	// Anthropic's names, as LiteLLM passes them on
	CacheReadInputTokens     *int `json:"cache_read_input_tokens,omitempty"`
	CacheCreationInputTokens *int `json:"cache_creation_input_tokens,omitempty"`
}

type wireResponse struct {
	ID      string       `json:"id"`
	Object  string       `json:"object"`
	Created int64        `json:"created"`
	Model   string       `json:"model"`
	Choices []wireChoice `json:"choices"`
	Usage   wireUsage    `json:"usage"`
}

type wireError struct {
	Error struct {
		Message string  `json:"message"`
		Type    string  `json:"type"`
		Param   *string `json:"param"`
		Code    *string `json:"code"`
	} `json:"error"`
}

// decodeContent accepts the documented content forms: a string, null, or
// an array of parts of which the text parts are kept. cache reports a
// part with a cache_control breakpoint.
func decodeContent(raw json.RawMessage) (text string, null, cache bool, err error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", true, false, nil
	}
	if raw[0] == '"' {
		err = json.Unmarshal(raw, &text)
		return text, false, false, err
	}
	var parts []struct {
		Type         string `json:"type"`
		Text         string `json:"text"`
		CacheControl *struct {
			Type string `json:"type"`
		} `json:"cache_control"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", false, false, fmt.Errorf("content must be a string, null or an array of content parts: %w", err)
	}
	var b strings.Builder
	for _, p := range parts {
		if p.Type == "text" {
			b.WriteString(p.Text)
		}
		if p.CacheControl != nil {
			if p.CacheControl.Type != "ephemeral" {
				return "", false, false, fmt.Errorf("cache_control.type %q is not \"ephemeral\"", p.CacheControl.Type)
			}
			cache = true
		}
	}
	return b.String(), false, cache, nil
}

func toolCallsFromWire(w []wireToolCall) []ToolCall {
	var out []ToolCall
	for _, c := range w {
		tc := ToolCall{ID: c.ID, Name: c.Function.Name, Arguments: c.Function.Arguments}
		if c.ExtraContent != nil {
			tc.ThoughtSignature = c.ExtraContent.Google.ThoughtSignature
		}
		out = append(out, tc)
	}
	return out
}

func toolCallsToWire(calls []ToolCall) []wireToolCall {
	var out []wireToolCall
	for _, c := range calls {
		w := wireToolCall{ID: c.ID, Type: "function", Function: wireFunctionCall{Name: c.Name, Arguments: c.Arguments}}
		if c.ThoughtSignature != "" {
			w.ExtraContent = &wireExtraContent{}
			w.ExtraContent.Google.ThoughtSignature = c.ThoughtSignature
		}
		out = append(out, w)
	}
	return out
}

// toolChoiceString renders tool_choice as "auto", "none", "required" or
// "function:NAME", so tests can compare it as a string.
func toolChoiceString(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		switch s {
		case "auto", "none", "required":
			return s, nil
		}
		return "", fmt.Errorf("tool_choice %q is not one of none, auto, required", s)
	}
	var obj struct {
		Type     string `json:"type"`
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	}
	if err := json.Unmarshal(raw, &obj); err != nil || obj.Type != "function" || obj.Function.Name == "" {
		return "", fmt.Errorf("tool_choice must be a string or {\"type\":\"function\",\"function\":{\"name\":...}}")
	}
	return "function:" + obj.Function.Name, nil
}
