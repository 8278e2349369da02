package github_test

import (
	"context"
	"testing"
	"time"

	"github.com/review-my-code-bot/rmc/github"
	"github.com/review-my-code-bot/rmc/github/fakegithub"
	"github.com/review-my-code-bot/rmc/snapshot"
)

// Writes past the burst are spaced by the interval; reads are not paced.
func TestWritesArePaced(t *testing.T) {
	t.Parallel()
	f := fakegithub.New()
	defer f.Close()
	f.AddToken("tok", fakegithub.Identity{Login: "github-actions[bot]", Kind: fakegithub.TokenInstallation})
	pr := f.AddPR("o/r", fakegithub.PR{})
	c, err := github.New(github.Options{Token: "tok", APIURL: f.URL, GraphQLURL: f.GraphQLURL(), WriteInterval: 100 * time.Millisecond, WriteBurst: 2})
	if err != nil {
		t.Fatal(err)
	}
	repo := snapshot.Repo{Owner: "o", Name: "r"}
	start := time.Now()
	for range 5 {
		if _, err := c.Files(context.Background(), repo, pr.Number); err != nil {
			t.Fatal(err)
		}
	}
	// Paced like writes, 5 reads would take at least 300ms; the bound
	// leaves room for a loaded machine.
	if d := time.Since(start); d >= 250*time.Millisecond {
		t.Errorf("5 reads took %s: reads must not be paced", d)
	}
	start = time.Now()
	for i := range 5 {
		if _, err := c.CreateComment(context.Background(), repo, pr.Number, "x"+string(rune('a'+i))); err != nil {
			t.Fatal(err)
		}
	}
	// 2 at once, then 3 spaced by 100ms.
	if d := time.Since(start); d < 280*time.Millisecond {
		t.Errorf("5 writes took %s, want at least 300ms of pacing", d)
	}
}
