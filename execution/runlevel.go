package execution

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/review-my-code-bot/rmc/detector"
	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/sanitize"
	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/state"
)

// commenter is the one call the shared writers (error comments,
// dismissal explanations, the agent notice) make.
type commenter interface {
	CreateComment(ctx context.Context, repo snapshot.Repo, number int, body string) (snapshot.Comment, error)
}

// runGitHub is what the run-level work calls beyond the shared writers:
// recording the automatic-review trigger, finishing what a killed run left
// (status comments, thread resolutions), reading the files for a pending
// agent notice, and reopening a thread whose resolution does not count.
type runGitHub interface {
	commenter
	EditComment(ctx context.Context, repo snapshot.Repo, id int64, body string) error
	Reply(ctx context.Context, repo snapshot.Repo, number int, inReplyTo int64, body string) (snapshot.ReviewComment, error)
	ResolveThread(ctx context.Context, threadID string) error
	UnresolveThread(ctx context.Context, threadID string) error
	Files(ctx context.Context, repo snapshot.Repo, number int) ([]snapshot.ChangedFile, error)
	RunActive(ctx context.Context, repo snapshot.Repo, runID int64) (bool, error)
}

// reviewHeld says why the plan's automatic review is left to another run
// ("" when this run does it): the trigger of the same head names a
// workflow run the Actions API says is still at work. Without
// concurrency:, a comment during a push's review would otherwise review
// the same head a second time. A finished run's review (cancelled, or
// failed) is this run's to do, and so is one whose run cannot be read.
func (r *run) reviewHeld(ctx context.Context, plan detector.Plan) string {
	trig, rt := r.State.AutoTrigger, plan.Review()
	if rt == nil || rt.Mode != rmcoc.ModeAuto || trig == nil || trig.HeadSHA != rt.HeadSHA || trig.RunID == "" || trig.RunID == r.Options.RunID {
		return ""
	}
	id, err := strconv.ParseInt(trig.RunID, 10, 64)
	if err != nil {
		return ""
	}
	active, err := r.GitHub.RunActive(ctx, r.repo(), id)
	if err != nil {
		r.Log.Warningf("could not tell whether workflow run %d, reviewing %.7s, is still at work (give the workflow actions: read); reviewing it here: %v", id, rt.HeadSHA, err)
		return ""
	}
	if active {
		return fmt.Sprintf("workflow run %d is reviewing %.7s: left to it, so the head is not reviewed twice", id, rt.HeadSHA)
	}
	return ""
}

// before is the run-level work that comes before the tasks: the
// automatic-review trigger, the refusals, the explanations of dismissed
// requests, and what a killed run left half done.
func (r *run) before(ctx context.Context, plan detector.Plan) {
	r.heldReview = r.reviewHeld(ctx, plan)
	if plan.RecordTrigger != nil && r.heldReview == "" {
		if err := r.recordTrigger(ctx, *plan.RecordTrigger); err != nil {
			r.Log.Warningf("could not record the automatic review request: %v", err)
		}
	}
	for _, m := range plan.Refuse {
		if err := r.refuse(ctx, m); err != nil {
			r.Log.Warningf("could not tell @%s: %v", m.Author.Login, err)
		}
	}
	for _, m := range plan.Commands {
		if err := r.answerCommand(ctx, m); err != nil {
			r.Log.Warningf("could not answer @%s's %s command: %v", m.Author.Login, m.Command, err)
		}
	}
	if err := r.noticeCuts(ctx); err != nil {
		r.Log.Warningf("%v", err)
	}
	if len(plan.Evidence) > 0 {
		if err := r.reportEvidence(ctx, plan.Evidence); err != nil {
			r.Log.Warningf("could not report the deleted finding threads: %v", err)
		}
	}
	for _, ref := range plan.Explain {
		if err := explainDismissal(ctx, r.GitHub, r.env, ref); err != nil {
			r.Log.Warningf("could not explain dismissed request %s: %v", ref, err)
		}
	}
	r.catchUp(ctx)
	for _, f := range r.State.Findings {
		if !f.FixLost {
			continue
		}
		why := fmt.Sprintf("The fix of this finding was verified on `%.7s`, which the head of this pull request (`%.7s`) no longer contains: the branch was force-pushed or reset.", f.LastResolution.HeadSHA, r.Snap.PR.HeadSHA)
		if err := r.fixes.regress(ctx, f, why); err != nil {
			r.Log.Warningf("could not reopen finding %q, whose fix the head lost: %v", f.Block.Title, err)
		}
	}
	r.bindResolutions(ctx)
	if plan.Review() != nil || r.fixes.heads.known() {
		// The files are read anyway: a code that came back is replied to
		// now. A run that reads no files leaves the reply to the next
		// review (a revert is a push); the gate fails meanwhile, from the
		// change set.
		r.lapsed(ctx)
	}
}

// catchUp finishes what a killed run left half done: threads whose
// resolution is recorded but not applied, and manual-review status comments
// that still say "in progress" after their review was posted.
func (r *run) catchUp(ctx context.Context) {
	for _, f := range r.State.Findings {
		// A finding a maintainer's resolve command waived gets its thread
		// resolved, here too when a killed run did not get to it.
		// A finding a ledger cut touches stays as it is: what resolved it
		// may be the block someone cut away.
		if r.State.Touched(f.Block.ID) {
			continue
		}
		if f.ResolveDue || (f.WaivedBy != "" && !f.Thread.IsResolved) {
			if err := r.GitHub.ResolveThread(ctx, f.Thread.ID); err != nil {
				r.Log.Warningf("could not resolve the thread of finding %q: %v", f.Block.Title, err)
			}
		}
	}
	for _, u := range r.State.Unfinished {
		var blocks []rmcoc.Block
		for _, ref := range u.Requests {
			blocks = append(blocks, manualBlock(ref, rmcoc.ManualCompleted, u.Run.HeadSHA))
		}
		body := r.compose(r.say(phraseReviewEnd, u.Run.HeadSHA, u.Run.Findings, u.Run.Blocking), blocks...)
		if err := r.GitHub.EditComment(ctx, r.repo(), u.CommentID, body); err != nil {
			r.Log.Warningf("could not finish the review status comment %d: %v", u.CommentID, err)
		}
	}
}

// pendingNotice sends the agent notice of an earlier review that requested
// changes but whose notice a killed run never posted.
func (r *run) pendingNotice(ctx context.Context) {
	id, head, findings := r.notify.pending(r.State)
	if id == 0 {
		return
	}
	files, err := r.GitHub.Files(ctx, r.repo(), r.number())
	anchors, _ := ParseFiles(files)
	if err == nil {
		err = r.notify.send(ctx, id, head, findings, anchors)
	}
	if err != nil {
		r.Log.Warningf("could not send the pending agent notification for review %d: %v", id, err)
	}
}

// recordTrigger writes the automatic-review trigger into the bot's status
// comment, creating it on the PR's first automatic review.
func (r *run) recordTrigger(ctx context.Context, trig rmcoc.AutoReviewTrigger) error {
	trig.TriggeredAt, trig.RunID = r.now(), r.Options.RunID
	body := r.compose(r.say(phraseAutoStart, trig.HeadSHA, trig.Action), trig)
	if id := r.State.StatusComment; id != 0 {
		return r.GitHub.EditComment(ctx, r.repo(), id, body)
	}
	_, err := r.GitHub.CreateComment(ctx, r.repo(), r.number(), body)
	return err
}

// refuse tells someone without access, once per PR, why the bot does not
// act on their mention.
func (r *run) refuse(ctx context.Context, m state.Mention) error {
	login := sanitize.Name(m.Author.Login)
	text := fmt.Sprintf("👋 Thanks for the mention, @%s. On this repository I take questions and review requests from collaborators and the pull request's author; a maintainer can ask on your behalf.", login)
	if r.Snap.PR.IsFork && m.Author.Is(r.Snap.PR.Author) {
		text = fmt.Sprintf("👋 Thanks for the mention, @%s. This pull request comes from a fork, and every request to me spends this repository's model budget, so here I take questions, review requests and disputes from people with write access. A maintainer can ask on your behalf (or the repository can allow it with `fork_authors_can_ask`). Pushing a fix still clears a finding: I verify it on the next review.", login)
	}
	body := r.compose(text,
		rmcoc.AccessNotice{User: m.Author.Login, ReplyToCommentID: rmcoc.ID(m.Ref.ID), SentAt: r.now()})
	_, err := r.GitHub.CreateComment(ctx, r.repo(), r.number(), body)
	return err
}

// reportEvidence says once that blocking findings lost their thread, and
// how a maintainer can waive them.
func (r *run) reportEvidence(ctx context.Context, gone []rmcoc.PostedFinding) error {
	var b strings.Builder
	block := rmcoc.EvidenceNotice{At: r.now()}
	b.WriteString("⚠️ The thread of these blocking findings was deleted. They keep holding the merge gate: deleting the bot's comment does not clear a finding.\n")
	for _, f := range gone {
		block.FindingIDs = append(block.FindingIDs, f.ID)
		fmt.Fprintf(&b, "\n- %s", sanitize.Code(f.ID))
	}
	fmt.Fprintf(&b, "\n\nA maintainer (write access, not the pull request's author) can waive one by commenting `@rmc-bot waive %s`.", gone[0].ID)
	_, err := r.GitHub.CreateComment(ctx, r.repo(), r.number(), r.compose(b.String(), block))
	return err
}

// explainDismissal tells a person their manual request was covered by an
// automatic review (seed 004), once: the block makes it idempotent.
func explainDismissal(ctx context.Context, gh commenter, e env, ref state.Ref) error {
	now := e.now()
	block := manualBlock(ref, rmcoc.ManualDismissed, "")
	block.DismissedBy, block.CompletedAt = "auto-pr-review", &now
	what := fmt.Sprintf("%s %d", strings.ReplaceAll(string(ref.Source), "-", " "), ref.ID)
	if ref.Source == state.SourceDispatch {
		what = fmt.Sprintf("workflow run %d", ref.ID)
	}
	body := e.compose(fmt.Sprintf("ℹ️ This review request (%s) was dismissed because an automatic review of this pull request ran and covered it. Its findings are in the review above.", what), block)
	_, err := gh.CreateComment(ctx, e.repo(), e.number(), body)
	return err
}

// taskError posts one error comment for a failed task; the task stays
// pending and its key counts the failure.
func taskError(ctx context.Context, gh commenter, e env, t detector.Task, err error) {
	block := rmcoc.TaskError{TaskKey: t.Key, Message: failureMessage(err), FailedAt: e.now(), Attempts: 1}
	body := e.compose(fmt.Sprintf("⚠️ The %s task could not finish: %s\n\nIt stays pending: the next run of the action (any new comment, reply or push) tries again.", t.Kind(), failureMessage(err)), block)
	if _, werr := gh.CreateComment(ctx, e.repo(), e.number(), body); werr != nil {
		e.Log.Warningf("could not post the error comment: %v", werr)
	}
}

// manualBlock is the ManualReview block for a request, naming its id space.
func manualBlock(ref state.Ref, status rmcoc.ManualStatus, head string) rmcoc.ManualReview {
	b := rmcoc.ManualReview{RequestCommentID: rmcoc.ID(ref.ID), Status: status, HeadSHA: head}
	switch ref.Source {
	case state.SourceReview:
		b.Source = rmcoc.SourceReview
	case state.SourceDispatch:
		b.Source = rmcoc.SourceDispatch
	case state.SourceIssueComment, state.SourceReviewComment:
		// A comment's id: the block names no source.
	}
	return b
}
