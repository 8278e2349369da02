package inbox

import (
	"context"
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

// Retention drops resolved reviews and open ones nobody opened once past
// the window, with their stored diffs, and counts the diffs; an open
// review whose page was opened stays.
func TestRetentionOfUnopenedReviews(t *testing.T) {
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

	res, err := s.Compact(ctx)
	if err != nil || res.Dropped != 0 || res.Diffs != 4 || res.DiffsRemoved != 0 {
		t.Fatalf("compaction within the window = %+v, %v", res, err)
	}
	clock.advance(49 * time.Hour)
	res, err = s.Compact(ctx)
	if err != nil || res.Dropped != 2 || res.Kept != 2 || res.Diffs != 2 || res.DiffsRemoved != 2 {
		t.Fatalf("compaction past the window = %+v, %v", res, err)
	}
	for id, want := range map[string]bool{unopened.ID: false, opened.ID: true, resolved.ID: false, submitted.ID: true} {
		if _, err := s.Get(ctx, id); (err == nil) != want {
			t.Errorf("review %s kept = %v, want %v", id, err == nil, want)
		}
	}
}
