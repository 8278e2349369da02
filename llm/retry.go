package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"time"

	"github.com/review-my-code-bot/rmc/internal/retryafter"
)

// complete makes one chat completion call, retrying transient failures
// (429, 5xx, 408, network errors, and attempts the per-request timeout
// ended). The loop owns timeouts, backoff and Retry-After together: a
// timeout is exactly the failure a retry cures, and a Retry-After is waited
// out between attempts, under the caller's context only, so a pause longer
// than what is left of one attempt's timeout still ends in a retry.
func (c *Client) complete(ctx context.Context, req *chatRequest) (*chatResponse, error) {
	body, err := encodeRequest(req)
	if err != nil {
		return nil, &Error{Kind: ErrRejected, Detail: redact(err.Error(), c.opts.APIKey), cause: err}
	}
	var last failure
	for attempt := 1; ; attempt++ {
		actx, cancel := context.WithTimeout(ctx, c.opts.RequestTimeout)
		res, err := c.send(actx, body)
		timedOut := err != nil && ctx.Err() == nil && errors.Is(actx.Err(), context.DeadlineExceeded)
		cancel()
		if err == nil {
			if err := checkCompletion(res); err != nil {
				return nil, &Error{Kind: ErrBadResponse, Attempts: attempt, Detail: redact(err.Error(), c.opts.APIKey)}
			}
			return res, nil
		}
		if cerr := ctx.Err(); cerr != nil {
			return nil, fmt.Errorf("chat completion with %s stopped in attempt %d: %w", c.opts.Model, attempt, cerr)
		}
		last = classify(err, timedOut, c.opts.APIKey)
		last.err.Attempts = attempt
		if timedOut {
			last.err.Detail = fmt.Sprintf("no answer within the %v per-request timeout", c.opts.RequestTimeout)
		}
		if !last.retryable || attempt > c.opts.MaxRetries {
			return nil, last.err
		}
		wait, ok := c.retryWait(last.header, attempt)
		if !ok {
			last.err.Detail += fmt.Sprintf("; the endpoint asks to wait %v, more than the %v allowed", wait.Round(time.Second), c.opts.MaxRetryDelay)
			return nil, last.err
		}
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) < wait {
			// Sleeping into the deadline would only trade a clear error for
			// a vague one later.
			last.err.Detail += fmt.Sprintf("; the next retry (in %v) would pass the deadline", wait.Round(time.Millisecond))
			return nil, last.err
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, fmt.Errorf("chat completion with %s stopped while waiting to retry: %w (last attempt: %w)", c.opts.Model, ctx.Err(), last.err)
		case <-t.C:
		}
	}
}

// encodeRequest encodes req once for every attempt. HTML characters are
// left unescaped: prompts are full of code with <, > and &, and escaping
// them would only make the body larger.
func encodeRequest(req *chatRequest) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(req); err != nil {
		return nil, fmt.Errorf("encode the chat completion request for %s: %w", req.Model, err)
	}
	return buf.Bytes(), nil
}

// checkCompletion rejects a 2xx answer that is not a usable completion.
func checkCompletion(res *chatResponse) error {
	if len(res.Choices) > 0 {
		return nil
	}
	// Some gateways answer 200 with an error object instead of a
	// completion; its text says more than "no choices".
	if e := bytes.TrimSpace(res.Error); len(e) > 0 && string(e) != "null" {
		return fmt.Errorf("no completion, the endpoint said: %.500s", e)
	}
	return fmt.Errorf("completion %q has no choices", string(res.ID))
}

// retryWait is the pause before retry number attempt. It follows the
// endpoint's retry-after-ms or Retry-After when present and reports false
// when that is longer than MaxRetryDelay; otherwise it backs off
// exponentially with jitter, so parallel runs do not retry in lockstep.
func (c *Client) retryWait(h http.Header, attempt int) (time.Duration, bool) {
	if d, ok := retryafter.Parse(h, time.Now()); ok {
		return d, d <= c.opts.MaxRetryDelay
	}
	d := c.opts.RetryBaseDelay << min(attempt-1, 20)
	if d <= 0 || d > c.opts.MaxRetryDelay {
		d = c.opts.MaxRetryDelay
	}
	return d/2 + rand.N(d/2+1), true
}
