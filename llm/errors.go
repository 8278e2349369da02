package llm

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/openai/openai-go/v3"
)

// Kinds of failure. Errors returned by this package match one of them with
// errors.Is, so a caller can tell the user what failed. Their text is
// short because it always appears inside "llm: task ...: ". A cancelled or
// expired caller context is reported as the context's own error instead.
var (
	// ErrUnavailable: the endpoint could not be reached, answered 5xx, or
	// timed out, on every attempt.
	ErrUnavailable = errors.New("endpoint unavailable")
	// ErrRateLimited: the endpoint answered 429 on every attempt, or asked
	// for a longer pause than the retry policy allows.
	ErrRateLimited = errors.New("rate limited")
	// ErrAuth: the endpoint refused the API key (401 or 403).
	ErrAuth = errors.New("authentication failed")
	// ErrRejected: the endpoint refused the request itself (400, 404, 413,
	// 422, ...): an unknown model, a prompt longer than the context window.
	ErrRejected = errors.New("request rejected")
	// ErrBadResponse: the endpoint answered something unusable: not a chat
	// completion, no choices, an empty answer, or JSON that does not match
	// the schema even after one correction.
	ErrBadResponse = errors.New("bad response")
	// ErrToolRounds: the model kept calling tools after the tool-round cap
	// and the final request that forbade tools.
	ErrToolRounds = errors.New("tool round limit reached")
)

// Error is a failed model call.
type Error struct {
	Kind     error  // one of the Err* kinds above
	Status   int    // HTTP status of the last attempt; 0 when none arrived
	Attempts int    // requests made, retries included
	Detail   string // what the endpoint or transport said, API key removed
	cause    error
}

var _ error = (*Error)(nil)

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Kind.Error())
	switch {
	case e.Status != 0 && e.Attempts > 1:
		fmt.Fprintf(&b, " (HTTP %d, %d attempts)", e.Status, e.Attempts)
	case e.Status != 0:
		fmt.Fprintf(&b, " (HTTP %d)", e.Status)
	case e.Attempts > 1:
		fmt.Fprintf(&b, " (%d attempts)", e.Attempts)
	}
	if e.Detail != "" {
		b.WriteString(": ")
		b.WriteString(e.Detail)
	}
	return b.String()
}

// Unwrap exposes the kind and the underlying cause to errors.Is/As.
func (e *Error) Unwrap() []error {
	if e.cause == nil {
		return []error{e.Kind}
	}
	return []error{e.Kind, e.cause}
}

// failure is one attempt's outcome, classified.
type failure struct {
	err       *Error
	retryable bool
	header    http.Header // response headers, for Retry-After
}

// classify sorts an attempt's error. timedOut says the per-request timeout
// (not the caller's context) ended the attempt.
func classify(err error, timedOut bool, key string) failure {
	var apiErr *openai.Error
	switch {
	case timedOut:
		return failure{err: &Error{Kind: ErrUnavailable, cause: err}, retryable: true}
	case errors.As(err, &apiErr):
		f := failure{err: &Error{Status: apiErr.StatusCode, Detail: apiDetail(apiErr, key)}}
		if apiErr.Response != nil {
			f.header = apiErr.Response.Header
		}
		switch s := apiErr.StatusCode; {
		case s == http.StatusUnauthorized || s == http.StatusForbidden:
			f.err.Kind = ErrAuth
		case s == http.StatusTooManyRequests:
			f.err.Kind, f.retryable = ErrRateLimited, true
		case s == http.StatusRequestTimeout || s >= 500:
			f.err.Kind, f.retryable = ErrUnavailable, true
		default:
			f.err.Kind = ErrRejected
		}
		return f
	case isTransport(err):
		return failure{err: &Error{Kind: ErrUnavailable, Detail: redact(err.Error(), key), cause: err}, retryable: true}
	default:
		// The SDK reports an undecodable body or a non-JSON content type as
		// a plain error: the endpoint answered, but not a chat completion.
		return failure{err: &Error{Kind: ErrBadResponse, Detail: redact(err.Error(), key), cause: err}}
	}
}

// isTransport reports errors of reaching the endpoint or reading its
// answer, which a retry may cure.
func isTransport(err error) bool {
	var (
		urlErr *url.Error
		netErr net.Error
		synErr *json.SyntaxError
	)
	if errors.As(err, &synErr) {
		return false
	}
	return errors.As(err, &urlErr) || errors.As(err, &netErr) ||
		errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF)
}

// apiDetail is the endpoint's own error message, which usually says what
// to fix ("model not found", "context length exceeded").
func apiDetail(e *openai.Error, key string) string {
	msg := e.Message
	if msg == "" {
		msg = http.StatusText(e.StatusCode)
	}
	if e.Code != "" {
		msg += " [" + e.Code + "]"
	}
	return redact(msg, key)
}

// redact removes the API key from text that may echo it, such as an
// endpoint's "invalid key" message.
func redact(text, key string) string {
	if key == "" {
		return text
	}
	return strings.ReplaceAll(text, key, "[redacted]")
}
