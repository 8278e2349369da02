package e2e

import (
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// Two runs on one PR at once (a workflow without concurrency:), both
// having read the PR before either claimed the question: the 👀 claim
// lets exactly one answer, and the other leaves it alone.
func TestOverlappingRunsAnswerAQuestionOnce(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.scriptAnswers()
	q := w.gh.AddIssueComment(repoName, w.pr, "alice", "@rmc-bot why a global map?")
	inHook, release := w.holdWrite(t, 1)
	done := make(chan run, 1)
	name, payload := w.commentEvent(q.ID, "alice", q.Body)
	go func() { done <- w.runWith([]string{"GITHUB_RUN_ID=7001"}, name, payload) }()
	<-inHook                                                      // run A has read the PR
	b := w.runWith([]string{"GITHUB_RUN_ID=7002"}, name, payload) // run B, from start to end
	release()
	a := <-done
	w.gh.OnWrite(nil)
	if a.code != 0 || b.code != 0 {
		t.Fatalf("exit A %d, B %d\nA:\n%s\nB:\n%s", a.code, b.code, a.log, b.log)
	}
	if n := answersTo(t, w, "why a global map?"); n != 1 {
		t.Fatalf("%d answers, want exactly one", n)
	}
	asked := 0
	for _, r := range w.llm.RequestsContaining("why a global map?") {
		if strings.Contains(r.LastUser(), "# Task: answer a question") {
			asked++
		}
	}
	if asked != 1 {
		t.Errorf("the model was asked to answer %d times, want once", asked)
	}
	if !strings.Contains(a.summary, "another run claimed it") {
		t.Errorf("run A's summary does not say it left the question to the other run:\n%s", a.summary)
	}
}

// Two runs at once, one reviewing a new head whose finding blocks, the
// other answering a question from a read of the PR before that push: the
// older run, finishing last, leaves the review's failure on the head. (A
// stale run about to write success over another run's status is the unit
// test TestPublishNeverWritesAStaleSuccess: it needs a read timed between
// two writes, which this end-to-end setup cannot place.)
func TestOverlappingRunsLeaveTheReviewsFailure(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.scriptAnswers()
	q := w.gh.AddIssueComment(repoName, w.pr, "alice", "@rmc-bot is the map safe?")
	inHook, release := w.holdWrite(t, 1)
	done := make(chan run, 1)
	name, payload := w.commentEvent(q.ID, "alice", q.Body)
	go func() { done <- w.runWith([]string{"GITHUB_RUN_ID=7003"}, name, payload) }()
	<-inHook
	w.scriptReview(true, bug(5, "Unsynchronized map write", 9))
	w.push("1111111111111111111111111111111111111111", patchV1)
	// The question run read the PR before this push; let the review run
	// on the new head while the question run waits.
	if r := w.run(w.prEvent("synchronize")); r.code != 1 {
		t.Fatalf("review run: exit %d\n%s", r.code, r.log)
	}
	wantGate(t, w, "failure", "1 open blocking")
	release()
	if a := <-done; a.code != 0 {
		t.Fatalf("question run: exit %d\n%s", a.code, a.log)
	}
	w.gh.OnWrite(nil)
	wantGate(t, w, "failure", "1 open blocking")
}

// cancel-in-progress: the cancelled run (SIGTERM) leaves its placeholder
// and its claim; the next run, a new workflow run, asks the Actions API,
// learns the first one is finished, and answers at once in its place. While
// the first run is still at work, the next one leaves the question to it.
func TestCancelledRunsClaimIsTakenOver(t *testing.T) {
	t.Parallel()
	for _, status := range []string{"completed", "in_progress"} {
		t.Run(status, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			asked, _ := w.slowAnswer(t)
			w.scriptAnswers()
			q := w.gh.AddIssueComment(repoName, w.pr, "alice", "@rmc-bot why a global map?")
			w.termOn = asked
			name, payload := w.commentEvent(q.ID, "alice", q.Body)
			if r := w.runWith([]string{"GITHUB_RUN_ID=8001"}, name, payload); r.sinceTERM == 0 {
				t.Fatalf("the first run was not stopped while the model thought (exit %d)\n%s", r.code, r.log)
			}
			w.termOn = nil
			w.gh.SetRun(repoName, 8001, status)
			r := w.runWith([]string{"GITHUB_RUN_ID=8002"}, name, payload)
			if r.code != 0 {
				t.Fatalf("next run: exit %d\n%s", r.code, r.log)
			}
			bot := w.botComments()
			answered := len(bot) == 1 && strings.Contains(bot[0].Body, "ANSWER: why a global map?")
			if answered != (status == "completed") || len(bot) != 1 {
				t.Errorf("run 8001 %s: answered %v, %d bot comments:\n%+v", status, answered, len(bot), bot)
			}
		})
	}
}

// A comment while a push's review is still running (no concurrency:): the
// comment's run answers the comment and leaves the review to the run at
// work on it, so the head is reviewed once; once that run is finished (it
// was cancelled), the next run reviews the head.
func TestOverlappingRunsReviewAHeadOnce(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.scriptReview(true)
	w.scriptAnswers()
	w.push("1111111111111111111111111111111111111111", patchClean)
	// The push's run (9001) records the trigger, then is held before it
	// posts anything else.
	inHook, release := w.holdWrite(t, 2)
	done := make(chan run, 1)
	name, payload := w.prEvent("opened")
	go func() { done <- w.runWith([]string{"GITHUB_RUN_ID=9001"}, name, payload) }()
	<-inHook
	w.gh.SetRun(repoName, 9001, "in_progress")
	q := w.gh.AddIssueComment(repoName, w.pr, "alice", "@rmc-bot why a global map?")
	qn, qp := w.commentEvent(q.ID, "alice", q.Body)
	b := w.runWith([]string{"GITHUB_RUN_ID=9002"}, qn, qp)
	if b.code != 0 || !strings.Contains(b.summary, "workflow run 9001 is reviewing 1111111") {
		t.Fatalf("the comment's run: exit %d, summary:\n%s\n%s", b.code, b.summary, b.log)
	}
	if n := len(w.reviews()); n != 0 {
		t.Fatalf("the comment's run posted %d review(s) while 9001 was at work", n)
	}
	release()
	a := <-done
	w.gh.OnWrite(nil)
	if a.code != 0 || len(w.reviews()) != 1 {
		t.Fatalf("the push's run: exit %d, %d reviews\n%s", a.code, len(w.reviews()), a.log)
	}
	wantGate(t, w, "success", "1111111 reviewed")
}

// holdWrite holds the k-th write to the fake GitHub until release is
// called (or the test ends): inHook is closed when it arrives, so a test
// can run another run while the first waits at a known point.
func (w *world) holdWrite(t *testing.T, k int32) (inHook <-chan struct{}, release func()) {
	arrived, hold := make(chan struct{}), make(chan struct{})
	release = sync.OnceFunc(func() { close(hold) })
	t.Cleanup(release) // a failing test must not leave a run held
	var n atomic.Int32
	w.gh.OnWrite(func(int) bool {
		if n.Add(1) == k {
			close(arrived)
			<-hold
		}
		return true
	})
	return arrived, release
}
