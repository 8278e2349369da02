package detector_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/review-my-code-bot/rmc/event"
	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/state"
)

const runID = 9001

func dispatchEvent(run int64) event.Event {
	return event.Event{Name: event.WorkflowDispatch, Repo: "o/r", PRNumber: 7, Sender: "bob", RunID: run, Dispatch: map[string]string{"pr": "7"}}
}

// dispatched records a finished review that answered workflow run run.
func (p *pr) dispatched(sha string, run int64) {
	id, at := p.tick()
	block := rmcoc.ReviewRun{HeadSHA: sha, Mode: rmcoc.ModeManual, CompletedAt: at, RequestRunIDs: []rmcoc.ID{rmcoc.ID(run)}}
	p.snap.Reviews = append(p.snap.Reviews, reviewWith(id, at, sha, block))
}

func TestWorkflowDispatch(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		setup func(p *pr) event.Event
		want  []string
	}{
		"a dispatch asks for a manual review that does not gate": {
			setup: func(p *pr) event.Event { return dispatchEvent(runID) },
			want:  []string{"review-manual-aaaaaaa request:9001"},
		},
		"plus whatever else is pending, in order": {
			setup: func(p *pr) event.Event {
				f := p.finding("nil map write", true)
				p.reply(f, alice, "The map is initialized in New().")
				p.comment(alice, "@rmc-bot why a mutex?")
				return dispatchEvent(runID)
			},
			want: []string{"dispute-102 reply:102", "question-issue-comment-103", "review-manual-aaaaaaa request:9001"},
		},
		"a pending review request in a comment is answered by the same review": {
			setup: func(p *pr) event.Event {
				p.comment(alice, "@rmc-bot please review")
				return dispatchEvent(runID)
			},
			want: []string{"review-manual-aaaaaaa request:101 request:9001"},
		},
		"a re-run of the reviewed run reviews nothing": {
			setup: func(p *pr) event.Event {
				p.dispatched(headA, runID)
				return dispatchEvent(runID)
			},
			want: []string{"skip manual review requested by workflow run 9001"},
		},
		"a new dispatch on the same head reviews again": {
			setup: func(p *pr) event.Event {
				p.dispatched(headA, runID)
				return dispatchEvent(runID + 1)
			},
			want: []string{"review-manual-aaaaaaa request:9002"},
		},
		"a re-run of a run dismissed by an automatic review reviews nothing": {
			setup: func(p *pr) event.Event {
				id, at := p.tick()
				p.snap.Reviews = append(p.snap.Reviews, reviewWith(id, at, headA, rmcoc.ReviewRun{HeadSHA: headA, Mode: rmcoc.ModeAuto, CompletedAt: at, DismissedRunIDs: []rmcoc.ID{runID}, Blobs: headA[:rmcoc.BlobKeyLen]}))
				return dispatchEvent(runID)
			},
			// The explanation reply is still owed: a killed run never posted it.
			want: []string{"skip manual review requested by workflow run 9001"},
		},
		"an automatic review owed on a new head takes the request over": {
			setup: func(p *pr) event.Event {
				p.reviewed(headB, rmcoc.ModeAuto)
				return dispatchEvent(runID)
			},
			want: []string{"review-auto-aaaaaaa gate resumed dismiss:9001", "record aaaaaaa synchronize"},
		},
		"a draft gets its manual review": {
			setup: func(p *pr) event.Event { p.draft(); return dispatchEvent(runID) },
			want:  []string{"review-manual-aaaaaaa request:9001"},
		},
		"a closed pull request is not reviewed: its outcome is recorded": {
			setup: func(p *pr) event.Event { p.closed(); return dispatchEvent(runID) },
			want:  []string{"outcome-7", "skip review"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			p := newPR()
			ev := tc.setup(p)
			got := plan(p, ev)
			if d := describe(got); !slices.Equal(d, tc.want) {
				t.Errorf("plan:\n  got  %q\n  want %q", d, tc.want)
			}
			// Only an automatic review gates; the dispatch's manual one informs.
			if wantGate := strings.Contains(strings.Join(tc.want, " "), " gate"); got.Gate() != wantGate {
				t.Errorf("gate = %v, want %v", got.Gate(), wantGate)
			}
		})
	}
}

// A run killed after it posted the "reviewing" status comment leaves the
// request pending; the re-run edits that comment instead of posting another.
func TestKilledDispatchReusesItsStatusComment(t *testing.T) {
	t.Parallel()
	p := newPR()
	status := p.comment(bot, "@bob 🔍 Reviewing…\n\n"+rmcoc.Render(rmcoc.ManualReview{RequestCommentID: runID, Source: rmcoc.SourceDispatch, Status: rmcoc.ManualInProgress, HeadSHA: headA}))
	got := plan(p, dispatchEvent(runID))
	rt := got.Review()
	if len(got.Tasks) != 1 || rt == nil || len(rt.Requests) != 1 {
		t.Fatalf("plan = %q", describe(got))
	}
	m := rt.Requests[0]
	if m.Ref != (state.Ref{Source: state.SourceDispatch, ID: runID}) || m.Placeholder != status || m.Author.Login != "bob" {
		t.Errorf("request = %+v, want the dispatch with placeholder %d", m, status)
	}
	if !strings.Contains(got.Tasks[0].Reason, "@bob by running the workflow (run 9001") {
		t.Errorf("reason = %q", got.Tasks[0].Reason)
	}
}

func reviewWith(id int64, at time.Time, sha string, run rmcoc.ReviewRun) snapshot.Review {
	return snapshot.Review{ID: id, Author: bot, State: "COMMENTED", Body: "Review.\n\n" + rmcoc.Render(run), SubmittedAt: at, CommitSHA: sha}
}
