package github

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"testing"

	"github.com/review-my-code-bot/rmc/github/fakegithub"
	"github.com/review-my-code-bot/rmc/snapshot"
)

// The conversation and the reviews are read from both ends at once and meet
// in the middle: every item once, oldest first, in one request per 200 (one
// more when the two ends meet exactly at a page boundary).
func TestSnapshotReadsFromBothEnds(t *testing.T) {
	t.Parallel()
	for _, n := range []int{0, 1, 99, 100, 101, 199, 200, 201, 350, 399, 400, 1350} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			t.Parallel()
			f := fakegithub.New()
			t.Cleanup(f.Close)
			f.AddToken(token, fakegithub.Identity{Login: "github-actions[bot]", Kind: fakegithub.TokenInstallation})
			pr := f.AddPR("o/r", fakegithub.PR{Author: "alice", Title: "t"})
			for i := range n {
				f.AddReview("o/r", pr.Number, []string{"alice", "bob"}[i%2], "COMMENTED", fmt.Sprint("review ", i))
				f.AddIssueComment("o/r", pr.Number, []string{"bob", "alice"}[i%3%2], fmt.Sprint("comment ", i))
			}
			c := client(t, f, nil)
			snap, err := c.Snapshot(context.Background(), snapshot.Repo{Owner: "o", Name: "r"}, pr.Number)
			if err != nil {
				t.Fatal(err)
			}
			var want, got []int64
			for _, r := range f.Reviews("o/r", pr.Number) {
				want = append(want, r.ID)
			}
			for _, r := range snap.Reviews {
				got = append(got, r.ID)
			}
			if !slices.Equal(got, want) {
				t.Errorf("read reviews %v, want %v", got, want)
			}
			want, got = nil, nil
			for _, c := range f.IssueComments("o/r", pr.Number) {
				want = append(want, c.ID)
			}
			for _, c := range snap.IssueComments {
				got = append(got, c.ID)
			}
			if !slices.Equal(got, want) {
				t.Errorf("read comments %v, want %v", got, want)
			}
			if reads := int(c.Counts().Reads); reads != n/(2*pageSize)+1 {
				t.Errorf("%d reviews and comments read in %d requests, want %d", n, reads, n/(2*pageSize)+1)
			}
			if errs := f.GraphQLErrors(); len(errs) > 0 {
				t.Errorf("the fake rejected documents: %v", errs)
			}
		})
	}
}

// A review posted between two pages of the read is read once or not at all
// (the backward end already passed the newest), and the rest stay whole.
func TestReviewsPostedWhileReading(t *testing.T) {
	t.Parallel()
	f := fakegithub.New()
	t.Cleanup(f.Close)
	f.AddToken(token, fakegithub.Identity{Login: "github-actions[bot]", Kind: fakegithub.TokenInstallation})
	pr := f.AddPR("o/r", fakegithub.PR{Author: "alice", Title: "t"})
	for i := range 450 {
		f.AddReview("o/r", pr.Number, "alice", "COMMENTED", fmt.Sprint("review ", i))
	}
	posted := 0
	c := client(t, f, roundTripFunc(func(req *http.Request) (*http.Response, error) {
		resp, err := http.DefaultTransport.RoundTrip(req)
		if posted < 2 {
			f.AddReview("o/r", pr.Number, "bob", "COMMENTED", fmt.Sprint("late ", posted))
			posted++
		}
		return resp, err
	}))
	snap, err := c.Snapshot(context.Background(), snapshot.Repo{Owner: "o", Name: "r"}, pr.Number)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int64]bool{}
	for _, r := range snap.Reviews {
		if seen[r.ID] {
			t.Fatalf("review %d read twice", r.ID)
		}
		seen[r.ID] = true
	}
	for _, r := range f.Reviews("o/r", pr.Number)[:450] {
		if !seen[r.ID] {
			t.Errorf("review %d (%q) was not read", r.ID, r.Body)
		}
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
