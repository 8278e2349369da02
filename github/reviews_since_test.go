package github

import (
	"context"
	"fmt"
	"testing"

	"github.com/review-my-code-bot/rmc/snapshot"
)

// ReviewsSince returns the reviews above an id, across GitHub's pages
// (oldest first), with their authors and bodies as written.
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
	if reads := int(c.Counts().Reads); reads != 2 {
		t.Errorf("%d read requests, want 2 (two pages)", reads)
	}
}
