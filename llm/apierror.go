package llm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// apiError is what an error answer says, read from whichever shape the
// provider uses:
//
//   - OpenAI, llama.cpp, Azure, LiteLLM: {"error": {"message", "type", "code", ...}}
//   - Gemini's OpenAI-compatible endpoint: the same object inside a JSON
//     array, with Google's "status" and "details" (RetryInfo's retryDelay)
//   - OpenRouter: {"error": {"code": 403, "message", "metadata": {...}}},
//     where metadata.raw is the upstream provider's own error body (a
//     string holding JSON) and metadata.reasons the moderation's reasons
//   - vLLM: {"object": "error", "message", "type", "code"} at the top level
//   - FastAPI-based servers: {"detail": "text"} or a list of
//     {"loc", "msg"} objects
type apiError struct {
	msg    string // what to show the user; "" when the body said nothing
	code   string // a string code, e.g. "context_length_exceeded"
	status string // Google's status or the error's type, e.g. "RESOURCE_EXHAUSTED"
	// retryDelay is the body's own retry delay (Gemini's RetryInfo); ok
	// says one was given.
	retryDelay   time.Duration
	retryDelayOK bool
	numCode      int  // a numeric code (OpenRouter repeats or refines the HTTP status there)
	moderation   bool // the provider's moderation flagged the input
}

// maxErrorMessage bounds the message shown to the user.
const maxErrorMessage = 1000

// parseErrorBody reads an error answer. A body that is not JSON yields
// nothing: it is usually a proxy's HTML page, which says less than the
// status.
func parseErrorBody(body []byte) apiError {
	var v any
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return apiError{}
	}
	var e apiError
	e.read(v, 0)
	e.msg = strings.TrimSpace(e.msg)
	if len(e.msg) > maxErrorMessage {
		e.msg = e.msg[:maxErrorMessage] + "…"
	}
	return e
}

// read fills e from a decoded body; depth bounds nesting (an array around
// the object, metadata.raw inside it).
func (e *apiError) read(v any, depth int) {
	if depth > 3 {
		return
	}
	switch t := v.(type) {
	case []any:
		// Gemini wraps the error in a one-element array.
		for _, item := range t {
			if e.read(item, depth+1); e.msg != "" {
				return
			}
		}
	case map[string]any:
		switch inner := t["error"].(type) {
		case map[string]any:
			e.readObject(inner, depth)
			return
		case string:
			e.msg = inner
			return
		}
		e.readObject(t, depth)
		if e.msg == "" {
			e.msg = detailText(t["detail"])
		}
	case string:
		e.msg = t
	}
}

// readObject reads one error object.
func (e *apiError) readObject(o map[string]any, depth int) {
	e.msg = str(o["message"])
	e.status = str(o["status"])
	if e.status == "" {
		e.status = str(o["type"])
	}
	if e.msg == "" {
		e.msg = e.status
	}
	switch c := o["code"].(type) {
	case string:
		e.code = c
	case json.Number:
		n, _ := c.Int64()
		e.numCode = int(n)
	}
	if details, ok := o["details"].([]any); ok {
		e.readDetails(details)
	}
	if md, ok := o["metadata"].(map[string]any); ok {
		e.readMetadata(md, depth)
	}
}

// readDetails finds Google's RetryInfo among an error's details.
func (e *apiError) readDetails(details []any) {
	for _, d := range details {
		m, ok := d.(map[string]any)
		if !ok || !strings.HasSuffix(str(m["@type"]), "google.rpc.RetryInfo") {
			continue
		}
		// A protobuf Duration in JSON: seconds with an "s" suffix, "37s" or "1.5s".
		if d, err := time.ParseDuration(str(m["retryDelay"])); err == nil && d >= 0 {
			e.retryDelay, e.retryDelayOK = d, true
		}
	}
}

// readMetadata adds OpenRouter's metadata: the upstream provider's own
// error, and the moderation's reasons.
func (e *apiError) readMetadata(md map[string]any, depth int) {
	provider := str(md["provider_name"])
	if raw := str(md["raw"]); raw != "" {
		var inner apiError
		var v any
		if json.Unmarshal([]byte(raw), &v) == nil {
			inner.read(v, depth+1)
		} else {
			inner.msg = raw
		}
		if inner.msg != "" {
			e.msg = joinNonEmpty(": ", e.msg, joinNonEmpty(" said ", provider, inner.msg))
		}
		if e.code == "" {
			e.code = inner.code
		}
		if !e.retryDelayOK {
			e.retryDelay, e.retryDelayOK = inner.retryDelay, inner.retryDelayOK
		}
	} else if provider != "" && !strings.Contains(e.msg, provider) {
		e.msg = joinNonEmpty(" ", e.msg, "("+provider+")")
	}
	if reasons, ok := md["reasons"].([]any); ok {
		e.moderation = true
		var rs []string
		for _, r := range reasons {
			if s := str(r); s != "" {
				rs = append(rs, s)
			}
		}
		if len(rs) > 0 {
			e.msg = joinNonEmpty(" ", e.msg, "(reasons: "+strings.Join(rs, ", ")+")")
		}
	}
	if _, ok := md["flagged_input"]; ok {
		e.moderation = true // the flagged text itself is not shown: it is the prompt
	}
}

// detailText reads FastAPI's detail: a string, or a list of validation
// errors with loc and msg.
func detailText(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case []any:
		var parts []string
		for _, item := range t {
			m, ok := item.(map[string]any)
			if !ok {
				continue
			}
			msg := str(m["msg"])
			if loc, ok := m["loc"].([]any); ok && len(loc) > 0 {
				var segs []string
				for _, l := range loc {
					segs = append(segs, fmt.Sprint(l))
				}
				msg = strings.Join(segs, ".") + ": " + msg
			}
			parts = append(parts, msg)
		}
		return strings.Join(parts, "; ")
	}
	return ""
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

func joinNonEmpty(sep string, parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, sep)
}
