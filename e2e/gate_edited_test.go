package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/rmcoc"
)

// A maintainer closes a blocking finding; then someone with write access
// (here the PR's author) edits the finding's comment to describe other
// code. The old decision judged the old text: it no longer counts, and the
// gate holds, naming the finding, with no reply posted, until a
// maintainer's resolve given after the edit waives the finding.
func TestDecisionBeforeAnEditOfTheFindingDoesNotCount(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		decide func(w *world, thread string)
		why    string // after "finding in comment N edited"
	}{
		"a resolve command": {decide: func(w *world, _ string) { resolveAsBob(w) }, why: " after @bob's resolve"},
		"a resolved thread": {decide: func(w *world, thread string) {
			w.gh.ResolveThreadAs(thread, "bob", true)
			if r := w.run(w.prEvent("synchronize")); r.code != 0 {
				w.t.Fatalf("run after the resolution: exit %d\n%s", r.code, r.log)
			}
		}, why: "; resolution undated"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			w.gh.SetPermission(repoName, "alice", "write")
			th := reviewed(t, w, true)
			tc.decide(w, th.ID)
			wantGate(t, w, "success", "reviewed: no open blocking findings")

			root := w.thread(th.ID).Comments[0]
			edited := strings.Replace(root.Body, "Unsynchronized map write", "Unused import in util.go", 1)
			if edited == root.Body {
				t.Fatalf("the finding's text did not change:\n%s", root.Body)
			}
			w.gh.EditComment(root.ID, "alice", edited)
			replies, writes := len(w.thread(th.ID).Comments), len(w.gh.Writes())
			r := w.run(w.prEvent("synchronize"))
			if r.code != 1 {
				t.Fatalf("after the edit: exit %d, want 1 (the gate pending)\n%s", r.code, r.log)
			}
			wantGate(t, w, "pending", fmt.Sprintf("finding in comment %d edited%s", root.ID, tc.why))
			if !strings.Contains(r.log, fmt.Sprintf("comment %d edited", root.ID)) {
				t.Errorf("the log does not name the finding:\n%s", r.log)
			}
			if got := w.thread(th.ID); len(got.Comments) != replies {
				t.Errorf("the run replied in the edited finding's thread: %d comments, want %d\n%s\n%s", len(got.Comments), replies, got.Comments[len(got.Comments)-1].Body, r.log)
			}
			// The edit recorded in the bot's latest review's ledger head,
			// and the gate's status: nothing else.
			if got := w.gh.Writes()[writes:]; len(got) != 2 || !strings.Contains(got[0], ":review:edit:") || !strings.HasSuffix(got[1], ":status:rmc/merge-gate:pending") {
				t.Errorf("the run wrote %v, want the ledger head and the gate's pending status", got)
			}
			writes = len(w.gh.Writes())
			w.run(w.prEvent("synchronize"))
			if got := w.gh.Writes()[writes:]; len(got) != 0 {
				t.Errorf("a second run wrote %v, want nothing (the edit is recorded)", got)
			}

			// The author's resolve does not count; a maintainer's after the
			// edit does.
			cmd := w.gh.AddIssueComment(repoName, w.pr, "alice", "@rmc-bot resolve")
			w.run(w.commentEvent(cmd.ID, "alice", "@rmc-bot resolve"))
			wantGate(t, w, "pending", fmt.Sprintf("finding in comment %d edited", root.ID))
			answer := resolveAsBob(w)
			if !strings.Contains(answer, "resolved 1 open finding") {
				t.Errorf("the answer to the resolve after the edit:\n%s", answer)
			}
			wantGate(t, w, "success", "reviewed: no open blocking findings")
		})
	}
}

// resolveAsBob has bob, a maintainer, comment "@rmc-bot resolve", runs the
// job for it and returns the bot's answer.
func resolveAsBob(w *world) string {
	w.t.Helper()
	cmd := w.gh.AddIssueComment(repoName, w.pr, "bob", "@rmc-bot resolve")
	if r := w.run(w.commentEvent(cmd.ID, "bob", "@rmc-bot resolve")); r.code != 0 {
		w.t.Fatalf("bob's resolve: exit %d\n%s", r.code, r.log)
	}
	bot := w.botComments()
	if len(bot) == 0 {
		w.t.Fatal("the bot did not answer bob's resolve")
	}
	return bot[len(bot)-1].Body
}

// Someone edits a finding after a maintainer resolved it, then deletes the
// edited comment. The edit goes with the comment, but the run that saw it
// recorded it in its latest review's ledger head: the resolve, given before
// the edit, still does not count, and the deleted finding blocks until a
// maintainer waives it. Without the record, the deletion turned the gate
// green.
func TestEditedFindingDeletedAfterAResolveStillBlocks(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.gh.SetPermission(repoName, "alice", "write")
	th := reviewed(t, w, true)
	resolveAsBob(w)
	wantGate(t, w, "success", "reviewed: no open blocking findings")
	root := w.thread(th.ID).Comments[0]
	w.gh.EditComment(root.ID, "alice", strings.Replace(root.Body, "Unsynchronized map write", "Unused import in util.go", 1))
	w.run(w.prEvent("synchronize"))
	wantGate(t, w, "pending", fmt.Sprintf("finding in comment %d edited after @bob's resolve", root.ID))

	w.gh.DeleteReviewComment(root.ID)
	if r := w.run(w.prEvent("synchronize")); r.code != 1 {
		t.Fatalf("after the deletion: exit %d, want 1\n%s", r.code, r.log)
	}
	wantGate(t, w, "failure", "deleted thread")
	id := rmcoc.All[rmcoc.Finding](root.Body)[0].ID
	cmd := w.gh.AddIssueComment(repoName, w.pr, "bob", "@rmc-bot waive "+id)
	w.run(w.commentEvent(cmd.ID, "bob", "@rmc-bot waive "+id))
	wantGate(t, w, "success", "reviewed: no open blocking findings")
}
