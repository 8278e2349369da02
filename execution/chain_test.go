package execution

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/review-my-code-bot/rmc/precision"
	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/state"
)

func (r *recorder) EditReview(_ context.Context, _ snapshot.Repo, _ int, id int64, body string) error {
	_, err := r.add(call{Op: "edit-review", ID: id, Body: body})
	return err
}

// The run's end of the state ledger, read back by the state: each block
// names the one the run wrote before it, the head is written once, into
// the latest review, and names only what nothing else names; what the run
// wrote derives with no cut.
func TestLedgerWriterRoundTrip(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	rig := newTestExecutor(rec, &testLog{})
	bot := snapshot.NewActor("github-actions", "Bot")
	snap := rig.Snap
	snap.Viewer = bot
	review := rmcoc.ReviewRun{HeadSHA: headSHA, Mode: rmcoc.ModeAuto, Findings: 1, Blocking: 1, CompletedAt: fixedNow.UTC(), Prev: rmcoc.Genesis()}
	finding := rmcoc.Finding{ID: "f-1", Title: "race", Score: 8, Blocking: true, Status: rmcoc.FindingOpen, CreatedAt: fixedNow.UTC()}
	snap.Reviews = []snapshot.Review{{ID: 201, Author: bot, State: snapshot.ReviewCommented, Body: "Review.\n\n" + rmcoc.Render(review), SubmittedAt: fixedNow}}
	snap.Threads = []snapshot.Thread{{ID: "T1", Path: "a.go", Line: 3, Comments: []snapshot.ReviewComment{
		{Comment: snapshot.Comment{ID: 301, Author: bot, Body: "race\n\n" + rmcoc.Render(finding), CreatedAt: fixedNow}},
		{Comment: snapshot.Comment{ID: 302, Author: snapshot.NewActor("alice", "User"), Body: "It is fine.", CreatedAt: fixedNow.Add(time.Second)}, ReplyToID: 301}}}}
	rig.Snap = snap
	rig.State = state.Derive(snap, state.Options{Bot: bot})
	if c := rig.State.Chain; c.Latest == nil || c.Latest.CommentID != 201 || c.Anchor.ID != 201 || len(c.Cuts) > 0 {
		t.Fatalf("the state's chain before the run: %+v", c)
	}

	r := rig.run()
	f := rig.State.Findings[0]
	if err := r.fixes.resolveFinding(context.Background(), f, rmcoc.ResolutionFixed, "Fixed.", precision.Fix{}); err != nil {
		t.Fatal(err)
	}
	if err := r.fixes.regress(context.Background(), f, "It came back."); err != nil {
		t.Fatal(err)
	}
	r.anchorLedger(context.Background())
	r.anchorLedger(context.Background()) // nothing new: no second write

	var replies, edits []call
	var ids []int64 // the replies' ids: the recorder numbers every call from 9001
	for i, c := range rec.calls {
		switch c.Op {
		case "reply":
			replies, ids = append(replies, c), append(ids, 9001+int64(i))
		case "edit-review":
			edits = append(edits, c)
		}
	}
	if len(replies) != 2 || len(edits) != 1 || edits[0].ID != 201 {
		t.Fatalf("calls %+v: want two replies and one edit of review 201", rec.calls)
	}
	fixed := rmcoc.TrustedAll[rmcoc.DisputeResolution](replies[0].Body)[0]
	regressed := rmcoc.TrustedAll[rmcoc.DisputeResolution](replies[1].Body)[0]
	if fixed.Prev == nil || fixed.Prev.Holder != rmcoc.HolderReview || fixed.Prev.CommentID != 201 {
		t.Errorf("the fix names %+v, want review 201", fixed.Prev)
	}
	if regressed.Prev == nil || regressed.Prev.Holder != rmcoc.HolderReviewComment || regressed.Prev.Digest != rmcoc.Digest(fixed) || regressed.Prev.ReplyTo != 302 {
		t.Errorf("the regression names %+v, want the fix's reply", regressed.Prev)
	}
	heads := rmcoc.TrustedAll[rmcoc.LedgerHead](edits[0].Body)
	if len(heads) != 1 || len(heads[0].Tips) != 1 || heads[0].Tips[0].Digest != rmcoc.Digest(regressed) {
		t.Fatalf("the head names %+v, want the regression alone", heads)
	}
	if rmcoc.Strip(edits[0].Body) != "Review." || len(rmcoc.TrustedAll[rmcoc.ReviewRun](edits[0].Body)) != 1 {
		t.Errorf("the edit changed more than the head:\n%s", edits[0].Body)
	}

	// Read back as GitHub would hold it: no cut; deleting the newest
	// reply is one.
	after := snap
	after.Reviews = slices.Clone(snap.Reviews)
	after.Reviews[0].Body, after.Reviews[0].Editor = edits[0].Body, &bot
	th := after.Threads[0]
	th.Comments = slices.Clone(th.Comments)
	for i, c := range replies {
		th.Comments = append(th.Comments, snapshot.ReviewComment{Comment: snapshot.Comment{ID: ids[i], Author: bot, Body: c.Body, CreatedAt: fixedNow.Add(time.Duration(2+i) * time.Second)}, ReplyToID: 301})
	}
	after.Threads = []snapshot.Thread{th}
	if st := state.Derive(after, state.Options{Bot: bot}); len(st.Chain.Cuts) != 0 || st.Chain.Unanchored {
		t.Errorf("a whole ledger reads as cut %+v, unanchored %v", st.Chain.Cuts, st.Chain.Unanchored)
	}
	th.Comments = th.Comments[:len(th.Comments)-1]
	after.Threads = []snapshot.Thread{th}
	if st := state.Derive(after, state.Options{Bot: bot}); len(st.OpenCuts()) != 1 || !st.Touched("f-1") {
		t.Errorf("the regression deleted: cuts %+v", st.Chain.Cuts)
	}
}

// A run that writes no ledger block but sees a finding someone else edited
// records the edit in the head it writes into the bot's latest review, once;
// the next read keeps it when the finding's comment is gone.
func TestLedgerHeadRecordsAnEditedFinding(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	rig := newTestExecutor(rec, &testLog{})
	bot := snapshot.NewActor("github-actions", "Bot")
	bob := snapshot.NewActor("bob", "User")
	snap := rig.Snap
	snap.Viewer = bot
	review := rmcoc.ReviewRun{HeadSHA: headSHA, Mode: rmcoc.ModeAuto, Findings: 1, Blocking: 1, CompletedAt: fixedNow.UTC(), Prev: rmcoc.Genesis(),
		Posted: []rmcoc.PostedFinding{{ID: "f-1", Blocking: true}}}
	finding := rmcoc.Finding{ID: "f-1", Title: "race", Score: 8, Blocking: true, Status: rmcoc.FindingOpen, CreatedAt: fixedNow.UTC()}
	editedAt := fixedNow.Add(time.Hour)
	snap.Reviews = []snapshot.Review{{ID: 201, Author: bot, State: snapshot.ReviewCommented, Body: "Review.\n\n" + rmcoc.Render(review), SubmittedAt: fixedNow}}
	snap.Threads = []snapshot.Thread{{ID: "T1", Path: "a.go", Line: 3, Comments: []snapshot.ReviewComment{
		{Comment: snapshot.Comment{ID: 301, Author: bot, Editor: &bob, EditedAt: editedAt, Body: "not a race\n\n" + rmcoc.Render(finding), CreatedAt: fixedNow}}}}}
	rig.Snap = snap
	rig.State = state.Derive(snap, state.Options{Bot: bot})
	r := rig.run()
	r.anchorLedger(context.Background())
	r.anchorLedger(context.Background()) // nothing new: no second write
	if len(rec.calls) != 1 || rec.calls[0].Op != "edit-review" || rec.calls[0].ID != 201 {
		t.Fatalf("calls %+v: want one edit of review 201", rec.calls)
	}
	heads := rmcoc.TrustedAll[rmcoc.LedgerHead](rec.calls[0].Body)
	if len(heads) != 1 || len(heads[0].Edited) != 1 || heads[0].Edited[0].FindingID != "f-1" || !heads[0].Edited[0].At.Equal(editedAt) {
		t.Fatalf("the head %+v, want the edit of f-1 at %v", heads, editedAt)
	}
	snap.Reviews[0].Body, snap.Threads = rec.calls[0].Body, nil
	if c := state.Derive(snap, state.Options{Bot: bot}).Chain; len(c.Edited()) != 1 || c.Unanchored {
		t.Errorf("read again with the comment gone: edits %+v, unanchored %v; want the recorded edit, nothing to write", c.Edited(), c.Unanchored)
	}
}
