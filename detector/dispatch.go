package detector

import (
	"fmt"

	"github.com/review-my-code-bot/rmc/event"
	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/state"
)

// dispatchRequest turns a workflow_dispatch run into a manual review request,
// recorded like a "@rmc-bot review" comment (status comment, review-run
// block, dismissal when an automatic review covers it).
//
// The request is the workflow run: Ref{SourceDispatch, GITHUB_RUN_ID}.
// Re-running a run keeps its id (only GITHUB_RUN_ATTEMPT changes), so once a
// review answered the request, or an automatic review made it redundant, a
// re-run finds it handled and reviews nothing twice; a run killed midway
// leaves it pending (or its status comment in progress) and the re-run
// finishes it. Dispatching the workflow again starts a new run with a new id:
// a new request, reviewed again. Keying by head commit instead would refuse a
// deliberate second request on the same head; keying by nothing would review
// on every re-run.
//
// Only people with write access can dispatch a workflow, so the request is
// trusted. The action refuses to run a dispatch without GITHUB_RUN_ID; run id
// 0 is only seen by `rmc plan`, which writes nothing.
func dispatchRequest(in Input, p *Plan) (state.Mention, bool) {
	ev := in.Event
	if ev.Name != event.WorkflowDispatch {
		return state.Mention{}, false
	}
	ref := state.Ref{Source: state.SourceDispatch, ID: ev.RunID}
	handled, placeholder := in.State.Request(ref)
	if handled != "" {
		p.Skipped = append(p.Skipped, Skip{fmt.Sprintf("manual review requested by workflow run %d", ev.RunID),
			fmt.Sprintf("already %s; a re-run of the same run does not review again (start the workflow again to ask for another review)", handled)})
		return state.Mention{}, false
	}
	sender := ev.Sender
	if sender == "" {
		sender = "github-actions"
	}
	return state.Mention{Ref: ref, Author: snapshot.NewActor(sender, "User"), Text: "review (workflow_dispatch)",
		Placeholder: placeholder, Trusted: true}, true
}
