// Package event is the domain's view of what triggered the run. The GitHub
// adapter decodes webhook payloads into it; nothing here knows go-github.
package event

import "errors"

// ErrUnsupported marks an event the action does not handle. The caller logs
// a notice and exits 0: a workflow that triggers on more events than needed
// must not turn red.
var ErrUnsupported = errors.New("unsupported event")

// Name is an event's name, as GITHUB_EVENT_NAME spells it.
type Name string

// Names of the events the action handles.
const (
	PullRequest              Name = "pull_request"
	PullRequestTarget        Name = "pull_request_target"
	IssueComment             Name = "issue_comment"
	PullRequestReviewComment Name = "pull_request_review_comment"
	PullRequestReview        Name = "pull_request_review"
	WorkflowDispatch         Name = "workflow_dispatch"
)

// Event is a decoded trigger.
type Event struct {
	Name   Name   // GITHUB_EVENT_NAME
	Action string // payload "action"; "" for workflow_dispatch
	Repo   string // "owner/name"
	Sender string // login of the actor, as REST spells it

	// PRNumber is 0 when the event is not about a pull request (an issue
	// comment on a plain issue, for example).
	PRNumber int
	Draft    bool   // the PR is a draft (known for pull_request events)
	Fork     bool   // the PR's head is in another repository (known for pull_request events)
	HeadSHA  string // head commit when the payload carries it
	BaseSHA  string // base commit when the payload carries it
	// Retargeted is set on a pull_request edited event that changed the
	// PR's base branch.
	Retargeted bool

	// Comment is set for issue_comment, pull_request_review_comment and
	// pull_request_review (the review body) events.
	Comment *Comment

	// Dispatch carries workflow_dispatch inputs.
	Dispatch map[string]string
	// RunID is the workflow run (GITHUB_RUN_ID), set for workflow_dispatch:
	// it names the manual review request the run makes, and stays the same
	// when the run is re-run.
	RunID int64
}

// Comment is the comment (or review body) an event is about.
type Comment struct {
	ID        int64
	Body      string
	Author    string // REST login, e.g. "octocat" or "github-actions[bot]"
	AuthorBot bool   // user.type == "Bot"
	InReplyTo int64  // review comments: the comment replied to
	IsReview  bool   // a pull_request_review_comment or review body
}

// ActionEdited is the pull_request action of an edit; it asks for a review
// when the edit changed the base (Event.Retargeted).
const ActionEdited = "edited"

// autoReview reports whether a pull_request action requests an automatic
// review.
func autoReview(action string) bool {
	switch action {
	case "opened", "synchronize", "reopened", "ready_for_review":
		return true
	}
	return false
}

// IsAutoReview reports whether the event asks for an automatic review: a
// new head, a PR opened or ready, or a new base (the same head against
// another base is another diff).
func (e Event) IsAutoReview() bool {
	return (e.Name == PullRequest || e.Name == PullRequestTarget) && (autoReview(e.Action) || e.Action == ActionEdited && e.Retargeted)
}

// ActionClosed is the pull_request action of a pull request closed, merged
// or not: its findings' fates are recorded.
const ActionClosed = "closed"

// IsClosed reports whether the event is a pull request closing.
func (e Event) IsClosed() bool {
	return (e.Name == PullRequest || e.Name == PullRequestTarget) && e.Action == ActionClosed
}
