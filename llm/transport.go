package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
)

// maxResponseBytes bounds a completion body. Real answers are a few
// hundred kilobytes at most; the cap keeps a misbehaving endpoint from
// filling the runner's memory.
const maxResponseBytes = 32 << 20

// maxErrorBytes bounds how much of an error body is read; only its message
// is used.
const maxErrorBytes = 1 << 20

// statusError is an answer with an HTTP error status.
type statusError struct {
	status int
	header http.Header // for Retry-After
	apiError
}

func (e *statusError) Error() string {
	if e.msg == "" {
		return fmt.Sprintf("HTTP %d", e.status)
	}
	return fmt.Sprintf("HTTP %d: %s", e.status, e.msg)
}

// badBodyError is a 2xx answer that is not a chat completion.
type badBodyError struct{ err error }

func (e *badBodyError) Error() string { return e.err.Error() }
func (e *badBodyError) Unwrap() error { return e.err }

// redirectError is a redirect to another origin, which is not followed.
type redirectError struct {
	status int
	to     string // scheme://host of the target; never its path or query
}

func (e *redirectError) Error() string {
	return fmt.Sprintf("the endpoint redirected to %s, another origin; not followed, so the API key is not sent there", e.to)
}

// sameOriginRedirects wraps a client's redirect policy so that a request
// never leaves base's scheme, host and port. net/http drops Authorization
// on a redirect to another host, but keeps it for a subdomain, another
// port, or a downgrade from https to http.
func sameOriginRedirects(base *url.URL, next func(*http.Request, []*http.Request) error) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		if !sameOrigin(req.URL, base) {
			status := 0
			if req.Response != nil {
				status = req.Response.StatusCode
			}
			return &redirectError{status: status, to: req.URL.Scheme + "://" + req.URL.Host}
		}
		if next != nil {
			return next(req, via)
		}
		if len(via) >= 10 { // net/http's default policy
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}
}

func sameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Hostname(), b.Hostname()) && port(a) == port(b)
}

func port(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	if strings.EqualFold(u.Scheme, "https") {
		return "443"
	}
	return "80"
}

// send makes one attempt: it posts body and decodes the answer, streamed
// or not. touch is called as a streamed answer arrives, for the
// inactivity timeout. Errors are transport errors as net/http returns
// them, *statusError, *badBodyError or *redirectError; classify sorts them.
func (c *Client) send(ctx context.Context, body []byte, touch func()) (*chatResponse, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("build request to %s: %w", c.endpoint, err)
	}
	req.Header = c.header.Clone()
	if c.stream.Load() {
		req.Header.Set("Accept", "text/event-stream")
	}
	res, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	if res.StatusCode >= 400 {
		raw, err := io.ReadAll(io.LimitReader(res.Body, maxErrorBytes))
		if err != nil {
			return nil, fmt.Errorf("read the HTTP %d answer: %w", res.StatusCode, err)
		}
		return nil, &statusError{status: res.StatusCode, header: res.Header, apiError: parseErrorBody(raw)}
	}
	ct, _, _ := mime.ParseMediaType(res.Header.Get("Content-Type"))
	if ct == "text/event-stream" {
		// Only a streamed request gets one; a server that ignores stream
		// answers JSON, read below.
		return readStream(res.Body, touch)
	}
	raw, err := io.ReadAll(io.LimitReader(res.Body, maxResponseBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read the completion: %w", err)
	}
	if len(raw) > maxResponseBytes {
		return nil, &badBodyError{fmt.Errorf("the answer is larger than %d MiB", maxResponseBytes>>20)}
	}
	var out chatResponse
	if err := json.Unmarshal(raw, &out); err != nil {
		// The content type is only reported, not enforced: some servers
		// send completions as text/plain.
		return nil, &badBodyError{fmt.Errorf("the answer (HTTP %d, %s) is not a chat completion: %w", res.StatusCode, orNone(ct), err)}
	}
	return &out, nil
}

func orNone(s string) string {
	if s == "" {
		return "no content type"
	}
	return s
}
