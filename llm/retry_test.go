package llm

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/review-my-code-bot/rmc/llm/fakellm"
)

func TestRetriesTransientFailures(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		faults       []fakellm.Fault // each injected once, in order
		maxRetries   int
		wantErr      error // nil: answered
		wantRequests int
	}{
		"500 three times then success": {
			faults:       []fakellm.Fault{{Status: 500}, {Status: 500}, {Status: 500}},
			wantRequests: 4,
		},
		"502 then 503 then success": {
			faults:       []fakellm.Fault{{Status: 502}, {Status: 503}},
			wantRequests: 3,
		},
		"429 without Retry-After backs off": {
			faults:       []fakellm.Fault{{Status: 429}},
			wantRequests: 2,
		},
		"5xx outlasting the retries": {
			faults:       []fakellm.Fault{{Status: 503}, {Status: 503}, {Status: 503}, {Status: 503}},
			wantErr:      ErrUnavailable,
			wantRequests: 4,
		},
		"429 outlasting the retries": {
			faults:       []fakellm.Fault{{Status: 429}, {Status: 429}},
			maxRetries:   1,
			wantErr:      ErrRateLimited,
			wantRequests: 2,
		},
		"400 is not retried": {
			faults:       []fakellm.Fault{{Status: 400, Message: "context_length_exceeded"}},
			wantErr:      ErrRejected,
			wantRequests: 1,
		},
		"garbage body is a bad response": {
			faults:       []fakellm.Fault{{Body: "<html>gateway</html>"}},
			wantErr:      ErrBadResponse,
			wantRequests: 1,
		},
		"error object with status 200 and a transient code is retried": {
			faults:       []fakellm.Fault{{Body: `{"error":{"message":"upstream provider failed","code":502}}`}},
			wantRequests: 2,
		},
		"error object with status 200 and code 400 is not retried": {
			faults:       []fakellm.Fault{{Body: `{"error":{"message":"invalid tool schema","code":400}}`}},
			wantErr:      ErrRejected,
			wantRequests: 1,
		},
		"error object with status 200 and no code is a bad response": {
			faults:       []fakellm.Fault{{Body: `{"error":{"message":"upstream provider failed"}}`}},
			wantErr:      ErrBadResponse,
			wantRequests: 1,
		},
		"finish_reason error is a failed attempt": {
			faults:       []fakellm.Fault{{Body: `{"id":"gen-1","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"The first half of"},"finish_reason":"error","error":{"code":502,"message":"Upstream stream ended"}}]}`}},
			wantRequests: 2,
		},
		"no choices is retried": {
			faults:       []fakellm.Fault{{Body: `{"id":"x","object":"chat.completion","choices":[]}`}},
			wantRequests: 2,
		},
		"no choices on every attempt is a bad response": {
			faults:       []fakellm.Fault{{Body: `{"id":"x","object":"chat.completion","choices":[]}`}, {Body: `{"id":"y","object":"chat.completion","choices":[]}`}},
			maxRetries:   1,
			wantErr:      ErrBadResponse,
			wantRequests: 2,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t, fakellm.Config{})
			f.SetDefault(fakellm.Reply{Text: "answer"})
			for _, fl := range tc.faults {
				f.InjectNext(1, fl)
			}
			c := newTestClient(t, f, func(o *Options) { o.MaxRetries = tc.maxRetries })
			reply, err := c.NewSession("sys", nil).Ask(context.Background(), Label{Task: "q"}, "question")
			if got := len(f.Requests()); got != tc.wantRequests {
				t.Errorf("requests = %d, want %d", got, tc.wantRequests)
			}
			if tc.wantErr == nil {
				if err != nil || reply.Text != "answer" {
					t.Fatalf("Ask = %q, %v; want the answer", reply.Text, err)
				}
				return
			}
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("Ask error = %v, want %v", err, tc.wantErr)
			}
			var e *Error
			if !errors.As(err, &e) || e.Attempts != tc.wantRequests {
				t.Errorf("error %v: want an *Error with %d attempts", err, tc.wantRequests)
			}
		})
	}
}

// The waits run on synctest's fake clock against the fake in process, so
// each is asserted exactly, however loaded the machine, and a minute of
// Retry-After costs no real time.
func TestRetryAfterIsHonoured(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		fault fakellm.Fault
		opts  func(*Options)
		wait  time.Duration
	}{
		// A benchmark sets no budget for the run: a 20-minute pause is waited.
		"no budget":            {fault: fakellm.Fault{Status: 429, RetryAfter: "1200"}, opts: func(o *Options) { o.RateLimitBudget = -1 }, wait: 20 * time.Minute},
		"Retry-After seconds":  {fault: fakellm.Fault{Status: 429, RetryAfter: "1"}, wait: time.Second},
		"retry-after-ms":       {fault: fakellm.Fault{Status: 429, RetryAfterMS: "150", RetryAfter: "30"}, wait: 150 * time.Millisecond},
		"503 with Retry-After": {fault: fakellm.Fault{Status: 503, RetryAfter: "0.2"}, wait: 200 * time.Millisecond},
		"a long Retry-After":   {fault: fakellm.Fault{Status: 429, RetryAfter: "4"}, wait: 4 * time.Second},
		// Over MaxRetryDelay (5s here) and under the run's budget.
		"two minutes of Retry-After": {fault: fakellm.Fault{Status: 429, RetryAfter: "120"}, wait: 2 * time.Minute},
		// https://platform.openai.com/docs/guides/rate-limits#rate-limits-in-headers:
		// the limit used up is the one whose remaining count is 0.
		"OpenAI: x-ratelimit-reset-tokens of the spent limit": {fault: fakellm.Fault{Status: 429, Header: map[string]string{
			"x-ratelimit-remaining-requests": "59", "x-ratelimit-reset-requests": "6m0s",
			"x-ratelimit-remaining-tokens": "0", "x-ratelimit-reset-tokens": "20ms"}}, wait: 20 * time.Millisecond},
		// https://console.groq.com/docs/rate-limits: the same headers, fractions of seconds.
		"Groq: x-ratelimit-reset-requests": {fault: fakellm.Fault{Status: 429, Header: map[string]string{
			"x-ratelimit-remaining-requests": "0", "x-ratelimit-reset-requests": "2m59.56s",
			"x-ratelimit-remaining-tokens": "5000", "x-ratelimit-reset-tokens": "7.66s"}}, wait: 2*time.Minute + 59560*time.Millisecond},
		"neither limit said to be spent: the later reset": {fault: fakellm.Fault{Status: 429, Header: map[string]string{
			"x-ratelimit-reset-requests": "1s", "x-ratelimit-reset-tokens": "3s"}}, wait: 3 * time.Second},
		// https://docs.anthropic.com/en/api/rate-limits#response-headers: RFC 3339
		// times (synctest's clock starts at 2000-01-01T00:00:00Z).
		"Anthropic: anthropic-ratelimit-input-tokens-reset": {fault: fakellm.Fault{Status: 429, Header: map[string]string{
			"anthropic-ratelimit-input-tokens-remaining": "0", "anthropic-ratelimit-input-tokens-reset": "2000-01-01T00:00:45Z",
			"anthropic-ratelimit-requests-remaining": "40", "anthropic-ratelimit-requests-reset": "2000-01-01T00:00:50Z"}}, wait: 45 * time.Second},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t, fakellm.Config{})
			f.SetDefault(fakellm.Reply{Text: "answer"})
			f.InjectNext(1, tc.fault)
			synctest.Test(t, func(t *testing.T) {
				c := newInProcessClient(t, f, tc.opts)
				reply, err := c.NewSession("", nil).Ask(t.Context(), Label{Task: "q"}, "question")
				if err != nil {
					t.Fatalf("Ask: %v", err)
				}
				reqs := f.Requests()
				if len(reqs) != 2 {
					t.Fatalf("requests = %d, want 2", len(reqs))
				}
				if tc.fault.Status == http.StatusTooManyRequests && reply.Usage.RateLimitWait != tc.wait {
					t.Errorf("Usage.RateLimitWait = %v, want %v", reply.Usage.RateLimitWait, tc.wait)
				}
				// retry-after-ms wins over Retry-After: the 30 s must not be used.
				if gap := reqs[1].Time.Sub(reqs[0].Time); gap != tc.wait {
					t.Errorf("retry came %v after the first attempt, want %v", gap, tc.wait)
				}
			})
		})
	}
}

func TestRetryAfterBeyondLimits(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		retryAfter string
		deadline   time.Duration // caller's; 0: none
		opts       func(*Options)
		wantDetail string
	}{
		"longer than MaxRetryWait":     {retryAfter: "90", opts: func(o *Options) { o.MaxRetryWait = time.Minute }, wantDetail: "asks to wait 1m30s, more than the 1m0s allowed"},
		"longer than the run's budget": {retryAfter: "1200", wantDetail: "waiting 20m0s more would pass the run's 15m0s budget for rate limits (0s waited so far)"},
		"past the caller's deadline":   {retryAfter: "3", deadline: 2 * time.Second, wantDetail: "would pass the deadline"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t, fakellm.Config{})
			f.SetDefault(fakellm.Reply{Text: "answer"})
			f.InjectNext(1, fakellm.Fault{Status: 429, RetryAfter: tc.retryAfter})
			synctest.Test(t, func(t *testing.T) {
				c := newInProcessClient(t, f, tc.opts)
				ctx := t.Context()
				if tc.deadline > 0 {
					var cancel context.CancelFunc
					ctx, cancel = context.WithTimeout(ctx, tc.deadline)
					defer cancel()
				}
				start := time.Now()
				_, err := c.NewSession("", nil).Ask(ctx, Label{Task: "q"}, "question")
				if !errors.Is(err, ErrRateLimited) || !strings.Contains(err.Error(), tc.wantDetail) {
					t.Fatalf("Ask error = %v, want ErrRateLimited mentioning %q", err, tc.wantDetail)
				}
				if el := time.Since(start); el != 0 {
					t.Errorf("failing took %v; it should fail at once instead of sleeping", el)
				}
				if n := len(f.Requests()); n != 1 {
					t.Errorf("requests = %d, want 1", n)
				}
			})
		})
	}
}

// The budget for rate-limit waits is the run's, not one call's: a second
// call that would pass it fails at once, saying how long the run waited.
func TestRateLimitBudgetIsRunWide(t *testing.T) {
	t.Parallel()
	f := newFake(t, fakellm.Config{})
	f.SetDefault(fakellm.Reply{Text: "answer"})
	f.InjectNext(1, fakellm.Fault{Status: 429, RetryAfter: "40"})
	synctest.Test(t, func(t *testing.T) {
		c := newInProcessClient(t, f, func(o *Options) { o.RateLimitBudget = time.Minute })
		s := c.NewSession("", nil)
		first, err := s.Ask(t.Context(), Label{Task: "a"}, "question")
		if err != nil || first.Usage.RateLimitWait != 40*time.Second {
			t.Fatalf("first Ask = %v after waiting %v; want the answer after 40s", err, first.Usage.RateLimitWait)
		}
		f.InjectNext(1, fakellm.Fault{Status: 429, RetryAfter: "40"})
		start := time.Now()
		_, err = s.Ask(t.Context(), Label{Task: "b"}, "question")
		if !errors.Is(err, ErrRateLimited) || !strings.Contains(err.Error(), "would pass the run's 1m0s budget for rate limits (40s waited so far)") || time.Since(start) != 0 {
			t.Fatalf("second Ask error = %v after %v; want ErrRateLimited at once, naming the budget", err, time.Since(start))
		}
		if got := s.Usage().RateLimitWait; got != 40*time.Second {
			t.Errorf("session's RateLimitWait = %v, want 40s", got)
		}
	})
}

func TestAuthErrorsHideTheKey(t *testing.T) {
	t.Parallel()
	const (
		rightKey = "sk-or-v1-right-0123456789abcdef"
		wrongKey = "sk-or-v1-wrong-fedcba9876543210"
	)
	tests := map[string]struct {
		clientKey string
		fault     *fakellm.Fault // the fake echoes the client's key in it
		wantErr   error
	}{
		"401 wrong key":        {clientKey: wrongKey, wantErr: ErrAuth},
		"403 forbidden":        {clientKey: rightKey, fault: &fakellm.Fault{Status: 403, Message: "key " + rightKey + " may not use this model"}, wantErr: ErrAuth},
		"error echoes the key": {clientKey: rightKey, fault: &fakellm.Fault{Status: 400, Message: "bad request from " + rightKey}, wantErr: ErrRejected},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t, fakellm.Config{APIKey: rightKey})
			f.SetDefault(fakellm.Reply{Text: "answer"})
			if tc.fault != nil {
				f.InjectNext(1, *tc.fault)
			}
			c := newTestClient(t, f, func(o *Options) { o.APIKey = tc.clientKey })
			_, err := c.NewSession("", nil).Ask(context.Background(), Label{Task: "q"}, "question")
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("Ask error = %v, want %v", err, tc.wantErr)
			}
			secret := tc.clientKey[len("sk-or-v1-"):]
			if strings.Contains(err.Error(), secret) {
				t.Errorf("error leaks the API key: %v", err)
			}
			if got := len(f.Requests()); got != 1 {
				t.Errorf("requests = %d, want 1 (auth failures are not retried)", got)
			}
		})
	}
}

func TestRequestTimeout(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		delays       int           // leading requests held past the timeout
		deadline     time.Duration // caller's; 0: none
		wantErr      error
		wantRequests int
	}{
		"one slow attempt is retried": {delays: 1, wantRequests: 2},
		"every attempt slow":          {delays: 4, wantErr: ErrUnavailable, wantRequests: 4},
		// Attempts end at 100ms and about 201ms; the third is cut by the
		// caller's deadline.
		"caller deadline ends it cleanly": {delays: 4, deadline: 250 * time.Millisecond, wantErr: context.DeadlineExceeded, wantRequests: 3},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t, fakellm.Config{})
			f.SetDefault(fakellm.Reply{Text: "answer"})
			f.DelayNext(tc.delays, time.Hour)
			synctest.Test(t, func(t *testing.T) {
				c := newInProcessClient(t, f, func(o *Options) { o.RequestTimeout = 100 * time.Millisecond })
				ctx := t.Context()
				if tc.deadline > 0 {
					var cancel context.CancelFunc
					ctx, cancel = context.WithTimeout(ctx, tc.deadline)
					defer cancel()
				}
				start := time.Now()
				reply, err := c.NewSession("", nil).Ask(ctx, Label{Task: "q"}, "question")
				if tc.wantErr == nil {
					if err != nil || reply.Text != "answer" {
						t.Fatalf("Ask = %q, %v; want the answer", reply.Text, err)
					}
				} else if !errors.Is(err, tc.wantErr) {
					t.Fatalf("Ask error = %v, want %v", err, tc.wantErr)
				}
				if got := len(f.Requests()); got != tc.wantRequests {
					t.Errorf("requests = %d, want %d", got, tc.wantRequests)
				}
				// Each slow attempt was cut at the timeout, not served.
				if d := time.Since(start); d >= time.Duration(tc.delays+1)*110*time.Millisecond {
					t.Errorf("Ask took %v of fake time: the slow attempts were not cut at 100ms", d)
				}
			})
		})
	}
}

func TestBackoffGrowsAndIsCapped(t *testing.T) {
	t.Parallel()
	c := &Client{opts: Options{RetryBaseDelay: 100 * time.Millisecond, MaxRetryDelay: time.Second}}
	tests := map[string]struct {
		attempt  int
		min, max time.Duration
	}{
		"first":  {attempt: 1, min: 50 * time.Millisecond, max: 100 * time.Millisecond},
		"third":  {attempt: 3, min: 200 * time.Millisecond, max: 400 * time.Millisecond},
		"capped": {attempt: 40, min: 500 * time.Millisecond, max: time.Second},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			for range 50 {
				d, why := c.retryWait(context.Background(), failure{header: http.Header{}}, tc.attempt)
				if why != "" || d < tc.min || d > tc.max {
					t.Fatalf("retryWait(attempt %d) = %v, %q; want within [%v, %v]", tc.attempt, d, why, tc.min, tc.max)
				}
			}
		})
	}
}

// The Retry-After wait on the real clock, over loopback: a call answered
// after one retry-after-ms of 20 takes about 20ms plus two round trips.
func BenchmarkRetryAfterWait(b *testing.B) {
	f := newFake(b, fakellm.Config{})
	f.SetDefault(fakellm.Reply{Text: "answer"})
	c := newTestClient(b, f, nil)
	for b.Loop() {
		f.InjectNext(1, fakellm.Fault{Status: 429, RetryAfterMS: "20"})
		if _, err := c.NewSession("", nil).Ask(context.Background(), Label{Task: "q"}, "question"); err != nil {
			b.Fatal(err)
		}
	}
}
