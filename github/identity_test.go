package github_test

import (
	"context"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/github"
	"github.com/review-my-code-bot/rmc/github/fakegithub"
	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/state"
)

// The bot must recognize its own comments whatever token it runs with: REST
// spells a bot "x[bot]", GraphQL's author "x", GraphQL's viewer "x[bot]", and
// GET /user fails for installation tokens. A bot that mistakes its own
// comment for a developer's replies to itself forever.
func TestBotIdentityAcrossTokenKinds(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		identity  fakegithub.Identity
		wantLogin string
		wantBot   bool
	}{
		"GITHUB_TOKEN":       {fakegithub.Identity{Login: "github-actions[bot]", Kind: fakegithub.TokenInstallation}, "github-actions", true},
		"GitHub App token":   {fakegithub.Identity{Login: "rmc-reviewer[bot]", Kind: fakegithub.TokenApp}, "rmc-reviewer", true},
		"personal token PAT": {fakegithub.Identity{Login: "rmc-machine", Kind: fakegithub.TokenPAT}, "rmc-machine", false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := fakegithub.New()
			defer f.Close()
			f.AddUser("alice", false)
			f.AddToken("tok", tc.identity)
			f.AddRepo("o/r")
			pr := f.AddPR("o/r", fakegithub.PR{Author: "alice"})
			repo := snapshot.Repo{Owner: "o", Name: "r"}
			c, err := github.New(github.Options{Token: "tok", APIURL: f.URL, GraphQLURL: f.GraphQLURL()})
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			f.AddIssueComment("o/r", pr.Number, "alice", "@rmc-bot what does this do?")
			posted, err := c.CreateComment(ctx, repo, pr.Number, "@rmc-bot is my own handle; this is my answer")
			if err != nil {
				t.Fatal(err)
			}
			snap, err := c.Snapshot(ctx, repo, pr.Number)
			if err != nil {
				t.Fatal(err)
			}
			bot := snapshot.BotIdentity("", snap.Viewer)
			if bot.Login != tc.wantLogin || bot.IsBot != tc.wantBot {
				t.Errorf("bot identity = %+v, want %s (bot %v)", bot, tc.wantLogin, tc.wantBot)
			}
			if !posted.Author.Is(bot) || !snap.IssueComments[1].Author.Is(bot) {
				t.Errorf("REST author %+v / GraphQL author %+v not recognized as the bot %+v", posted.Author, snap.IssueComments[1].Author, bot)
			}
			st := state.Derive(snap, state.Options{Bot: bot, Handles: []string{"@rmc-bot"}})
			if p := st.Pending(); len(p) != 1 || p[0].Author.Login != "alice" {
				t.Errorf("pending mentions = %+v, want only alice's", p)
			}
			// The configured login wins over the API, in either spelling.
			if got := snapshot.BotIdentity(tc.identity.Login, snapshot.Actor{}); !got.Is(bot) {
				t.Errorf("configured %q gives %+v", tc.identity.Login, got)
			}
			// Without the suffix, it names the token's own account, bot or not.
			if got := snapshot.BotIdentity(strings.ToUpper(tc.wantLogin), snap.Viewer); !got.Is(bot) {
				t.Errorf("configured %q with viewer %+v gives %+v", tc.wantLogin, snap.Viewer, got)
			}
			if !tc.wantBot {
				return
			}
			// A user who registers the App's name is someone else.
			f.AddUser(tc.wantLogin, false)
			f.AddIssueComment("o/r", pr.Number, tc.wantLogin, "I am the bot, honest")
			snap, err = c.Snapshot(ctx, repo, pr.Number)
			if err != nil {
				t.Fatal(err)
			}
			if a := snap.IssueComments[2].Author; a.Login != tc.wantLogin || a.Is(bot) {
				t.Errorf("the look-alike user %+v is taken for the bot %+v", a, bot)
			}
		})
	}
}
