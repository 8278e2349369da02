package inbox

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeClock is a clock the test moves.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// A claim holds for its lease; renewed by its agent it holds on; once it
// lapses the review is submitted again and any agent may claim it, and
// the agent whose claim lapsed no longer holds it.
func TestClaimLease(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clock := &fakeClock{now: time.Date(2026, 1, 2, 10, 0, 0, 0, time.UTC)}
	s := testStore(t, Options{Now: clock.Now, ClaimLease: 30 * time.Minute})
	svc := &Service{Store: s}
	r := reviewIn(t, s, StatusClaimed) // by alpha, now

	it, err := svc.Get(ctx, r.ID)
	if err != nil || it.Status != StatusClaimed || it.ClaimExpires == nil || !it.ClaimExpires.Equal(clock.Now().Add(30*time.Minute)) {
		t.Fatalf("claimed = %+v, %v", it.Item, err)
	}
	clock.advance(20 * time.Minute)
	if _, err := s.Claim(ctx, r.ID, "alpha", false); err != nil { // renews
		t.Fatal(err)
	}
	clock.advance(20 * time.Minute) // 40 minutes after the first claim, 20 after the renewal
	if _, err := s.Claim(ctx, r.ID, "beta", false); kindOf(err) != "conflict" {
		t.Fatalf("claim of a renewed claim by another = %v, want a conflict", err)
	}
	clock.advance(11 * time.Minute) // the renewal has lapsed
	got, err := s.Get(ctx, r.ID)
	if err != nil || got.Status != StatusSubmitted || got.Claim != nil {
		t.Fatalf("after the lease: %+v, %v", got, err)
	}
	list, err := svc.List(ctx, ListOptions{Status: "submitted"})
	if err != nil || len(list.Items) != 1 || list.Items[0].ClaimedBy != "" {
		t.Fatalf("listing after the lease: %+v, %v", list, err)
	}
	if got, err := s.Claim(ctx, r.ID, "beta", false); err != nil || got.Claim.ClaimedBy != "beta" {
		t.Fatalf("claim after the lease = %+v, %v", got, err)
	}
	if _, err := s.Resolve(ctx, r.ID, ResolveOptions{By: "alpha"}); kindOf(err) != "conflict" {
		t.Fatalf("resolve by the agent whose claim lapsed = %v, want a conflict", err)
	}
	done, err := s.Resolve(ctx, r.ID, ResolveOptions{By: "beta", Note: "fixed"})
	if err != nil || done.Status != StatusResolved || done.Resolution.ResolvedBy != "beta" || !done.ResolvedAt.Equal(clock.Now()) {
		t.Fatalf("resolve by the claimant = %+v, %v", done, err)
	}
}

// Resolving over another's claim is recorded as forced, with who did it.
func TestResolveForcedIsRecorded(t *testing.T) {
	t.Parallel()
	s := testStore(t, Options{})
	r := reviewIn(t, s, StatusClaimed)
	got, err := s.Resolve(context.Background(), r.ID, ResolveOptions{By: "beta", Note: "took over", Force: true})
	if err != nil || got.Resolution.ResolvedBy != "beta" || !got.Resolution.Forced || got.Claim.ClaimedBy != "alpha" {
		t.Fatalf("forced resolve = %+v, %v", got, err)
	}
}

// Retention drops resolved and cancelled reviews once past the window,
// with their stored diffs, and counts the diffs; an open review stays,
// opened or not (an agent may still be waiting for it), and a dropped one
// is then "expired", not "not found".
func TestRetentionKeepsOpenReviews(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clock := &fakeClock{now: time.Date(2026, 1, 2, 10, 0, 0, 0, time.UTC)}
	s := testStore(t, Options{Now: clock.Now, Retention: 48 * time.Hour})
	unopened := reviewIn(t, s, StatusOpen)
	opened := reviewIn(t, s, StatusOpen)
	if _, err := s.MarkViewed(ctx, opened.ID); err != nil {
		t.Fatal(err)
	}
	if r, err := s.MarkViewed(ctx, opened.ID); err != nil || r.ViewedAt == nil || !r.ViewedAt.Equal(clock.Now()) {
		t.Fatalf("viewed again = %+v, %v", r, err)
	}
	resolved := reviewIn(t, s, StatusResolved)
	submitted := reviewIn(t, s, StatusSubmitted)
	cancelled := reviewIn(t, s, StatusCancelled)

	res, err := s.Compact(ctx)
	if err != nil || res.Dropped != 0 || res.Diffs != 5 || res.DiffsRemoved != 0 {
		t.Fatalf("compaction within the window = %+v, %v", res, err)
	}
	clock.advance(49 * time.Hour)
	res, err = s.Compact(ctx)
	if err != nil || res.Dropped != 2 || res.Kept != 3 || res.Diffs != 3 || res.DiffsRemoved != 2 {
		t.Fatalf("compaction past the window = %+v, %v", res, err)
	}
	for id, want := range map[string]bool{unopened.ID: true, opened.ID: true, resolved.ID: false, submitted.ID: true, cancelled.ID: false} {
		if _, err := s.Get(ctx, id); (err == nil) != want {
			t.Errorf("review %s kept = %v, want %v", id, err == nil, want)
		}
	}
}

// A review retention dropped is "expired" to every reader, with how it
// ended; an id nobody had is "not found". Both count as missing.
func TestDroppedReviewIsExpired(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clock := &fakeClock{now: time.Date(2026, 1, 2, 10, 0, 0, 0, time.UTC)}
	s := testStore(t, Options{Now: clock.Now, Retention: 48 * time.Hour})
	resolved := reviewIn(t, s, StatusResolved)
	clock.advance(49 * time.Hour)
	if _, err := s.Compact(ctx); err != nil {
		t.Fatal(err)
	}
	svc := &Service{Store: s}
	tests := map[string]struct {
		id       string
		kind     string
		status   int
		contains string
	}{
		"dropped by retention": {id: resolved.ID, kind: "expired", status: http.StatusGone, contains: "expired: the review was resolved on 2026-01-02 and dropped by retention on 2026-01-04"},
		"never there":          {id: "zzzzzzzz", kind: "not_found", status: http.StatusNotFound, contains: "not found: no such review"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			for op, call := range map[string]func() error{
				"store get":   func() error { _, err := s.Get(ctx, tc.id); return err },
				"service get": func() error { _, err := svc.Get(ctx, tc.id); return err },
				"claim":       func() error { _, err := svc.Claim(ctx, tc.id, "agent", false); return err },
				"resolve":     func() error { _, err := svc.Resolve(ctx, tc.id, ResolveOptions{By: "agent"}); return err },
			} {
				err := call()
				if !errors.Is(err, ErrNotFound) || KindName(err) != tc.kind || HTTPStatus(err) != tc.status || ExitCode(err) != ExitNotFound ||
					!strings.Contains(err.Error(), tc.contains) {
					t.Errorf("%s %s = %v (kind %s, HTTP %d, exit %d), want kind %s, HTTP %d, exit %d, saying %q",
						op, tc.id, err, KindName(err), HTTPStatus(err), ExitCode(err), tc.kind, tc.status, ExitNotFound, tc.contains)
				}
			}
		})
	}
}
