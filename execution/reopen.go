package execution

import (
	"context"
	"fmt"

	"github.com/review-my-code-bot/rmc/precision"
	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/sanitize"
	"github.com/review-my-code-bot/rmc/state"
)

// Resolution is what a run did about a blocking finding whose thread was
// resolved by someone whose resolution does not count (state.Finding.Reopen).
type Resolution struct {
	Finding state.Finding
	// Fixed is set when the code under the finding changed and the model
	// verified the fix: the bot made the resolution its own.
	Fixed bool
	// Reopened is set when the thread was reopened (Replied: with the reply
	// that says what unblocks it; not when an earlier run already said so).
	Reopened, Replied bool
	Err               error
}

// handleResolutions deals with every resolution that does not count, before
// the tasks run: a blocking finding stays blocking until a verified fix, a
// concession or a maintainer closes it. When the code changed since the
// finding was reported, the fix is verified first, as after a push.
func (x *run) handleResolutions(ctx context.Context) []Resolution {
	var out []Resolution
	for i := range x.State.Findings {
		f := &x.State.Findings[i]
		if f.Reopen == nil || ctx.Err() != nil {
			continue
		}
		r := Resolution{Finding: *f}
		if x.Session != nil && f.Block.Category != CategoryCheck && (f.Thread.IsOutdated || f.Block.HeadSHA != x.Snap.PR.HeadSHA) {
			x.fixes.verified[f.Block.ID] = true
			fixed, reason, err := x.fixes.isFixed(ctx, "", *f)
			switch {
			case err != nil:
				x.Log.Warningf("could not verify the fix of finding %q; reopening its thread: %v", f.Block.Title, err)
			case fixed:
				r.Fixed, r.Err = true, x.fixes.resolveFinding(ctx, *f, rmcoc.ResolutionFixed, "✅ Fixed: "+x.fromModelLine(reason), precision.Fix{})
				if r.Err == nil {
					f.Status, f.Reopen = rmcoc.FindingResolved, nil
				}
				out = append(out, r)
				continue
			}
		}
		r.Replied, r.Err = x.reopen(ctx, *f)
		r.Reopened = r.Err == nil
		if r.Err != nil {
			x.Log.Warningf("could not reopen the thread of blocking finding %q: %v", f.Block.Title, r.Err)
		}
		out = append(out, r)
	}
	return out
}

// reopen replies once per resolution, then reopens the thread. The reply
// comes first and is recognised by its block: a run killed between the two
// reopens without replying again.
func (x *run) reopen(ctx context.Context, f state.Finding) (replied bool, err error) {
	if !f.ReopenExplained {
		who := "Someone"
		if f.Reopen.Login != "" {
			who = "@" + sanitize.Name(f.Reopen.Login)
		}
		text := fmt.Sprintf("🔒 %s resolved this thread, but this finding blocks the merge gate, and only a verified fix, a conceded dispute or a maintainer can clear it. I reopened the thread.\n\n"+
			"To unblock it: **push a fix** (I verify it and resolve the thread), **reply here** to dispute it, or ask a **maintainer** (write access, not the pull request's author) to resolve it.", who)
		block := rmcoc.DisputeResolution{FindingID: f.Block.ID, ThreadID: f.Thread.ID, Status: f.Status,
			Resolution: rmcoc.ResolutionReopened, ResolvedBy: f.Reopen.Login, ResolvedAt: x.now()}
		body := x.compose(text, x.ledger.link(block))
		posted, err := x.GitHub.Reply(ctx, x.repo(), x.number(), f.RootCommentID, body)
		if err != nil {
			return false, err
		}
		x.ledger.wrote(rmcoc.HolderReviewComment, posted.ID, body)
		replied = true
	}
	if err := x.GitHub.UnresolveThread(ctx, f.Thread.ID); err != nil {
		return replied, fmt.Errorf("the thread stays resolved, but the finding still blocks (reopening needs pull-requests: write): %w", err)
	}
	return replied, nil
}
