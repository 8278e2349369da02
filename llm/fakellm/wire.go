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

	contentNull bool // content was absent or null
}

// ToolCall is a function call requested by the model.
type ToolCall struct {
	ID        string // assigned by the server when a rule leaves it empty
	Name      string
	Arguments string // JSON text, exactly as sent
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
	ID       string           `json:"id"`
	Type     string           `json:"type"`
	Function wireFunctionCall `json:"function"`
}

type wireMessage struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content,omitempty"`
	ToolCalls  []wireToolCall  `json:"tool_calls,omitempty"`
	ToolCallID string          `json:"tool_call_id,omitempty"`
	Name       string          `json:"name,omitempty"`
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
}

type wireResponseMessage struct {
	Role      string         `json:"role"`
	Content   *string        `json:"content"`
	Refusal   *string        `json:"refusal"`
	ToolCalls []wireToolCall `json:"tool_calls,omitempty"`
}

type wireChoice struct {
	Index        int                 `json:"index"`
	Message      wireResponseMessage `json:"message"`
	Logprobs     *struct{}           `json:"logprobs"`
	FinishReason string              `json:"finish_reason"`
}

type wirePromptDetails struct {
	CachedTokens int `json:"cached_tokens"`
}

type wireUsage struct {
	PromptTokens        int               `json:"prompt_tokens"`
	CompletionTokens    int               `json:"completion_tokens"`
	TotalTokens         int               `json:"total_tokens"`
	PromptTokensDetails wirePromptDetails `json:"prompt_tokens_details"`
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
// an array of parts of which the text parts are kept.
func decodeContent(raw json.RawMessage) (text string, null bool, err error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", true, nil
	}
	if raw[0] == '"' {
		err = json.Unmarshal(raw, &text)
		return text, false, err
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", false, fmt.Errorf("content must be a string, null or an array of content parts: %w", err)
	}
	var b strings.Builder
	for _, p := range parts {
		if p.Type == "text" {
			b.WriteString(p.Text)
		}
	}
	return b.String(), false, nil
}

func toolCallsFromWire(w []wireToolCall) []ToolCall {
	var out []ToolCall
	for _, c := range w {
		out = append(out, ToolCall{ID: c.ID, Name: c.Function.Name, Arguments: c.Function.Arguments})
	}
	return out
}

func toolCallsToWire(calls []ToolCall) []wireToolCall {
	var out []wireToolCall
	for _, c := range calls {
		out = append(out, wireToolCall{ID: c.ID, Type: "function", Function: wireFunctionCall{Name: c.Name, Arguments: c.Arguments}})
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
