package review

import (
	"context"
	"sync"
	"time"
)

// throttle is the review's shared answer to rate limits. Every request
// takes a place before it is sent and gives it back after. A request the
// provider refused with 429 (after the model client's own retries) slows
// the whole run, not only the chunk that met it: every worker waits out a
// pause that doubles on each 429 in a row, and fewer requests may be in
// flight (half as many, at least one). Each run of successes as long as
// the current limit lets one more request in, up to the configured
// concurrency, so a run that met a passing limit speeds up again.
type throttle struct {
	clock clock

	mu       sync.Mutex
	limit    int // requests allowed in flight now
	max      int // review_concurrency
	inflight int
	until    time.Time     // no request starts before this
	pause    time.Duration // the last pause; 0 after a success
	ok       int           // successes since the limit last changed
	changed  chan struct{} // closed when a place is given back
}

// Pauses after a 429: the first, doubling up to the last.
const (
	firstPause = 5 * time.Second
	lastPause  = time.Minute
)

func newThrottle(limit int, c clock) *throttle {
	if c == nil {
		c = realClock{}
	}
	return &throttle{clock: c, limit: limit, max: limit, changed: make(chan struct{})}
}

// acquire waits for a place and for any pause to end.
func (t *throttle) acquire(ctx context.Context) error {
	for {
		t.mu.Lock()
		wait := t.until.Sub(t.clock.Now())
		if wait <= 0 && t.inflight < t.limit {
			t.inflight++
			t.mu.Unlock()
			return nil
		}
		changed := t.changed
		t.mu.Unlock()
		if wait > 0 {
			if err := t.clock.Sleep(ctx, wait); err != nil {
				return err
			}
			continue
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// release gives a place back; limited says the request met a 429.
func (t *throttle) release(limited bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.inflight--
	if limited {
		t.pause = min(lastPause, max(firstPause, 2*t.pause))
		t.until = later(t.until, t.clock.Now().Add(t.pause))
		t.limit, t.ok = max(1, t.limit/2), 0
	} else {
		t.pause = 0
		if t.ok++; t.ok >= t.limit && t.limit < t.max {
			t.limit, t.ok = t.limit+1, 0
		}
	}
	close(t.changed)
	t.changed = make(chan struct{})
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// clock is the time a throttle reads and sleeps on: the real one, or a
// test's.
type clock interface {
	Now() time.Time
	Sleep(ctx context.Context, d time.Duration) error
}

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

func (realClock) Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
