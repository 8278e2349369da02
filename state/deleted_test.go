package state

import (
	"strings"
	"testing"
	"time"

	"github.com/review-my-code-bot/rmc/snapshot"
)

// A thread whose finding comment was deleted starts with a reply: nothing
// trustworthy is left to judge, so it is skipped with a notice, and the
// reply left in it is neither a dispute nor a question.
func TestThreadWithDeletedFindingIsSkipped(t *testing.T) {
	t.Parallel()
	alice := snapshot.NewActor("alice", "User")
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	snap := snapshot.Snapshot{PR: snapshot.PullRequest{Author: alice}, Threads: []snapshot.Thread{{ID: "PRRT_9", Path: "a.go", Line: 3,
		Comments: []snapshot.ReviewComment{{Comment: snapshot.Comment{ID: 12, Author: alice, Association: "OWNER", Body: "@rmc-bot this is wrong", CreatedAt: at}, ReplyToID: 11}}}}}
	st := Derive(snap, Options{Bot: snapshot.NewActor("github-actions[bot]", ""), Handles: []string{"@rmc-bot"}})
	if len(st.Findings) != 0 || len(st.Mentions) != 0 {
		t.Errorf("findings %v, mentions %v: want the thread skipped", st.Findings, st.Mentions)
	}
	if len(st.Notices) != 1 || !strings.Contains(st.Notices[0], "first comment was deleted") {
		t.Errorf("notices = %v", st.Notices)
	}
}
