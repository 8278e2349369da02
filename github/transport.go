package github

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"golang.org/x/time/rate"

	"github.com/review-my-code-bot/rmc/internal/retryafter"
)

// RetryPolicy says how hard to try. GitHub documents that a 403 or 429 with
// Retry-After, or with x-ratelimit-remaining: 0, may be retried after the
// given time; 5xx answers and timeouts are transient.
type RetryPolicy struct {
	MaxAttempts int           // per request, including the first (default 4)
	MaxWait     time.Duration // longest single wait; longer waits fail instead (default 2m)
	BaseBackoff time.Duration // first backoff for 5xx (default 1s)
	// Sleep waits; tests replace it. It must honour the request's context.
	Sleep func(r *http.Request, d time.Duration) error
}

func (p RetryPolicy) withDefaults() RetryPolicy {
	if p.MaxAttempts <= 0 {
		p.MaxAttempts = 4
	}
	if p.MaxWait <= 0 {
		p.MaxWait = 2 * time.Minute
	}
	if p.BaseBackoff <= 0 {
		p.BaseBackoff = time.Second
	}
	if p.Sleep == nil {
		p.Sleep = func(r *http.Request, d time.Duration) error {
			t := time.NewTimer(d)
			defer t.Stop()
			select {
			case <-t.C:
				return nil
			case <-r.Context().Done():
				return r.Context().Err()
			}
		}
	}
	return p
}

// errPacing marks a write the pacing refused: the caller gave up, or the
// write's turn would come after the caller's deadline. A retry cannot help.
var errPacing = errors.New("waiting to pace writes")

type retryTransport struct {
	next    http.RoundTripper
	policy  RetryPolicy
	counts  *counter
	warn    func(string)
	timeout time.Duration // per attempt
	// writes paces mutations: GitHub asks integrations making many writes
	// to leave at least a second between them (secondary rate limits).
	writes *rate.Limiter
}

// cancelBody ends an attempt's deadline when its body is closed.
type cancelBody struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (b cancelBody) Close() error {
	err := b.ReadCloser.Close()
	b.cancel()
	return err
}

// gqlOperation is what a GraphQL request does. The adapter states it with
// the call (withOperation) and the transport reads it, never the
// document's text: whether a request writes and whether repeating it is
// harmless are facts about the operation.
type gqlOperation int

const (
	// gqlMutation is a write that must not be sent twice; a GraphQL
	// request the adapter did not mark is read as one, the safe reading.
	gqlMutation gqlOperation = iota
	gqlQuery
	// gqlRepeatableMutation is a write whose repetition changes nothing
	// (resolving or reopening a thread).
	gqlRepeatableMutation
)

type gqlOperationKey struct{}

// withOperation marks ctx's GraphQL request as op.
func withOperation(ctx context.Context, op gqlOperation) context.Context {
	return context.WithValue(ctx, gqlOperationKey{}, op)
}

// operation is the kind r's GraphQL request was marked with.
func operation(r *http.Request) gqlOperation {
	op, _ := r.Context().Value(gqlOperationKey{}).(gqlOperation)
	return op
}

// idempotent reports whether repeating a write is harmless: edits, deletes,
// reactions (GitHub answers 200 for an existing one), statuses (the latest
// wins), review requests, and a repeatable GraphQL mutation.
func idempotent(r *http.Request) bool {
	switch {
	case r.Method == http.MethodPatch, r.Method == http.MethodPut, r.Method == http.MethodDelete:
		return true
	case strings.HasSuffix(r.URL.Path, "/reactions"), strings.Contains(r.URL.Path, "/statuses/"), strings.HasSuffix(r.URL.Path, "/requested_reviewers"):
		return true
	case strings.HasSuffix(r.URL.Path, "/graphql"):
		return operation(r) == gqlRepeatableMutation
	}
	return false
}

// isWrite reports whether a request changes GitHub. A GraphQL post is a
// write unless it was marked a query.
func isWrite(r *http.Request) bool {
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		return false
	}
	if strings.HasSuffix(r.URL.Path, "/graphql") {
		return operation(r) != gqlQuery
	}
	return true
}

func (t *retryTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	body, err := readBody(r)
	if err != nil {
		return nil, err
	}
	write := isWrite(r)
	if write && t.writes != nil {
		if err := t.writes.Wait(r.Context()); err != nil {
			return nil, fmt.Errorf("%w: %w", errPacing, err)
		}
	}
	// A repeatable write retries like a read; a create does not, since its
	// lost response may hide an applied write (the adapter checks first).
	retryable := !write || idempotent(r)
	for attempt := 1; ; attempt++ {
		resp, cancel, err := t.try(r, body, write)
		if err != nil && r.Context().Err() != nil {
			cancel()
			return nil, err // the caller gave up: no retry
		}
		wait, why := t.retryAfter(resp, err, !retryable, attempt)
		if why == "" || attempt >= t.policy.MaxAttempts {
			return answer(resp, cancel, err)
		}
		if wait > t.policy.MaxWait {
			return t.waitTooLong(resp, cancel, err, why, wait)
		}
		cancel()
		if resp != nil {
			io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
			resp.Body.Close()
		}
		t.counts.retries.Add(1)
		if t.warn != nil {
			t.warn(fmt.Sprintf("GitHub %s %s: %s; retrying in %s (attempt %d of %d)", r.Method, r.URL.Path, why, wait.Round(time.Millisecond), attempt+1, t.policy.MaxAttempts))
		}
		if err := t.policy.Sleep(r, wait); err != nil {
			return nil, err
		}
	}
}

// readBody reads and closes r's body, so that each attempt can send it again.
func readBody(r *http.Request) ([]byte, error) {
	if r.Body == nil {
		return nil, nil
	}
	b, err := io.ReadAll(r.Body)
	r.Body.Close()
	if err != nil {
		return nil, err
	}
	return b, nil
}

// try sends one attempt of r, counted as a read or a write. Each attempt has
// its own deadline, so a timed-out attempt can be told from a caller that
// gave up (only the first is retried); cancel ends it.
func (t *retryTransport) try(r *http.Request, body []byte, write bool) (*http.Response, context.CancelFunc, error) {
	actx, cancel := context.WithTimeout(r.Context(), t.timeout)
	req := r.Clone(actx)
	if body != nil {
		req.Body = io.NopCloser(bytes.NewReader(body))
		req.ContentLength = int64(len(body))
	}
	if write {
		t.counts.writes.Add(1)
	} else {
		t.counts.reads.Add(1)
	}
	resp, err := t.next.RoundTrip(req)
	return resp, cancel, err
}

// answer hands an attempt's outcome to the caller; the attempt's deadline
// ends when the response's body is closed, or now when there is none.
func answer(resp *http.Response, cancel context.CancelFunc, err error) (*http.Response, error) {
	if resp == nil {
		cancel()
		return nil, err
	}
	resp.Body = cancelBody{resp.Body, cancel}
	return resp, err
}

// waitTooLong gives up on a retry GitHub asks to wait for longer than the
// policy allows, warning that what is left stays pending.
func (t *retryTransport) waitTooLong(resp *http.Response, cancel context.CancelFunc, err error, why string, wait time.Duration) (*http.Response, error) {
	if t.warn != nil {
		t.warn(fmt.Sprintf("GitHub's rate limit is exhausted: %s; it asks to wait %s, longer than the %s this run allows. What is left stays pending for a later run.", why, wait.Round(time.Second), t.policy.MaxWait))
	}
	if resp != nil {
		return answer(resp, cancel, err)
	}
	cancel()
	return nil, fmt.Errorf("%s; GitHub asks to wait %s, longer than the %s this run allows", why, wait, t.policy.MaxWait)
}

// retryAfter decides whether and when to retry. Rate-limit answers mean the
// request was not applied, so every request retries on them; a 5xx or a lost
// connection may hide an applied create, so creates do not retry on those
// (the adapter checks before repeating one).
func (t *retryTransport) retryAfter(resp *http.Response, err error, create bool, attempt int) (time.Duration, string) {
	backoff := t.policy.BaseBackoff << (attempt - 1)
	if err != nil {
		if create {
			return 0, ""
		}
		return backoff, "request failed (" + err.Error() + ")"
	}
	switch {
	case resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusForbidden:
		if d, ok := retryafter.Parse(resp.Header, time.Now()); ok {
			return d, fmt.Sprintf("rate limited (%d, Retry-After)", resp.StatusCode)
		}
		if resp.Header.Get("X-RateLimit-Remaining") == "0" {
			if reset, err := strconv.ParseInt(resp.Header.Get("X-RateLimit-Reset"), 10, 64); err == nil {
				return time.Until(time.Unix(reset, 0)) + time.Second, "primary rate limit exhausted"
			}
		}
		if resp.StatusCode == http.StatusTooManyRequests || secondaryLimit(resp) {
			return time.Minute << (attempt - 1), "secondary rate limit"
		}
	case resp.StatusCode >= 500 && !create:
		return backoff, fmt.Sprintf("GitHub answered %d", resp.StatusCode)
	}
	return 0, ""
}

// secondaryLimit peeks at a 403 body for GitHub's secondary-rate-limit
// message, restoring the body for the caller.
func secondaryLimit(resp *http.Response) bool {
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(b))
	return bytes.Contains(bytes.ToLower(b), []byte("secondary rate limit"))
}

// gqlRefusals turns GitHub's 401 on the GraphQL endpoint into an *APIError:
// githubv4 reports any answer other than 200 as untyped text, and a token
// GitHub does not accept (snapshot.ErrBadCredentials) must be told apart from
// a passing outage, since running again does not help.
type gqlRefusals struct{ next http.RoundTripper }

func (t gqlRefusals) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(r)
	if err != nil || resp.StatusCode != http.StatusUnauthorized {
		return resp, err
	}
	defer resp.Body.Close()
	var body struct {
		Message string `json:"message"`
	}
	_ = json.NewDecoder(io.LimitReader(resp.Body, 64<<10)).Decode(&body)
	return nil, &APIError{Op: "GraphQL", Status: resp.StatusCode, Message: firstNonEmpty(body.Message, resp.Status)}
}
