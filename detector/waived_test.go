package detector_test

import (
	"context"
	"slices"
	"testing"

	"github.com/review-my-code-bot/rmc/detector"
	"github.com/review-my-code-bot/rmc/mention"
	"github.com/review-my-code-bot/rmc/state"
)

// A finding a maintainer waived has nothing left to argue: a reply in its
// thread plans no dispute, while the same reply on a finding not waived
// does.
func TestNoDisputeOnAWaivedFinding(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		resolveBy string // who comments "@rmc-bot resolve"; "" for nobody
		want      []string
	}{
		"waived by a maintainer":       {resolveBy: "bob"},
		"not waived":                   {want: []string{"dispute-102 reply:102"}},
		"the author's resolve is void": {resolveBy: "alice", want: []string{"dispute-103 reply:103"}},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			p := newPR()
			f := p.finding("nil map write", true)
			switch tc.resolveBy {
			case "bob":
				p.comment(bob, "@rmc-bot resolve")
			case "alice":
				p.comment(alice, "@rmc-bot resolve")
			}
			p.reply(f, alice, "This is fine, the map is set in New().")
			st := state.Derive(p.snap, state.Options{Bot: bot, Handles: handles, Writers: map[string]bool{"bob": true, "alice": true}})
			got := describe(detector.Build(detector.Input{Event: commentEvent(), PR: p.snap.PR, State: st, Changes: p.changes(),
				Intents: detector.Classify(context.Background(), mention.Rules{}, st.Pending())}))
			if !slices.Equal(got, tc.want) {
				t.Errorf("plan %q, want %q", got, tc.want)
			}
		})
	}
}
