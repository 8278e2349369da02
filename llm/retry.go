package llm

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"

	"github.com/openai/openai-go/v3"
)

// Retries are done here rather than by the SDK. openai-go v3.95.0 retries 408,
// 409, 429, 5xx and connection errors and honours retry-after-ms and
// Retry-After, but (internal/requestconfig/requestconfig.go, Execute): when
// its per-attempt timeout (WithRequestTimeout) ends an attempt it returns
// the context error without retrying, and it waits out the backoff under
// that same attempt context, so a Retry-After longer than what is left of
// the per-request timeout fails with "context deadline exceeded" instead
// of retrying. A timeout is exactly the failure a retry cures, so the loop
// below owns timeouts, backoff and Retry-After, and the SDK makes one
// attempt per call.

// complete makes one chat completion call, retrying transient failures.
func (c *Client) complete(ctx context.Context, params openai.ChatCompletionNewParams) (*openai.ChatCompletion, error) {
	var last failure
	for attempt := 1; ; attempt++ {
		actx, cancel := context.WithTimeout(ctx, c.opts.RequestTimeout)
		res, err := c.api.Chat.Completions.New(actx, params)
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

// checkCompletion rejects a 200 answer that is not a usable completion.
func checkCompletion(res *openai.ChatCompletion) error {
	switch {
	case res == nil:
		return errors.New("empty body")
	case len(res.Choices) == 0:
		// Some gateways answer 200 with an error object instead of a
		// completion; its text says more than "no choices".
		if e, ok := res.JSON.ExtraFields["error"]; ok && e.Raw() != "" {
			return fmt.Errorf("no completion, the endpoint said: %.500s", e.Raw())
		}
		return fmt.Errorf("completion %q has no choices", res.ID)
	}
	return nil
}

// retryWait is the pause before retry number attempt. It follows the
// endpoint's retry-after-ms or Retry-After when present and reports false
// when that is longer than MaxRetryDelay; otherwise it backs off
// exponentially with jitter, so parallel runs do not retry in lockstep.
func (c *Client) retryWait(h http.Header, attempt int) (time.Duration, bool) {
	if d, ok := retryAfter(h, time.Now()); ok {
		return d, d <= c.opts.MaxRetryDelay
	}
	d := c.opts.RetryBaseDelay << min(attempt-1, 20)
	if d <= 0 || d > c.opts.MaxRetryDelay {
		d = c.opts.MaxRetryDelay
	}
	return d/2 + rand.N(d/2+1), true
}

// retryAfter reads retry-after-ms (OpenAI, milliseconds) or Retry-After
// (seconds, or an HTTP date).
func retryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	if v := h.Get("Retry-After-Ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 && ms < 1e12 {
			return time.Duration(ms * float64(time.Millisecond)), true
		}
	}
	v := h.Get("Retry-After")
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 && s < 1e9 {
		return time.Duration(s * float64(time.Second)), true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}
