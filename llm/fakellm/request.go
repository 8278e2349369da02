package fakellm

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"time"
)

// Request is one request the server received, decoded.
type Request struct {
	Time   time.Time // arrival
	Path   string
	Header http.Header
	Body   []byte
	// Status is the HTTP status the server answered with; 0 while the
	// request is in flight, or when the client gave up during an injected
	// delay.
	Status int

	Model          string
	Messages       []Message
	Tools          []Tool
	ToolChoice     string // "", "auto", "none", "required" or "function:NAME"
	ResponseFormat *ResponseFormat
	// Stream: the client asked for server-sent events; StreamUsage: with
	// the usage in a last chunk (stream_options.include_usage).
	Stream      bool
	StreamUsage bool

	// Usage is what the server reported; zero when it answered with an error.
	Usage Usage
}

// Usage is the token accounting the server reported for a request.
type Usage struct {
	PromptTokens     int
	CachedTokens     int
	CompletionTokens int
}

// LastUser returns the content of the last user message, or "".
func (r Request) LastUser() string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "user" {
			return r.Messages[i].Content
		}
	}
	return ""
}

// LastRole returns the role of the last message, or "".
func (r Request) LastRole() string {
	if len(r.Messages) == 0 {
		return ""
	}
	return r.Messages[len(r.Messages)-1].Role
}

// Contains reports whether any message's content or tool-call arguments
// contain text.
func (r Request) Contains(text string) bool {
	for _, m := range r.Messages {
		if strings.Contains(m.Content, text) {
			return true
		}
		for _, c := range m.ToolCalls {
			if strings.Contains(c.Arguments, text) {
				return true
			}
		}
	}
	return false
}

// ToolResults returns the tool messages sent after the last user message:
// the results of the current task's tool calls.
func (r Request) ToolResults() []Message {
	var out []Message
	for i := len(r.Messages) - 1; i >= 0; i-- {
		m := r.Messages[i]
		if m.Role == "user" {
			break
		}
		if m.Role == "tool" {
			out = append([]Message{m}, out...)
		}
	}
	return out
}

// requestError is a 400 answer in OpenAI's invalid_request_error shape.
type requestError struct{ msg string }

func (e requestError) Error() string { return e.msg }

func invalid(format string, args ...any) error {
	return requestError{msg: fmt.Sprintf(format, args...)}
}

var functionName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// decodeRequest decodes body into rec and checks it against the documented
// rules a real endpoint enforces, so that a client bug shows up as the same
// 400 the real API would send.
func decodeRequest(body []byte, rec *Request) error {
	var w wireRequest
	if err := json.Unmarshal(body, &w); err != nil {
		return invalid("We could not parse the JSON body of your request: %v", err)
	}
	var raws struct {
		Messages []json.RawMessage `json:"messages"`
	}
	_ = json.Unmarshal(body, &raws)
	if w.StreamOptions != nil && !w.Stream {
		return invalid("The 'stream_options' parameter is only allowed when 'stream' is enabled.")
	}
	rec.Stream = w.Stream
	rec.StreamUsage = w.StreamOptions != nil && w.StreamOptions.IncludeUsage
	if w.Model == "" {
		return invalid("you must provide a model parameter")
	}
	rec.Model = w.Model
	if len(w.Messages) == 0 {
		return invalid("'messages' must contain at least one message")
	}
	for i, t := range w.Tools {
		if t.Type != "function" {
			return invalid("tools[%d].type %q is not supported; expected 'function'", i, t.Type)
		}
		if !functionName.MatchString(t.Function.Name) {
			return invalid("tools[%d].function.name %q must match ^[a-zA-Z0-9_-]{1,64}$", i, t.Function.Name)
		}
		if len(t.Function.Parameters) > 0 && t.Function.Parameters[0] != '{' {
			return invalid("tools[%d].function.parameters must be a JSON Schema object", i)
		}
		rec.Tools = append(rec.Tools, Tool{
			Name:        t.Function.Name,
			Description: t.Function.Description,
			Parameters:  t.Function.Parameters,
			Strict:      t.Function.Strict != nil && *t.Function.Strict,
		})
	}
	choice, err := toolChoiceString(w.ToolChoice)
	if err != nil {
		return invalid("%v", err)
	}
	if choice != "" && len(w.Tools) == 0 {
		return invalid("'tool_choice' is only allowed when 'tools' are specified")
	}
	rec.ToolChoice = choice
	if rf := w.ResponseFormat; rf != nil {
		out := &ResponseFormat{Type: rf.Type}
		switch rf.Type {
		case "text", "json_object":
		case "json_schema":
			if rf.JSONSchema == nil || rf.JSONSchema.Name == "" {
				return invalid("response_format.json_schema.name is required")
			}
			if !functionName.MatchString(rf.JSONSchema.Name) {
				return invalid("response_format.json_schema.name %q must match ^[a-zA-Z0-9_-]{1,64}$", rf.JSONSchema.Name)
			}
			out.Name = rf.JSONSchema.Name
			out.Strict = rf.JSONSchema.Strict != nil && *rf.JSONSchema.Strict
			out.Schema = rf.JSONSchema.Schema
		default:
			return invalid("response_format.type %q is not one of text, json_object, json_schema", rf.Type)
		}
		rec.ResponseFormat = out
	}
	msgs, err := decodeMessages(w.Messages)
	for i := range msgs {
		if i < len(raws.Messages) {
			msgs[i].Raw = raws.Messages[i]
		}
	}
	rec.Messages = msgs
	return err
}

func decodeMessages(wire []wireMessage) ([]Message, error) {
	var (
		out     []Message
		pending = map[string]bool{} // tool_call ids still waiting for a tool message
	)
	for i, wm := range wire {
		text, null, cache, err := decodeContent(wm.Content)
		if err != nil {
			return out, invalid("messages[%d]: %v", i, err)
		}
		m := Message{Role: wm.Role, Content: text, ToolCallID: wm.ToolCallID, Name: wm.Name, contentNull: null, ToolCalls: toolCallsFromWire(wm.ToolCalls),
			CacheControl: cache, ReasoningContent: wm.ReasoningContent, ReasoningDetails: wm.ReasoningDetails}
		out = append(out, m)
		if wm.Role != "tool" && len(pending) > 0 {
			return out, invalid("An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: %s", strings.Join(sortedKeys(pending), ", "))
		}
		switch wm.Role {
		case "system", "developer", "user":
			if null {
				return out, invalid("messages[%d].content is required for role %q", i, wm.Role)
			}
		case "assistant":
			if null && len(wm.ToolCalls) == 0 {
				return out, invalid("messages[%d]: an assistant message needs content or tool_calls", i)
			}
			for j, c := range wm.ToolCalls {
				if c.ID == "" || c.Type != "function" || c.Function.Name == "" {
					return out, invalid("messages[%d].tool_calls[%d] needs id, type 'function' and function.name", i, j)
				}
				pending[c.ID] = true
			}
		case "tool":
			if !pending[wm.ToolCallID] {
				return out, invalid("messages[%d]: messages with role 'tool' must be a response to a preceding message with 'tool_calls' (tool_call_id %q)", i, wm.ToolCallID)
			}
			delete(pending, wm.ToolCallID)
		default:
			return out, invalid("messages[%d].role %q is not one of system, developer, user, assistant, tool", i, wm.Role)
		}
	}
	if len(pending) > 0 {
		return out, invalid("An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: %s", strings.Join(sortedKeys(pending), ", "))
	}
	return out, nil
}
