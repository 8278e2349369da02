package detector_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/detector"
	"github.com/review-my-code-bot/rmc/event"
	"github.com/review-my-code-bot/rmc/mention"
	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/state"
)

// Commands are answered, never classified or reviewed; a pause stops
// automatic reviews of a head not reviewed yet, and resume reviews it.
func TestPlanCommands(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		setup func(p *pr) event.Event
		want  []string
	}{
		"a push while paused is not reviewed": {
			setup: func(p *pr) event.Event {
				p.reviewed(headB, rmcoc.ModeAuto)
				p.comment(bob, "@rmc-bot pause")
				return prEvent("synchronize")
			},
			want: []string{"command pause", "skip automatic review"},
		},
		"a run while paused does not catch up on the missed push": {
			setup: func(p *pr) event.Event {
				p.reviewed(headB, rmcoc.ModeAuto)
				id := p.comment(bob, "@rmc-bot pause")
				p.comment(bot, "Paused.\n\n"+rmcoc.Render(rmcoc.CommandAnswer{CommandCommentID: rmcoc.ID(id), Command: "pause", By: "bob", Result: rmcoc.CommandDone}))
				p.comment(alice, "thanks")
				return commentEvent()
			},
			want: nil,
		},
		"resume reviews the head, even before the first automatic review": {
			setup: func(p *pr) event.Event {
				id := p.comment(bob, "@rmc-bot pause")
				p.comment(bot, "Paused.\n\n"+rmcoc.Render(rmcoc.CommandAnswer{CommandCommentID: rmcoc.ID(id), Command: "pause", By: "bob", Result: rmcoc.CommandDone}))
				p.comment(bob, "@rmc-bot resume")
				return commentEvent()
			},
			want: []string{"review-auto-aaaaaaa gate resumed", "record aaaaaaa resume", "command resume"},
		},
		"ignore in the description skips the automatic review": {
			setup: func(p *pr) event.Event {
				p.snap.PR.Body = "@rmc-bot ignore"
				return prEvent("opened")
			},
			want: []string{"skip automatic review"},
		},
		"a manual review still runs while paused": {
			setup: func(p *pr) event.Event {
				p.comment(bob, "@rmc-bot pause")
				p.comment(bob, "@rmc-bot please review")
				return commentEvent()
			},
			want: []string{"review-manual-aaaaaaa request:102", "command pause"},
		},
		"an outsider's command is refused, not answered": {
			setup: func(p *pr) event.Event {
				p.comment(mallory, "@rmc-bot help")
				return commentEvent()
			},
			want: []string{"refuse @mallory", "skip mention by @mallory"},
		},
		"help and configuration are answered without the model": {
			setup: func(p *pr) event.Event {
				p.comment(alice, "@rmc-bot help")
				p.comment(alice, "@rmc-bot configuration")
				return commentEvent()
			},
			want: []string{"command help", "command configuration"},
		},
	} {
		p := newPR()
		ev := tc.setup(p)
		pl := plan(p, ev)
		got := describe(pl)
		for _, m := range pl.Commands {
			got = append(got, "command "+string(m.Command))
		}
		slices.Sort(got)
		want := slices.Clone(tc.want)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s:\n got  %q\n want %q", name, got, want)
		}
	}
}

// The walkthrough comes with every automatic review and with summary
// commands (one task for all of them); with the walkthrough off, a summary
// command is answered as such.
func TestPlanWalkthrough(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		setup func(p *pr) event.Event
		off   bool
		want  []string
	}{
		"with an automatic review": {
			setup: func(p *pr) event.Event { return prEvent("opened") },
			want:  []string{"review-auto-aaaaaaa gate", "walkthrough-aaaaaaa", "record aaaaaaa opened"},
		},
		"not with a manual review": {
			setup: func(p *pr) event.Event { p.comment(bob, "@rmc-bot please review"); return commentEvent() },
			want:  []string{"review-manual-aaaaaaa request:101"},
		},
		"summary commands share one task": {
			setup: func(p *pr) event.Event {
				p.comment(bob, "@rmc-bot summary")
				p.comment(alice, "@rmc-bot summary")
				return commentEvent()
			},
			want: []string{"walkthrough-issue-comment-101 answers:101,102"},
		},
		"off: no walkthrough, summary answered": {
			setup: func(p *pr) event.Event { p.comment(bob, "@rmc-bot summary"); return prEvent("opened") },
			off:   true,
			want:  []string{"review-auto-aaaaaaa gate", "record aaaaaaa opened", "command summary"},
		},
	} {
		p := newPR()
		ev := tc.setup(p)
		st := state.Derive(p.snap, state.Options{Bot: bot, Handles: handles})
		pl := detector.Build(detector.Input{Event: ev, PR: p.snap.PR, State: st, Changes: p.changes(), Walkthrough: !tc.off,
			Intents: detector.Classify(context.Background(), mention.Rules{}, st.Pending())})
		got := describe(pl)
		for i, tk := range pl.Tasks {
			w, ok := tk.Work.(*detector.WalkthroughTask)
			if !ok || len(w.Commands) == 0 {
				continue
			}
			var ids []string
			for _, m := range w.Commands {
				ids = append(ids, fmt.Sprint(m.Ref.ID))
			}
			got[i] += " answers:" + strings.Join(ids, ",")
		}
		for _, m := range pl.Commands {
			got = append(got, "command "+string(m.Command))
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s:\n got  %q\n want %q", name, got, tc.want)
		}
	}
}
