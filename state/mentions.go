package state

import (
	"fmt"
	"slices"
	"time"

	"github.com/review-my-code-bot/rmc/mention"
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
	Handled Handling
	// Placeholder is the bot's unfinished answer comment (in progress or
	// failed) that the next attempt edits instead of posting anew; Failed
	// says it holds a failure (the attempt ended).
	Placeholder int64
	Failed      bool
	// HolderRun is the workflow run that wrote an unfinished placeholder.
	HolderRun string
	// Trusted is set when the author may ask for work: a collaborator,
	// owner or member, or the pull request's author.
	Trusted bool
	// Arg is the command's argument (a waive's finding id); "" for a
	// command that takes none, and for anything else.
	Arg string
	// Edited is set when someone other than the author edited the comment.
	Edited bool
	// Command is the registered command the mention gives ("" for a
	// request or a question); Allowed is set when the command counts: its
	// author is one its Who allows, and it is unedited.
	Command Command
	Allowed bool
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

// Handling is how the bot dealt with a mention or request.
type Handling string

// Ways a mention is handled; "" is pending.
const (
	HandledAnswered  Handling = "answered"
	HandledReviewed  Handling = "reviewed"
	HandledDismissed Handling = "dismissed"
)

// mentions collects developer comments addressed to the bot.
func (d *deriver) mentions(snap snapshot.Snapshot) {
	add := func(m Mention) {
		if d.isBot(m.Author) || m.Author.IsBot {
			return // the bot never answers itself; other bots are ignored
		}
		if c, arg, ok := ParseCommand(m.Text); ok && m.Ref.Source == SourceIssueComment {
			m.Command, m.Arg = c, arg
		}
		m.Handled = d.handled[m.Ref]
		if m.Handled == "" {
			m.Placeholder, m.Failed, m.HolderRun = d.placeholders[m.Ref], d.failed[m.Ref], d.holders[m.Ref]
		}
		d.st.Mentions = append(d.st.Mentions, m)
	}
	for _, c := range snap.IssueComments {
		if mm, ok := mention.Find(c.Body, d.opt.Handles); ok {
			add(Mention{Ref: Ref{SourceIssueComment, c.ID}, Author: c.Author, Body: c.Body, Text: mm.Text, Handle: mm.Handle, CreatedAt: c.CreatedAt, URL: c.URL, Trusted: d.trusted(c),
				Edited: c.Editor != nil && !c.Editor.Is(c.Author)})
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
