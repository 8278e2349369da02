package github

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/snapshot"
)

// The snapshot carries the issues the PR closes, read with its first page:
// at most snapshot.MaxClosingIssues of them, each body cut to
// snapshot.MaxIssueBody; an issue of another repository says which.
func TestSnapshotReadsClosingIssues(t *testing.T) {
	t.Parallel()
	f, pr, repo := commitWorld(t)
	ctx := context.Background()
	var refs []string
	for i, title := range []string{"Rate-limit the API", "Document the limits", "Retry after 429", "A fourth"} {
		n := f.AddIssue("o/r", "bob", title)
		if i == 0 {
			f.SetIssueBody("o/r", n, "Clients must get at most 100 req/s. "+strings.Repeat("x", 2*snapshot.MaxIssueBody))
		}
		refs = append(refs, fmt.Sprintf("o/r#%d", n))
	}
	other := f.AddIssue("o/other", "carol", "Upstream bug")
	f.SetIssueState("o/other", other, "closed")
	f.SetClosingIssues("o/r", pr.Number, append([]string{fmt.Sprintf("o/other#%d", other)}, refs...)...)
	for i := range 300 { // a second page of comments: the issues come with the first
		f.AddIssueComment("o/r", pr.Number, "alice", fmt.Sprint("comment ", i))
	}
	c := client(t, f, nil)
	snap, err := c.Snapshot(ctx, repo, pr.Number)
	if err != nil {
		t.Fatal(err)
	}
	got := snap.PR.Closes
	if len(got) != snapshot.MaxClosingIssues || got[0].Repo != "o/other" || !got[0].Closed || got[1].Title != "Rate-limit the API" || got[1].Closed {
		t.Fatalf("closes = %+v", got)
	}
	if n := len([]rune(got[1].Body)); n != snapshot.MaxIssueBody || !strings.HasSuffix(got[1].Body, "…") || !strings.HasPrefix(got[1].Body, "Clients must") {
		t.Errorf("the body is %d runes: %.40q…", n, got[1].Body)
	}
	if !strings.HasSuffix(got[1].URL, "/o/r/issues/"+strings.TrimPrefix(refs[0], "o/r#")) {
		t.Errorf("url = %q", got[1].URL)
	}
	if reads := c.Counts().Reads; reads < 2 {
		t.Errorf("%d reads; the test wants a second page", reads)
	}
	if errs := f.GraphQLErrors(); len(errs) > 0 {
		t.Errorf("the fake rejected documents: %v", errs)
	}
}
