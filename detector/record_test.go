package detector_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/review-my-code-bot/rmc/detector"
	"github.com/review-my-code-bot/rmc/event"
	"github.com/review-my-code-bot/rmc/mention"
	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/state"
)

// A maintainer's record command on a closed pull request is the record
// task's to answer, once it knows whether the entry was missing; on an
// open one, or from someone else, the registry answers it; one already
// answered plans nothing.
func TestPlanRecordCommand(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		setup func(p *pr) event.Event
		want  []string
	}{
		"a maintainer, closed": {
			setup: func(p *pr) event.Event { p.closed(); p.comment(bob, "@rmc-bot record"); return commentEvent() },
			want:  []string{"outcome-issue-comment-101 answers:101"},
		},
		"a maintainer, merged": {
			setup: func(p *pr) event.Event {
				p.snap.PR.State = "MERGED"
				p.comment(bob, "@rmc-bot record")
				return commentEvent()
			},
			want: []string{"outcome-issue-comment-101 answers:101 merged"},
		},
		"two commands, one task": {
			setup: func(p *pr) event.Event {
				p.closed()
				p.comment(bob, "@rmc-bot record")
				p.comment(bob, "@rmc-bot record")
				return commentEvent()
			},
			want: []string{"outcome-issue-comment-101 answers:101,102"},
		},
		"the closing event and a command": {
			setup: func(p *pr) event.Event { p.closed(); p.comment(bob, "@rmc-bot record"); return prEvent("closed") },
			want:  []string{"outcome-issue-comment-101 answers:101"},
		},
		"open": {
			setup: func(p *pr) event.Event { p.comment(bob, "@rmc-bot record"); return commentEvent() },
			want:  []string{"command record"},
		},
		"the author, who is no maintainer of their own pull request": {
			setup: func(p *pr) event.Event { p.closed(); p.comment(alice, "@rmc-bot record"); return commentEvent() },
			want:  []string{"command record"},
		},
		"the workflow run by hand for a closed pull request": {
			setup: func(p *pr) event.Event { p.closed(); return dispatchEvent(runID) },
			want:  []string{"outcome-7 answers: on demand"},
		},
		"the workflow run by hand for an open one": {
			setup: func(p *pr) event.Event { return dispatchEvent(runID) },
			want:  []string{"review-manual-aaaaaaa"},
		},
		"the closing": {
			setup: func(p *pr) event.Event { p.closed(); return prEvent("closed") },
			want:  []string{"outcome-7 answers:"},
		},
		"answered already": {
			setup: func(p *pr) event.Event {
				p.closed()
				id := p.comment(bob, "@rmc-bot record")
				p.comment(bot, "Recorded.\n\n"+rmcoc.Render(rmcoc.CommandAnswer{CommandCommentID: rmcoc.ID(id), Command: "record", By: "bob", Result: rmcoc.CommandDone}))
				return commentEvent()
			},
			want: nil,
		},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			p := newPR()
			ev := tc.setup(p)
			st := state.Derive(p.snap, state.Options{Bot: bot, Handles: handles, Writers: map[string]bool{"bob": true, "alice": true}})
			pl := detector.Build(detector.Input{Event: ev, PR: p.snap.PR, State: st, Changes: p.changes(), Intents: detector.Classify(context.Background(), mention.Rules{}, st.Pending())})
			var got []string
			for _, tk := range pl.Tasks {
				r, ok := tk.Work.(*detector.RecordTask)
				if !ok {
					got = append(got, tk.Key)
					continue
				}
				line := tk.Key + " answers:"
				for i, m := range r.Commands {
					line += map[bool]string{true: ",", false: ""}[i > 0] + fmt.Sprint(m.Ref.ID)
				}
				if r.Merged {
					line += " merged"
				}
				if r.OnDemand && len(r.Commands) == 0 {
					line += " on demand"
				}
				got = append(got, line)
			}
			for _, m := range pl.Commands {
				got = append(got, "command "+string(m.Command))
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}
