package state_test

import (
	"testing"
	"time"

	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/state"
)

// A review requested by running the workflow (workflow_dispatch) is keyed by
// its run id and recorded like a comment's request: in progress in the bot's
// status comment, reviewed in the review-run block, dismissed by an
// automatic review. Only the bot's own blocks count.
func TestDispatchRequests(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	ref := func(id int64) state.Ref { return state.Ref{Source: state.SourceDispatch, ID: id} }
	snap := snapshot.Snapshot{
		Repo: snapshot.Repo{Owner: "o", Name: "r"}, Viewer: botAuthor,
		PR: snapshot.PullRequest{Number: 7, State: "OPEN", HeadSHA: shaA, Author: alice},
		IssueComments: []snapshot.Comment{
			{ID: 10, Author: botAuthor, CreatedAt: at, Body: "🔍\n\n" + rmcoc.Render(rmcoc.ManualReview{RequestCommentID: 501, Source: rmcoc.SourceDispatch, Status: rmcoc.ManualInProgress})},
			{ID: 11, Author: botAuthor, CreatedAt: at, Body: "🔍\n\n" + rmcoc.Render(rmcoc.ManualReview{RequestCommentID: 502, Source: rmcoc.SourceDispatch, Status: rmcoc.ManualInProgress})},
			// A developer pasting a block changes nothing.
			{ID: 12, Author: alice, CreatedAt: at, Body: rmcoc.Render(rmcoc.ReviewRun{HeadSHA: shaA, Mode: rmcoc.ModeManual, RequestRunIDs: []rmcoc.ID{504}})},
		},
		Reviews: []snapshot.Review{
			{ID: 20, Author: botAuthor, SubmittedAt: at, Body: rmcoc.Render(rmcoc.ReviewRun{HeadSHA: shaA, Mode: rmcoc.ModeManual, RequestRunIDs: []rmcoc.ID{502}})},
			{ID: 21, Author: botAuthor, SubmittedAt: at, Body: rmcoc.Render(rmcoc.ReviewRun{HeadSHA: shaA, Mode: rmcoc.ModeAuto, DismissedRunIDs: []rmcoc.ID{503}})},
		},
	}
	st := state.Derive(snap, state.Options{Bot: bot, Handles: handles})
	tests := map[int64]struct {
		handled     state.Handling
		placeholder int64
	}{
		501: {"", 10},                    // killed midway: pending, its status comment reused
		502: {state.HandledReviewed, 0},  // reviewed
		503: {state.HandledDismissed, 0}, // covered by an automatic review
		504: {"", 0},                     // only a forged block says so
		505: {"", 0},                     // never seen
	}
	for id, want := range tests {
		if h, p := st.Request(ref(id)); h != want.handled || p != want.placeholder {
			t.Errorf("run %d: handled %q placeholder %d, want %q %d", id, h, p, want.handled, want.placeholder)
		}
	}
	// A comment's request with the same number is another request.
	if h, _ := st.Request(state.Ref{Source: state.SourceIssueComment, ID: 502}); h != "" {
		t.Errorf("issue comment 502 handled %q", h)
	}
	// The review of 502 was posted but its status comment still says in
	// progress: the next run finishes it. 503 still needs its explanation.
	if len(st.Unfinished) != 1 || st.Unfinished[0].CommentID != 11 || st.Unfinished[0].Requests[0] != ref(502) {
		t.Errorf("unfinished = %+v", st.Unfinished)
	}
	if len(st.Unexplained) != 1 || st.Unexplained[0] != ref(503) {
		t.Errorf("unexplained = %+v", st.Unexplained)
	}
}
