package github_test

import (
	"context"
	"errors"
	"testing"

	"github.com/review-my-code-bot/rmc/github"
	"github.com/review-my-code-bot/rmc/github/fakegithub"
	"github.com/review-my-code-bot/rmc/snapshot"
)

func TestPullRequest(t *testing.T) {
	t.Parallel()
	f := fakegithub.New()
	t.Cleanup(f.Close)
	f.AddToken("tok", fakegithub.Identity{Login: "bench-user", Kind: fakegithub.TokenPAT})
	pr := f.AddPR("acme/svc", fakegithub.PR{Title: "Retry scrapes", Body: "Adds retries.", Author: "alice", Merged: true})
	c, err := github.New(github.Options{Token: "tok", APIURL: f.URL, GraphQLURL: f.GraphQLURL()})
	if err != nil {
		t.Fatal(err)
	}
	repo := snapshot.Repo{Owner: "acme", Name: "svc"}
	got, err := c.PullRequest(context.Background(), repo, pr.Number)
	if err != nil {
		t.Fatal(err)
	}
	if got.Number != pr.Number || got.Title != "Retry scrapes" || got.Body != "Adds retries." || got.Author.Login != "alice" || got.State != "MERGED" ||
		got.HeadSHA != pr.HeadSHA || got.BaseSHA != pr.BaseSHA || got.HeadRef != pr.HeadRef || got.BaseRef != pr.BaseRef || got.IsFork {
		t.Errorf("PullRequest = %+v, seeded %+v", got, pr)
	}
	_, err = c.PullRequest(context.Background(), repo, pr.Number+1)
	if !github.IsStatus(err, 404) || !errors.Is(err, snapshot.ErrNotFound) || errors.Is(err, snapshot.ErrBadCredentials) {
		t.Errorf("a missing PR: %v, want a 404", err)
	}
}
