// Package state derives the action's whole process state from one PR
// snapshot. It is a pure function: no I/O, no clock. The only state the action
// keeps is the rmcoc blocks in the bot's own comments, so the trust rule lives
// here: a block counts only when the bot wrote the comment that holds it.
package state

import (
	"strings"
	"time"

	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/snapshot"
)

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
	// Spills are the continuation blocks of reviews that read more blobs
	// than one block holds (rmcoc.ReviewRun.Continues).
	Spills []rmcoc.ReviewRun
	// AutoTrigger is the latest recorded auto-review trigger, with the
	// comment that holds it (the bot's status comment).
	AutoTrigger        *rmcoc.AutoReviewTrigger
	AutoTriggerComment int64
	// Walkthrough is the bot's walkthrough comment, 0 when none yet (the
	// oldest, should overlapping runs have written two).
	Walkthrough int64
	// WalkthroughFiles are the per-file lines its block keeps.
	WalkthroughFiles []rmcoc.FileLine
	// StatusComment is the bot's sticky status comment, 0 when none yet.
	StatusComment int64
	// Failures counts task-error blocks by task key; FailureText is the
	// latest one's message.
	Failures    map[string]int
	FailureText map[string]string
	// Waived holds the ids of findings a maintainer waived, and
	// EvidenceNoticed those the bot already said were deleted.
	Waived, EvidenceNoticed map[string]bool
	// WaivedBy holds the findings a maintainer's resolve command waived,
	// by id: they no longer hold the gate.
	WaivedBy map[string]Waiver
	// Pause is set while automatic reviews of the PR are off: a pause
	// command not followed by a resume, or "@rmc-bot ignore" in the
	// description.
	Pause *Pause
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
	// Chain is the gate ledger: its cuts, newest block and tips.
	Chain Chain
	// Notices explain what was ignored: malformed blocks, blocks in comments
	// the bot did not write, and so on. They are shown in the job summary.
	Notices []string

	// requests and placeholders are how every recorded request was handled
	// and its unfinished status comment (see Request).
	requests     map[Ref]Handling
	placeholders map[Ref]int64
	waivers      []string // logins of waive commands whose permission is unknown
	// answers are the bot's answers to commands, by command: what an
	// answered command applied to is what its answer recorded.
	answers       map[Ref]rmcoc.CommandAnswer
	waiverAnswers map[Ref]rmcoc.Waiver
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
	st := State{Bot: opt.Bot, Failures: map[string]int{}, FailureText: map[string]string{}, Waived: map[string]bool{}, WaivedBy: map[string]Waiver{}, EvidenceNoticed: map[string]bool{}, Notified: map[int64]bool{}, Refused: map[string]bool{}, answers: map[Ref]rmcoc.CommandAnswer{}, waiverAnswers: map[Ref]rmcoc.Waiver{}}
	d := deriver{st: &st, opt: opt}
	d.prAuthor, d.fork = snap.PR.Author, snap.PR.IsFork
	d.readBotBlocks(snap)
	d.readChain()
	d.findings(snap)
	d.noteEdits()
	d.fixesHeld(snap.PR)
	d.mentions(snap)
	d.commands(snap.PR)
	d.cutNotices()
	st.requests, st.placeholders = d.handled, d.placeholders
	return st
}

type deriver struct {
	st  *State
	opt Options
	// handled maps a mention ref to how it was handled.
	handled map[Ref]Handling
	// placeholders maps a mention ref to the bot comment holding its
	// unfinished answer; failed holds those whose answer is a failure.
	placeholders map[Ref]int64
	failed       map[Ref]bool
	holders      map[Ref]string // the run that wrote the placeholder
	// reviewedBy maps a manual request to the review run that answered it.
	reviewedBy map[Ref]rmcoc.ReviewRun
	// dismissed collects manual requests dismissed by an automatic review,
	// and explained those whose explanation reply exists.
	dismissed, explained map[Ref]bool
	// answeredReplies are developer replies in threads with a dispute block.
	answeredReplies map[int64]bool
	prAuthor        snapshot.Actor
	fork            bool
	// chain collects the gate ledger's blocks (see ledger.go).
	chain chainReader
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
