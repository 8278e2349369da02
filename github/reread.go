package github

import (
	"context"
	"slices"

	"github.com/shurcooL/githubv4"

	"github.com/review-my-code-bot/rmc/snapshot"
)

// SnapshotSince reads the PR again after the run's own writes, as far as
// they can change its review threads and reviews: the PR, every review
// thread with its comments (a resolution or a reply may land anywhere), and
// the reviews posted since start, read from the newest back to the first
// start holds; the older ones are start's. The conversation is not read:
// IssueComments is nil, for the caller to fill in.
func (c *Client) SnapshotSince(ctx context.Context, start snapshot.Snapshot) (snapshot.Snapshot, error) {
	return c.snapshot(ctx, start.Repo, start.PR.Number, &start, false, "", "")
}

type newReviewsPage struct {
	PageInfo prevPageInfo
	Nodes    []reviewNode
}

type prevPageInfo struct {
	HasPreviousPage bool
	StartCursor     githubv4.String
}

// newReviews pages the reviews connection backwards until it meets a review
// the start read.
type newReviews struct {
	vars  map[string]any
	start []snapshot.Review
	known map[int64]bool
	newer []snapshot.Review // oldest first
}

// newReviewsSince switches the reviews connection to newReviews when since
// is set: nil otherwise.
func newReviewsSince(since *snapshot.Snapshot, vars map[string]any) *newReviews {
	vars["withNewReviews"], vars["reviewsBefore"] = githubv4.Boolean(since != nil), (*githubv4.String)(nil)
	if since == nil {
		return nil
	}
	vars["withReviews"] = githubv4.Boolean(false)
	nr := &newReviews{vars: vars, start: since.Reviews, known: map[int64]bool{}}
	for _, r := range since.Reviews {
		nr.known[r.ID] = true
	}
	return nr
}

// read folds one page (oldest first) in and says whether to read the one
// before it.
func (nr *newReviews) read(pi prevPageInfo, nodes []reviewNode) bool {
	if nr.vars["withNewReviews"] != githubv4.Boolean(true) {
		return false
	}
	met := false
	var page []snapshot.Review
	for _, n := range nodes {
		r := review(n)
		if nr.known[r.ID] {
			met = true
			continue
		}
		page = append(page, r)
	}
	nr.newer = append(page, nr.newer...)
	if met || !pi.HasPreviousPage {
		nr.vars["withNewReviews"] = githubv4.Boolean(false)
		return false
	}
	cursor := pi.StartCursor
	nr.vars["reviewsBefore"] = &cursor
	return true
}

// merged is start's reviews followed by the newer ones.
func (nr *newReviews) merged() []snapshot.Review {
	return append(slices.Clone(nr.start), nr.newer...)
}
