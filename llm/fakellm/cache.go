package fakellm

import (
	"crypto/sha256"
	"encoding/json"
	"slices"
)

// Token accounting and prefix caching, modelled on OpenAI's documented
// automatic prompt caching: a request's prompt is cached by exact prefix;
// tools and the structured-output schema come first, then the messages in
// order; hits start at a minimum length and grow in fixed blocks. Providers
// reached through OpenRouter behave alike or cache less, never more.

// segment is one cacheable unit of a prompt: the leading block (model,
// tools, response_format) or one whole message.
type segment struct {
	key    []byte
	tokens int
}

func (s *Server) estimate(chars int) int {
	return (chars + s.cfg.CharsPerToken - 1) / s.cfg.CharsPerToken
}

// messageOverhead approximates the few tokens a chat template adds around
// every message.
const messageOverhead = 3

// segments splits a decoded request into its cacheable units.
func (s *Server) segments(rec *Request) []segment {
	var head []byte
	head = append(head, "model\x00"+rec.Model+"\x00"...)
	chars := 0
	for _, t := range rec.Tools {
		b := canonical(map[string]any{"name": t.Name, "description": t.Description, "parameters": rawOrNil(t.Parameters), "strict": t.Strict})
		head = append(head, b...)
		chars += len(b)
	}
	if rf := rec.ResponseFormat; rf != nil {
		// The structured-output schema is part of the cached prefix, so a
		// changed schema misses the cache for everything after it.
		b := canonical(map[string]any{"type": rf.Type, "name": rf.Name, "strict": rf.Strict, "schema": rawOrNil(rf.Schema)})
		head = append(head, b...)
		chars += len(b)
	}
	out := []segment{{key: head, tokens: s.estimate(chars)}}
	for _, m := range rec.Messages {
		b := canonical(map[string]any{"role": m.Role, "content": m.Content, "null": m.contentNull, "tool_calls": m.ToolCalls, "tool_call_id": m.ToolCallID, "name": m.Name})
		n := len(m.Role) + len(m.Content) + len(m.ToolCallID) + len(m.Name)
		for _, c := range m.ToolCalls {
			n += len(c.ID) + len(c.Name) + len(c.Arguments)
		}
		out = append(out, segment{key: b, tokens: s.estimate(n) + messageOverhead})
	}
	return out
}

// prefixHashes returns the chained hash of every prefix of segs: element i
// identifies segs[:i+1].
func prefixHashes(segs []segment) [][32]byte {
	out := make([][32]byte, len(segs))
	var prev [32]byte
	for i, sg := range segs {
		h := sha256.New()
		h.Write(prev[:])
		h.Write(sg.key)
		copy(out[i][:], h.Sum(nil))
		prev = out[i]
	}
	return out
}

// usageFor computes the prompt, cached and cache-written tokens of rec,
// and the prefixes to remember. A model that caches only at cache_control
// breakpoints (see breakpointCache) reads and writes only prefixes that
// end at one; it caches exact token counts, not blocks. Call with s.mu
// held.
func (s *Server) usageFor(rec *Request) (prompt, cached, written int, hashes [][32]byte) {
	segs := s.segments(rec)
	hashes = prefixHashes(segs)
	if s.breakpointCache(rec.Model) {
		return s.breakpointUsage(rec, segs, hashes)
	}
	matched := 0
	for i, sg := range segs {
		prompt += sg.tokens
		if _, ok := s.cache[hashes[i]]; ok && matched == i {
			matched = i + 1
		}
	}
	prefix := 0
	for _, sg := range segs[:matched] {
		prefix += sg.tokens
	}
	if prefix >= s.cfg.CacheMinTokens {
		cached = prefix / s.cfg.CacheBlockTokens * s.cfg.CacheBlockTokens
	}
	return prompt, min(cached, prompt), 0, hashes
}

// breakpointUsage is usageFor for a model that caches at breakpoints:
// segment i+1 is message i.
func (s *Server) breakpointUsage(rec *Request, segs []segment, hashes [][32]byte) (prompt, cached, written int, keep [][32]byte) {
	sum := 0
	for i, sg := range segs {
		prompt += sg.tokens
		sum += sg.tokens
		if i == 0 || !rec.Messages[i-1].CacheControl || sum < s.cfg.CacheMinTokens {
			continue
		}
		if _, ok := s.cache[hashes[i]]; ok {
			cached = sum
		} else {
			keep = append(keep, hashes[i])
			written = sum - cached
		}
	}
	return prompt, cached, written, keep
}

// remember stores the prefixes of an answered request. Call with s.mu held.
func (s *Server) remember(hashes [][32]byte) {
	for _, h := range hashes {
		s.cache[h] = struct{}{}
	}
}

// canonical marshals v with sorted map keys and no spaces, so the same
// content always gives the same cache key.
func canonical(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		return []byte(err.Error())
	}
	return b
}

// rawOrNil decodes raw JSON into a generic value so that key order and
// spacing in the client's encoding do not change the cache key.
func rawOrNil(raw json.RawMessage) any {
	if len(raw) == 0 {
		return nil
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return string(raw)
	}
	return v
}

func sortedKeys(m map[string]bool) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
