package github

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/review-my-code-bot/rmc/github/fakegithub"
	"github.com/review-my-code-bot/rmc/snapshot"
)

func commitWorld(t *testing.T) (*fakegithub.Server, *fakegithub.PR, snapshot.Repo) {
	t.Helper()
	f := fakegithub.New()
	t.Cleanup(f.Close)
	f.AddToken(token, fakegithub.Identity{Login: "github-actions[bot]", Kind: fakegithub.TokenInstallation})
	pr := f.AddPR("o/r", fakegithub.PR{Author: "alice", Title: "t"})
	return f, pr, snapshot.Repo{Owner: "o", Name: "r"}
}

func oids(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s%039d", prefix, i)
	}
	return out
}

// The snapshot carries the PR's commits, oldest first, the newest
// snapshot.MaxCommits of a longer history with its total, read along the
// first pages; after a force-push they are the new history.
func TestSnapshotReadsCommits(t *testing.T) {
	t.Parallel()
	f, pr, repo := commitWorld(t)
	ctx := context.Background()
	f.Push("o/r", pr.Number, "c1", "c2")
	snap, err := client(t, f, nil).Snapshot(ctx, repo, pr.Number)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{pr.HeadSHA, "c1", "c2"}; !slices.Equal(snap.PR.Commits, want) || snap.PR.CommitsTotal != 3 || snap.PR.HeadSHA != "c2" {
		t.Errorf("commits %v (total %d, head %s), want %v", snap.PR.Commits, snap.PR.CommitsTotal, snap.PR.HeadSHA, want)
	}
	for _, tc := range []struct{ n, reads int }{{100, 1}, {101, 2}, {250, 3}, {260, 3}} {
		history := oids("f", tc.n)
		f.ForcePush("o/r", pr.Number, history...)
		c := client(t, f, nil)
		snap, err := c.Snapshot(ctx, repo, pr.Number)
		if err != nil {
			t.Fatal(err)
		}
		want := history[max(0, tc.n-snapshot.MaxCommits):]
		if !slices.Equal(snap.PR.Commits, want) || snap.PR.CommitsTotal != tc.n || snap.PR.HeadSHA != history[tc.n-1] {
			t.Errorf("%d commits: read %d from %s (total %d), want the newest %d", tc.n, len(snap.PR.Commits), snap.PR.Commits[0], snap.PR.CommitsTotal, len(want))
		}
		if slices.Contains(snap.PR.Commits, "c1") {
			t.Errorf("%d commits: a commit the force-push dropped is still listed", tc.n)
		}
		if reads := int(c.Counts().Reads); reads != tc.reads {
			t.Errorf("%d commits: %d read requests, want %d", tc.n, reads, tc.reads)
		}
	}
	if errs := f.GraphQLErrors(); len(errs) > 0 {
		t.Errorf("the fake rejected documents: %v", errs)
	}
}

// The re-read after a run reads the commits again (a push during the run
// shows), keeps the start's files at the base while the base is the same,
// drops the head statuses the run may have changed, and reads the reviews
// posted since also when the start held none.
func TestSnapshotSinceKeepsTheBaseFiles(t *testing.T) {
	t.Parallel()
	f, pr, repo := commitWorld(t)
	ctx := context.Background()
	f.SetContents("o/r", pr.BaseSHA, ".gitattributes", "gen/** linguist-generated\n")
	f.SetContents("o/r", pr.BaseSHA, ".github/rmc.yml", "language: french\n")
	c := client(t, f, nil)
	if err := c.SetStatus(ctx, repo, pr.HeadSHA, snapshot.Status{Context: "ci", State: "success"}); err != nil {
		t.Fatal(err)
	}
	start, err := c.SnapshotWithConfig(ctx, repo, pr.Number, pr.BaseSHA, pr.HeadSHA)
	if err != nil {
		t.Fatal(err)
	}
	if start.Config.Attributes != "gen/** linguist-generated\n" || len(start.Config.HeadStatuses) != 1 || len(start.Reviews) != 0 {
		t.Fatalf("start: config %+v, %d reviews", start.Config, len(start.Reviews))
	}
	for i := range 150 {
		f.AddReview("o/r", pr.Number, "alice", "COMMENTED", fmt.Sprint("review ", i))
	}
	f.Push("o/r", pr.Number, "d1")
	after, err := c.SnapshotSince(ctx, start)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{pr.HeadSHA, "d1"}; !slices.Equal(after.PR.Commits, want) || after.PR.CommitsTotal != 2 {
		t.Errorf("re-read commits %v (total %d), want %v", after.PR.Commits, after.PR.CommitsTotal, want)
	}
	if !after.Config.Read || after.Config.Attributes != start.Config.Attributes || after.Config.Text != start.Config.Text || after.Config.HeadStatuses != nil {
		t.Errorf("re-read config %+v, want the start's without head statuses", after.Config)
	}
	if len(after.Reviews) != 150 {
		t.Errorf("re-read %d reviews, want 150", len(after.Reviews))
	}
	f.UpdatePR("o/r", pr.Number, func(p *fakegithub.PR) { p.BaseSHA = "e1" })
	if after, err = c.SnapshotSince(ctx, start); err != nil {
		t.Fatal(err)
	}
	if after.Config.Read || after.Config.Attributes != "" {
		t.Errorf("the base moved, yet the re-read kept the old base's files: %+v", after.Config)
	}
}
