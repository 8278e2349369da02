package detector_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/detector"
	"github.com/review-my-code-bot/rmc/event"
	"github.com/review-my-code-bot/rmc/gate"
	"github.com/review-my-code-bot/rmc/mention"
	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/state"
)

// blob is a blob id made of one hex digit.
func blob(c byte) string { return strings.Repeat(string(c), 40) }

// keys packs blob ids as a review-run block records them.
func keys(ids ...string) string {
	packed, _, _ := rmcoc.PackBlobs(ids, rmcoc.MaxBlobs)
	return packed
}

// autoRun adds the bot's review carrying block and returns its id.
func (p *pr) autoRun(block rmcoc.ReviewRun) int64 {
	id, at := p.tick()
	block.Mode, block.CompletedAt = rmcoc.ModeAuto, at
	p.snap.Reviews = append(p.snap.Reviews, reviewWith(id, at, block.HeadSHA, block))
	return id
}

// continuation adds the bot's comment recording blobs a review read past
// what its block holds.
func (p *pr) continuation(review int64, head string, blobs ...string) {
	p.comment(bot, "The coverage record, part 2.\n\n"+rmcoc.Render(rmcoc.ReviewRun{HeadSHA: head, Mode: rmcoc.ModeAuto, Continues: rmcoc.ID(review), Blobs: keys(blobs...), CompletedAt: p.now}))
}

// change is one changed path of the head with its blob.
func change(path string, b byte) gate.Change {
	return gate.Change{Path: path, Blob: blob(b), Kind: gate.KindBlob}
}

// The plan's automatic review comes from what the gate owes (gate.Owed over
// the head's change set and the ledger), not from what the head's last
// review-run block says: each row is a history where the two used to
// disagree, and the plan now reviews what the gate owes, no more and no
// less.
func TestPlanOwesWhatTheGateOwes(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		setup   func(p *pr) (event.Event, []gate.Change)
		want    []string
		wantOwe []string // the review's owed paths
	}{
		// A head that owes nothing still gets a review of its own, which
		// reads no file (it verifies fixes and reopens what came back).
		"a blob reviewed under another head: the push's review reads nothing": {
			setup: func(p *pr) (event.Event, []gate.Change) {
				p.autoRun(rmcoc.ReviewRun{HeadSHA: headA, Blobs: keys(blob('1'))})
				p.head(headB) // the same content, another commit (a rebuilt one)
				return prEvent("synchronize"), []gate.Change{change("main.go", '1')}
			},
			want: []string{"review-auto-bbbbbbb gate", "record bbbbbbb synchronize"},
		},
		"a missed push whose content was reviewed under another head: its review reads nothing": {
			setup: func(p *pr) (event.Event, []gate.Change) {
				p.autoRun(rmcoc.ReviewRun{HeadSHA: headA, Blobs: keys(blob('1'))})
				p.head(headB)
				p.comment(alice, "thanks")
				return commentEvent(), []gate.Change{change("main.go", '1')}
			},
			want: []string{"review-auto-bbbbbbb gate resumed", "record bbbbbbb synchronize"},
		},
		"a re-run on a head reviewed, all of its content read: skipped": {
			setup: func(p *pr) (event.Event, []gate.Change) {
				p.autoRun(rmcoc.ReviewRun{HeadSHA: headB, Blobs: keys(blob('2'))})
				p.autoRun(rmcoc.ReviewRun{HeadSHA: headA, FromSHA: headB, Blobs: keys(blob('1')), Unreviewed: []string{"lib.go"}, UnreviewedCount: 1})
				return prEvent("synchronize"), []gate.Change{change("lib.go", '2'), change("main.go", '1')}
			},
			want: []string{"skip automatic review"},
		},
		"a revert to a reviewed blob is not reviewed again, the new file is": {
			setup: func(p *pr) (event.Event, []gate.Change) {
				p.autoRun(rmcoc.ReviewRun{HeadSHA: headA, Blobs: keys(blob('1'))})
				p.head(headB) // main.go reverted to what A's review read, new.go added
				return prEvent("synchronize"), []gate.Change{change("main.go", '1'), change("new.go", '3')}
			},
			want:    []string{"review-auto-bbbbbbb gate", "record bbbbbbb synchronize"},
			wantOwe: []string{"new.go"},
		},
		"a review cut short owes what no review read, not what its block lists": {
			setup: func(p *pr) (event.Event, []gate.Change) {
				p.autoRun(rmcoc.ReviewRun{HeadSHA: headA, Blobs: keys(blob('1'))})
				// B's review stopped short listing main.go, whose content
				// at B is what A's review read.
				p.autoRun(rmcoc.ReviewRun{HeadSHA: headB, FromSHA: headA, Blobs: keys(blob('2')), Unreviewed: []string{"main.go", "util.go"}, UnreviewedCount: 2})
				p.head(headB)
				p.comment(alice, "thanks")
				return commentEvent(), []gate.Change{change("lib.go", '2'), change("main.go", '1'), change("util.go", '4')}
			},
			want:    []string{"review-auto-bbbbbbb gate resumed"},
			wantOwe: []string{"util.go"},
		},
		"a review cut short whose files another review read owes nothing": {
			setup: func(p *pr) (event.Event, []gate.Change) {
				p.autoRun(rmcoc.ReviewRun{HeadSHA: headA, Blobs: keys(blob('1'), blob('4'))})
				p.autoRun(rmcoc.ReviewRun{HeadSHA: headB, FromSHA: headA, Blobs: keys(blob('2')), Unreviewed: []string{"util.go"}, UnreviewedCount: 1})
				p.head(headB)
				p.comment(alice, "thanks")
				return commentEvent(), []gate.Change{change("lib.go", '2'), change("util.go", '4')}
			},
			want: nil,
		},
		"a run block cut from the ledger: what only it recorded is owed, the rest is not": {
			setup: func(p *pr) (event.Event, []gate.Change) {
				// A's full review is gone; B's incremental review, built on
				// it, recorded only what the push changed.
				p.autoRun(rmcoc.ReviewRun{HeadSHA: headB, FromSHA: headA, Blobs: keys(blob('2'))})
				p.head(headB)
				p.comment(alice, "thanks")
				return commentEvent(), []gate.Change{change("lib.go", '2'), change("main.go", '1')}
			},
			want:    []string{"review-auto-bbbbbbb gate resumed"},
			wantOwe: []string{"main.go"},
		},
		"a continuation block lost, its blob read by another review: nothing owed": {
			setup: func(p *pr) (event.Event, []gate.Change) {
				p.autoRun(rmcoc.ReviewRun{HeadSHA: headB, Blobs: keys(blob('9'))})
				p.autoRun(rmcoc.ReviewRun{HeadSHA: headA, Blobs: keys(blob('1')), Spilled: 1})
				p.comment(alice, "thanks")
				return commentEvent(), []gate.Change{change("big/0001.go", '1'), change("big/1501.go", '9')}
			},
			want: nil,
		},
		"a continuation block past 1,500 files recording other content: its file is owed": {
			setup: func(p *pr) (event.Event, []gate.Change) {
				id := p.autoRun(rmcoc.ReviewRun{HeadSHA: headA, Blobs: keys(blob('1')), Spilled: 1})
				p.continuation(id, headA, blob('8'))
				p.comment(alice, "thanks")
				return commentEvent(), []gate.Change{change("big/0001.go", '1'), change("big/1501.go", '9')}
			},
			want:    []string{"review-auto-aaaaaaa gate resumed"},
			wantOwe: []string{"big/1501.go"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			p := newPR()
			ev, changes := tc.setup(p)
			st := state.Derive(p.snap, state.Options{Bot: bot, Handles: handles})
			got := detector.Build(detector.Input{Event: ev, PR: p.snap.PR, State: st, Changes: &gate.ChangeSet{Changes: changes},
				Intents: detector.Classify(context.Background(), mention.Rules{}, st.Pending())})
			if d := describe(got); !slices.Equal(d, tc.want) {
				t.Errorf("plan:\n  got  %q\n  want %q", d, tc.want)
			}
			var owe []string
			if rt := got.Review(); rt != nil {
				if !rt.OwedKnown {
					t.Errorf("the review's owed files are unknown, yet the change set was read")
				}
				for _, c := range rt.Owed {
					owe = append(owe, c.Path)
				}
			}
			if !slices.Equal(owe, tc.wantOwe) {
				t.Errorf("the review owes %q, want %q", owe, tc.wantOwe)
			}
		})
	}
}

// prefix excludes the paths under it, as the base's ignore_paths would.
type prefix string

func (p prefix) Excluded(path string) bool { return strings.HasPrefix(path, string(p)) }
func (p prefix) Key() string               { return "prefix " + string(p) }

// Without the change set the plan is the review the head may owe (the run
// then reads the PR's files and plans again on what it owes); a status
// green on the facts the run holds owes nothing; and a PR's first
// automatic review runs even when the base excludes all it changes, so
// its record enrolls the PR.
func TestPlanWithoutTheChangeSet(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		setup   func(p *pr) event.Event
		changes *gate.ChangeSet
		green   bool
		want    []string
	}{
		"an event on a head no run read": {
			setup: func(p *pr) event.Event { return prEvent("opened") },
			want:  []string{"review-auto-aaaaaaa gate", "record aaaaaaa opened"},
		},
		"a comment on an enrolled PR: the review the head may owe": {
			setup: func(p *pr) event.Event {
				p.autoRun(rmcoc.ReviewRun{HeadSHA: headA, Blobs: keys(blob('1'))})
				p.comment(alice, "thanks")
				return commentEvent()
			},
			want: []string{"review-auto-aaaaaaa gate resumed"},
		},
		"a comment on a PR never enrolled owes nothing": {
			setup: func(p *pr) event.Event { p.comment(alice, "thanks"); return commentEvent() },
			want:  nil,
		},
		"a comment under a green status owes nothing": {
			setup: func(p *pr) event.Event {
				p.autoRun(rmcoc.ReviewRun{HeadSHA: headA, Blobs: keys(blob('1'))})
				p.comment(alice, "thanks")
				return commentEvent()
			},
			green: true,
			want:  nil,
		},
		"a re-run under a green status is skipped": {
			setup: func(p *pr) event.Event {
				p.autoRun(rmcoc.ReviewRun{HeadSHA: headA, Blobs: keys(blob('1'))})
				return prEvent("synchronize")
			},
			green: true,
			want:  []string{"skip automatic review"},
		},
		"a first review of only what the base excludes still runs": {
			setup:   func(p *pr) event.Event { return prEvent("opened") },
			changes: &gate.ChangeSet{Changes: []gate.Change{change("gen/api.go", '1')}},
			want:    []string{"review-auto-aaaaaaa gate", "record aaaaaaa opened"},
		},
		"a re-run on a reviewed head that changes only what the base excludes besides is skipped": {
			setup: func(p *pr) event.Event {
				p.autoRun(rmcoc.ReviewRun{HeadSHA: headA, Blobs: keys(blob('2'))})
				return prEvent("synchronize")
			},
			changes: &gate.ChangeSet{Changes: []gate.Change{change("gen/api.go", '1'), change("main.go", '2')}},
			want:    []string{"skip automatic review"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			p := newPR()
			ev := tc.setup(p)
			st := state.Derive(p.snap, state.Options{Bot: bot, Handles: handles})
			got := detector.Build(detector.Input{Event: ev, PR: p.snap.PR, State: st, Changes: tc.changes, Scope: prefix("gen/"), Green: tc.green,
				Intents: detector.Classify(context.Background(), mention.Rules{}, st.Pending())})
			if d := describe(got); !slices.Equal(d, tc.want) {
				t.Errorf("plan:\n  got  %q\n  want %q", d, tc.want)
			}
			if rt := got.Review(); rt != nil && rt.OwedKnown != (tc.changes != nil) {
				t.Errorf("owed known %v, with a change set %v", rt.OwedKnown, tc.changes != nil)
			}
		})
	}
}
