package github

import (
	"context"
	"testing"

	"github.com/review-my-code-bot/rmc/github/fakegithub"
	"github.com/review-my-code-bot/rmc/snapshot"
)

// Creating the learnings issue answers the oldest one the bot opened,
// which the snapshot reads, and closes the one just created when it is not
// that one (two runs created one each at once); an older labelled issue
// someone else opened does not take the bot's learnings.
func TestCreateLearningsIssueKeepsTheOldest(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		olderBy string // "" for no older learnings issue
		older   bool   // the answer is the older issue
	}{
		"none before":               {"", false},
		"one the bot opened before": {"github-actions[bot]", true},
		"one someone else labelled": {"alice", false},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := fakegithub.New()
			t.Cleanup(f.Close)
			f.AddToken(token, fakegithub.Identity{Login: "github-actions[bot]", Kind: fakegithub.TokenInstallation})
			f.AddUser("alice", false)
			f.AddRepo("o/r")
			f.AddIssue("o/r", "alice", "unrelated")
			older := 0
			if tc.olderBy != "" {
				older = f.AddIssue("o/r", tc.olderBy, snapshot.LearningsTitle, snapshot.LearningsLabel)
			}
			c := client(t, f, nil)
			num, url, err := c.CreateLearningsIssue(context.Background(), snapshot.Repo{Owner: "o", Name: "r"}, "body")
			if err != nil || url == "" {
				t.Fatalf("create: %d %q %v", num, url, err)
			}
			is := f.Issues("o/r")
			created := is[len(is)-1]
			switch {
			case tc.older && (num != older || created.State != "closed"):
				t.Errorf("answered #%d (older #%d); the one created is %s", num, older, created.State)
			case !tc.older && (num != created.Number || created.State != "open"):
				t.Errorf("answered #%d, not the one created (#%d, %s)", num, created.Number, created.State)
			}
			if errs := f.GraphQLErrors(); len(errs) > 0 {
				t.Errorf("the fake rejected documents: %v", errs)
			}
		})
	}
}
