package github

import (
	"context"
	"fmt"
	"testing"

	"github.com/review-my-code-bot/rmc/snapshot"
)

// ReviewsSince returns the reviews above an id (oldest first), with their
// authors and bodies as written, in one read when they fit the newest page.
func TestReviewsSince(t *testing.T) {
	t.Parallel()
	f, pr, repo := commitWorld(t)
	var seen int64
	for i := range 150 {
		r := f.AddReview("o/r", pr.Number, "alice", "COMMENTED", fmt.Sprint("review ", i))
		if i == 139 {
			seen = r.ID
		}
	}
	f.AddReview("o/r", pr.Number, "github-actions[bot]", "CHANGES_REQUESTED", "the bot's")
	c := client(t, f, nil)
	got, err := c.ReviewsSince(context.Background(), repo, pr.Number, seen)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 11 || got[0].Body != "review 140" || got[10].Body != "the bot's" || got[10].State != snapshot.ReviewChangesRequested ||
		!got[10].Author.Is(snapshot.DefaultBot) || got[10].ID <= seen {
		t.Fatalf("ReviewsSince = %d reviews: %+v", len(got), got)
	}
	if reads := int(c.Counts().Reads); reads != 1 {
		t.Errorf("%d read requests, want 1 (the newest page holds all 11)", reads)
	}
}

// Reviews since an id many pages back: the read walks back from the
// newest page to the page that reaches it, and returns them oldest first.
func TestReviewsSinceWalksBack(t *testing.T) {
	t.Parallel()
	f, pr, repo := commitWorld(t)
	var seen int64
	for i := range 250 {
		r := f.AddReview("o/r", pr.Number, "alice", "COMMENTED", fmt.Sprint("review ", i))
		if i == 49 {
			seen = r.ID
		}
	}
	c := client(t, f, nil)
	got, err := c.ReviewsSince(context.Background(), repo, pr.Number, seen)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 200 || got[0].Body != "review 50" || got[199].Body != "review 249" {
		t.Fatalf("ReviewsSince = %d reviews, first %q", len(got), got[0].Body)
	}
	if want := 200/reviewsSincePage + 1; int(c.Counts().Reads) != want {
		t.Errorf("%d read requests, want %d (pages back from the newest until one reaches the id)", c.Counts().Reads, want)
	}
}
