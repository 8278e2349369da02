package github

import (
	"context"
	"testing"
	"time"

	"github.com/review-my-code-bot/rmc/github/fakegithub"
	"github.com/review-my-code-bot/rmc/snapshot"
)

// The snapshot reads when each comment was last edited (lastEditedAt), in
// the requests it makes anyway: a thread's first page, the batch that
// completes a long thread, and the conversation. A comment never edited
// has none, as GitHub sends null.
func TestSnapshotReadsWhenACommentWasEdited(t *testing.T) {
	t.Parallel()
	f := fakegithub.New()
	t.Cleanup(f.Close)
	f.AddToken(token, fakegithub.Identity{Login: "github-actions[bot]", Kind: fakegithub.TokenInstallation})
	f.AddUser("alice", false)
	f.AddUser("bob", false)
	f.AddRepo("o/r")
	pr := f.AddPR("o/r", fakegithub.PR{Author: "alice", Title: "t"})
	f.SetFiles("o/r", pr.Number, []fakegithub.File{{Path: "a.go", Status: "modified", Patch: "@@ -1 +1,2 @@\n x\n+y"}})
	_, short := f.AddThread("o/r", pr.Number, fakegithub.ThreadSpec{Path: "a.go", Line: 2, Author: "alice", Body: "short thread"})
	_, long := f.AddThread("o/r", pr.Number, fakegithub.ThreadSpec{Path: "a.go", Line: 1, Author: "alice", Body: "long thread"})
	var deep int64
	for i := range 25 { // past the 20 comments a thread's first page holds
		r := f.AddReply("o/r", pr.Number, long, "alice", "reply")
		if i == 22 {
			deep = r
		}
	}
	f.AddIssueComment("o/r", pr.Number, "alice", "kept")
	changed := f.AddIssueComment("o/r", pr.Number, "alice", "before")
	edited := map[int64]bool{short: true, deep: true, changed.ID: true}
	f.EditComment(short, "bob", "short thread, edited")
	f.EditComment(deep, "bob", "reply, edited")
	f.EditComment(changed.ID, "alice", "after")

	snap, err := client(t, f, nil).Snapshot(context.Background(), snapshot.Repo{Owner: "o", Name: "r"}, pr.Number)
	if err != nil {
		t.Fatal(err)
	}
	want := map[int64]time.Time{}
	for _, th := range f.Threads("o/r", pr.Number) {
		for _, c := range th.Comments {
			want[c.ID] = c.LastEditedAt
		}
	}
	for _, c := range f.IssueComments("o/r", pr.Number) {
		want[c.ID] = c.LastEditedAt
	}
	var got []snapshot.Comment
	for _, th := range snap.Threads {
		for _, c := range th.Comments {
			got = append(got, c.Comment)
		}
	}
	got = append(got, snap.IssueComments...)
	if len(got) != len(want) || len(got) != 2+25+2 {
		t.Fatalf("read %d comments, the fake holds %d", len(got), len(want))
	}
	for _, c := range got {
		switch {
		case edited[c.ID] && (c.EditedAt.IsZero() || !c.EditedAt.Equal(want[c.ID]) || !c.EditedAt.After(c.CreatedAt)):
			t.Errorf("comment %d %q: edited at %v, want %v, after its creation %v", c.ID, c.Body, c.EditedAt, want[c.ID], c.CreatedAt)
		case !edited[c.ID] && !c.EditedAt.IsZero():
			t.Errorf("comment %d %q was never edited, but reads edited at %v", c.ID, c.Body, c.EditedAt)
		}
	}
}
