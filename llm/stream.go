package llm

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// A streamed completion (stream: true) arrives as server-sent events, each
// "data: " line a chat.completion.chunk whose choices carry a delta of the
// message, and "data: [DONE]" at the end
// (https://platform.openai.com/docs/api-reference/chat-streaming). The
// deltas are assembled into the same completion a request without stream
// returns, so everything after the transport (tool calls, echo, usage,
// finish reasons, errors inside a 200) reads one answer either way.

// streamOptions asks for the usage in a last chunk.
type streamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

// textMembers are message members whose deltas are pieces of one text.
var textMembers = map[string]bool{"content": true, "reasoning_content": true, "reasoning": true, "refusal": true, "arguments": true, "text": true, "summary": true}

// readStream reads an event stream into a completion. touch is called on
// every line, for the inactivity timeout. A stream that ends without
// "[DONE]" or a finish reason was cut: io.ErrUnexpectedEOF, which is
// retried.
func readStream(body io.Reader, touch func()) (*chatResponse, error) {
	var a assembly
	sc := bufio.NewScanner(io.LimitReader(body, maxResponseBytes+1))
	sc.Buffer(make([]byte, 64<<10), maxResponseBytes)
	var data []string
	total := 0
	for sc.Scan() {
		touch()
		line := sc.Text()
		total += len(line) + 1
		if total > maxResponseBytes {
			return nil, &badBodyError{fmt.Errorf("the streamed answer is larger than %d MiB", maxResponseBytes>>20)}
		}
		if line != "" {
			// A comment (": OPENROUTER PROCESSING") and the event, id and
			// retry fields say nothing about the answer.
			if v, ok := strings.CutPrefix(line, "data:"); ok {
				data = append(data, strings.TrimPrefix(v, " "))
			}
			continue
		}
		if done, err := a.event(strings.Join(data, "\n")); done || err != nil {
			return a.response(), err
		}
		data = data[:0]
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read the streamed completion: %w", err)
	}
	if done, err := a.event(strings.Join(data, "\n")); done || err != nil {
		return a.response(), err
	}
	if a.finish == "" && a.errorBody == nil {
		return nil, fmt.Errorf("the stream ended before the answer did: %w", io.ErrUnexpectedEOF)
	}
	return a.response(), nil
}

// assembly is a streamed completion so far.
type assembly struct {
	id        json.RawMessage
	usage     json.RawMessage
	errorBody json.RawMessage // an error object sent instead of a chunk
	finish    string
	choice    []member // the choice's members but delta: finish_reason, error, ...
	message   []member // the message, assembled from the deltas
}

// event adds one event's data; done says the stream is over.
func (a *assembly) event(data string) (done bool, err error) {
	data = strings.TrimSpace(data)
	switch {
	case data == "":
		return false, nil
	case data == "[DONE]":
		return true, nil
	}
	var chunk struct {
		ID      json.RawMessage   `json:"id"`
		Choices []json.RawMessage `json:"choices"`
		Usage   json.RawMessage   `json:"usage"`
		Error   json.RawMessage   `json:"error"`
	}
	if err := json.Unmarshal([]byte(data), &chunk); err != nil {
		return false, &badBodyError{fmt.Errorf("a streamed event is not a chat completion chunk: %w", err)}
	}
	if !isNull(chunk.ID) {
		a.id = chunk.ID
	}
	if !isNull(chunk.Usage) {
		a.usage = chunk.Usage
	}
	if !isNull(chunk.Error) && len(chunk.Choices) == 0 {
		// OpenRouter and LiteLLM report a failure midway as an error chunk.
		a.errorBody = chunk.Error
		return true, nil
	}
	if !isNull(chunk.Error) {
		// OpenRouter's error midway, beside finish_reason "error": the
		// choice's error, as a completion would carry it.
		a.choice = set(a.choice, "error", chunk.Error, false)
	}
	for _, raw := range chunk.Choices {
		if err := a.addChoice(raw); err != nil {
			return false, err
		}
	}
	return false, nil
}

// addChoice merges one chunk's choice: its delta into the message, its
// other members into the choice. Only the first choice (index 0) is kept,
// as without streaming.
func (a *assembly) addChoice(raw json.RawMessage) error {
	ms, err := objectMembers(raw)
	if err != nil {
		return &badBodyError{fmt.Errorf("a streamed choice is not an object: %w", err)}
	}
	if idx := get(ms, "index"); !isNull(idx) && string(bytes.TrimSpace(idx)) != "0" {
		return nil
	}
	for _, m := range ms {
		switch {
		case isNull(m.value) || m.key == "index":
		case m.key == "delta":
			delta, err := objectMembers(m.value)
			if err != nil {
				return &badBodyError{fmt.Errorf("a streamed delta is not an object: %w", err)}
			}
			a.message = mergeMembers(a.message, delta)
		case m.key == "finish_reason":
			_ = json.Unmarshal(m.value, &a.finish)
			a.choice = set(a.choice, m.key, m.value, false)
		default:
			a.choice = set(a.choice, m.key, m.value, false)
		}
	}
	return nil
}

// mergeMembers adds a delta's members to what was assembled: text pieces
// are joined, objects merged, arrays of indexed items (tool calls,
// reasoning details) merged by index and others appended; any other value
// replaces the one before (a role or an id sent again is the same).
func mergeMembers(into, delta []member) []member {
	for _, d := range delta {
		if isNull(d.value) {
			continue
		}
		old := get(into, d.key)
		into = set(into, d.key, mergeValue(d.key, old, d.value), false)
	}
	return into
}

func mergeValue(key string, old, v json.RawMessage) json.RawMessage {
	if isNull(old) {
		return v
	}
	switch {
	case textMembers[key] && old[0] == '"' && v[0] == '"':
		var a, b string
		if json.Unmarshal(old, &a) != nil || json.Unmarshal(v, &b) != nil {
			return v
		}
		joined, _ := marshalText(a + b)
		return joined
	case old[0] == '{' && v[0] == '{':
		om, err1 := objectMembers(old)
		vm, err2 := objectMembers(v)
		if err1 != nil || err2 != nil {
			return v
		}
		return encodeMembers(mergeMembers(om, vm))
	case old[0] == '[' && v[0] == '[':
		return mergeItems(old, v)
	}
	return v
}

// mergeItems merges two arrays' items: an object with an index merges
// into the item of the same index, anything else is appended.
func mergeItems(old, v json.RawMessage) json.RawMessage {
	var have, add []json.RawMessage
	if json.Unmarshal(old, &have) != nil || json.Unmarshal(v, &add) != nil {
		return v
	}
	for _, item := range add {
		im, err := objectMembers(item)
		idx := get(im, "index")
		if err != nil || isNull(idx) {
			have = append(have, item)
			continue
		}
		pos := slicesIndex(have, idx)
		if pos < 0 {
			have = append(have, item)
			continue
		}
		hm, _ := objectMembers(have[pos])
		have[pos] = encodeMembers(mergeMembers(hm, withoutKey(im, "index")))
	}
	out, _ := marshalText(have)
	return out
}

// slicesIndex is the position of the object in items whose index member
// is idx, or -1.
func slicesIndex(items []json.RawMessage, idx json.RawMessage) int {
	for i, it := range items {
		ms, err := objectMembers(it)
		if err == nil && bytes.Equal(bytes.TrimSpace(get(ms, "index")), bytes.TrimSpace(idx)) {
			return i
		}
	}
	return -1
}

func withoutKey(ms []member, key string) []member {
	var out []member
	for _, m := range ms {
		if m.key != key {
			out = append(out, m)
		}
	}
	return out
}

// response is the assembled completion, decoded as a completion without
// stream would be.
func (a *assembly) response() *chatResponse {
	var out chatResponse
	if a.errorBody != nil {
		// What came before the error is not an answer.
		out.Error = a.errorBody
		out.ID = looseString(strings.Trim(string(a.id), `"`))
		return &out
	}
	choice := append([]member(nil), a.choice...)
	if a.message != nil || isNull(get(choice, "message")) {
		// A server that sent its message whole instead of deltas keeps it.
		choice = set(choice, "message", encodeMembers(withoutIndexes(a.message)), false)
	}
	resp := []member{{"choices", json.RawMessage("[" + string(encodeMembers(choice)) + "]")}}
	if a.id != nil {
		resp = append(resp, member{"id", a.id})
	}
	if a.usage != nil {
		resp = append(resp, member{"usage", a.usage})
	}
	if err := json.Unmarshal(encodeMembers(resp), &out); err != nil {
		out = chatResponse{Error: json.RawMessage(fmt.Sprintf(`{"message":%q}`, "the streamed answer does not assemble into a completion: "+err.Error()))}
	}
	return &out
}

// withoutIndexes drops the index the stream gives each tool call, which a
// message does not carry.
func withoutIndexes(msg []member) []member {
	calls := get(msg, "tool_calls")
	if isNull(calls) {
		return msg
	}
	var items []json.RawMessage
	if json.Unmarshal(calls, &items) != nil {
		return msg
	}
	for i, it := range items {
		if ms, err := objectMembers(it); err == nil {
			items[i] = encodeMembers(withoutKey(ms, "index"))
		}
	}
	b, _ := marshalText(items)
	return set(append([]member(nil), msg...), "tool_calls", b, false)
}
