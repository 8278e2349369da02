package llm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// The model's assistant messages go back in the next request of the turn
// as the provider sent them: every member, in the provider's order,
// including the ones this package does not know. Providers keep state
// there that they require back: Gemini's thought signatures
// (tool_calls[].extra_content), DeepSeek's reasoning_content, OpenRouter's
// reasoning_details. Only what would make the request invalid is repaired:
// a missing tool call id or type, arguments sent as an object, a missing
// role, and members whose value is null (null means absent).

// member is one member of a JSON object, value as sent.
type member struct {
	key   string
	value json.RawMessage
}

// objectMembers reads a JSON object's members in order.
func objectMembers(raw []byte) ([]member, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, fmt.Errorf("not a JSON object")
	}
	var out []member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		out = append(out, member{key: key, value: v})
	}
	return out, nil
}

// encodeMembers writes members as a JSON object.
func encodeMembers(ms []member) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range ms {
		if i > 0 {
			b.WriteByte(',')
		}
		key, _ := json.Marshal(m.key)
		b.Write(key)
		b.WriteByte(':')
		b.Write(m.value)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// set replaces key's value, or adds the member (first when front is set).
func set(ms []member, key string, value json.RawMessage, front bool) []member {
	for i := range ms {
		if ms[i].key == key {
			ms[i].value = value
			return ms
		}
	}
	if front {
		return append([]member{{key, value}}, ms...)
	}
	return append(ms, member{key, value})
}

func get(ms []member, key string) json.RawMessage {
	for _, m := range ms {
		if m.key == key {
			return m.value
		}
	}
	return nil
}

func isNull(v json.RawMessage) bool { return len(v) == 0 || string(bytes.TrimSpace(v)) == "null" }

// echo is the assistant message to send back for msg, whose ToolCalls
// carry the ids the turn uses (withCallIDs). It falls back to the known
// fields when the raw message cannot be read.
func echo(msg responseMessage) message {
	if raw, err := echoRaw(msg); err == nil {
		return message{Role: "assistant", raw: raw}
	}
	m := message{Role: "assistant", Content: string(msg.Content)}
	for _, c := range msg.ToolCalls {
		m.ToolCalls = append(m.ToolCalls, toolCall{ID: c.ID, Type: "function", Function: functionCall{Name: c.Function.Name, Arguments: c.Function.Arguments}})
	}
	return m
}

func echoRaw(msg responseMessage) (json.RawMessage, error) {
	if msg.raw == nil {
		return nil, fmt.Errorf("no raw message")
	}
	ms, err := objectMembers(msg.raw)
	if err != nil {
		return nil, err
	}
	var kept []member
	for _, m := range ms {
		if !isNull(m.value) {
			kept = append(kept, m)
		}
	}
	kept = set(kept, "role", json.RawMessage(`"assistant"`), true)
	if len(msg.ToolCalls) == 0 {
		if isNull(get(kept, "content")) {
			// Some servers leave content out of an empty answer; the API
			// needs it on an assistant message without tool calls.
			kept = set(kept, "content", json.RawMessage(`""`), false)
		}
		return encodeMembers(kept), nil
	}
	calls, err := echoCalls(get(kept, "tool_calls"), msg.ToolCalls)
	if err != nil {
		return nil, err
	}
	return encodeMembers(set(kept, "tool_calls", calls, false)), nil
}

// echoCalls repairs each tool call: the id the turn uses, type
// "function", and arguments as a string holding JSON.
func echoCalls(raw json.RawMessage, calls []toolCall) (json.RawMessage, error) {
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, err
	}
	if len(items) != len(calls) {
		return nil, fmt.Errorf("tool calls changed")
	}
	var b bytes.Buffer
	b.WriteByte('[')
	for i, item := range items {
		ms, err := objectMembers(item)
		if err != nil {
			return nil, err
		}
		id, _ := json.Marshal(calls[i].ID)
		ms = set(ms, "id", id, true)
		if isNull(get(ms, "type")) {
			ms = set(ms, "type", json.RawMessage(`"function"`), false)
		}
		fn, err := echoFunction(get(ms, "function"), calls[i].Function)
		if err != nil {
			return nil, err
		}
		ms = set(ms, "function", fn, false)
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(encodeMembers(ms))
	}
	b.WriteByte(']')
	return b.Bytes(), nil
}

func echoFunction(raw json.RawMessage, f functionCall) (json.RawMessage, error) {
	ms, err := objectMembers(raw)
	if err != nil {
		return nil, err
	}
	args := get(ms, "arguments")
	if len(args) == 0 || args[0] != '"' {
		s, _ := json.Marshal(string(f.Arguments))
		ms = set(ms, "arguments", s, false)
	}
	return encodeMembers(ms), nil
}

// withCallIDs gives every tool call of msg an id: the server's, or one
// made up for this turn when the server sent none (or sent one twice), so
// that each tool message can name the call it answers. A made-up id is 9
// characters [a-zA-Z0-9], the one form every provider accepts: a Mistral
// chat template refuses any other.
func withCallIDs(msg responseMessage, round int) responseMessage {
	calls := append([]toolCall(nil), msg.ToolCalls...)
	seen := map[string]bool{}
	for i := range calls {
		if calls[i].ID == "" || seen[calls[i].ID] {
			calls[i].ID = madeUpCallID(round, i)
		}
		seen[calls[i].ID] = true
	}
	msg.ToolCalls = calls
	return msg
}

// madeUpCallID is "rmc", then the round and the call's index, 3 base-36
// digits each: 9 characters, unique in a turn of up to 46,656 rounds of as
// many calls.
func madeUpCallID(round, i int) string {
	return fmt.Sprintf("rmc%03s%03s", strconv.FormatInt(int64(round%46656), 36), strconv.FormatInt(int64(i%46656), 36))
}
