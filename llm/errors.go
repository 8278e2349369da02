package llm

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
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
	// ErrWaitRefused: with ErrRateLimited, the endpoint asked for a pause
	// longer than the run allows (MaxRetryWait, the rate-limit budget, the
	// deadline). A caller must not ask again sooner than asked: it fails.
	ErrWaitRefused = errors.New("the pause the endpoint asks for is not allowed")
	// ErrAuth: the endpoint refused the API key (401 or 403).
	ErrAuth = errors.New("authentication failed")
	// ErrRejected: the endpoint refused the request itself (400, 404, 413,
	// 422, ...): an unknown model, a prompt longer than the context window.
	ErrRejected = errors.New("request rejected")
	// ErrContextLength: the endpoint refused the request as longer than
	// the model's context window. It is also an ErrRejected; a caller that
	// can send less (a review chunk) splits and retries.
	ErrContextLength = errors.New("prompt longer than the model's context window")
	// ErrModeration: the provider's moderation flagged the prompt (an
	// OpenRouter 403 with moderation metadata, Azure's content_filter). It
	// is also an ErrRejected and never an ErrAuth: the key is fine, and the
	// next prompt may pass.
	ErrModeration = errors.New("flagged by the provider's moderation")
	// errToolsUnsupported: the server or model refuses tool definitions
	// (vLLM without --enable-auto-tool-choice, llama.cpp without --jinja,
	// an Ollama model without tool support). It is also an ErrRejected.
	// A Session answers it by going on without tools; see Client.Warnings.
	errToolsUnsupported = errors.New("the endpoint does not accept tools")
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
	// waitRefused: the client would not wait as long as the endpoint
	// asked (ErrWaitRefused).
	waitRefused bool
}

var _ error = (*Error)(nil)

func (e *Error) Error() string {
	var b strings.Builder
	if e.cause == ErrModeration || e.cause == errToolsUnsupported {
		// More telling than "request rejected", and still a rejection.
		b.WriteString(e.cause.Error())
	} else {
		b.WriteString(e.Kind.Error())
	}
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
	errs := []error{e.Kind}
	if e.cause != nil {
		errs = append(errs, e.cause)
	}
	if e.waitRefused {
		errs = append(errs, ErrWaitRefused)
	}
	return errs
}

// failure is one attempt's outcome, classified.
type failure struct {
	err       *Error
	retryable bool
	header    http.Header // response headers, for Retry-After
	// wait is the body's own retry delay (Gemini's RetryInfo); waitOK
	// says one was given.
	wait   time.Duration
	waitOK bool
}

// classify sorts an attempt's error (see Client.send). timedOut says the
// per-request timeout (not the caller's context) ended the attempt.
func classify(err error, timedOut bool, key string) failure {
	var (
		statusErr   *statusError
		badBody     *badBodyError
		redirectErr *redirectError
	)
	switch {
	case timedOut:
		return failure{err: &Error{Kind: ErrUnavailable, cause: err}, retryable: true}
	case errors.As(err, &statusErr):
		return classifyStatus(statusErr, key)
	case errors.As(err, &redirectErr):
		// Checked before isTransport, which would match the *url.Error
		// around it: following the redirect is refused, and a retry would
		// only be redirected again.
		return failure{err: &Error{Kind: ErrBadResponse, Status: redirectErr.status, Detail: redact(redirectErr.Error(), key), cause: err}}
	case errors.As(err, &badBody):
		return failure{err: &Error{Kind: ErrBadResponse, Detail: redact(err.Error(), key), cause: err}}
	case isTransport(err):
		return failure{err: &Error{Kind: ErrUnavailable, Detail: redact(err.Error(), key), cause: err}, retryable: true}
	default:
		return failure{err: &Error{Kind: ErrBadResponse, Detail: redact(err.Error(), key), cause: err}}
	}
}

// classifyStatus sorts an HTTP error answer by what its body says first
// and by its status second: a moderation 403 is not a bad key, llama.cpp's
// 500 for tools without --jinja and Ollama's 500 for a prompt over its
// window are not worth a retry.
func classifyStatus(e *statusError, key string) failure {
	f := failure{err: &Error{Status: e.status, Detail: apiDetail(e, key)}, header: e.header, wait: e.retryDelay, waitOK: e.retryDelayOK}
	switch s := e.status; {
	case moderated(e):
		f.err.Kind, f.err.cause = ErrRejected, ErrModeration
	case toolsRefused(e) != "":
		f.err.Kind, f.err.cause = ErrRejected, errToolsUnsupported
		f.err.Detail += "; " + toolsRefused(e)
	case tooLong(e):
		f.err.Kind, f.err.cause = ErrRejected, ErrContextLength
	case streamRequired(e):
		f.err.Kind, f.err.cause = ErrRejected, errStreamRequired
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
}

// moderated reports a refusal by the provider's moderation: OpenRouter's
// 403 with metadata.reasons and flagged_input, or Azure OpenAI's 400 with
// code content_filter.
func moderated(e *statusError) bool {
	if e.moderation && (e.status == http.StatusForbidden || e.status == http.StatusBadRequest) {
		return true
	}
	return e.status == http.StatusBadRequest && e.code == "content_filter"
}

// toolsRefused returns the setting that enables tools when e is a server
// refusing them, in any provider family's words, else "".
func toolsRefused(e *statusError) string {
	if e.status != http.StatusBadRequest && e.status != http.StatusNotFound && e.status < 500 {
		return ""
	}
	msg := strings.ToLower(e.msg)
	for _, p := range families() {
		for _, r := range p.toolsRefusals {
			if strings.Contains(msg, r.phrase) {
				return r.fix
			}
		}
	}
	return ""
}

// tooLong reports a refusal of a prompt longer than the model's window:
// the wording of a provider family, with a status that family's refusal
// comes with (see provider.contextStatuses).
func tooLong(e *statusError) bool {
	return contextRefusal(e.status, e.code+" "+e.apiError.status+" "+e.msg)
}

// contextRefusal reports text, answered with status, that says in a
// provider family's words that the prompt is longer than the window.
func contextRefusal(status int, text string) bool {
	text = strings.ToLower(text)
	for _, p := range families() {
		if !slices.Contains(p.refusalStatuses(), status) {
			continue
		}
		for _, phrase := range p.contextPhrases {
			if strings.Contains(text, phrase) {
				return true
			}
		}
	}
	return false
}

// errStreamRequired: the endpoint answers only streamed requests. A
// Session asks again with stream: true, and streams from then on.
var errStreamRequired = errors.New("the endpoint answers only streamed requests")

// streamRequired reports an endpoint that serves only streamed requests:
// a provider family's refusal of a request without stream, or a gateway's
// 524, Cloudflare's timeout of a request whose answer took over 100 s to
// start (https://developers.cloudflare.com/support/troubleshooting/http-status-codes/cloudflare-5xx-errors/error-524/).
func streamRequired(e *statusError) bool {
	if e.status == 524 {
		return true
	}
	if e.status != http.StatusBadRequest {
		return false
	}
	msg := strings.ToLower(e.msg)
	for _, p := range families() {
		for _, phrase := range p.streamRefusals {
			if strings.Contains(msg, phrase) {
				return true
			}
		}
	}
	return false
}

// isTransport reports errors of reaching the endpoint or reading its
// answer, which a retry may cure.
func isTransport(err error) bool {
	var (
		urlErr *url.Error
		netErr net.Error
	)
	return errors.As(err, &urlErr) || errors.As(err, &netErr) ||
		errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF)
}

// apiDetail is the endpoint's own error message, which usually says what
// to fix ("model not found", "context length exceeded").
func apiDetail(e *statusError, key string) string {
	msg := e.msg
	if msg == "" {
		msg = http.StatusText(e.status)
	}
	if e.code != "" {
		msg += " [" + e.code + "]"
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
