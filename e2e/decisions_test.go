package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/rmcoc"
)

// decisionBlocks counts the bot's dispute-resolution blocks of one
// resolution in the finding threads.
func decisionBlocks(b blocksIn, r rmcoc.Resolution) int {
	n := 0
	for _, d := range b.botBlocks() {
		if d.Resolution == r {
			n++
		}
	}
	return n
}

// blocksIn lists the bot's dispute-resolution blocks in the finding
// threads, oldest first.
type blocksIn struct{ w *world }

func (b blocksIn) botBlocks() []rmcoc.DisputeResolution {
	var out []rmcoc.DisputeResolution
	for _, th := range findingThreads(b.w) {
		for _, c := range th.Comments {
			if c.Author == botLogin {
				out = append(out, rmcoc.All[rmcoc.DisputeResolution](c.Body)...)
			}
		}
	}
	return out
}

// patchV2 is patchV1 with the finding's line rewritten (not fixed: the
// model says so), patchV3 with only another line edited.
var (
	patchV2 = strings.Replace(patchV1, "buckets[k]--", "buckets[k] -= 1", 1)
	patchV3 = strings.Replace(patchV1, "go refill()", "go refill(); go refill()", 1)
)

// A maintainer resolves a blocking finding on code the author changed;
// the author then reverts to the code the finding was raised on: the
// finding reopens as a regression, with one reply and one block, whether
// the review reports it again or not, and a later run says nothing more.
func TestMaintainerResolutionLapsesWhenTheRaisedCodeComesBack(t *testing.T) {
	t.Parallel()
	for name, reported := range map[string]bool{"the review reports it again": true, "the review does not": false} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			th := reviewed(t, w, false) // the model never says fixed
			w.passOne = []finding{}
			w.push("2222222222222222222222222222222222222222", patchV2)
			w.gh.SetThreadOutdated(th.ID, true)
			if r := w.run(w.prEvent("synchronize")); r.code != 1 {
				t.Fatalf("push run: exit %d, want 1 (the finding is not fixed)\n%s", r.code, r.log)
			}
			w.gh.ResolveThreadAs(th.ID, "bob", true) // bob has write access
			if r := w.run(w.commentEvent(w.gh.AddIssueComment(repoName, w.pr, "bob", "resolved, fine as is").ID, "bob", "resolved, fine as is")); r.code != 0 {
				t.Fatalf("resolution run: exit %d\n%s", r.code, r.log)
			}
			wantGate(t, w, "success", "2222222 reviewed")
			b := blocksIn{w}
			if n := decisionBlocks(b, rmcoc.ResolutionAccepted); n != 1 {
				t.Fatalf("%d records of the maintainer's resolution, want 1", n)
			}
			if acc := b.botBlocks()[len(b.botBlocks())-1]; acc.Blob == "" || acc.ResolvedBy != "bob" {
				t.Fatalf("the record binds nothing: %+v", acc)
			}

			if reported {
				w.passOne = []finding{bug(5, "Unsynchronized map write", 8)}
			}
			w.push("3333333333333333333333333333333333333333", patchV1)
			r := w.run(w.prEvent("synchronize"))
			if r.code != 1 {
				t.Fatalf("revert run: exit %d, want 1\n%s", r.code, r.log)
			}
			wantGate(t, w, "failure", "1 open blocking finding")
			threads := findingThreads(w)
			if len(threads) != 1 || threads[0].Resolved {
				t.Fatalf("%d finding threads, want the one, reopened (not a second)", len(threads))
			}
			if n := decisionBlocks(b, rmcoc.ResolutionRegressed); n != 1 {
				t.Fatalf("%d regression blocks, want 1", n)
			}
			last := threads[0].Comments[len(threads[0].Comments)-1].Body
			if !strings.Contains(last, "This problem is back in `3333333`") || !strings.Contains(last, "after a maintainer resolved it on other code") {
				t.Errorf("the reopening reply:\n%s", last)
			}

			before := len(threads[0].Comments)
			if r := w.run(w.commentEvent(w.gh.AddIssueComment(repoName, w.pr, "alice", "hm").ID, "alice", "hm")); r.code != 0 {
				t.Fatalf("second run: exit %d\n%s", r.code, r.log)
			}
			if n := len(findingThreads(w)[0].Comments); n != before {
				t.Errorf("the thread grew from %d to %d comments on a run with nothing new", before, n)
			}
			wantGate(t, w, "failure", "1 open blocking finding")
		})
	}
}

// An author who pauses the reviews before reverting to the code a
// maintainer's resolution was not made on gets no review and no reply,
// but the gate fails from the head's content all the same.
func TestPausedRevertStillFailsTheGate(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	th := reviewed(t, w, false)
	w.passOne = []finding{}
	w.push("2222222222222222222222222222222222222222", patchV2)
	w.gh.SetThreadOutdated(th.ID, true)
	if r := w.run(w.prEvent("synchronize")); r.code != 1 {
		t.Fatalf("push run: exit %d, want 1\n%s", r.code, r.log)
	}
	w.gh.ResolveThreadAs(th.ID, "bob", true)
	pause := w.gh.AddIssueComment(repoName, w.pr, "alice", "@rmc-bot pause")
	if r := w.run(w.commentEvent(pause.ID, "alice", "@rmc-bot pause")); r.code != 0 {
		t.Fatalf("pause run: exit %d\n%s", r.code, r.log)
	}
	wantGate(t, w, "success", "2222222 reviewed")

	reviews := len(w.reviews())
	w.push("3333333333333333333333333333333333333333", patchV1) // reviewed before, at 1111111: covered
	r := w.run(w.prEvent("synchronize"))
	if r.code != 1 || r.outputs["blocking_issues"] != "1" {
		t.Fatalf("revert run: exit %d, blocking_issues %q; want 1 and 1\n%s", r.code, r.outputs["blocking_issues"], r.log)
	}
	wantGate(t, w, "failure", "1 blocking finding(s), 1 back on the code they were raised on")
	if n := len(w.reviews()); n != reviews {
		t.Errorf("a paused PR was reviewed (%d reviews, was %d)", n, reviews)
	}
}

// A maintainer's resolve applies to what was open when it was given: a
// fixed finding that reopens later (the head force-pushed back before the
// fix) is not waived by the old command, and blocks.
func TestOldResolveDoesNotWaiveAFindingThatReopensLater(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	fixedOnASecondHead(t, w)
	cmd := w.gh.AddIssueComment(repoName, w.pr, "bob", "@rmc-bot resolve")
	if r := w.run(w.commentEvent(cmd.ID, "bob", "@rmc-bot resolve")); r.code != 0 {
		t.Fatalf("resolve run: exit %d\n%s", r.code, r.log)
	}
	var answer map[string]any
	for _, c := range w.botComments() {
		if strings.Contains(c.Body, `"type": "command-answer"`) {
			answer = blockOf(t, c.Body)
		}
	}
	if answer == nil || answer["finding_ids"] != nil {
		t.Fatalf("the resolve answer %v, want one applying to no finding", answer)
	}

	w.gh.ForcePush(repoName, w.pr, "1111111111111111111111111111111111111111")
	w.push("1111111111111111111111111111111111111111", patchV1)
	w.passOne = []finding{bug(5, "Unsynchronized map write", 8)}
	r := w.run(w.prEvent("synchronize"))
	if r.code != 1 {
		t.Fatalf("force-push run: exit %d, want 1 (the old resolve does not waive the reopened finding)\n%s", r.code, r.log)
	}
	wantGate(t, w, "failure", "1 open blocking finding")
	if th := findingThreads(w); len(th) != 1 || th[0].Resolved {
		t.Fatalf("%d finding threads, want the one, open", len(th))
	}
}

// A concession judged the lines the finding sits on: raised again on the
// same lines after an edit elsewhere in the file, it is not asked again;
// raised on rewritten lines, it is a new finding, posted.
func TestConcessionHoldsOnItsLinesOnly(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.scriptDisputes()
	th := reviewed(t, w, false)
	reply := w.gh.AddReply(repoName, w.pr, th.Comments[0].ID, "alice", "mu guards it, see line 40")
	if r := w.run(w.reviewCommentEvent(reply, th.Comments[0].ID, "alice", "")); r.code != 0 {
		t.Fatalf("dispute run: exit %d\n%s", r.code, r.log)
	}
	wantGate(t, w, "success", "1111111 reviewed")

	// Another line edited; the model says the same on the same lines.
	w.push("2222222222222222222222222222222222222222", patchV3)
	if r := w.run(w.prEvent("synchronize")); r.code != 0 {
		t.Fatalf("edit-elsewhere run: exit %d, want 0 (the concession holds)\n%s", r.code, r.log)
	}
	if n := len(findingThreads(w)); n != 1 {
		t.Fatalf("%d finding threads after an edit elsewhere, want the conceded one only", n)
	}
	wantGate(t, w, "success", "2222222 reviewed")

	// The finding's own line rewritten; the model says the same again.
	w.push("3333333333333333333333333333333333333333", patchV2)
	r := w.run(w.prEvent("synchronize"))
	if r.code != 1 {
		t.Fatalf("rewrite run: exit %d, want 1 (posted, blocking)\n%s", r.code, r.log)
	}
	wantGate(t, w, "failure", "1 open blocking finding")
	if n := len(findingThreads(w)); n != 2 {
		t.Fatalf("%d finding threads, want the conceded one and the new one", n)
	}
}

// A fix verified on a commit the PR's commit list no longer reaches
// (GitHub lists the newest 250) cannot be checked: the gate is pending
// and says why, until a maintainer's resolve takes the finding.
func TestFixPastTheCommitListIsNotGreen(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	fixedOnASecondHead(t, w)
	var oids []string
	for i := range 260 {
		oids = append(oids, fmt.Sprintf("c0ffee%034x", i))
	}
	w.gh.Push(repoName, w.pr, oids...)
	head := oids[len(oids)-1]
	w.push(head, patchClean) // the same content as the fixed head: its review covers it
	// The run reviews the new head (nothing new to read) and its job
	// mirrors the pending gate.
	r := w.run(w.commentEvent(w.gh.AddIssueComment(repoName, w.pr, "alice", "more commits").ID, "alice", "more commits"))
	if r.code != 1 || !strings.Contains(r.log, "merge gate pending") {
		t.Fatalf("exit %d, want 1 (pending)\n%s", r.code, r.log)
	}
	wantGate(t, w, "pending", "1 closed blocking finding(s) cannot be checked (fix verified on 2222222, past the PR's commits GitHub lists)")

	cmd := w.gh.AddIssueComment(repoName, w.pr, "bob", "@rmc-bot resolve")
	if r := w.run(w.commentEvent(cmd.ID, "bob", "@rmc-bot resolve")); r.code != 0 {
		t.Fatalf("resolve run: exit %d\n%s", r.code, r.log)
	}
	wantGate(t, w, "success", head[:7]+" reviewed")
}

// A waive applies to what was gone when it was given: a maintainer's
// waive of a finding whose thread was still there is answered "nothing to
// waive", and does not apply when the thread is deleted later.
func TestOldWaiveDoesNotApplyToALaterDeletion(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	th := reviewed(t, w, false)
	id := blockOf(t, w.reviews()[0].Body)["posted"].([]any)[0].(map[string]any)["id"].(string)
	cmd := w.gh.AddIssueComment(repoName, w.pr, "bob", "@rmc-bot waive "+id)
	if r := w.run(w.commentEvent(cmd.ID, "bob", "@rmc-bot waive "+id)); r.code != 0 {
		t.Fatalf("waive run: exit %d\n%s", r.code, r.log)
	}
	wantGate(t, w, "failure", "1 open blocking finding")

	w.gh.DeleteReviewComment(th.Comments[0].ID)
	if r := w.run(w.commentEvent(w.gh.AddIssueComment(repoName, w.pr, "alice", "gone").ID, "alice", "gone")); r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.log)
	}
	wantGate(t, w, "failure", "1 with a deleted thread")
	var answers []string
	for _, c := range w.botComments() {
		if strings.Contains(c.Body, `"type": "finding-waiver"`) {
			answers = append(answers, blockOf(t, c.Body)["result"].(string))
		}
	}
	if strings.Join(answers, ",") != "unknown-id" {
		t.Errorf("waiver answers %v, want the one saying there was nothing to waive", answers)
	}
}

// A maintainer's resolve outlives the thread of a finding it waived: once
// the finding's comment is deleted, the bot's answer to the command still
// names it, so the gate stays green and no "deleted thread" is reported;
// a full review of the same code does not post it again.
func TestResolveHoldsWhenTheThreadIsDeletedLater(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	th := reviewed(t, w, false)
	cmd := w.gh.AddIssueComment(repoName, w.pr, "bob", "@rmc-bot resolve")
	if r := w.run(w.commentEvent(cmd.ID, "bob", "@rmc-bot resolve")); r.code != 0 {
		t.Fatalf("resolve run: exit %d\n%s", r.code, r.log)
	}
	wantGate(t, w, "success", "1111111 reviewed")

	w.gh.DeleteReviewComment(th.Comments[0].ID)
	r := w.run(w.commentEvent(w.gh.AddIssueComment(repoName, w.pr, "alice", "gone").ID, "alice", "gone"))
	if r.code != 0 || strings.Contains(r.summary, "deleted thread") {
		t.Fatalf("after the deletion: exit %d\n%s\n%s", r.code, r.summary, r.log)
	}
	wantGate(t, w, "success", "1111111 reviewed")

	full := w.gh.AddIssueComment(repoName, w.pr, "bob", "@rmc-bot full review")
	if r := w.run(w.commentEvent(full.ID, "bob", "@rmc-bot full review")); r.code != 0 {
		t.Fatalf("full review: exit %d\n%s", r.code, r.log)
	}
	if n := w.findingsPosted("Unsynchronized map write"); n != 0 {
		t.Errorf("the waived finding was posted again %d time(s)", n)
	}
	wantGate(t, w, "success", "1111111 reviewed")
}
