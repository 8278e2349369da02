package main

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/app"
	"github.com/review-my-code-bot/rmc/github/fakegithub"
	"github.com/review-my-code-bot/rmc/outcome"
)

func TestConnect(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		token   string
		env     map[string]string
		wantErr string
	}{
		"defaults":            {token: "tok"},
		"enterprise":          {token: "tok", env: map[string]string{"GITHUB_API_URL": "https://ghe.example/api/v3", "GITHUB_GRAPHQL_URL": "https://ghe.example/api/graphql"}},
		"no pacing":           {token: "tok", env: map[string]string{"RMC_WRITE_INTERVAL": "0s"}},
		"slower pacing":       {token: "tok", env: map[string]string{"RMC_WRITE_INTERVAL": "2s"}},
		"no token":            {wantErr: "no token"},
		"interval not a time": {token: "tok", env: map[string]string{"RMC_WRITE_INTERVAL": "soon"}, wantErr: `RMC_WRITE_INTERVAL "soon" is not a duration`},
		"api url not http":    {token: "tok", env: map[string]string{"GITHUB_API_URL": "ftp://ghe.example"}, wantErr: "is not an http(s) URL"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			gh, err := connect(app.Connection{Token: tc.token, Getenv: func(k string) string { return tc.env[k] }, Warn: func(string) {}})
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) || gh != nil {
					t.Fatalf("connect = %v, %v; want no client and an error with %q", gh, err, tc.wantErr)
				}
				return
			}
			if err != nil || gh == nil {
				t.Fatalf("connect = %v, %v", gh, err)
			}
		})
	}
}

// The real connector reaches GitHub through the runner's URLs: a plan of a
// PR on the fake GitHub reads it with the client cmd/action builds.
func TestPlanThroughTheRealConnector(t *testing.T) {
	t.Parallel()
	f := fakegithub.New()
	defer f.Close()
	f.AddUser("alice", false)
	f.AddToken("tok", fakegithub.Identity{Login: "rmc-machine", Kind: fakegithub.TokenPAT})
	f.AddRepo("o/r")
	pr := f.AddPR("o/r", fakegithub.PR{Author: "alice"})
	f.AddIssueComment("o/r", pr.Number, "alice", "@rmc-bot what does this change?")
	vars := map[string]string{"GITHUB_TOKEN": "tok", "GITHUB_API_URL": f.URL, "GITHUB_GRAPHQL_URL": f.GraphQLURL(), "RMC_WRITE_INTERVAL": "0s"}
	var out bytes.Buffer
	env := app.Env{Getenv: func(k string) string { return vars[k] }, Stdout: &out}
	code := app.Main(context.Background(), env, gitHub, []string{"plan", "--repo", "o/r", "--pr", fmt.Sprint(pr.Number)})
	if code != outcome.ExitOK || !strings.Contains(out.String(), "[question]") {
		t.Errorf("exit %d, output:\n%s", code, out.String())
	}
	if f.WriteCount() != 0 {
		t.Errorf("plan wrote %v", f.Writes())
	}
}
