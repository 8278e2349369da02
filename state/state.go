// Package state derives the action's whole process state from one PR
// snapshot. It is a pure function: no I/O, no clock. The only state the action
// keeps is the rmcoc blocks in the bot's own comments, so the trust rule lives
// here: a block counts only when the bot wrote the comment that holds it.
package state

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/review-my-code-bot/rmc/mention"
	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/snapshot"
)

// Source says what kind of GitHub object a mention lives in. Ids are unique
// only within a kind.
type Source string

const (
	SourceIssueComment  Source = "issue-comment"
	SourceReviewComment Source = "review-comment"
	SourceReview        Source = "review"
	// SourceDispatch is a workflow run started by hand (workflow_dispatch)
	// to ask for a review; its id is the run's id.
	SourceDispatch Source = "workflow-dispatch"
)

// Ref names one comment-like object.
type Ref struct {
	Source Source
	ID     int64
}

func (r Ref) String() string { return fmt.Sprintf("%s-%d", r.Source, r.ID) }

// Mention is a developer's comment addressed to the bot.
type Mention struct {
	Ref       Ref
	Author    snapshot.Actor
	Body      string // the whole comment
	Text      string // what was asked of the bot
	Handle    string // which handle was used
	CreatedAt time.Time
	URL       string
	// Thread is set for a mention inside a review thread: the answer goes
	// there, with the thread's file, line and hunk as context.
	Thread *ThreadRef
	// Handled says how the bot already dealt with it; "" means pending.
	Handled string
	// Placeholder is the bot's unfinished answer comment (in progress or
	// failed) that the next attempt edits instead of posting anew.
	Placeholder int64
	// Trusted is set when the author may ask for work: a collaborator,
	// owner or member, or the pull request's author.
	Trusted bool
}

// ThreadRef locates a review thread.
type ThreadRef struct {
	ID       string
	Path     string
	Line     int
	DiffHunk string
	// ReplyTo is the database id of the thread's root comment, the id the
	// REST reply endpoint needs.
	ReplyTo int64
}

// Ways a mention is handled.
const (
	HandledAnswered  = "answered"
	HandledReviewed  = "reviewed"
	HandledDismissed = "dismissed"
)

// Finding is a bot finding with its thread and effective status.
type Finding struct {
	Block         rmcoc.Finding
	Thread        snapshot.Thread
	RootCommentID int64
	// Status is the effective status: RESOLVED when the thread is resolved,
	// else the latest dispute-resolution block's, else the finding's own.
	Status rmcoc.FindingStatus
	// PendingReplies are developer replies the bot has not answered yet:
	// newer than the bot's last reply in the thread, with no dispute block
	// referencing them.
	PendingReplies []snapshot.ReviewComment
	// LastResolution is the latest dispute-resolution block, if any.
	LastResolution *rmcoc.DisputeResolution
	// ResolveDue is set when the bot decided the finding is resolved but
	// its thread is still open, with no reply since: a run was killed
	// between its reply and resolving the thread.
	ResolveDue bool
	// ResolvedBy is the maintainer whose resolution of the thread counts:
	// a user with write access or more who is not the PR's author.
	ResolvedBy *snapshot.Actor
	// Reopen is set when the thread of a blocking finding was resolved by
	// someone whose resolution does not count (the PR's author, a user
	// without write access, an unknown account): the finding keeps
	// blocking, and the thread is to be reopened. The Actor is the
	// resolver (Login "" when GitHub did not say).
	Reopen *snapshot.Actor
	// ReopenExplained is set with Reopen when the bot already replied to
	// this resolution (a run was killed before reopening the thread, or
	// the thread was resolved again without a word since): reopen only.
	ReopenExplained bool
	// Unjudged is the login whose resolution of a blocking finding's thread
	// cannot be judged yet: Options.Writers does not say whether it has
	// write access. The finding blocks meanwhile; see State.Resolvers.
	Unjudged string
	// Tampered is set when someone other than the bot edited the finding's
	// comment: its block cannot be trusted, so the finding blocks until a
	// verified fix, a concession or a maintainer resolves it.
	Tampered bool
}

// Open reports whether the finding still needs attention. A resolved thread
// alone does not close a finding: Status says whether the resolution counts.
func (f Finding) Open() bool { return f.Status != rmcoc.FindingResolved }

// Blocks reports whether the finding holds the merge gate closed: a blocking
// finding that is open (disputed, escalated and acknowledged ones still block).
func (f Finding) Blocks() bool { return f.Block.Blocking && f.Open() }

// Unfinished is a status comment to bring up to date.
type Unfinished struct {
	CommentID int64
	Requests  []Ref
	Run       rmcoc.ReviewRun
}

// CompletedReview is a review the bot finished.
type CompletedReview struct {
	Run      rmcoc.ReviewRun
	ReviewID int64 // the PR review that carries the block, 0 if in a comment
	At       time.Time
}

// State is the process state of one PR.
type State struct {
	Bot      snapshot.Actor
	Mentions []Mention // chronological
	Findings []Finding // in thread order
	Reviews  []CompletedReview
	// AutoTrigger is the latest recorded auto-review trigger, with the
	// comment that holds it (the bot's status comment).
	AutoTrigger        *rmcoc.AutoReviewTrigger
	AutoTriggerComment int64
	// StatusComment is the bot's sticky status comment, 0 when none yet.
	StatusComment int64
	// Failures counts task-error blocks by task key.
	Failures map[string]int
	// Notified holds review ids the coding agent was already told about.
	Notified map[int64]bool
	// Refused holds the logins already told they may not ask the bot for
	// work on this PR (lowercase).
	Refused map[string]bool
	// Unexplained are manual requests dismissed by an automatic review whose
	// explanation reply has not been posted yet.
	Unexplained []Ref
	// Unfinished are manual-review status comments still saying "in
	// progress" although a completed review answered their requests (a run
	// was killed between the review and the comment's update).
	Unfinished []Unfinished
	// Notices explain what was ignored: malformed blocks, blocks in comments
	// the bot did not write, and so on. They are shown in the job summary.
	Notices []string

	// requests and placeholders are how every recorded request was handled
	// and its unfinished status comment (see Request).
	requests     map[Ref]string
	placeholders map[Ref]int64
}

// Options are what Derive needs beyond the snapshot.
type Options struct {
	Bot     snapshot.Actor
	Handles []string // "@review-my-code-bot", "@rmc-bot"
	// Writers holds the lowercase logins known to have write, maintain or
	// admin permission on the repository: their resolution of a finding's
	// thread counts (unless they wrote the PR). Derive cannot ask GitHub;
	// the caller looks up the logins Resolvers names and derives again.
	Writers map[string]bool
	// ForkAuthorsCanAsk lets the author of a PR from a fork start model
	// work (questions, reviews, disputes) without write access. Off by
	// default: issue_comment runs carry the repository's model key.
	ForkAuthorsCanAsk bool
}

// Derive computes the state. It never fails: what it cannot read it reports
// in Notices and skips.
func Derive(snap snapshot.Snapshot, opt Options) State {
	st := State{Bot: opt.Bot, Failures: map[string]int{}, Notified: map[int64]bool{}, Refused: map[string]bool{}}
	d := deriver{st: &st, opt: opt}
	d.prAuthor, d.fork = snap.PR.Author, snap.PR.IsFork
	d.readBotBlocks(snap)
	d.findings(snap)
	d.mentions(snap)
	st.requests, st.placeholders = d.handled, d.placeholders
	return st
}

type deriver struct {
	st  *State
	opt Options
	// handled maps a mention ref to how it was handled.
	handled map[Ref]string
	// placeholders maps a mention ref to the bot comment holding its
	// unfinished answer.
	placeholders map[Ref]int64
	// reviewedBy maps a manual request to the review run that answered it.
	reviewedBy map[Ref]rmcoc.ReviewRun
	// dismissed collects manual requests dismissed by an automatic review,
	// and explained those whose explanation reply exists.
	dismissed, explained map[Ref]bool
	// answeredReplies are developer replies in threads with a dispute block.
	answeredReplies map[int64]bool
	prAuthor        snapshot.Actor
	fork            bool
}

// trusted reports whether an author may ask the bot for work: a
// collaborator, or the PR's author — on a PR from a fork only when the
// repository allows it (the author there need not have any access, and every
// comment would spend the repository's model key).
func (d *deriver) trusted(c snapshot.Comment) bool {
	return c.Trusted() || (c.Author.Is(d.prAuthor) && (!d.fork || d.opt.ForkAuthorsCanAsk))
}

// entitled reports whether a's resolution of a finding's thread counts: a
// user with write access or more who is not the PR's author. known is false
// when that depends on a permission Options.Writers does not hold.
func (d *deriver) entitled(a *snapshot.Actor) (ok, known bool) {
	if a == nil || a.Login == "" || a.IsBot || a.Is(d.prAuthor) {
		return false, true
	}
	ok, known = d.opt.Writers[strings.ToLower(a.Login)]
	return ok, known
}

// tampered reports whether someone other than the bot last edited a bot
// comment. Its blocks are then ignored: a maintainer can edit the bot's
// comments, and no edit but the bot's own may change its state.
func (d *deriver) tampered(editor *snapshot.Actor) bool { return editor != nil && !d.isBot(*editor) }

func (d *deriver) isBot(a snapshot.Actor) bool { return a.Is(d.opt.Bot) }

// blocks parses a body and returns its blocks only when the bot wrote it and
// nobody else edited it since. Blocks in anyone else's comment are reported
// and ignored: a developer who pastes {"status":"RESOLVED"} changes nothing.
//
// In the bot's own comments only the trailing state section counts (see
// rmcoc.ParseTrusted): a block in the prose above it is relayed text, and two
// blocks with one key mean the comment was edited; neither counts.
func (d *deriver) blocks(author snapshot.Actor, editor *snapshot.Actor, body, where string) []rmcoc.Block {
	if !d.isBot(author) {
		if blocks, _ := rmcoc.Parse(body); len(blocks) > 0 {
			d.st.Notices = append(d.st.Notices, fmt.Sprintf("ignored %d rmcoc block(s) in %s by @%s: only the bot's own blocks count", len(blocks), where, author.Login))
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

func (d *deriver) readBotBlocks(snap snapshot.Snapshot) {
	d.handled = map[Ref]string{}
	d.placeholders = map[Ref]int64{}
	d.reviewedBy = map[Ref]rmcoc.ReviewRun{}
	d.dismissed, d.explained = map[Ref]bool{}, map[Ref]bool{}
	d.answeredReplies = map[int64]bool{}
	var latestTrigger time.Time
	for _, c := range snap.IssueComments {
		for _, b := range d.blocks(c.Author, c.Editor, c.Body, fmt.Sprintf("comment %d", c.ID)) {
			switch b := b.(type) {
			case rmcoc.AutoReviewTrigger:
				d.st.StatusComment = c.ID
				if d.st.AutoTrigger == nil || !b.TriggeredAt.Before(latestTrigger) {
					t := b
					d.st.AutoTrigger, d.st.AutoTriggerComment, latestTrigger = &t, c.ID, b.TriggeredAt
				}
			case rmcoc.ReviewRun:
				d.review(b, 0, c.CreatedAt)
			default:
				d.common(b, c.ID)
			}
		}
	}
	for _, r := range snap.Reviews {
		for _, b := range d.blocks(r.Author, r.Editor, r.Body, fmt.Sprintf("review %d", r.ID)) {
			if run, ok := b.(rmcoc.ReviewRun); ok {
				d.review(run, r.ID, r.SubmittedAt)
				continue
			}
			d.common(b, 0)
		}
	}
	for _, t := range snap.Threads {
		for _, c := range t.Comments {
			for _, b := range d.blocks(c.Author, c.Editor, c.Body, fmt.Sprintf("review comment %d", c.ID)) {
				d.common(b, c.ID)
			}
		}
	}
	for ref := range d.dismissed {
		if !d.explained[ref] {
			d.st.Unexplained = append(d.st.Unexplained, ref)
		}
	}
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
	for _, u := range byComment {
		slices.SortFunc(u.Requests, func(a, b Ref) int { return int(a.ID - b.ID) })
		d.st.Unfinished = append(d.st.Unfinished, *u)
	}
	slices.SortFunc(d.st.Unfinished, func(a, b Unfinished) int { return int(a.CommentID - b.CommentID) })
	slices.SortFunc(d.st.Unexplained, func(a, b Ref) int { return int(a.ID - b.ID) })
}

// common handles the blocks that may sit in any bot comment; holder is the
// comment's id (0 for a review body).
func (d *deriver) common(b rmcoc.Block, holder int64) {
	switch b := b.(type) {
	case rmcoc.QuestionAnswer:
		ref := refOf(b.Source, int64(b.ReplyToCommentID), b.ThreadID != "")
		switch b.Status {
		case rmcoc.AnswerInProgress, rmcoc.AnswerFailed:
			if holder != 0 && d.placeholders[ref] == 0 {
				d.placeholders[ref] = holder
			}
		default:
			d.handled[ref] = HandledAnswered
		}
	case rmcoc.ManualReview:
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
		}
	case rmcoc.DisputeResolution:
		d.answeredReplies[int64(b.ReplyToCommentID)] = true
	case rmcoc.TaskError:
		d.st.Failures[b.TaskKey] += max(1, b.Attempts)
	case rmcoc.AgentNotice:
		d.st.Notified[int64(b.ReviewID)] = true
	case rmcoc.AccessNotice:
		d.st.Refused[strings.ToLower(b.User)] = true
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

// findings reads the bot's finding threads and their dispute history.
func (d *deriver) findings(snap snapshot.Snapshot) {
	for _, t := range snap.Threads {
		root := t.Root()
		if root == nil {
			continue
		}
		if root.ReplyToID != 0 {
			// The thread's first comment is a reply: its root was deleted.
			// If it was a finding, nothing trustworthy is left to judge.
			d.st.Notices = append(d.st.Notices, fmt.Sprintf("skipped review thread %s on %s: its first comment was deleted", t.ID, t.Path))
			continue
		}
		if !d.isBot(root.Author) {
			continue
		}
		fs := rmcoc.TrustedAll[rmcoc.Finding](root.Body)
		tampered := d.tampered(root.Editor)
		if len(fs) == 0 {
			// Two finding blocks in the bot's comment: it was edited, though
			// GitHub did not say so. Dropping the finding would open the
			// gate; holding it, as for any edit, keeps it shut.
			if len(rmcoc.ParseTrusted(root.Body).Tampered) == 0 {
				continue
			}
			if fs = rmcoc.All[rmcoc.Finding](root.Body); len(fs) == 0 {
				continue
			}
			tampered = true
		}
		f := Finding{Block: fs[0], Thread: t, RootCommentID: root.ID, Status: fs[0].Status}
		if f.Status == "" {
			f.Status = rmcoc.FindingOpen
		}
		if tampered {
			// Nothing in the block can be believed, its blocking flag and
			// status least of all: the finding holds the gate until a
			// verified fix, a concession or a maintainer closes it.
			f.Tampered, f.Block.Blocking, f.Status = true, true, rmcoc.FindingOpen
		}
		lastBot := root.CreatedAt
		var lastNotice *snapshot.ReviewComment
		for i, c := range t.Comments[1:] {
			if !d.isBot(c.Author) {
				lastNotice = nil
				continue
			}
			if d.tampered(c.Editor) {
				continue // it answers nothing: the replies before it are pending again
			}
			res := rmcoc.TrustedAll[rmcoc.DisputeResolution](c.Body)
			if len(res) > 0 && res[len(res)-1].Resolution == rmcoc.ResolutionReopened {
				// A reopen notice answers no reply and changes no status.
				lastNotice = &t.Comments[1+i]
				continue
			}
			lastNotice, lastBot = nil, c.CreatedAt
			if len(res) > 0 {
				r := res[len(res)-1]
				f.LastResolution, f.Status = &r, r.Status
			}
		}
		if last := t.Comments[len(t.Comments)-1]; !t.IsResolved && f.Status == rmcoc.FindingResolved && d.isBot(last.Author) && len(rmcoc.TrustedAll[rmcoc.DisputeResolution](last.Body)) > 0 {
			f.ResolveDue = true
		}
		if t.IsResolved {
			d.resolution(&f, t.ResolvedBy, lastNotice != nil)
		}
		if f.Status != rmcoc.FindingResolved {
			for _, c := range t.Comments[1:] {
				if c.Author.IsBot || d.answeredReplies[c.ID] || !c.CreatedAt.After(lastBot) {
					continue
				}
				if !d.trusted(c.Comment) {
					// Anyone may comment on a public PR; only people with
					// access may argue a finding off the merge gate.
					d.st.Notices = append(d.st.Notices, fmt.Sprintf("ignored a reply by @%s on finding %q: not a collaborator or the PR's author", c.Author.Login, f.Block.Title))
					continue
				}
				f.PendingReplies = append(f.PendingReplies, c)
			}
		}
		d.st.Findings = append(d.st.Findings, f)
	}
}

// resolution judges a resolved thread. The bot's own resolution (a verified
// fix, a concession) is already in f.Status. Anyone may close a finding that
// does not block; a blocking one is closed by a maintainer — write access or
// more, and not the PR's author, who can resolve threads on their own PR
// without any access. Any other resolution leaves the finding open, for the
// thread to be reopened.
func (d *deriver) resolution(f *Finding, by *snapshot.Actor, explained bool) {
	if !f.Block.Blocking {
		f.Status = rmcoc.FindingResolved
	}
	switch ok, known := d.entitled(by); {
	case f.Status == rmcoc.FindingResolved:
	case ok:
		f.Status, f.ResolvedBy = rmcoc.FindingResolved, by
	case !known:
		f.Unjudged = by.Login
	default:
		who := snapshot.Actor{}
		if by != nil {
			who = *by
		}
		f.Reopen, f.ReopenExplained = &who, explained
	}
}

// mentions collects developer comments addressed to the bot.
func (d *deriver) mentions(snap snapshot.Snapshot) {
	add := func(m Mention) {
		if d.isBot(m.Author) || m.Author.IsBot {
			return // the bot never answers itself; other bots are ignored
		}
		m.Handled = d.handled[m.Ref]
		if m.Handled == "" {
			m.Placeholder = d.placeholders[m.Ref]
		}
		d.st.Mentions = append(d.st.Mentions, m)
	}
	for _, c := range snap.IssueComments {
		if mm, ok := mention.Find(c.Body, d.opt.Handles); ok {
			add(Mention{Ref: Ref{SourceIssueComment, c.ID}, Author: c.Author, Body: c.Body, Text: mm.Text, Handle: mm.Handle, CreatedAt: c.CreatedAt, URL: c.URL, Trusted: d.trusted(c)})
		}
	}
	for _, r := range snap.Reviews {
		if mm, ok := mention.Find(r.Body, d.opt.Handles); ok {
			add(Mention{Ref: Ref{SourceReview, r.ID}, Author: r.Author, Body: r.Body, Text: mm.Text, Handle: mm.Handle, CreatedAt: r.SubmittedAt,
				Trusted: d.trusted(snapshot.Comment{Author: r.Author, Association: r.Association})})
		}
	}
	findingThreads := map[string]bool{}
	for _, f := range d.st.Findings {
		findingThreads[f.Thread.ID] = true
	}
	for _, t := range snap.Threads {
		if findingThreads[t.ID] {
			continue // replies on a finding are disputes, handled there
		}
		if len(t.Comments) > 0 && t.Comments[0].ReplyToID != 0 {
			continue // its first comment was deleted (noticed in findings)
		}
		for _, c := range t.Comments {
			mm, ok := mention.Find(c.Body, d.opt.Handles)
			if !ok {
				continue
			}
			ref := &ThreadRef{ID: t.ID, Path: t.Path, Line: t.Line, DiffHunk: c.DiffHunk, ReplyTo: t.Comments[0].ID}
			add(Mention{Ref: Ref{SourceReviewComment, c.ID}, Author: c.Author, Body: c.Body, Text: mm.Text, Handle: mm.Handle, CreatedAt: c.CreatedAt, URL: c.URL, Thread: ref, Trusted: d.trusted(c.Comment)})
		}
	}
	slices.SortStableFunc(d.st.Mentions, func(a, b Mention) int { return a.CreatedAt.Compare(b.CreatedAt) })
}
