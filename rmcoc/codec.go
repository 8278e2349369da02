package rmcoc

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/review-my-code-bot/rmc/internal/mdfence"
)

// Limits that keep a hostile comment cheap to parse.
const (
	maxBlocks     = 64
	maxBlockBytes = 56 << 10 // a review-run block with the ledger of 3,000 files (48,000 characters of keys)
)

// Render returns b as a fenced rmcoc block, tucked in a collapsed <details>
// so it does not clutter the conversation.
func Render(b Block) string {
	return "<details><summary>rmc state</summary>\n\n" + Fence(b) + "\n\n</details>"
}

// Fence returns b as a bare fenced block.
func Fence(b Block) string {
	payload, err := marshal(b)
	if err != nil {
		// Only unmarshalable values (none of the types above) get here.
		panic(fmt.Sprintf("rmcoc: render %T: %v", b, err))
	}
	return "```rmcoc\n" + string(payload) + "\n```"
}

// marshal writes {"v":…,"type":…, then the struct's fields in declaration
// order}, indented, so a reader sees the block's type first.
func marshal(b Block) ([]byte, error) {
	var fields bytes.Buffer
	enc := json.NewEncoder(&fields)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(b); err != nil {
		return nil, err
	}
	body := bytes.TrimSpace(fields.Bytes())
	if len(body) < 2 || body[0] != '{' {
		return nil, fmt.Errorf("%T does not encode as an object", b)
	}
	var compact bytes.Buffer
	fmt.Fprintf(&compact, `{"v":%d,"type":%q`, Version, b.BlockType())
	if rest := body[1 : len(body)-1]; len(rest) > 0 {
		compact.WriteByte(',')
		compact.Write(rest)
	}
	compact.WriteByte('}')
	if _, ok := b.(compactBlock); ok {
		return compact.Bytes(), nil
	}
	var out bytes.Buffer
	if err := json.Indent(&out, compact.Bytes(), "", "  "); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// compactBlock is a block written on one line: one that holds many records
// (the outcome ledger), where indentation would cost a third of its room.
type compactBlock interface{ compact() }

// ParseError describes one block that could not be read. The block is skipped.
type ParseError struct {
	Line   int // 1-based line of the opening fence
	Reason string
}

func (e ParseError) Error() string {
	return fmt.Sprintf("rmcoc block at line %d: %s", e.Line, e.Reason)
}

// Parse finds every rmcoc block in a comment body. It tolerates CRLF line
// endings, indented fences, several blocks and unknown fields; blocks it cannot
// read are reported in errs and skipped. It never panics.
func Parse(body string) (blocks []Block, errs []ParseError) {
	lines := strings.Split(strings.ReplaceAll(body, "\r\n", "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		fence, ok := openFence(lines[i])
		if !ok {
			continue
		}
		start := i
		var content []string
		closed := false
		for i++; i < len(lines); i++ {
			if closesFence(lines[i], fence) {
				closed = true
				break
			}
			content = append(content, lines[i])
		}
		if !closed {
			errs = append(errs, ParseError{start + 1, "unterminated block"})
			break
		}
		if len(blocks)+len(errs) >= maxBlocks {
			errs = append(errs, ParseError{start + 1, fmt.Sprintf("more than %d blocks; the rest are ignored", maxBlocks)})
			break
		}
		b, err := decode(strings.Join(content, "\n"))
		if err != "" {
			errs = append(errs, ParseError{start + 1, err})
			continue
		}
		blocks = append(blocks, b)
	}
	return blocks, errs
}

// openFence recognizes "```rmcoc" (any indentation, backticks or tildes, three
// or more) and returns the fence that closes it.
func openFence(line string) (mdfence.Fence, bool) {
	f, ok := mdfence.Open(line, mdfence.Lenient)
	if !ok || f.Info != "rmcoc" {
		return mdfence.Fence{}, false
	}
	return f, true
}

// closesFence reports a line of nothing but the fence's character, at least
// as many as opened it, at any indentation.
func closesFence(line string, fence mdfence.Fence) bool {
	return fence.Closes(line, mdfence.Lenient)
}

func decode(content string) (Block, string) {
	if len(content) > maxBlockBytes {
		return nil, fmt.Sprintf("block is %d bytes, more than %d", len(content), maxBlockBytes)
	}
	var head struct {
		V    *int   `json:"v"`
		Type string `json:"type"`
	}
	raw := []byte(strings.TrimSpace(content))
	if err := json.Unmarshal(raw, &head); err != nil {
		return nil, "not a JSON object: " + err.Error()
	}
	v := 1
	if head.V != nil {
		v = *head.V
	}
	if v < 1 || v > Version {
		return nil, fmt.Sprintf("unsupported version %d (this build reads up to %d)", v, Version)
	}
	b, ok := newBlock(Type(head.Type))
	if !ok {
		return nil, fmt.Sprintf("unknown type %q", head.Type)
	}
	if err := json.Unmarshal(raw, b); err != nil {
		return nil, fmt.Sprintf("%s: %v", head.Type, err)
	}
	// Return the value, not the pointer, so callers can type-switch on values.
	return reflect.ValueOf(b).Elem().Interface().(Block), ""
}

// All returns the blocks of type T in body, skipping malformed ones.
func All[T Block](body string) []T {
	blocks, _ := Parse(body)
	var out []T
	for _, b := range blocks {
		if t, ok := b.(T); ok {
			out = append(out, t)
		}
	}
	return out
}

// Strip removes the blocks (and the collapsed <details> Render wraps them in)
// from a body, leaving the prose a person reads.
func Strip(body string) string {
	lines := strings.Split(strings.ReplaceAll(body, "\r\n", "\n"), "\n")
	out := make([]string, 0, len(lines))
	for i := 0; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) == "<details><summary>rmc state</summary>" {
			j := i + 1
			for j < len(lines) && strings.TrimSpace(lines[j]) != "</details>" {
				j++
			}
			if j < len(lines) {
				i = j
				continue
			}
		}
		if fence, ok := openFence(lines[i]); ok {
			j := i + 1
			for j < len(lines) && !closesFence(lines[j], fence) {
				j++
			}
			i = j
			continue
		}
		out = append(out, lines[i])
	}
	text := strings.TrimSpace(strings.Join(out, "\n"))
	for strings.Contains(text, "\n\n\n") {
		text = strings.ReplaceAll(text, "\n\n\n", "\n\n")
	}
	return text
}
