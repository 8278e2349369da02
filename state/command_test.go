package state_test

import (
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/state"
)

// Every registered command is in help, parses from its usage, and answers;
// a word registered twice stops the program.
func TestCommandRegistry(t *testing.T) {
	t.Parallel()
	help := state.HelpText()
	specs := state.Commands()
	if len(specs) < 7 {
		t.Fatalf("%d commands registered", len(specs))
	}
	for i, s := range specs {
		usage := string(s.Name)
		text := usage
		if s.Arg == state.FindingArg {
			usage, text = s.Usage, usage+" f-0123abcd"
		}
		if !strings.Contains(help, "- `"+usage+"`: ") || !strings.Contains(help, s.Help) {
			t.Errorf("%s: not in help", s.Name)
		}
		if c, _, ok := state.ParseCommand(text); !ok || c != s.Name {
			t.Errorf("%s: %q parses as %q, %v", s.Name, text, c, ok)
		}
		if i > 0 && specs[i-1].Order > s.Order {
			t.Errorf("%s is listed before %s, out of order", specs[i-1].Name, s.Name)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("registering pause twice did not panic")
		}
	}()
	state.RegisterCommand(state.CommandSpec{Name: "pause", Help: "again", Answer: func(state.Answering) state.Answer { return state.Answer{} }})
}

// A waive says what became of it: waived, refused, or nothing to waive
// for a finding that did not lose its thread.
func TestWaiveAnswer(t *testing.T) {
	t.Parallel()
	spec, ok := state.LookupCommand(state.CommandWaive)
	if !ok || spec.Who != state.Maintainers || spec.Record == nil {
		t.Fatalf("waive: %+v", spec)
	}
	gone := func(waived ...string) state.State {
		st := state.State{Waived: map[string]bool{}, Reviews: []state.CompletedReview{{Run: rmcoc.ReviewRun{HeadSHA: "abc", Mode: rmcoc.ModeAuto,
			Posted: []rmcoc.PostedFinding{{ID: "f-000001", Blocking: true}, {ID: "f-000002"}}}}}}
		for _, id := range waived {
			st.Waived[id] = true
		}
		return st
	}
	for name, tc := range map[string]struct {
		st   state.State
		id   string
		want string
	}{
		"waived":                  {st: gone("f-000001"), id: "f-000001", want: rmcoc.WaiverDone},
		"not applied: refused":    {st: gone(), id: "f-000001", want: rmcoc.WaiverRefused},
		"a finding with a thread": {st: gone("f-000009"), id: "f-000009", want: rmcoc.WaiverUnknown},
		"a non-blocking finding":  {st: gone("f-000002"), id: "f-000002", want: rmcoc.WaiverUnknown},
	} {
		m := state.Mention{Ref: state.Ref{Source: state.SourceIssueComment, ID: 5}, Command: state.CommandWaive, Arg: tc.id, Allowed: true}
		a := spec.Answer(state.Answering{Mention: m, By: "@maria", State: tc.st, ModelLine: func(s string) string { return s }})
		if a.Result != tc.want || !strings.Contains(a.Text, "@maria") || !strings.Contains(a.Text, "`"+tc.id+"`") {
			t.Errorf("%s: %s %q", name, a.Result, a.Text)
		}
		if b, ok := spec.Record(m, a, t0).(rmcoc.Waiver); !ok || b.FindingID != tc.id || b.Result != tc.want {
			t.Errorf("%s: record %+v", name, b)
		}
	}
}
