package execution

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/review-my-code-bot/rmc/detector"
	"github.com/review-my-code-bot/rmc/event"
	"github.com/review-my-code-bot/rmc/mention"
	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/state"
)

// commandShrug exists only in this test binary: a command is its own
// registration, and nothing else in the program changes for it.
const commandShrug state.Command = "shrug"

func init() {
	state.RegisterCommand(state.CommandSpec{Name: commandShrug, Who: state.Maintainers, Order: 1000,
		Help:    "shrug at the pull request",
		Refused: "Nobody shrugged.",
		Apply: func(st *state.State, m state.Mention) {
			st.Notices = append(st.Notices, "shrugged by "+m.Author.Login)
		},
		Answer: func(a state.Answering) state.Answer {
			return state.Answer{Result: rmcoc.CommandDone, Text: "🤷 " + a.By + " shrugged."}
		},
	})
}

// A command added in one file (this test's) is in help, is parsed, is
// refused for a collaborator who can only read, and runs for a maintainer:
// the state, the plan and the run read it from the registry.
func TestAThrowawayCommandNeedsOneFile(t *testing.T) {
	t.Parallel()
	if !strings.Contains(state.HelpText(), "\n- `shrug`: (a maintainer who is not the author) shrug at the pull request\n") {
		t.Errorf("help does not list the command:\n%s", state.HelpText())
	}
	if c, arg, ok := state.ParseCommand(" Shrug! "); !ok || c != commandShrug || arg != "" {
		t.Errorf("ParseCommand = %q, %q, %v", c, arg, ok)
	}
	snap := testSnapshot()
	at := fixedNow.Add(-time.Hour)
	say := func(id int64, login, body string) {
		snap.IssueComments = append(snap.IssueComments, snapshot.Comment{ID: id, Author: snapshot.NewActor(login, "User"), Association: "COLLABORATOR", Body: body, CreatedAt: at.Add(time.Duration(id) * time.Minute)})
	}
	say(1, "rita", "@rmc-bot shrug")  // a collaborator with read access
	say(2, "maria", "@rmc-bot shrug") // a maintainer
	say(3, "rita", "@rmc-bot help")
	st := state.Derive(snap, state.Options{Bot: testBot, Handles: []string{"@rmc-bot"}, Writers: map[string]bool{"rita": false, "maria": true}})
	if !slices.Equal(st.Notices, []string{"shrugged by maria"}) {
		t.Errorf("the state applied the command for %v, want only the maintainer", st.Notices)
	}
	plan := detector.Build(detector.Input{Event: event.Event{Name: event.IssueComment, Action: "created", Repo: "o/r", PRNumber: 7}, PR: snap.PR, State: st,
		Intents: detector.Classify(context.Background(), mention.Rules{}, st.Pending())})
	if len(plan.Tasks) != 0 || len(plan.Commands) != 3 {
		t.Fatalf("plan: %d tasks, %d commands; want the three commands alone", len(plan.Tasks), len(plan.Commands))
	}
	gh := &recorder{}
	rig := newTestExecutor(gh, &testLog{})
	rig.Snap, rig.State = snap, st
	rig.Run(context.Background(), plan)
	answers := map[int64]string{}
	results := map[int64]string{}
	for _, c := range gh.calls {
		for _, b := range rmcoc.All[rmcoc.CommandAnswer](c.Body) {
			answers[int64(b.CommandCommentID)], results[int64(b.CommandCommentID)] = c.Body, b.Result
		}
	}
	if results[1] != rmcoc.CommandNotAllowed || !strings.Contains(answers[1], "only a maintainer") || !strings.Contains(answers[1], "Nobody shrugged.") {
		t.Errorf("the reader's command: %s\n%s", results[1], answers[1])
	}
	if results[2] != rmcoc.CommandDone || !strings.Contains(answers[2], "🤷 @maria shrugged.") {
		t.Errorf("the maintainer's command: %s\n%s", results[2], answers[2])
	}
	if !strings.Contains(answers[3], "`shrug`") {
		t.Errorf("help's answer does not list the command:\n%s", answers[3])
	}
}
