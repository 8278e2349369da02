package github

import (
	"github.com/shurcooL/githubv4"

	"github.com/review-my-code-bot/rmc/snapshot"
)

// bothEnds reads one connection from both ends at once: a page forward from
// the oldest and a page backward from the newest in every request, until
// the two meet. That halves the requests a long connection takes; the
// snapshot reads the conversation and the reviews this way. On GitHub every
// reply in a review thread is a review of its own, so a busy PR holds about
// one review per review comment.
//
// The reviews are all read, not only the bot's: the bot's carry its state,
// and anyone's review body may mention the bot (a question, a request for a
// review), which is work for the run. A review's body is only known once it
// is read: the connection filters by author and state, never by body.
//
// A re-read (SnapshotSince) starts from what an earlier read held as the
// forward part and pages only backward, until it meets one of those.
type bothEnds[T any] struct {
	vars           map[string]any
	with, after    string // the forward page's @include and cursor variables
	last, before   string // the backward page's
	id             func(T) int64
	forward        []T // oldest first
	backward       []T // oldest first; all newer than forward's
	fwdIDs, bwdIDs map[int64]bool
}

// newBothEnds sets the connection's variables. With start set it holds
// start's items and reads only those newer; with read false it reads nothing.
func newBothEnds[T any](vars map[string]any, with, after, last, before string, id func(T) int64, start []T, read bool) *bothEnds[T] {
	b := &bothEnds[T]{vars: vars, with: with, after: after, last: last, before: before, id: id,
		fwdIDs: map[int64]bool{}, bwdIDs: map[int64]bool{}}
	vars[with], vars[after] = githubv4.Boolean(read && start == nil), (*githubv4.String)(nil)
	vars[last], vars[before] = githubv4.Boolean(read), (*githubv4.String)(nil)
	b.forward = append(b.forward, start...)
	for _, it := range start {
		b.fwdIDs[id(it)] = true
	}
	return b
}

func newReviewEnds(vars map[string]any, since *snapshot.Snapshot) *bothEnds[snapshot.Review] {
	var start []snapshot.Review
	if since != nil {
		start = append([]snapshot.Review{}, since.Reviews...) // non-nil: read backward only
	}
	return newBothEnds(vars, "withReviews", "reviewsAfter", "withLastReviews", "reviewsBefore",
		func(r snapshot.Review) int64 { return r.ID }, start, true)
}

func newCommentEnds(vars map[string]any, since *snapshot.Snapshot) *bothEnds[snapshot.Comment] {
	return newBothEnds(vars, "withComments", "commentsAfter", "withLastComments", "commentsBefore",
		func(c snapshot.Comment) int64 { return c.ID }, nil, since == nil)
}

// read folds in one response's pages (forward, then backward) and says
// whether to read on. The two have met once either holds an item the other
// read; a page's items the other has are dropped.
func (b *bothEnds[T]) read(fwdInfo pageInfo, fwd []T, bwdInfo prevPageInfo, bwd []T) bool {
	met := false
	if b.on(b.with) {
		page, seen := b.unseen(fwd, b.bwdIDs)
		b.forward, met = append(b.forward, page...), seen
		for _, it := range page {
			b.fwdIDs[b.id(it)] = true
		}
		if !advance(b.vars, b.with, b.after, fwdInfo) {
			met = true // forward read to the end: it holds everything
		}
	}
	if b.on(b.last) {
		page, seen := b.unseen(bwd, b.fwdIDs)
		b.backward, met = append(page, b.backward...), met || seen
		for _, it := range page {
			b.bwdIDs[b.id(it)] = true
		}
		if !bwdInfo.HasPreviousPage {
			met = true // backward read to the start
		}
		cursor := bwdInfo.StartCursor
		b.vars[b.before] = &cursor
	}
	if met {
		b.vars[b.with], b.vars[b.last] = githubv4.Boolean(false), githubv4.Boolean(false)
	}
	return b.on(b.with) || b.on(b.last)
}

func (b *bothEnds[T]) on(with string) bool { return b.vars[with] == githubv4.Boolean(true) }

// unseen drops a page's items that are in seen; found says whether any were.
func (b *bothEnds[T]) unseen(items []T, seen map[int64]bool) (page []T, found bool) {
	for _, it := range items {
		if seen[b.id(it)] {
			found = true
			continue
		}
		page = append(page, it)
	}
	return page, found
}

// items are all the items read, oldest first; nil when none.
func (b *bothEnds[T]) items() []T {
	if len(b.forward)+len(b.backward) == 0 {
		return nil
	}
	return append(append(make([]T, 0, len(b.forward)+len(b.backward)), b.forward...), b.backward...)
}

func reviews(nodes []reviewNode) []snapshot.Review {
	out := make([]snapshot.Review, len(nodes))
	for i, n := range nodes {
		out[i] = review(n)
	}
	return out
}

func issueComments(nodes []issueCommentNode) []snapshot.Comment {
	out := make([]snapshot.Comment, len(nodes))
	for i, n := range nodes {
		out[i] = issueComment(n)
	}
	return out
}
