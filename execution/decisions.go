package execution

import (
	"context"
	"fmt"
	"time"

	"github.com/review-my-code-bot/rmc/gate"
	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/sanitize"
	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/state"
)

// filesReader reads the PR's changed files, with their head blob ids.
type filesReader interface {
	Files(ctx context.Context, repo snapshot.Repo, number int) ([]snapshot.ChangedFile, error)
}

// headBlobs are the PR's changed files and their head blobs, by path: the
// content a decision judges. The list is read once per run, when a
// decision or the review first needs it.
type headBlobs struct {
	GitHub filesReader
	env
	files  []snapshot.ChangedFile
	blobs  map[string]string
	listed bool
	failed bool // a read for a decision failed: not tried again this run
}

// known reports whether the run read the changed files already.
func (h *headBlobs) known() bool { return h != nil && h.listed }

// list is the PR's changed files, read once per run.
func (h *headBlobs) list(ctx context.Context) ([]snapshot.ChangedFile, error) {
	if h.listed {
		return h.files, nil
	}
	files, err := h.GitHub.Files(ctx, h.repo(), h.number())
	if err != nil {
		return nil, err
	}
	h.files, h.listed, h.blobs = files, true, make(map[string]string, len(files))
	for _, f := range files {
		h.blobs[f.Path] = f.Blob
	}
	return files, nil
}

// of is the key of the head blob of path, "" when the path is no change
// of the PR or the files could not be read.
func (h *headBlobs) of(ctx context.Context, path string) string {
	if h == nil || h.failed {
		return ""
	}
	if _, err := h.list(ctx); err != nil {
		h.failed = true
		h.Log.Warningf("could not read the changed files to bind a decision to its code: %v", err)
		return ""
	}
	return gate.Key(h.blobs[path])
}

// judged is the content a decision on f made now judges: while its thread
// is not outdated, the lines under it are as they were raised, and so is
// what the decision judged; else the head blob of its file.
func (h *headBlobs) judged(ctx context.Context, f state.Finding) string {
	if !f.Thread.IsOutdated && f.Block.Blob != "" {
		return f.Block.Blob
	}
	return h.of(ctx, f.Thread.Path)
}

// bindResolutions records, for each blocking finding a maintainer
// resolved by hand, the content the resolution judged: one reply in the
// resolved thread whose block changes no status. Until it is recorded the
// gate cannot tell whether the content came back, and stays pending; a
// resolution recorded before this existed is bound to the content at the
// head of the first run that sees it.
func (r *run) bindResolutions(ctx context.Context) {
	for i := range r.State.Findings {
		f := &r.State.Findings[i]
		if !f.Unbound() || ctx.Err() != nil {
			continue
		}
		blob := r.fixes.heads.judged(ctx, *f)
		if blob == "" {
			continue // unknown stays unknown: the gate waits, the next run retries
		}
		block := rmcoc.DisputeResolution{FindingID: f.Block.ID, ThreadID: f.Thread.ID, Status: rmcoc.FindingResolved,
			Resolution: rmcoc.ResolutionAccepted, ResolvedBy: f.ResolvedBy.Login, HeadSHA: r.Snap.PR.HeadSHA, Blob: blob, ResolvedAt: r.now()}
		text := fmt.Sprintf("📌 @%s resolved this finding on `%.7s`. It stays resolved while the code it was raised on does not come back; if it does, it reopens as a regression.",
			sanitize.Name(f.ResolvedBy.Login), r.Snap.PR.HeadSHA)
		body := r.compose(text, r.ledger.link(block))
		posted, err := r.GitHub.Reply(ctx, r.repo(), r.number(), f.RootCommentID, body)
		if err != nil {
			r.Log.Warningf("could not record the resolution of finding %q: %v", f.Block.Title, err)
			continue
		}
		r.ledger.wrote(rmcoc.HolderReviewComment, posted.ID, body)
		f.Accepted = &block
	}
}

// lapsed reopens, as regressions, the blocking findings whose closing
// decision judged other content than the head shows now, where the head
// shows the very content they were raised on: one reply each, after which
// the finding is open and no later run replies again.
func (r *run) lapsed(ctx context.Context) {
	for i := range r.State.Findings {
		f := &r.State.Findings[i]
		d, ok := f.Decision()
		if !ok || d.Unknown != "" || !d.Lapsed(d.Raised) || ctx.Err() != nil {
			continue // nothing the head could show makes it lapse: no read
		}
		if !d.Lapsed(r.fixes.heads.of(ctx, d.Path)) {
			continue
		}
		why := fmt.Sprintf("This problem is back in `%.7s`: %s is again the code this finding was raised on, %s.", r.Snap.PR.HeadSHA, sanitize.Code(d.Path), decidedAs(d.Kind))
		g := *f
		if d.Kind == gate.Accepted && g.Thread.IsResolved {
			// The maintainer's resolution is what closes it: the thread is
			// reopened before the reply, which would otherwise let a run
			// killed between the two count that resolution again.
			if err := r.GitHub.UnresolveThread(ctx, g.Thread.ID); err != nil {
				r.Log.Warningf("could not reopen finding %q, whose code came back (the gate fails meanwhile): %v", f.Block.Title, err)
				continue
			}
			g.Thread.IsResolved = false
		}
		if err := r.fixes.regress(ctx, g, why); err != nil {
			r.Log.Warningf("could not reopen finding %q, whose code came back: %v", f.Block.Title, err)
			continue
		}
		reopened(f, r.now())
		// Judged just now on the head: not asked again as a fix this run.
		r.fixes.verified[f.Block.ID] = true
	}
}

// reopened is f as a regression reply left it, for the rest of the run.
func reopened(f *state.Finding, at time.Time) {
	f.Status, f.OpenSince, f.Accepted, f.ResolvedBy, f.WaivedBy = rmcoc.FindingOpen, at, nil, nil, ""
	f.LastResolution = &rmcoc.DisputeResolution{FindingID: f.Block.ID, Status: rmcoc.FindingOpen, Resolution: rmcoc.ResolutionRegressed, ResolvedAt: at}
}

// decidedAs says which decision the code's return undid.
func decidedAs(k gate.DecisionKind) string {
	switch k {
	case gate.Fix:
		return "after its fix was verified (a revert?)"
	case gate.Conceded:
		return "after I set it aside on other code"
	case gate.Accepted:
		return "after a maintainer resolved it on other code"
	case gate.Waived:
		return "after a maintainer waived it"
	}
	return "after it was closed"
}
