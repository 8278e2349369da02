package e2e

import (
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/github/fakegithub"
)

// findingsPosted counts the bot's review comments on the PR by title.
func (w *world) findingsPosted(title string) int {
	n := 0
	for _, c := range w.gh.ReviewComments(repoName, w.pr) {
		if c.Author == botLogin && strings.Contains(c.Body, title) {
			n++
		}
	}
	return n
}

// Two runs on one snapshot without concurrency:: a comment's run reads the
// gate's status and is held at its write of "not reviewed yet" while the
// push's run reviews the head and writes its verdict. GitHub has no
// compare-and-set on statuses, so the held write lands over that verdict;
// the comment's run then lists the statuses written since its read, sees
// the review run's, derives the gate again from a fresh read and writes the
// review's verdict back: never a stale pending over a finished review.
func TestOverlappingRunsStatusWriteRace(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		bug        bool
		state      string
		desc       string
		reviewExit int
	}{
		"the review finished blocking": {bug: true, state: "failure", desc: "1 open blocking", reviewExit: 1},
		"the review finished clean":    {state: "success", desc: "1111111 reviewed"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			w.scriptAnswers()
			patch := patchClean
			if tc.bug {
				patch = patchV1
				w.scriptReview(true, bug(5, "Unsynchronized map write", 9))
			} else {
				w.scriptReview(true)
			}
			w.push("1111111111111111111111111111111111111111", patchV1)
			w.push("1111111111111111111111111111111111111111", patch)
			// A status an earlier run left, which the comment's run, judging
			// the head not reviewed yet, writes over.
			w.gh.AddStatus(repoName, "1111111111111111111111111111111111111111", botLogin,
				fakegithub.Status{Context: "rmc/merge-gate", State: "failure", Description: "an earlier run's verdict"})
			c := w.gh.AddIssueComment(repoName, w.pr, "alice", "thanks")
			inHook, release := w.holdWrite(t, 1)
			done := make(chan run, 1)
			cn, cp := w.commentEvent(c.ID, "alice", c.Body)
			go func() { done <- w.runWith([]string{"GITHUB_RUN_ID=7201"}, cn, cp) }()
			select {
			case <-inHook: // the comment's run read the status and is about to write pending
			case a := <-done:
				t.Fatalf("the comment's run wrote nothing (exit %d): the race was not run\n%s", a.code, a.log)
			}
			sn, sp := w.prEvent("synchronize")
			if r := w.runWith([]string{"GITHUB_RUN_ID=7202"}, sn, sp); r.code != tc.reviewExit {
				t.Fatalf("review run: exit %d\n%s", r.code, r.log)
			}
			wantGate(t, w, tc.state, tc.desc)
			release()
			a := <-done
			w.gh.OnWrite(nil)
			if a.code != 0 {
				t.Fatalf("comment run: exit %d\n%s", a.code, a.log)
			}
			wantGate(t, w, tc.state, tc.desc)
			if !strings.Contains(w.statusLog(), "pending") {
				t.Fatalf("the comment run's pending never landed: the race was not run\n%s", w.statusLog())
			}
			if n := len(w.reviews()); n != 1 {
				t.Errorf("%d reviews, want 1", n)
			}
		})
	}
}

// statusLog is the gate's statuses on the head, oldest first.
func (w *world) statusLog() string {
	pr, _ := w.gh.PR(repoName, w.pr)
	var out []string
	for _, s := range w.gh.Statuses(repoName, pr.HeadSHA) {
		if s.Context == "rmc/merge-gate" {
			out = append(out, s.State+": "+s.Description)
		}
	}
	return strings.Join(out, "\n")
}

// A push's run held at its claim while a comment's run, started later,
// reviews the head: when the push's run goes on, the head is reviewed
// already. Before it posts, it reads the reviews since its snapshot, finds
// the other run's review of the same head and stands down: every finding
// is posted once, and the gate is that review's.
func TestOverlappingRunsPostAFindingOnce(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.scriptAnswers()
	w.scriptReview(true)
	w.push("1111111111111111111111111111111111111111", patchClean)
	if r := w.run(w.prEvent("opened")); r.code != 0 {
		t.Fatalf("first review: exit %d\n%s", r.code, r.log)
	}
	w.passOne = []finding{bug(5, "Unsynchronized map write", 9)}
	w.push("2222222222222222222222222222222222222222", patchV1)
	inHook, release := w.holdWrite(t, 1)
	done := make(chan run, 1)
	sn, sp := w.prEvent("synchronize")
	go func() { done <- w.runWith([]string{"GITHUB_RUN_ID=7301"}, sn, sp) }()
	select {
	case <-inHook: // the push's run read the PR and is about to write its claim
	case a := <-done:
		t.Fatalf("the push's run wrote nothing (exit %d)\n%s", a.code, a.log)
	}
	c := w.gh.AddIssueComment(repoName, w.pr, "alice", "thanks")
	cn, cp := w.commentEvent(c.ID, "alice", c.Body)
	b := w.runWith([]string{"GITHUB_RUN_ID=7302"}, cn, cp)
	if len(w.reviews()) != 2 || b.code != 1 {
		t.Fatalf("the comment's run (exit %d) did not review the head:\n%s", b.code, b.log)
	}
	release()
	a := <-done
	w.gh.OnWrite(nil)
	// The review is the comment's run's: its job mirrors the gate (exit 1),
	// as a run that leaves the review to another run does not.
	if a.code != 0 || !strings.Contains(a.summary, "posted by another run while this one reviewed it") {
		t.Fatalf("the push's run: exit %d, summary:\n%s\n%s", a.code, a.summary, a.log)
	}
	if n := len(w.reviews()); n != 2 {
		t.Errorf("%d reviews, want 2 (one of each head)", n)
	}
	if n := w.findingsPosted("Unsynchronized map write"); n != 1 {
		t.Errorf("the finding was posted %d times, want once", n)
	}
	wantGate(t, w, "failure", "1 open blocking")
}
