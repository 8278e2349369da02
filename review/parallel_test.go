package review

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/review-my-code-bot/rmc/diff"
	"github.com/review-my-code-bot/rmc/llm"
)

// crowd is a model that records, per chunk, the passes asked in order, and
// how many requests were in flight at once. With gather set, the first
// gather requests are held until all of them are in flight: a review that
// does not ask them side by side never gets an answer, and fails on its
// context.
type crowd struct {
	answer func(block string, pass int) []Finding
	gather int
	shake  bool // yield a random number of times before answering

	mu       sync.Mutex
	inflight int
	most     int
	arrived  int
	all      chan struct{}
	order    map[string][]int // chunk → pass numbers, in the order asked
}

func newCrowd(gather int, answer func(string, int) []Finding) *crowd {
	return &crowd{answer: answer, gather: gather, all: make(chan struct{}), order: map[string][]int{}}
}

type crowdSub struct {
	c     *crowd
	block string
}

func (c *crowd) Sub(block string) llm.JSONAsker { return crowdSub{c, block} }

func (c *crowd) AskSchema(ctx context.Context, label llm.Label, prompt string, schema *llm.Schema) (llm.Reply, error) {
	return crowdSub{c, ""}.AskSchema(ctx, label, prompt, schema)
}

func (s crowdSub) AskSchema(ctx context.Context, label llm.Label, _ string, _ *llm.Schema) (llm.Reply, error) {
	c := s.c
	var pass int
	fmt.Sscanf(label.Step, "pass %d", &pass)
	c.mu.Lock()
	c.inflight++
	c.most = max(c.most, c.inflight)
	c.arrived++
	if c.arrived == c.gather {
		close(c.all)
	}
	held := c.arrived <= c.gather
	c.order[s.block] = append(c.order[s.block], pass)
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		c.inflight--
		c.mu.Unlock()
	}()
	if held {
		select {
		case <-c.all:
		case <-ctx.Done():
			return llm.Reply{}, ctx.Err()
		}
	}
	if c.shake {
		for range rand.IntN(50) {
			runtime.Gosched()
		}
	}
	b, err := json.Marshal(map[string]any{"findings": c.answer(s.block, pass)})
	return llm.Reply{Text: string(b)}, err
}

// manyFiles are n added files of 60 lines: a chunk or two each in the
// smallest window.
func manyFiles(t *testing.T, n int) []diff.File {
	t.Helper()
	var out []diff.File
	for i := range n {
		out = append(out, bigFile(t, fmt.Sprintf("f%02d.go", i), 60))
	}
	return out
}

// smallWindow makes chunks of 2,000 characters.
func smallWindow(concurrency int) Options {
	return options(func(s *Settings) { s.ContextTokens, s.Concurrency = 1024, concurrency })
}

// Chunks are asked side by side, never more than review_concurrency at
// once, and the passes over each chunk go in order.
func TestChunksConcurrently(t *testing.T) {
	t.Parallel()
	for name, conc := range map[string]int{"one at a time": 1, "three at once": 3, "as many as allowed": MaxConcurrency} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c := newCrowd(conc, func(string, int) []Finding { return nil })
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // only a review that never gathers them waits it out
			defer cancel()
			r, err := Run(ctx, c, Input{Anchor: manyFiles(t, 20)}, smallWindow(conc), nil)
			if err != nil {
				t.Fatalf("the first %d requests were not in flight together: %v", conc, err)
			}
			if c.most != conc {
				t.Errorf("at most %d requests in flight, want %d", c.most, conc)
			}
			if r.Chunks < 10 || len(c.order) != r.Chunks || len(r.Reviewed) != 20 {
				t.Errorf("%d chunks, %d seen by the model, %d files reviewed", r.Chunks, len(c.order), len(r.Reviewed))
			}
			for block, passes := range c.order {
				if fmt.Sprint(passes) != "[1 2 3]" {
					t.Errorf("passes over %.40q asked in the order %v", block, passes)
				}
			}
		})
	}
}

// The findings, which duplicate is kept and the order of equal scores do
// not depend on which chunk finished first.
func TestConcurrentResultIsDeterministic(t *testing.T) {
	t.Parallel()
	files := manyFiles(t, 12)
	// Every chunk reports the same problem in f00.go (a duplicate only the
	// first chunk's copy of should survive, with its explanation), and one
	// of its own at the same score.
	answer := func(block string, pass int) []Finding {
		path := block[strings.Index(block, "### ")+4 : strings.Index(block, " (added)")]
		shared := Finding{Path: "f00.go", Line: 3, Side: diff.Right, Title: "shared problem", Explanation: "seen from " + path, Score: 7, Category: "bug"}
		own := Finding{Path: path, Line: pass, Side: diff.Right, Title: fmt.Sprintf("problem of pass %d", pass), Explanation: "x", Score: 6, Category: "bug"}
		return []Finding{shared, own}
	}
	want, err := Run(context.Background(), newCrowd(0, answer), Input{Anchor: files}, smallWindow(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(want.Findings) != 1+12*3 || want.Findings[0].Explanation != "seen from f00.go" {
		t.Fatalf("one at a time: %d findings, first %+v", len(want.Findings), want.Findings[0])
	}
	for i := range 20 {
		c := newCrowd(0, answer)
		c.shake = true
		got, err := Run(context.Background(), c, Input{Anchor: files}, smallWindow(4), nil)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("run %d, four at once: the result differs from one at a time\ngot  %+v\nwant %+v", i, got.Findings, want.Findings)
		}
	}
}

// The first failure ends the review with its error; no further chunk is
// started after it.
func TestConcurrentFailureStops(t *testing.T) {
	t.Parallel()
	s := &flaky{fail: 1 << 20}
	_, err := Run(context.Background(), s, Input{Anchor: manyFiles(t, 30)}, func() Options {
		o := smallWindow(3)
		o.Settings.Retries = 0
		return o
	}(), nil)
	if err == nil || !strings.Contains(err.Error(), "pass failed") {
		t.Fatalf("err = %v", err)
	}
	if n := len(s.blocks); n < 1 || n > 3 {
		t.Errorf("%d chunks were started after a failure with three at once", n)
	}
}

// fakeClock advances only when slept on, and records every pause.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	pauses []time.Duration
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.pauses = append(c.pauses, d)
	c.now = c.now.Add(d)
	return ctx.Err()
}

// limited refuses the first n requests as rate limited, the way the model
// client reports a 429 it could not retry away.
type limited struct {
	scripted
	n int
	// waitRefused: the client would not wait as long as the endpoint asked.
	waitRefused bool
}

func (l *limited) Sub(block string) llm.JSONAsker { l.scripted.Sub(block); return l }

func (l *limited) AskSchema(ctx context.Context, label llm.Label, prompt string, schema *llm.Schema) (llm.Reply, error) {
	l.mu.Lock()
	refuse := l.n > 0
	l.n--
	l.mu.Unlock()
	if refuse {
		err := error(&llm.Error{Kind: llm.ErrRateLimited, Status: 429, Detail: "Rate limit reached for requests"})
		if l.waitRefused {
			err = errors.Join(err, llm.ErrWaitRefused)
		}
		return llm.Reply{}, err
	}
	return l.scripted.AskSchema(ctx, label, prompt, schema)
}

// A 429 slows the review instead of failing it: the pauses double while
// the limit holds, and a review that meets no end to it fails with the
// provider's error after maxRateWaits pauses.
func TestRateLimitSlowsTheReview(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		refused int
		pauses  string
		fails   bool
	}{
		"no limit":                        {0, "[]", false},
		"three in a row":                  {3, "[5s 10s 20s]", false},
		"longer than a minute's doubling": {8, "[5s 10s 20s 40s 1m0s 1m0s 1m0s 1m0s]", false},
		"never lifts":                     {1 << 20, "", true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			m := &limited{scripted: scripted{byPass: map[int][]Finding{1: {f(13, "Key logged", 7)}}}, n: tc.refused}
			clk := &fakeClock{now: time.Unix(0, 0)}
			opt := options(func(s *Settings) { s.Retries, s.Concurrency = 0, 1 })
			opt.clock = clk
			r, err := Run(context.Background(), m, Input{Anchor: files(t)}, opt, nil)
			if tc.fails {
				if !errors.Is(err, llm.ErrRateLimited) || len(clk.pauses) != maxRateWaits {
					t.Fatalf("err = %v after %d pauses, want the rate limit after %d", err, len(clk.pauses), maxRateWaits)
				}
				return
			}
			if err != nil || len(r.Findings) != 1 || len(m.prompts) != 3 {
				t.Fatalf("err %v, findings %+v, answered %d", err, r.Findings, len(m.prompts))
			}
			if got := fmt.Sprint(clk.pauses); got != tc.pauses {
				t.Errorf("pauses %s, want %s", got, tc.pauses)
			}
		})
	}
}

// A 429 whose asked pause the client would not wait (longer than the
// run allows) is not asked again sooner by the review's own pause: the
// pass fails as the client said, with no pause.
func TestRefusedWaitIsNotShortened(t *testing.T) {
	t.Parallel()
	m := &limited{scripted: scripted{byPass: map[int][]Finding{1: {f(13, "Key logged", 7)}}}, n: 1, waitRefused: true}
	clk := &fakeClock{now: time.Unix(0, 0)}
	opt := options(func(s *Settings) { s.Retries, s.Concurrency = 0, 1 })
	opt.clock = clk
	_, err := Run(context.Background(), m, Input{Anchor: files(t)}, opt, nil)
	if !errors.Is(err, llm.ErrWaitRefused) || len(clk.pauses) != 0 {
		t.Fatalf("err = %v after %d pauses, want the refused wait and no pause", err, len(clk.pauses))
	}
}

// A 429 halves the requests in flight, for every worker, and successes
// raise the limit again up to the configured concurrency.
func TestThrottleLimit(t *testing.T) {
	t.Parallel()
	clk := &fakeClock{now: time.Unix(0, 0)}
	th := newThrottle(4, clk)
	ctx := context.Background()
	take := func(n int) {
		for range n {
			if err := th.acquire(ctx); err != nil {
				t.Fatal(err)
			}
		}
	}
	take(4)
	th.release(true) // a 429: the limit halves to 2, three still in flight
	if th.limit != 2 || !th.until.Equal(time.Unix(5, 0)) {
		t.Fatalf("after a 429: limit %d, pause until %v", th.limit, th.until)
	}
	th.release(false)
	th.release(false)
	th.release(false) // two successes at a limit of two: three allowed
	if th.limit != 3 || th.inflight != 0 {
		t.Fatalf("after successes: limit %d, in flight %d", th.limit, th.inflight)
	}
	take(1) // waits out the pause
	if fmt.Sprint(clk.pauses) != "[5s]" {
		t.Errorf("pauses %v", clk.pauses)
	}
	blocked, cancel := context.WithCancel(ctx)
	take(2)
	cancel()
	if err := th.acquire(blocked); !errors.Is(err, context.Canceled) {
		t.Errorf("a fourth request at a limit of three: %v, want it to wait", err)
	}
}

// Requests under way hold their share of the ceiling: a worker does not
// start a request the ones in flight would take past it.
func TestCeilingCountsRequestsInFlight(t *testing.T) {
	t.Parallel()
	spent := 0
	r := newReviewer(nil, Options{Settings: settings(func(s *Settings) { s.MaxRunTokens = 10_000 }), Spent: func() llm.Usage { return llm.Usage{PromptTokens: spent} }}, nil, nil)
	r.scale = 3 // requests cost three times their estimate
	for i, want := range []bool{true, true, true, false} {
		_, _, err := r.reserve(1_000, 1, 0, false, fmt.Sprintf("request %d", i+1))
		if (err == nil) != want {
			t.Fatalf("request %d with %d tokens in flight: err %v", i+1, r.inflight, err)
		}
	}
	if r.res.Partial == nil || r.res.Partial.StoppedAt != "request 4" || r.inflight != 9_000 {
		t.Errorf("partial %+v, in flight %d", r.res.Partial, r.inflight)
	}
}

// A chunk starts only when the ceiling leaves room for all its passes (a
// pass alone covers nothing); one under way goes on when another could
// not start.
func TestCeilingStartsOnlyChunksThatCanFinish(t *testing.T) {
	t.Parallel()
	spent := 0
	r := newReviewer(nil, Options{Settings: settings(func(s *Settings) { s.MaxRunTokens = 10_000 }), Spent: func() llm.Usage { return llm.Usage{PromptTokens: spent} }}, nil, nil)
	r.scale = 3 // requests cost three times their estimate
	share, n, err := r.reserve(1_000, 3, 0, false, "pass 1, part 1 of 2")
	if err != nil || share != 3_000 || n != 3 {
		t.Fatalf("the first chunk: share %d, %d held, err %v", share, n, err)
	}
	if _, _, err := r.reserve(1_000, 3, 0, false, "pass 1, part 2 of 2"); err == nil || r.res.Partial.StoppedAt != "pass 1, part 2 of 2" {
		t.Fatalf("a second chunk started with room for one of its passes: err %v, partial %+v", err, r.res.Partial)
	}
	spent = 3_000
	r.settle(share, 3_000, 1_000)
	if _, n, err := r.reserve(3_000, 2, share*2, true, "pass 2, part 1 of 2"); err != nil || n != 2 || r.inflight != 6_000 {
		t.Errorf("the chunk under way stopped: err %v, %d held, %d in flight", err, n, r.inflight)
	}
}

// A chunk under way is reckoned by what its own requests cost: a small
// chunk that started beside a big one goes on to its last pass after the
// big one answered, instead of stopping half read (its files would be
// sent to pass 1 again by the next run).
func TestCeilingLetsASmallChunkFinish(t *testing.T) {
	t.Parallel()
	spent := 0
	r := newReviewer(nil, Options{Settings: settings(func(s *Settings) { s.MaxRunTokens = 100_000 }), Spent: func() llm.Usage { return llm.Usage{PromptTokens: spent} }}, nil, nil)
	big, bigN, err := r.reserve(30_000, 3, 0, false, "pass 1, part 1 of 2")
	if err != nil || bigN != 3 {
		t.Fatalf("the big chunk: %d held, err %v", bigN, err)
	}
	small, smallN, err := r.reserve(3_000, 3, 0, false, "pass 1, part 2 of 2")
	if err != nil || smallN != 3 {
		t.Fatalf("the small chunk: %d held, err %v", smallN, err)
	}
	// Both first passes answer, the big one last, each a little over its
	// estimate.
	spent = 3_300 + 33_000
	r.settle(small, 3_300, 3_000)
	r.settle(big, 33_000, 30_000)
	if _, n, err := r.reserve(3_300, 2, small*2, true, "pass 2, part 2 of 2"); err != nil || n != 2 {
		t.Fatalf("the small chunk stopped half read: err %v, %d held, %d in flight, partial %+v", err, n, r.inflight, r.res.Partial)
	}
	if _, _, err := r.reserve(3_000, 3, 0, false, "pass 1, part 3 of 3"); err == nil {
		t.Errorf("a third chunk started at %.2f times its estimate with %d tokens spent and %d in flight", r.scale, spent, r.inflight)
	}
}
