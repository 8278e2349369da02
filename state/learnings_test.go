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
			if c.Arg == "" || (c.Command != rmcoc.CommandRemember && c.Command != rmcoc.CommandForget && c.Command != rmcoc.CommandConfirm) {
				t.Errorf("command %+v", c)
			}
		}
	})
}

// TestLearningsClaimsConfirmAndTold: the first answer to a command is the
// one that counts (a later one, from an overlapping run, changes nothing);
// a confirm, or "remember <id>" naming a learning, confirms it; a refusal
// records its login as told.
func TestLearningsClaimsConfirmAndTold(t *testing.T) {
	t.Parallel()
	bot := snapshot.Actor{Login: "rmc-bot", IsBot: true}
	bob := snapshot.Actor{Login: "bob"}
	l1 := rmcoc.Learning{ID: "L-1", Fingerprint: "f1", PathGlob: "a/**", Origin: rmcoc.LearnedConcession}
	l2 := rmcoc.Learning{ID: "L-2", Fingerprint: "f2", PathGlob: "a/**", Origin: rmcoc.LearnedResolution}
	result := func(cmd int64, verb, id, res, by string) string {
		return rmcoc.Render(rmcoc.LearningCommand{CommandCommentID: rmcoc.ID(cmd), Command: verb, LearningID: id, Result: res, By: by})
	}
	li := snapshot.LearningsIssue{Number: 9, Author: bot, Comments: []snapshot.Comment{
		{ID: 1, Author: bot, Body: rmcoc.Render(l1)},
		{ID: 2, Author: bot, Body: rmcoc.Render(l2)},
		{ID: 3, Author: bot, Body: rmcoc.Render(l2)}, // recorded twice by overlapping runs
		{ID: 4, Author: bob, Association: "COLLABORATOR", Body: "@rmc-bot forget L-1"},
		{ID: 5, Author: bot, Body: result(4, rmcoc.CommandForget, "L-1", rmcoc.CommandUnknownID, "bob")},
		{ID: 6, Author: bot, Body: result(4, rmcoc.CommandForget, "L-1", rmcoc.CommandDone, "bob")}, // a later run's: ignored
		{ID: 7, Author: bob, Association: "COLLABORATOR", Body: "@rmc-bot confirm `L-1`."},
		{ID: 8, Author: bot, Body: result(7, rmcoc.CommandConfirm, "L-1", rmcoc.CommandDone, "bob")},
		{ID: 9, Author: snapshot.Actor{Login: "Rita"}, Association: "COLLABORATOR", Body: "@rmc-bot forget L-2"},
		{ID: 10, Author: bot, Body: result(9, rmcoc.CommandForget, "", rmcoc.CommandNotAllowed, "Rita")},
		{ID: 11, Author: bob, Association: "COLLABORATOR", Body: "@rmc-bot remember L-2"},
		{ID: 12, Author: bob, Association: "COLLABORATOR", Body: "@rmc-bot remember L-2 is wrong in tests"},
	}}
	l := DeriveLearnings(li, Options{Bot: bot, Handles: []string{"@rmc-bot"}})
	var ids, cmds []string
	for _, a := range l.Active {
		ids = append(ids, a.ID)
	}
	for _, c := range l.Commands {
		cmds = append(cmds, c.Command+":"+c.Arg)
	}
	if strings.Join(ids, ",") != "L-1,L-2" || l.Confirmed["L-1"] != "bob" || l.ConfirmedBy(l.Active[1]) != "" || !l.Told["rita"] {
		t.Errorf("active %v, confirmed %v, told %v", ids, l.Confirmed, l.Told)
	}
	if strings.Join(cmds, "|") != "confirm:L-2|remember:L-2 is wrong in tests" {
		t.Errorf("commands %v", cmds)
	}
	if l.Claims[4] != 5 || l.Claims[7] != 8 || l.Claims[9] != 10 {
		t.Errorf("claims %v", l.Claims)
	}
	if l.ConfirmedBy(rmcoc.Learning{Origin: rmcoc.LearnedRemember, By: "dan"}) != "dan" {
		t.Errorf("a remember rule is its maintainer's own")
	}
}

// TestSelectCommands: a run reads at most MaxLearningCommands commands, in
// turns per login with logins never told first; an outsider told before is
// not read again, and one never told gets one command read.
func TestSelectCommands(t *testing.T) {
	t.Parallel()
	var flood []LearningCommand
	id := int64(0)
	add := func(login string, member bool, n int) {
		for range n {
			id++
			flood = append(flood, LearningCommand{CommentID: id, Author: snapshot.Actor{Login: login}, Member: member, Command: rmcoc.CommandForget, Arg: "L-1"})
		}
	}
	add("mallory", false, 50) // an outsider
	add("Rita", true, 30)     // a collaborator without write access, told before
	add("eve", false, 5)      // an outsider, told before
	add("bob", true, 3)       // a maintainer, last
	got, deferred := selectCommands(flood, map[string]bool{"rita": true, "eve": true})
	count := map[string]int{}
	for i, c := range got {
		count[c.Author.Login]++
		if i > 0 && got[i-1].CommentID >= c.CommentID {
			t.Errorf("not in comment order: %v", got)
		}
	}
	if len(got) != MaxLearningCommands || count["mallory"] != 1 || count["bob"] != 3 || count["eve"] != 0 || count["Rita"] != MaxLearningCommands-4 {
		t.Errorf("selected %v", count)
	}
	if deferred != 1+3+30-MaxLearningCommands {
		t.Errorf("deferred %d", deferred)
	}
	if got, deferred := selectCommands(flood[:3], nil); len(got) != 1 || deferred != 0 {
		t.Errorf("an outsider's three commands: %d read, %d deferred", len(got), deferred)
	}
}
