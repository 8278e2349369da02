package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"net/http"
	"slices"
	"time"

	"github.com/review-my-code-bot/rmc/internal/retryafter"
)

// complete makes one chat completion call, retrying transient failures
// (429, 5xx, 408, network errors, attempts the per-request timeout ended,
// an error the provider marks retryable inside a 200, and a generation
// that failed midway). The loop owns timeouts, backoff and Retry-After
// together: a timeout is exactly the failure a retry cures, and a
// Retry-After is waited out between attempts, under the caller's context
// only, so a pause longer than what is left of one attempt's timeout
// still ends in a retry.
func (c *Client) complete(ctx context.Context, req *chatRequest) (*chatResponse, error) {
	body, err := c.encodeRequest(req)
	if err != nil {
		return nil, &Error{Kind: ErrRejected, Detail: redact(err.Error(), c.opts.APIKey), cause: err}
	}
	for attempt := 1; ; attempt++ {
		res, last, err := c.attempt(ctx, body, attempt)
		if err != nil || last == nil {
			return res, err
		}
		if !last.retryable || attempt > c.opts.MaxRetries {
			return nil, last.err
		}
		wait, why := c.retryWait(ctx, *last, attempt)
		if why != "" {
			last.err.Detail += "; " + why
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

// attempt makes one request. It returns the completion, or the failure
// to retry or report, or the caller's context's error.
func (c *Client) attempt(ctx context.Context, body []byte, attempt int) (*chatResponse, *failure, error) {
	actx, cancel := context.WithTimeout(ctx, c.opts.RequestTimeout)
	res, err := c.send(actx, body)
	timedOut := err != nil && ctx.Err() == nil && errors.Is(actx.Err(), context.DeadlineExceeded)
	cancel()
	if err == nil {
		f := c.checkCompletion(res)
		if f == nil {
			return res, nil, nil
		}
		f.err.Attempts = attempt
		return nil, f, nil
	}
	if cerr := ctx.Err(); cerr != nil {
		return nil, nil, fmt.Errorf("chat completion with %s stopped in attempt %d: %w", c.opts.Model, attempt, cerr)
	}
	last := classify(err, timedOut, c.opts.APIKey)
	last.err.Attempts = attempt
	if timedOut {
		last.err.Detail = fmt.Sprintf("no answer within the %v per-request timeout (model_timeout)", c.opts.RequestTimeout)
	}
	return nil, &last, nil
}

// encodeRequest encodes req once for every attempt, with Options.ExtraBody
// merged in. HTML characters are left unescaped: prompts are full of code
// with <, > and &, and escaping them would only make the body larger.
func (c *Client) encodeRequest(req *chatRequest) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(req); err != nil {
		return nil, fmt.Errorf("encode the chat completion request for %s: %w", req.Model, err)
	}
	b := bytes.TrimRight(buf.Bytes(), "\n")
	if len(c.extraBody) == 0 {
		return b, nil
	}
	// The request is an object whose last byte is "}"; the extra members
	// go before it, in sorted order, so every request has the same bytes.
	b = b[:len(b)-1]
	for _, k := range slices.Sorted(maps.Keys(c.extraBody)) {
		key, _ := json.Marshal(k)
		b = append(append(append(append(b, ','), key...), ':'), c.extraBody[k]...)
	}
	return append(b, '}'), nil
}

// checkCompletion sorts a 2xx answer that is not a usable completion: an
// error object instead of a completion (OpenRouter, LiteLLM and others
// answer 200 with one, giving the failure's HTTP status as its code), or a
// generation that failed midway (finish_reason "error"). Both are retried
// when the code says the failure is transient.
func (c *Client) checkCompletion(res *chatResponse) *failure {
	if len(res.Choices) == 0 {
		e := bytes.TrimSpace(res.Error)
		if len(e) == 0 || string(e) == "null" {
			return &failure{err: &Error{Kind: ErrBadResponse, Status: http.StatusOK, Detail: fmt.Sprintf("completion %q has no choices", string(res.ID))}}
		}
		return c.errorIn200(parseErrorBody([]byte(`{"error":`+string(e)+`}`)), "the endpoint answered HTTP 200 with an error instead of a completion")
	}
	ch := res.Choices[0]
	if ch.FinishReason != "error" {
		return nil
	}
	info := parseErrorBody([]byte(`{"error":` + orNull(ch.Error) + `}`))
	f := c.errorIn200(info, `the generation failed midway (finish_reason "error")`)
	if info.numCode == 0 {
		// No code: a failed generation is worth another attempt.
		f.err.Kind, f.retryable = ErrUnavailable, true
	}
	return f
}

// errorIn200 classifies an error found in a 200 answer by its code, which
// OpenRouter and LiteLLM set to the HTTP status the failure would have had.
func (c *Client) errorIn200(info apiError, what string) *failure {
	detail := what
	if info.msg != "" {
		detail += ": " + info.msg
	}
	if info.numCode >= 400 && info.numCode < 600 {
		f := classifyStatus(&statusError{status: info.numCode, apiError: info}, c.opts.APIKey)
		f.err.Status = http.StatusOK
		f.err.Detail = redact(fmt.Sprintf("%s (code %d)", detail, info.numCode), c.opts.APIKey)
		return &f
	}
	return &failure{err: &Error{Kind: ErrBadResponse, Status: http.StatusOK, Detail: redact(detail, c.opts.APIKey)}}
}

func orNull(raw json.RawMessage) string {
	if len(bytes.TrimSpace(raw)) == 0 {
		return "null"
	}
	return string(raw)
}

// retryWait is the pause before retry number attempt, or why there is
// none. A pause the endpoint asks for (retry-after-ms, Retry-After, or
// Gemini's RetryInfo in the body) is honoured up to what is left of the
// caller's deadline, or up to MaxRetryDelay when the caller set none;
// otherwise the client backs off exponentially with jitter, so parallel
// runs do not retry in lockstep.
func (c *Client) retryWait(ctx context.Context, f failure, attempt int) (time.Duration, string) {
	d, asked := retryafter.Parse(f.header, time.Now())
	if !asked && f.waitOK {
		d, asked = f.wait, true
	}
	dl, hasDeadline := ctx.Deadline()
	switch {
	case asked && hasDeadline && time.Until(dl) < d:
		return 0, fmt.Sprintf("the endpoint asks to wait %v, which would pass the deadline (in %v)", d.Round(time.Second), time.Until(dl).Round(time.Second))
	case asked && !hasDeadline && d > c.opts.MaxRetryDelay:
		return 0, fmt.Sprintf("the endpoint asks to wait %v, more than the %v allowed", d.Round(time.Second), c.opts.MaxRetryDelay)
	case asked:
		return d, ""
	}
	d = c.opts.RetryBaseDelay << min(attempt-1, 20)
	if d <= 0 || d > c.opts.MaxRetryDelay {
		d = c.opts.MaxRetryDelay
	}
	d = d/2 + rand.N(d/2+1)
	if hasDeadline && time.Until(dl) < d {
		// Sleeping into the deadline would only trade a clear error for a
		// vague one later.
		return 0, fmt.Sprintf("the next retry (in %v) would pass the deadline", d.Round(time.Millisecond))
	}
	return d, ""
}
