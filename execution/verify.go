package execution

import (
	"context"
	"fmt"

	"github.com/review-my-code-bot/rmc/llm"
	"github.com/review-my-code-bot/rmc/precision"
	"github.com/review-my-code-bot/rmc/prompts"
	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/state"
)

// fixGitHub is what verifying a fix writes.
type fixGitHub interface {
	Reply(ctx context.Context, repo snapshot.Repo, number int, inReplyTo int64, body string) (snapshot.ReviewComment, error)
	ResolveThread(ctx context.Context, threadID string) error
	UnresolveThread(ctx context.Context, threadID string) error
}

// fixes checks, once per finding and run, whether a push fixed a finding,
// and resolves the fixed ones. The run-level work (a resolution that did not
// count) and the review (findings whose code changed) share it.
type fixes struct {
	env
	GitHub   fixGitHub
	Session  Session // nil: nothing is verified
	Snap     snapshot.Snapshot
	findings []state.Finding // the state's, so the run's updates show
	verified map[string]bool // findings this run already checked
	// wrote are the lines verified fixes wrote, the state's and this
	// run's: a finding posted on them is a finding on a fix.
	wrote []precision.Fix
	// heads are the content a decision judges; nil: not recorded.
	heads *headBlobs
}

// maxVerify bounds how many open findings one run re-checks.
const maxVerify = 20

// fixAnswer is the model's answer to verify_fix.
type fixAnswer struct {
	Fixed  bool   `json:"fixed"`
	Reason string `json:"reason"`
}

func (fixAnswer) SchemaName() string { return "verdict" }

// verifyFixes re-checks open findings whose code changed: the thread went
// outdated, or an incremental review saw the file change. A fixed one is
// answered and resolved; one not fixed stays open, outdated or not.
func (x *fixes) verifyFixes(ctx context.Context, task string, sc scope) {
	changed := map[string]bool{}
	if sc.from != "" {
		for _, f := range sc.review {
			changed[f.Path()] = true
		}
	}
	checked := 0
	for _, f := range x.findings {
		// A check's finding is re-evaluated by its check, not asked about.
		// An edited finding is not asked about: what its comment says now
		// is not what the bot raised, and only a maintainer settles it.
		if !f.Open() || f.Tampered || f.Block.Category == CategoryCheck || x.verified[f.Block.ID] || (!f.Thread.IsOutdated && !changed[f.Thread.Path]) || checked == maxVerify {
			continue
		}
		checked++
		fixed, reason, err := x.isFixed(ctx, task, f)
		if err != nil {
			x.Log.Warningf("could not re-check finding %q: %v", f.Block.Title, err)
			continue
		}
		if !fixed {
			continue
		}
		if err := x.resolveFinding(ctx, f, rmcoc.ResolutionFixed, "✅ Fixed: "+x.fromModelLine(reason), fixOf(sc, f)); err != nil {
			x.Log.Warningf("could not resolve fixed finding %q: %v", f.Block.Title, err)
		}
	}
}

// isFixed asks the model; task is the key of the task it works for ("" for
// the run's own checks).
func (x *fixes) isFixed(ctx context.Context, task string, f state.Finding) (bool, string, error) {
	prompt, err := prompts.VerifyFix(prompts.VerifyFixData{Path: f.Thread.Path, Line: f.Block.Line,
		Body: rmcoc.Strip(f.Thread.Comments[0].Body), Head: short(x.Snap.PR.HeadSHA)})
	if err != nil {
		return false, "", err
	}
	out, _, err := llm.AskJSON[fixAnswer](ctx, x.Session, llm.Label{Task: task, Step: "verify " + f.Block.ID}, prompt)
	if err != nil {
		return false, "", err
	}
	return out.Fixed, out.Reason, nil
}

// fixOf is what the push since the last review wrote in f's file, read
// from the diff the review already holds (no read of its own); nothing
// when the run has no such diff (a full review, a run without one).
func fixOf(sc scope, f state.Finding) precision.Fix {
	for _, d := range sc.since {
		if d.Path() != f.Block.Path {
			continue
		}
		var suggestion string
		if t, ok := ParseFindingText(rmcoc.Strip(f.Thread.Comments[0].Body)); ok {
			suggestion = t.Suggestion
		}
		lines, applied := precision.Wrote(d, suggestion)
		return precision.Fix{FindingID: f.Block.ID, Path: f.Block.Path, Lines: lines, Suggestion: applied}
	}
	return precision.Fix{}
}

// resolveFinding replies in the finding's thread with a dispute-resolution
// block, then resolves the thread. The block is written first: if resolving
// fails (a token without the permission), the state still says RESOLVED.
// A fix records the lines it wrote (fix, when the run knows them).
func (x *fixes) resolveFinding(ctx context.Context, f state.Finding, resolution rmcoc.Resolution, text string, fix precision.Fix) error {
	reply := f.Thread.Comments[len(f.Thread.Comments)-1].ID
	block := rmcoc.DisputeResolution{ReplyToCommentID: rmcoc.ID(reply), FindingID: f.Block.ID, ThreadID: f.Thread.ID,
		Status: rmcoc.FindingResolved, Resolution: resolution, ResolvedAt: x.now()}
	if resolution == rmcoc.ResolutionFixed {
		block.HeadSHA = x.Snap.PR.HeadSHA // the fix holds while the head contains this commit
		block.FixLines, block.FixSuggestion = fix.Lines, fix.Suggestion
		block.Blob = x.heads.of(ctx, f.Thread.Path)
	}
	body := x.compose(text, x.ledger.link(block))
	posted, err := x.GitHub.Reply(ctx, x.repo(), x.number(), f.RootCommentID, body)
	if err != nil {
		return err
	}
	x.ledger.wrote(rmcoc.HolderReviewComment, posted.ID, body)
	if len(block.FixLines) > 0 {
		fix.Head = block.HeadSHA
		x.wrote = append(x.wrote, fix)
	}
	if err := x.GitHub.ResolveThread(ctx, f.Thread.ID); err != nil {
		return fmt.Errorf("the reply is posted, but resolving the thread failed (the token needs pull-requests: write; a fine-grained token needs the Pull requests permission): %w", err)
	}
	return nil
}

// regress reopens a fixed finding whose fix no longer holds: one reply in
// its thread, with a block that makes it open again, then the thread
// reopened. The reply comes first: if reopening fails, the finding blocks
// all the same and the next run reopens the thread.
func (x *fixes) regress(ctx context.Context, f state.Finding, why string) error {
	block := rmcoc.DisputeResolution{FindingID: f.Block.ID, ThreadID: f.Thread.ID, Status: rmcoc.FindingOpen,
		Resolution: rmcoc.ResolutionRegressed, ResolvedAt: x.now()}
	text := "🔁 " + why + "\n\nThis finding blocks the merge gate again: push a fix (I verify it), reply here to dispute it, or ask a maintainer to resolve it."
	body := x.compose(text, x.ledger.link(block))
	posted, err := x.GitHub.Reply(ctx, x.repo(), x.number(), f.RootCommentID, body)
	if err != nil {
		return err
	}
	x.ledger.wrote(rmcoc.HolderReviewComment, posted.ID, body)
	if f.Thread.IsResolved {
		if err := x.GitHub.UnresolveThread(ctx, f.Thread.ID); err != nil {
			return fmt.Errorf("the reply is posted, but reopening the thread failed: %w", err)
		}
	}
	return nil
}
