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
// an error the provider marks retryable inside a 200, a completion without
// choices, and a generation that failed midway). The loop owns timeouts,
// backoff and rate-limit pauses together: a timeout is exactly the failure
// a retry cures, and a pause is waited out between attempts, under the
// caller's context only, so a pause longer than what is left of one
// attempt's timeout still ends in a retry. waited is the time spent
// waiting after 429s.
func (c *Client) complete(ctx context.Context, req *chatRequest) (res *chatResponse, waited time.Duration, err error) {
	body, err := c.encodeRequest(req)
	if err != nil {
		return nil, 0, &Error{Kind: ErrRejected, Detail: redact(err.Error(), c.opts.APIKey), cause: err}
	}
	for attempt := 1; ; attempt++ {
		res, last, err := c.attempt(ctx, body, attempt)
		if err != nil || last == nil {
			return res, waited, err
		}
		if !last.retryable || attempt > c.opts.MaxRetries {
			return nil, waited, last.err
		}
		wait, why := c.retryWait(ctx, *last, attempt)
		if why != "" {
			last.err.Detail += "; " + why
			last.err.waitRefused = true
			return nil, waited, last.err
		}
		limited := errors.Is(last.err, ErrRateLimited)
		if limited {
			c.waited.Add(int64(wait))
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, waited, fmt.Errorf("chat completion with %s stopped while waiting to retry: %w (last attempt: %w)", c.opts.Model, ctx.Err(), last.err)
		case <-t.C:
		}
		if limited {
			waited += wait
		}
	}
}

// attempt makes one request. It returns the completion, or the failure
// to retry or report, or the caller's context's error. RequestTimeout
// ends an attempt that was silent that long: from the request to the
// answer, or between two events of a streamed answer.
func (c *Client) attempt(ctx context.Context, body []byte, attempt int) (*chatResponse, *failure, error) {
	actx, cancel := context.WithCancelCause(ctx)
	idle := time.AfterFunc(c.opts.RequestTimeout, func() { cancel(errSilent) })
	res, err := c.send(actx, body, func() { idle.Reset(c.opts.RequestTimeout) })
	idle.Stop()
	timedOut := err != nil && ctx.Err() == nil && errors.Is(context.Cause(actx), errSilent)
	cancel(nil)
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
		what := "no answer within"
		if c.stream.Load() {
			what = "the streamed answer was silent for"
		}
		last.err.Detail = fmt.Sprintf("%s the %v per-request timeout (model_timeout)", what, c.opts.RequestTimeout)
	}
	return nil, &last, nil
}

// errSilent is the cause of an attempt ended by RequestTimeout.
var errSilent = errors.New("the endpoint was silent for the per-request timeout")

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
	if c.prov.adjust != nil {
		var members map[string]json.RawMessage
		if err := json.Unmarshal(b, &members); err != nil {
			return nil, fmt.Errorf("adjust the request for %s: %w", c.prov.name, err)
		}
		c.prov.adjust(req.Model, members)
		var err error
		if b, err = marshalText(members); err != nil {
			return nil, fmt.Errorf("adjust the request for %s: %w", c.prov.name, err)
		}
	}
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
			// Seen under load from gateways and local servers; the next
			// attempt usually answers.
			return &failure{err: &Error{Kind: ErrBadResponse, Status: http.StatusOK, Detail: fmt.Sprintf("completion %q has no choices", plainWords(string(res.ID)))}, retryable: true}
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
	if contextRefusal(http.StatusOK, info.code+" "+info.status+" "+info.msg) {
		// LM Studio refuses a prompt over its window inside a 200.
		return &failure{err: &Error{Kind: ErrRejected, Status: http.StatusOK, Detail: redact(detail, c.opts.APIKey), cause: ErrContextLength}}
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
// none. A pause the endpoint asks for (see askedWait) is honoured while
// the run's rate-limit budget and the caller's deadline allow; otherwise
// the client backs off exponentially with jitter, so parallel runs do not
// retry in lockstep. A backoff after a 429 is charged to the budget too.
func (c *Client) retryWait(ctx context.Context, f failure, attempt int) (time.Duration, string) {
	d, asked := askedWait(f, time.Now())
	if !asked {
		d = c.opts.RetryBaseDelay << min(attempt-1, 20)
		if d <= 0 || d > c.opts.MaxRetryDelay {
			d = c.opts.MaxRetryDelay
		}
		d = d/2 + rand.N(d/2+1)
	}
	dl, hasDeadline := ctx.Deadline()
	left := c.opts.RateLimitBudget - time.Duration(c.waited.Load())
	switch {
	case asked && hasDeadline && time.Until(dl) < d:
		return 0, fmt.Sprintf("the endpoint asks to wait %v, which would pass the deadline (in %v)", d.Round(time.Second), time.Until(dl).Round(time.Second))
	case hasDeadline && time.Until(dl) < d:
		// Sleeping into the deadline would only trade a clear error for a
		// vague one later.
		return 0, fmt.Sprintf("the next retry (in %v) would pass the deadline", d.Round(time.Millisecond))
	case asked && c.opts.MaxRetryWait > 0 && d > c.opts.MaxRetryWait:
		return 0, fmt.Sprintf("the endpoint asks to wait %v, more than the %v allowed", d.Round(time.Second), c.opts.MaxRetryWait)
	case c.opts.RateLimitBudget > 0 && f.err != nil && errors.Is(f.err, ErrRateLimited) && d > left:
		return 0, fmt.Sprintf("waiting %v more would pass the run's %v budget for rate limits (%v waited so far)",
			d.Round(time.Second), c.opts.RateLimitBudget, time.Duration(c.waited.Load()).Round(time.Second))
	}
	return d, ""
}

// askedWait is the pause the endpoint asked for: retry-after-ms or
// Retry-After, else Gemini's RetryInfo in the body, else the latest reset
// any provider family's rate-limit headers give (x-ratelimit-reset-*,
// anthropic-ratelimit-*-reset).
func askedWait(f failure, now time.Time) (time.Duration, bool) {
	if d, ok := retryafter.Parse(f.header, now); ok {
		return d, true
	}
	if f.waitOK {
		return f.wait, true
	}
	var d time.Duration
	found := false
	for _, p := range families() {
		if p.resetAfter == nil {
			continue
		}
		if r, ok := p.resetAfter(f.header, now); ok {
			d, found = max(d, r), true
		}
	}
	return d, found
}
