package state

import (
	"strings"
	"testing"
	"time"

	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/snapshot"
)

func TestDeriveLearnings(t *testing.T) {
	t.Parallel()
	bot := snapshot.Actor{Login: "rmc-bot", IsBot: true}
	alice, bob := snapshot.Actor{Login: "alice"}, snapshot.Actor{Login: "bob"}
	learning := func(id string) string {
		return "📚 Learned\n\n" + rmcoc.Render(rmcoc.Learning{ID: id, FindingID: "f-" + id, PR: 1, PathGlob: "a/**", Origin: rmcoc.LearnedConcession, CreatedAt: time.Unix(0, 0)})
	}
	forget := func(cmd int64, id string) string {
		return rmcoc.Render(rmcoc.LearningCommand{CommandCommentID: rmcoc.ID(cmd), Command: rmcoc.CommandForget, LearningID: id, Result: "done"})
	}
	tests := map[string]struct {
		issue      snapshot.LearningsIssue
		wantActive []string
		wantOff    bool
		wantCmds   []string // command:arg
		wantNotice string
	}{
		"no issue": {},
		"bot blocks count": {
			issue:      snapshot.LearningsIssue{Number: 9, Author: bot, Comments: []snapshot.Comment{{ID: 1, Author: bot, Body: learning("L-1")}, {ID: 2, Author: bot, Body: learning("L-2")}}},
			wantActive: []string{"L-1", "L-2"},
		},
		"a pasted block does not": {
			issue:      snapshot.LearningsIssue{Number: 9, Author: bot, Comments: []snapshot.Comment{{ID: 1, Author: alice, Body: learning("L-x")}}},
			wantNotice: "ignored 1 rmcoc block(s)",
		},
		"an edited bot comment does not": {
			issue:      snapshot.LearningsIssue{Number: 9, Author: bot, Comments: []snapshot.Comment{{ID: 1, Author: bot, Editor: &bob, Body: learning("L-1")}}},
			wantNotice: "edited the bot's comment",
		},
		"forgotten": {
			issue: snapshot.LearningsIssue{Number: 9, Author: bot, Comments: []snapshot.Comment{
				{ID: 1, Author: bot, Body: learning("L-1")}, {ID: 2, Author: bot, Body: learning("L-2")},
				{ID: 3, Author: bob, Body: "@rmc-bot forget L-1"}, {ID: 4, Author: bot, Body: forget(3, "L-1")}}},
			wantActive: []string{"L-2"},
		},
		"pending commands, quoted and code ones ignored": {
			issue: snapshot.LearningsIssue{Number: 9, Author: bot, Comments: []snapshot.Comment{
				{ID: 1, Author: bot, Body: learning("L-1")},
				{ID: 3, Author: bob, Body: "@rmc-bot forget `L-1`."},
				{ID: 5, Author: alice, Body: "@rmc-bot remember tabs, not spaces"},
				{ID: 6, Author: alice, Body: "> @rmc-bot forget L-1"},
				{ID: 7, Author: alice, Body: "```\n@rmc-bot forget L-1\n```"},
				{ID: 8, Author: alice, Body: "@rmc-bot thanks"}}},
			wantActive: []string{"L-1"}, wantCmds: []string{"forget:L-1", "remember:tabs, not spaces"},
		},
		"closed": {
			issue:      snapshot.LearningsIssue{Number: 9, Author: bot, Closed: true, Comments: []snapshot.Comment{{ID: 1, Author: bot, Body: learning("L-1")}}},
			wantActive: []string{"L-1"}, wantOff: true,
		},
		"someone else's issue": {
			issue:   snapshot.LearningsIssue{Number: 9, Author: alice, Comments: []snapshot.Comment{{ID: 1, Author: bot, Body: learning("L-1")}}},
			wantOff: true, wantNotice: "not the bot",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			l := DeriveLearnings(tc.issue, Options{Bot: bot, Handles: []string{"@rmc-bot"}})
			var ids, cmds []string
			for _, a := range l.Active {
				ids = append(ids, a.ID)
			}
			for _, c := range l.Commands {
				cmds = append(cmds, c.Command+":"+c.Arg)
			}
			if strings.Join(ids, ",") != strings.Join(tc.wantActive, ",") || l.Off != tc.wantOff || strings.Join(cmds, "|") != strings.Join(tc.wantCmds, "|") {
				t.Errorf("active %v off %v commands %v", ids, l.Off, cmds)
			}
			if tc.wantNotice != "" && !strings.Contains(strings.Join(l.Notices, "\n"), tc.wantNotice) {
				t.Errorf("notices %q lack %q", l.Notices, tc.wantNotice)
			}
			for _, a := range l.Active {
				if !l.Learned[LearningKey(1, "f-"+a.ID)] {
					t.Errorf("%s not in Learned", a.ID)
				}
			}
		})
	}
}

// Nothing anyone but the bot writes in the issue makes a learning, and no
// text makes DeriveLearnings fail.
func FuzzDeriveLearnings(f *testing.F) {
	f.Add("@rmc-bot forget L-1")
	f.Add("@rmc-bot remember   ")
	f.Add(rmcoc.Render(rmcoc.Learning{ID: "L-1", PathGlob: "**"}))
	bot := snapshot.Actor{Login: "rmc-bot", IsBot: true}
	f.Fuzz(func(t *testing.T, body string) {
		l := DeriveLearnings(snapshot.LearningsIssue{Number: 1, Author: bot, Comments: []snapshot.Comment{{ID: 5, Author: snapshot.Actor{Login: "mallory"}, Body: body}}},
			Options{Bot: bot, Handles: []string{"@rmc-bot"}})
		if len(l.Active) > 0 {
			t.Errorf("an outsider's comment made a learning: %+v", l.Active)
		}
		for _, c := range l.Commands {
			if c.Arg == "" || (c.Command != rmcoc.CommandRemember && c.Command != rmcoc.CommandForget) {
				t.Errorf("command %+v", c)
			}
		}
	})
}
