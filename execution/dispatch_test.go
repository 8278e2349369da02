package execution

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/detector"
	"github.com/review-my-code-bot/rmc/review"
	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/state"
)

// A review requested by running the workflow (its ref is the run's id) is
// written in a separate id space and read back as handled, so a re-run of
// the run does not review again and no comment id is mistaken for it.
func TestDispatchRequestRoundTrip(t *testing.T) {
	t.Parallel()
	const run = 424242
	ref := state.Ref{Source: state.SourceDispatch, ID: run}
	request := state.Mention{Ref: ref, Author: bob, Text: "review (workflow_dispatch)", Trusted: true}
	derive := func(t *testing.T, gh *recorder, rv *snapshot.NewReview) state.State {
		t.Helper()
		snap := testSnapshot()
		for i, c := range gh.calls {
			if c.Op == "create-comment" {
				snap.IssueComments = append(snap.IssueComments, snapshot.Comment{ID: int64(100 + i), Author: botAuthor, Body: c.Body, CreatedAt: fixedNow})
			}
		}
		if rv != nil {
			snap.Reviews = []snapshot.Review{{ID: 9001, Author: botAuthor, Body: rv.Body, SubmittedAt: fixedNow}}
		}
		return state.Derive(snap, state.Options{Bot: testBot, Handles: []string{"@rmc-bot"}})
	}

	t.Run("reviewed", func(t *testing.T) {
		t.Parallel()
		gh := &recorder{}
		x := newTestExecutor(gh, &testLog{})
		rt := &detector.ReviewTask{Mode: rmcoc.ModeManual, HeadSHA: headSHA, Requests: []state.Mention{request}}
		if id := x.review().manualStatus(context.Background(), rt, 0, rmcoc.ManualInProgress, "reviewing"); id == 0 {
			t.Fatal("no status comment")
		}
		if st := derive(t, gh, nil); !statusIs(st, ref, "", 100) {
			t.Errorf("after the status comment: %v", describeRequest(st, ref))
		}
		rv := x.review().composeReview(rt, review.Result{Reviewed: []string{"a.go"}}, scope{note: "full review"})
		st := derive(t, gh, &rv)
		if !statusIs(st, ref, state.HandledReviewed, 0) {
			t.Errorf("after the review: %v", describeRequest(st, ref))
		}
		if h, _ := st.Request(state.Ref{Source: state.SourceIssueComment, ID: run}); h != "" {
			t.Errorf("issue comment %d handled %q: the run id leaked into the comment id space", run, h)
		}
		// The status comment still says in progress: the next run finishes
		// it, keeping the request in its own id space.
		if len(st.Unfinished) != 1 || st.Unfinished[0].Requests[0] != ref {
			t.Fatalf("unfinished = %+v", st.Unfinished)
		}
		x.State = st
		x.run().catchUp(context.Background())
		last := gh.calls[len(gh.calls)-1]
		blocks := rmcoc.All[rmcoc.ManualReview](last.Body)
		if last.Op != "edit-comment" || len(blocks) != 1 || blocks[0].Source != rmcoc.SourceDispatch || blocks[0].Status != rmcoc.ManualCompleted {
			t.Errorf("catch-up wrote %s %q", last.Op, last.Body)
		}
	})

	t.Run("dismissed by an automatic review, then explained once", func(t *testing.T) {
		t.Parallel()
		gh := &recorder{}
		x := newTestExecutor(gh, &testLog{})
		rt := &detector.ReviewTask{Mode: rmcoc.ModeAuto, Gate: true, HeadSHA: headSHA, Dismissed: []state.Mention{request}}
		rv := x.review().composeReview(rt, review.Result{Reviewed: []string{"a.go"}}, scope{note: "full review"})
		st := derive(t, gh, &rv)
		if !statusIs(st, ref, state.HandledDismissed, 0) || len(st.Unexplained) != 1 || st.Unexplained[0] != ref {
			t.Fatalf("after the review: %v, unexplained %v", describeRequest(st, ref), st.Unexplained)
		}
		if err := explainDismissal(context.Background(), gh, x.run().env, ref); err != nil {
			t.Fatal(err)
		}
		if body := gh.calls[len(gh.calls)-1].Body; !strings.Contains(body, "This review request (workflow run 424242) was dismissed") {
			t.Errorf("explanation = %q", body)
		}
		if st := derive(t, gh, &rv); len(st.Unexplained) != 0 {
			t.Errorf("still unexplained after the explanation: %v", st.Unexplained)
		}
	})
}

func statusIs(st state.State, ref state.Ref, handled state.Handling, placeholder int64) bool {
	h, p := st.Request(ref)
	return h == handled && p == placeholder
}

func describeRequest(st state.State, ref state.Ref) string {
	h, p := st.Request(ref)
	return fmt.Sprintf("handled %q, placeholder %d", h, p)
}
