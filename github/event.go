package github

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	gogithub "github.com/google/go-github/v62/github"

	"github.com/review-my-code-bot/rmc/event"
)

// ParseEvent decodes a webhook payload (the file at GITHUB_EVENT_PATH) for the
// event named by GITHUB_EVENT_NAME.
func ParseEvent(name string, payload []byte) (event.Event, error) {
	if !json.Valid(payload) {
		return event.Event{}, fmt.Errorf("event payload for %q is not JSON", name)
	}
	ev := event.Event{Name: event.Name(name)}
	switch ev.Name {
	case event.WorkflowDispatch:
		return parseDispatch(payload)
	case event.PullRequest, event.PullRequestTarget, event.IssueComment,
		event.PullRequestReviewComment, event.PullRequestReview:
	default:
		return ev, fmt.Errorf("%w: %q (the action handles pull_request, issue_comment, pull_request_review_comment, pull_request_review and workflow_dispatch)", event.ErrUnsupported, name)
	}
	// pull_request_target has the pull_request payload; go-github knows it by
	// that name too.
	raw, err := gogithub.ParseWebHook(name, payload)
	if err != nil {
		return ev, fmt.Errorf("decode %s payload: %w", name, err)
	}
	if t, ok := raw.(*gogithub.PullRequestTargetEvent); ok {
		// Same payload as pull_request; read it through one path.
		raw = &gogithub.PullRequestEvent{Action: t.Action, Number: t.Number, PullRequest: t.PullRequest, Repo: t.Repo, Sender: t.Sender, Changes: t.Changes}
	}
	switch e := raw.(type) {
	case *gogithub.PullRequestEvent:
		err = pullRequestEvent(&ev, e)
	case *gogithub.IssueCommentEvent:
		err = issueCommentEvent(&ev, e)
	case *gogithub.PullRequestReviewCommentEvent:
		err = reviewCommentEvent(&ev, e)
	case *gogithub.PullRequestReviewEvent:
		err = reviewEvent(&ev, e)
	default:
		err = fmt.Errorf("%w: %q decoded as %T", event.ErrUnsupported, name, raw)
	}
	if err != nil {
		return ev, err
	}
	if ev.Repo == "" {
		return ev, fmt.Errorf("%s payload has no repository.full_name", name)
	}
	if ev.PRNumber <= 0 {
		return ev, fmt.Errorf("%s payload names no pull request number", name)
	}
	return ev, nil
}

// pullRequestEvent reads a pull_request (or pull_request_target) event:
// the actions that ask for an automatic review.
func pullRequestEvent(ev *event.Event, e *gogithub.PullRequestEvent) error {
	ev.Action, ev.Repo, ev.Sender = e.GetAction(), e.GetRepo().GetFullName(), e.GetSender().GetLogin()
	pr := e.GetPullRequest()
	ev.PRNumber, ev.Draft, ev.HeadSHA, ev.BaseSHA = pr.GetNumber(), pr.GetDraft(), pr.GetHead().GetSHA(), pr.GetBase().GetSHA()
	if head := pr.GetHead().GetRepo().GetFullName(); head != "" && head != e.GetRepo().GetFullName() {
		ev.Fork = true
	}
	if ev.PRNumber == 0 {
		ev.PRNumber = e.GetNumber()
	}
	if ev.Action == event.ActionEdited {
		// Only a new base is news to the review: the same head against
		// another base is another diff.
		if b := e.GetChanges().GetBase(); b == nil || b.GetRef().GetFrom() == "" && b.GetSHA().GetFrom() == "" {
			return fmt.Errorf("%w: pull_request edited without a change of base (a new title or body needs no review)", event.ErrUnsupported)
		}
		ev.Retargeted = true
	}
	if !ev.IsAutoReview() && !ev.IsClosed() {
		return fmt.Errorf("%w: pull_request action %q (reviews run on opened, synchronize, reopened, ready_for_review, and edited with a new base; closed records the outcome)", event.ErrUnsupported, ev.Action)
	}
	return nil
}

// issueCommentEvent reads a comment in a pull request's conversation.
func issueCommentEvent(ev *event.Event, e *gogithub.IssueCommentEvent) error {
	ev.Action, ev.Repo, ev.Sender = e.GetAction(), e.GetRepo().GetFullName(), e.GetSender().GetLogin()
	if e.GetIssue().GetPullRequestLinks() == nil {
		return fmt.Errorf("%w: issue_comment on issue #%d, which is not a pull request", event.ErrUnsupported, e.GetIssue().GetNumber())
	}
	ev.PRNumber = e.GetIssue().GetNumber()
	c := e.GetComment()
	ev.Comment = &event.Comment{ID: c.GetID(), Body: c.GetBody(), Author: c.GetUser().GetLogin(), AuthorBot: c.GetUser().GetType() == "Bot"}
	if ev.Action != "created" && ev.Action != "edited" {
		return fmt.Errorf("%w: issue_comment action %q (created and edited are handled)", event.ErrUnsupported, ev.Action)
	}
	return nil
}

// reviewCommentEvent reads a comment in a review thread.
func reviewCommentEvent(ev *event.Event, e *gogithub.PullRequestReviewCommentEvent) error {
	ev.Action, ev.Repo, ev.Sender = e.GetAction(), e.GetRepo().GetFullName(), e.GetSender().GetLogin()
	pr := e.GetPullRequest()
	ev.PRNumber, ev.Draft, ev.HeadSHA, ev.BaseSHA = pr.GetNumber(), pr.GetDraft(), pr.GetHead().GetSHA(), pr.GetBase().GetSHA()
	c := e.GetComment()
	ev.Comment = &event.Comment{ID: c.GetID(), Body: c.GetBody(), Author: c.GetUser().GetLogin(), AuthorBot: c.GetUser().GetType() == "Bot", InReplyTo: c.GetInReplyTo(), IsReview: true}
	if ev.Action != "created" {
		return fmt.Errorf("%w: pull_request_review_comment action %q (created is handled)", event.ErrUnsupported, ev.Action)
	}
	return nil
}

// reviewEvent reads a submitted review's body.
func reviewEvent(ev *event.Event, e *gogithub.PullRequestReviewEvent) error {
	ev.Action, ev.Repo, ev.Sender = e.GetAction(), e.GetRepo().GetFullName(), e.GetSender().GetLogin()
	pr := e.GetPullRequest()
	ev.PRNumber, ev.Draft, ev.HeadSHA, ev.BaseSHA = pr.GetNumber(), pr.GetDraft(), pr.GetHead().GetSHA(), pr.GetBase().GetSHA()
	r := e.GetReview()
	ev.Comment = &event.Comment{ID: r.GetID(), Body: r.GetBody(), Author: r.GetUser().GetLogin(), AuthorBot: r.GetUser().GetType() == "Bot", IsReview: true}
	if ev.Action != "submitted" {
		return fmt.Errorf("%w: pull_request_review action %q (submitted is handled)", event.ErrUnsupported, ev.Action)
	}
	return nil
}

// parseDispatch reads a workflow_dispatch payload; the PR number comes from
// the input "pr" or "pull_request" (or "number").
func parseDispatch(payload []byte) (event.Event, error) {
	var e gogithub.WorkflowDispatchEvent
	if err := json.Unmarshal(payload, &e); err != nil {
		return event.Event{}, fmt.Errorf("decode workflow_dispatch payload: %w", err)
	}
	ev := event.Event{Name: event.WorkflowDispatch, Repo: e.GetRepo().GetFullName(), Sender: e.GetSender().GetLogin(), Dispatch: map[string]string{}}
	var inputs map[string]any
	if len(e.Inputs) > 0 {
		if err := json.Unmarshal(e.Inputs, &inputs); err != nil {
			return ev, fmt.Errorf("workflow_dispatch inputs are not an object: %w", err)
		}
	}
	for k, v := range inputs {
		ev.Dispatch[k] = strings.TrimSpace(fmt.Sprint(v))
	}
	for _, k := range []string{"pr", "pull_request", "pr_number", "number"} {
		if v := strings.TrimPrefix(ev.Dispatch[k], "#"); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n <= 0 {
				return ev, fmt.Errorf("workflow_dispatch input %q = %q is not a pull request number", k, ev.Dispatch[k])
			}
			ev.PRNumber = n
			break
		}
	}
	if ev.PRNumber == 0 {
		return ev, errors.New(`workflow_dispatch needs a pull request number: declare an input "pr" in the workflow and pass it`)
	}
	if ev.Repo == "" {
		return ev, errors.New("workflow_dispatch payload has no repository.full_name")
	}
	return ev, nil
}
