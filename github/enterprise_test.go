package github_test

import (
	"context"
	"testing"

	"github.com/review-my-code-bot/rmc/github"
	"github.com/review-my-code-bot/rmc/github/fakegithub"
	"github.com/review-my-code-bot/rmc/snapshot"
)

// On GitHub Enterprise Server the runner sets GITHUB_API_URL to
// https://HOST/api/v3; GraphQL lives at https://HOST/api/graphql, not under
// /api/v3. Without GITHUB_GRAPHQL_URL the client must find it.
func TestEnterpriseServerWithoutGraphQLURL(t *testing.T) {
	t.Parallel()
	f := fakegithub.NewEnterprise()
	defer f.Close()
	f.AddUser("alice", false)
	f.AddToken("tok", fakegithub.Identity{Login: "github-actions[bot]", Kind: fakegithub.TokenInstallation})
	f.AddRepo("o/r")
	pr := f.AddPR("o/r", fakegithub.PR{Author: "alice"})
	c, err := github.New(github.Options{Token: "tok", APIURL: f.URL, WriteInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	ctx, repo := context.Background(), snapshot.Repo{Owner: "o", Name: "r"}
	if _, err := c.CreateComment(ctx, repo, pr.Number, "hello"); err != nil {
		t.Fatalf("REST under /api/v3: %v", err)
	}
	snap, err := c.Snapshot(ctx, repo, pr.Number)
	if err != nil {
		t.Fatalf("GraphQL at /api/graphql: %v", err)
	}
	if len(snap.IssueComments) != 1 || snap.Viewer.Login == "" {
		t.Errorf("snapshot = %+v", snap)
	}
	if u := f.Unhandled(); len(u) > 0 {
		t.Errorf("requests outside the server's prefixes: %v", u)
	}
	graphql := 0
	for _, r := range f.Requests() {
		if r.Path == "/graphql" {
			graphql++
		}
	}
	if graphql == 0 {
		t.Error("no GraphQL request reached /api/graphql")
	}
}

// The fake answers only under Enterprise Server's prefixes: a client that
// sent GraphQL to /api/v3/graphql (the old derivation) fails.
func TestEnterpriseFakeRefusesGraphQLUnderV3(t *testing.T) {
	t.Parallel()
	f := fakegithub.NewEnterprise()
	defer f.Close()
	f.AddUser("alice", false)
	f.AddToken("tok", fakegithub.Identity{Login: "github-actions[bot]", Kind: fakegithub.TokenInstallation})
	f.AddRepo("o/r")
	pr := f.AddPR("o/r", fakegithub.PR{Author: "alice"})
	c, err := github.New(github.Options{Token: "tok", APIURL: f.URL, GraphQLURL: f.URL + "/graphql"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Snapshot(context.Background(), snapshot.Repo{Owner: "o", Name: "r"}, pr.Number); err == nil {
		t.Fatal("GraphQL under /api/v3 answered")
	}
}
