package github

import (
	"github.com/shurcooL/githubv4"

	"github.com/review-my-code-bot/rmc/snapshot"
)

// reviewPager reads the reviews connection from both ends at once: a page
// forward from the oldest and a page backward from the newest in every
// request, until the two meet. On GitHub every reply in a review thread is
// a review of its own, so a busy PR holds about one review per review
// comment; reading from both ends halves the requests they take.
//
// The reviews are all read, not only the bot's: the bot's carry its state,
// and anyone's review body may mention the bot (a question, a request for a
// review), which is work for the run. A review's body is only known once it
// is read: the connection filters by author and state, never by body.
//
// The re-read after a run (since set) keeps since's reviews as the forward
// part and pages only backward, until it meets one of them.
type reviewPager struct {
	vars     map[string]any
	forward  []snapshot.Review // oldest first
	backward []snapshot.Review // oldest first; all newer than forward's
	fwdIDs   map[int64]bool
	bwdIDs   map[int64]bool
}

func newReviewPager(vars map[string]any, since *snapshot.Snapshot) *reviewPager {
	rp := &reviewPager{vars: vars, fwdIDs: map[int64]bool{}, bwdIDs: map[int64]bool{}}
	vars["withReviews"], vars["reviewsAfter"] = githubv4.Boolean(since == nil), (*githubv4.String)(nil)
	vars["withLastReviews"], vars["reviewsBefore"] = githubv4.Boolean(true), (*githubv4.String)(nil)
	if since != nil {
		rp.forward = append(rp.forward, since.Reviews...)
		for _, r := range since.Reviews {
			rp.fwdIDs[r.ID] = true
		}
	}
	return rp
}

// read folds in one response's pages (forward, then backward) and says
// whether to read on. The two have met once either holds a review the
// other read; a page's reviews the other has are dropped.
func (rp *reviewPager) read(fwdInfo pageInfo, fwd []reviewNode, bwdInfo prevPageInfo, bwd []reviewNode) bool {
	met := false
	if rp.on("withReviews") {
		page, seen := unseen(fwd, rp.bwdIDs)
		rp.forward, met = append(rp.forward, page...), seen
		for _, r := range page {
			rp.fwdIDs[r.ID] = true
		}
		if !advance(rp.vars, "withReviews", "reviewsAfter", fwdInfo) {
			met = true // forward read to the end: it holds everything
		}
	}
	if rp.on("withLastReviews") {
		page, seen := unseen(bwd, rp.fwdIDs)
		rp.backward, met = append(page, rp.backward...), met || seen
		for _, r := range page {
			rp.bwdIDs[r.ID] = true
		}
		if !bwdInfo.HasPreviousPage {
			met = true // backward read to the start
		}
		cursor := bwdInfo.StartCursor
		rp.vars["reviewsBefore"] = &cursor
	}
	if met {
		rp.vars["withReviews"], rp.vars["withLastReviews"] = githubv4.Boolean(false), githubv4.Boolean(false)
	}
	return rp.on("withReviews") || rp.on("withLastReviews")
}

func (rp *reviewPager) on(with string) bool { return rp.vars[with] == githubv4.Boolean(true) }

// unseen converts a page's nodes and drops those in seen; found says
// whether any were.
func unseen(nodes []reviewNode, seen map[int64]bool) (page []snapshot.Review, found bool) {
	for _, n := range nodes {
		r := review(n)
		if seen[r.ID] {
			found = true
			continue
		}
		page = append(page, r)
	}
	return page, found
}

// reviews are all the reviews read, oldest first.
func (rp *reviewPager) reviews() []snapshot.Review {
	return append(append([]snapshot.Review(nil), rp.forward...), rp.backward...)
}
