package state

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/snapshot"
)

// blocks parses a body and returns its blocks only when the bot wrote it and
// nobody else edited it since. Blocks in anyone else's comment are reported
// and ignored: a developer who pastes {"status":"RESOLVED"} changes nothing.
//
// In the bot's own comments only the trailing state section counts (see
// rmcoc.ParseTrusted): a block in the prose above it is relayed text, and two
// blocks with one key mean the comment was edited; neither counts.
func (d *deriver) blocks(author snapshot.Actor, editor *snapshot.Actor, body, where string) []rmcoc.Block {
	if !d.isBot(author) {
		// Malformed ones too: a forged block is reported whether or not
		// it decodes.
		if blocks, errs := rmcoc.Parse(body); len(blocks)+len(errs) > 0 {
			d.st.Notices = append(d.st.Notices, fmt.Sprintf("ignored %d rmcoc block(s) in %s by @%s: only the bot's own blocks count", len(blocks)+len(errs), where, author.Login))
		}
		return nil
	}
	if d.tampered(editor) {
		d.st.Notices = append(d.st.Notices, fmt.Sprintf("ignored the rmcoc blocks in %s: @%s edited the bot's comment, so its state cannot be trusted", where, editor.Login))
		return nil
	}
	tr := rmcoc.ParseTrusted(body)
	for _, e := range tr.Errs {
		d.st.Notices = append(d.st.Notices, fmt.Sprintf("skipped a malformed rmcoc block in %s: %v", where, e))
	}
	if tr.Prose > 0 {
		d.st.Notices = append(d.st.Notices, fmt.Sprintf("ignored %d rmcoc block(s) in the text of %s: only the state section the bot appends counts", tr.Prose, where))
	}
	for _, k := range tr.Tampered {
		d.st.Notices = append(d.st.Notices, fmt.Sprintf("warning: %s holds more than one %s block, which the bot never writes: the comment was edited, and none of them counts", where, k))
	}
	return tr.Blocks
}

// editor is the login of someone other than the bot who last edited a bot
// comment, "" when no one did.
func (d *deriver) editor(e *snapshot.Actor) string {
	if !d.tampered(e) {
		return ""
	}
	if e.Login == "" {
		return "someone"
	}
	return e.Login
}

// readBotBlocks reads the bot's state blocks from its comments, reviews and
// review comments, then lists the dismissals it never explained and the
// answers still pending in a placeholder comment.
func (d *deriver) readBotBlocks(snap snapshot.Snapshot) {
	d.handled = map[Ref]Handling{}
	d.placeholders = map[Ref]int64{}
	d.failed = map[Ref]bool{}
	d.holders = map[Ref]string{}
	d.reviewedBy = map[Ref]rmcoc.ReviewRun{}
	d.dismissed, d.explained = map[Ref]bool{}, map[Ref]bool{}
	d.answeredReplies = map[int64]bool{}
	d.readIssueComments(snap.IssueComments)
	for _, r := range snap.Reviews {
		bs := d.blocks(r.Author, r.Editor, r.Body, fmt.Sprintf("review %d", r.ID))
		if d.isBot(r.Author) {
			d.chain.hold(rmcoc.HolderReview, r.ID, r.SubmittedAt, d.editor(r.Editor), bs)
			d.chain.review(r, d.tampered(r.Editor))
		}
		for _, b := range bs {
			if run, ok := b.(rmcoc.ReviewRun); ok {
				d.review(run, r.ID, r.SubmittedAt)
				continue
			}
			d.common(b, 0)
		}
	}
	for _, t := range snap.Threads {
		for _, c := range t.Comments {
			bs := d.blocks(c.Author, c.Editor, c.Body, fmt.Sprintf("review comment %d", c.ID))
			if d.isBot(c.Author) {
				d.chain.hold(rmcoc.HolderReviewComment, c.ID, c.CreatedAt, d.editor(c.Editor), bs)
			}
			for _, b := range bs {
				d.common(b, c.ID)
			}
		}
	}
	for ref := range d.dismissed {
		if !d.explained[ref] {
			d.st.Unexplained = append(d.st.Unexplained, ref)
		}
	}
	slices.SortFunc(d.st.Unexplained, func(a, b Ref) int { return int(a.ID - b.ID) })
	d.st.Unfinished = d.unfinished()
}

// readIssueComments reads the blocks of the conversation's comments: the
// latest automatic-review trigger and the status comment holding it, review
// runs, and the blocks any bot comment may hold.
func (d *deriver) readIssueComments(comments []snapshot.Comment) {
	var latestTrigger time.Time
	for _, c := range comments {
		bs := d.blocks(c.Author, c.Editor, c.Body, fmt.Sprintf("comment %d", c.ID))
		if d.isBot(c.Author) {
			d.chain.hold(rmcoc.HolderComment, c.ID, c.CreatedAt, d.editor(c.Editor), bs)
		}
		for _, b := range bs {
			switch b := b.(type) {
			case rmcoc.AutoReviewTrigger:
				d.st.StatusComment = c.ID
				if d.st.AutoTrigger == nil || !b.TriggeredAt.Before(latestTrigger) {
					t := b
					d.st.AutoTrigger, d.st.AutoTriggerComment, latestTrigger = &t, c.ID, b.TriggeredAt
				}
			case rmcoc.ReviewRun:
				if b.Continues != 0 {
					d.st.Spills = append(d.st.Spills, b)
					continue
				}
				d.review(b, 0, c.CreatedAt)
			default:
				d.common(b, c.ID)
			}
		}
	}
}

// unfinished lists the status comments still saying "in progress" although
// a completed review answered their requests, each with those requests, in
// comment and request order.
func (d *deriver) unfinished() []Unfinished {
	byComment := map[int64]*Unfinished{}
	for ref, holder := range d.placeholders {
		run, ok := d.reviewedBy[ref]
		if !ok {
			continue
		}
		u := byComment[holder]
		if u == nil {
			u = &Unfinished{CommentID: holder, Run: run}
			byComment[holder] = u
		}
		u.Requests = append(u.Requests, ref)
	}
	var out []Unfinished
	for _, u := range byComment {
		slices.SortFunc(u.Requests, func(a, b Ref) int { return int(a.ID - b.ID) })
		out = append(out, *u)
	}
	slices.SortFunc(out, func(a, b Unfinished) int { return int(a.CommentID - b.CommentID) })
	return out
}

// common handles the blocks that may sit in any bot comment; holder is the
// comment's id (0 for a review body).
func (d *deriver) common(b rmcoc.Block, holder int64) {
	switch b := b.(type) {
	case rmcoc.QuestionAnswer:
		d.answer(b, holder)
	case rmcoc.ManualReview:
		d.manualReview(b, holder)
	case rmcoc.DisputeResolution:
		d.answeredReplies[int64(b.ReplyToCommentID)] = true
	case rmcoc.TaskError:
		d.st.Failures[b.TaskKey] += max(1, b.Attempts)
		d.st.FailureText[b.TaskKey] = b.Message
	case rmcoc.AgentNotice:
		d.st.Notified[int64(b.ReviewID)] = true
	case rmcoc.AccessNotice:
		d.st.Refused[strings.ToLower(b.User)] = true
	case rmcoc.EvidenceNotice:
		for _, id := range b.FindingIDs {
			d.st.EvidenceNoticed[id] = true
		}
	case rmcoc.Waiver:
		ref := Ref{SourceIssueComment, int64(b.CommandCommentID)}
		d.handled[ref] = HandledAnswered
		if _, seen := d.st.waiverAnswers[ref]; !seen {
			d.st.waiverAnswers[ref] = b // the first answer is what the command did
		}
	case rmcoc.CommandAnswer:
		ref := Ref{SourceIssueComment, int64(b.CommandCommentID)}
		d.handled[ref] = HandledAnswered
		if _, seen := d.st.answers[ref]; !seen {
			d.st.answers[ref] = b // the first answer is what the command did
		}
	case rmcoc.Walkthrough:
		if holder != 0 && (d.st.Walkthrough == 0 || holder < d.st.Walkthrough) {
			d.st.Walkthrough, d.st.WalkthroughFiles = holder, b.Files
		}
	}
}

// answer records a question's answer: handled once given; while in progress
// or after a failure, its first placeholder comment (and the run holding it)
// is remembered, so that a later run can finish it.
func (d *deriver) answer(b rmcoc.QuestionAnswer, holder int64) {
	ref := refOf(b.Source, int64(b.ReplyToCommentID), b.ThreadID != "")
	switch b.Status {
	case rmcoc.AnswerInProgress, rmcoc.AnswerFailed:
		if holder != 0 && d.placeholders[ref] == 0 {
			d.placeholders[ref], d.holders[ref] = holder, b.RunID
		}
		if b.Status == rmcoc.AnswerFailed {
			d.failed[ref] = true
		}
	case rmcoc.AnswerAnswered:
		d.handled[ref] = HandledAnswered
	default:
		// "" is ANSWERED (older blocks wrote none); a status this version
		// does not know counts as answered too, so that no question is
		// answered twice.
		d.handled[ref] = HandledAnswered
	}
}

// manualReview records a requested review: reviewed, dismissed (which
// explains the dismissal), or in progress in its first placeholder comment.
func (d *deriver) manualReview(b rmcoc.ManualReview, holder int64) {
	ref := refOf(b.Source, int64(b.RequestCommentID), false)
	switch b.Status {
	case rmcoc.ManualCompleted:
		d.handled[ref] = HandledReviewed
	case rmcoc.ManualDismissed:
		d.handled[ref] = HandledDismissed
		d.explained[ref] = true
	case rmcoc.ManualInProgress:
		if holder != 0 && d.placeholders[ref] == 0 {
			d.placeholders[ref] = holder
		}
	case rmcoc.ManualPending:
		// A request not taken up yet is still owed its review: nothing to
		// record.
	}
}

func (d *deriver) review(run rmcoc.ReviewRun, reviewID int64, at time.Time) {
	d.st.Reviews = append(d.st.Reviews, CompletedReview{Run: run, ReviewID: reviewID, At: at})
	for _, id := range run.RequestCommentIDs {
		d.handled[Ref{SourceIssueComment, int64(id)}] = HandledReviewed
		d.reviewedBy[Ref{SourceIssueComment, int64(id)}] = run
	}
	for _, id := range run.RequestReviewIDs {
		d.handled[Ref{SourceReview, int64(id)}] = HandledReviewed
		d.reviewedBy[Ref{SourceReview, int64(id)}] = run
	}
	for _, id := range run.RequestRunIDs {
		d.handled[Ref{SourceDispatch, int64(id)}] = HandledReviewed
		d.reviewedBy[Ref{SourceDispatch, int64(id)}] = run
	}
	dismiss := func(ref Ref) {
		if d.handled[ref] == "" {
			d.handled[ref] = HandledDismissed
		}
		d.dismissed[ref] = true
	}
	for _, id := range run.DismissedRequestIDs {
		dismiss(Ref{SourceIssueComment, int64(id)})
	}
	for _, id := range run.DismissedReviewIDs {
		dismiss(Ref{SourceReview, int64(id)})
	}
	for _, id := range run.DismissedRunIDs {
		dismiss(Ref{SourceDispatch, int64(id)})
	}
}

func refOf(source string, id int64, inThread bool) Ref {
	switch {
	case source == rmcoc.SourceReview:
		return Ref{SourceReview, id}
	case source == rmcoc.SourceDispatch:
		return Ref{SourceDispatch, id}
	case inThread:
		return Ref{SourceReviewComment, id}
	}
	return Ref{SourceIssueComment, id}
}
