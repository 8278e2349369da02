package fakellm

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// A request with stream: true is answered with server-sent events, as
// https://platform.openai.com/docs/api-reference/chat-streaming documents
// them: chat.completion.chunk objects whose one choice carries a delta
// (the role first, then the text in pieces, each tool call's id and name
// and then its arguments in pieces, keyed by the call's index), a last
// chunk with the finish_reason, with stream_options.include_usage a chunk
// with no choices and the usage, and "data: [DONE]". OpenRouter sends
// ": OPENROUTER PROCESSING" comments first
// (https://openrouter.ai/docs/api-reference/streaming).

// streamPiece is how many bytes of a text one delta carries.
const streamPiece = 7

type wireChunk struct {
	ID      string            `json:"id"`
	Object  string            `json:"object"`
	Created int64             `json:"created"`
	Model   string            `json:"model"`
	Choices []wireChunkChoice `json:"choices"`
	Usage   *wireUsage        `json:"usage,omitempty"`
}

type wireChunkChoice struct {
	Index        int            `json:"index"`
	Delta        map[string]any `json:"delta"`
	FinishReason *string        `json:"finish_reason"`
}

// writeStream sends resp as events, paced as the fault says.
func (s *Server) writeStream(w http.ResponseWriter, r *http.Request, resp wireResponse, usage bool, pace Fault) int {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	flush := func() {
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
	}
	if s.cfg.Provider == OpenRouter {
		fmt.Fprint(w, ": OPENROUTER PROCESSING\n\n")
	}
	events := streamEvents(resp, usage)
	for i, ev := range events {
		if i > 0 && !s.pause(r, pace) {
			return http.StatusOK
		}
		b, _ := json.Marshal(ev)
		fmt.Fprintf(w, "data: %s\n\n", b)
		flush()
	}
	fmt.Fprint(w, "data: [DONE]\n\n")
	flush()
	return http.StatusOK
}

// pause waits before the next event; false means stop (a stall, or the
// client went away).
func (s *Server) pause(r *http.Request, pace Fault) bool {
	if pace.StreamStall {
		<-r.Context().Done()
		return false
	}
	return hold(r, pace.StreamGap)
}

// streamEvents cuts a completion into chunks.
func streamEvents(resp wireResponse, usage bool) []wireChunk {
	ch := resp.Choices[0]
	msg := ch.Message
	chunk := func(delta map[string]any, finish *string) wireChunk {
		return wireChunk{ID: resp.ID, Object: "chat.completion.chunk", Created: resp.Created, Model: resp.Model,
			Choices: []wireChunkChoice{{Delta: delta, FinishReason: finish}}}
	}
	// The role and the members that are not text come first, whole.
	// Raw values, so that what the server issued (reasoning_details)
	// arrives byte for byte.
	var full map[string]json.RawMessage
	b, _ := json.Marshal(msg)
	_ = json.Unmarshal(b, &full)
	first := map[string]any{"role": "assistant"}
	for k, v := range full {
		switch k {
		case "content", "refusal", "reasoning", "reasoning_content", "tool_calls", "role":
		default:
			if string(v) != "null" {
				first[k] = v
			}
		}
	}
	out := []wireChunk{chunk(first, nil)}
	for _, k := range []string{"reasoning_content", "reasoning", "content", "refusal"} {
		var text string
		_ = json.Unmarshal(full[k], &text)
		for _, piece := range pieces(text) {
			out = append(out, chunk(map[string]any{k: piece}, nil))
		}
	}
	for i, c := range msg.ToolCalls {
		head := map[string]any{"index": i, "type": "function", "function": map[string]any{"name": c.Function.Name, "arguments": ""}}
		if c.ID != "" {
			head["id"] = c.ID
		}
		if c.ExtraContent != nil {
			head["extra_content"] = c.ExtraContent
		}
		out = append(out, chunk(map[string]any{"tool_calls": []any{head}}, nil))
		for _, piece := range pieces(c.Function.Arguments) {
			out = append(out, chunk(map[string]any{"tool_calls": []any{map[string]any{"index": i, "function": map[string]any{"arguments": piece}}}}, nil))
		}
	}
	finish := ch.FinishReason
	out = append(out, chunk(map[string]any{}, &finish))
	if usage {
		u := resp.Usage
		out = append(out, wireChunk{ID: resp.ID, Object: "chat.completion.chunk", Created: resp.Created, Model: resp.Model, Choices: []wireChunkChoice{}, Usage: &u})
	}
	return out
}

// pieces cuts text into deltas of streamPiece bytes, never inside a
// character.
func pieces(text string) []string {
	var out []string
	for len(text) > 0 {
		n := min(streamPiece, len(text))
		for n < len(text) && !utf8Start(text[n]) {
			n++
		}
		out = append(out, text[:n])
		text = text[n:]
	}
	return out
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }
