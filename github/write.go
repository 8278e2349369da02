package github

import (
	"context"
	"fmt"
	"time"

	gogithub "github.com/google/go-github/v62/github"
	"github.com/shurcooL/githubv4"

	"github.com/review-my-code-bot/rmc/snapshot"
)

// CreateComment posts a comment in the PR's conversation.
func (c *Client) CreateComment(ctx context.Context, repo snapshot.Repo, number int, body string) (snapshot.Comment, error) {
	return createOnce(ctx, c, func() (snapshot.Comment, error) {
		ic, _, err := c.rest.Issues.CreateComment(ctx, repo.Owner, repo.Name, number, &gogithub.IssueComment{Body: &body})
		if err != nil {
			return snapshot.Comment{}, wrap(scopeIssues, fmt.Sprintf("comment on %s#%d", repo, number), err)
		}
		return restComment(ic), nil
	}, func(since time.Time) (snapshot.Comment, bool, error) {
		return c.findComment(ctx, repo, number, body, since)
	})
}

// EditComment replaces the body of a conversation comment.
func (c *Client) EditComment(ctx context.Context, repo snapshot.Repo, id int64, body string) error {
	_, _, err := c.rest.Issues.EditComment(ctx, repo.Owner, repo.Name, id, &gogithub.IssueComment{Body: &body})
	return wrap(scopeIssues, fmt.Sprintf("edit comment %d on %s", id, repo), err)
}

// Reply posts a reply in a review thread; inReplyTo is the thread's root
// comment (GitHub only accepts replies to a root).
func (c *Client) Reply(ctx context.Context, repo snapshot.Repo, number int, inReplyTo int64, body string) (snapshot.ReviewComment, error) {
	rc, err := createOnce(ctx, c, func() (*gogithub.PullRequestComment, error) {
		rc, _, err := c.rest.PullRequests.CreateCommentInReplyTo(ctx, repo.Owner, repo.Name, number, body, inReplyTo)
		return rc, wrap(scopePulls, fmt.Sprintf("reply to review comment %d on %s#%d", inReplyTo, repo, number), err)
	}, func(since time.Time) (*gogithub.PullRequestComment, bool, error) {
		return c.findReply(ctx, repo, number, inReplyTo, body, since)
	})
	if err != nil {
		return snapshot.ReviewComment{}, err
	}
	return snapshot.ReviewComment{Comment: snapshot.Comment{ID: rc.GetID(), NodeID: rc.GetNodeID(), Body: rc.GetBody(), URL: rc.GetHTMLURL(),
		Author: snapshot.NewActor(rc.GetUser().GetLogin(), rc.GetUser().GetType()), CreatedAt: rc.GetCreatedAt().Time, UpdatedAt: rc.GetUpdatedAt().Time},
		ReplyToID: inReplyTo, Path: rc.GetPath(), DiffHunk: rc.GetDiffHunk()}, nil
}

// React adds a reaction ("eyes", "+1", ...) to a conversation comment, or to
// a review comment when review is true.
func (c *Client) React(ctx context.Context, repo snapshot.Repo, s snapshot.Subject, content string) error {
	var err error
	if s.InThread {
		_, _, err = c.rest.Reactions.CreatePullRequestCommentReaction(ctx, repo.Owner, repo.Name, s.ID, content)
	} else {
		_, _, err = c.rest.Reactions.CreateIssueCommentReaction(ctx, repo.Owner, repo.Name, s.ID, content)
	}
	return wrap(scopeIssues, fmt.Sprintf("react %s to comment %d on %s", content, s.ID, repo), err)
}

// CreateReview posts a review with its inline comments in one request and
// returns the review's id.
func (c *Client) CreateReview(ctx context.Context, repo snapshot.Repo, number int, r snapshot.NewReview) (int64, error) {
	req := &gogithub.PullRequestReviewRequest{Body: &r.Body, Event: gogithub.String(string(r.Event))}
	if r.CommitSHA != "" {
		req.CommitID = &r.CommitSHA
	}
	for _, cm := range r.Comments {
		dc := &gogithub.DraftReviewComment{Path: gogithub.String(cm.Path), Body: gogithub.String(cm.Body),
			Line: gogithub.Int(cm.Line), Side: gogithub.String(cm.Side)}
		if cm.StartLine > 0 && cm.StartLine < cm.Line {
			dc.StartLine = gogithub.Int(cm.StartLine)
			dc.StartSide = gogithub.String(firstNonEmpty(cm.StartSide, cm.Side))
		}
		req.Comments = append(req.Comments, dc)
	}
	return createOnce(ctx, c, func() (int64, error) {
		rv, _, err := c.rest.PullRequests.CreateReview(ctx, repo.Owner, repo.Name, number, req)
		if err != nil {
			return 0, wrap(scopePulls, fmt.Sprintf("create review on %s#%d", repo, number), err)
		}
		return rv.GetID(), nil
	}, func(time.Time) (int64, bool, error) { return c.findReview(ctx, repo, number, r.Body) })
}

// SetStatus sets a commit status on sha.
func (c *Client) SetStatus(ctx context.Context, repo snapshot.Repo, sha string, s snapshot.Status) error {
	st := &gogithub.RepoStatus{State: &s.State, Context: &s.Context, Description: &s.Description}
	if s.TargetURL != "" {
		st.TargetURL = &s.TargetURL
	}
	_, _, err := c.rest.Repositories.CreateStatus(ctx, repo.Owner, repo.Name, sha, st)
	return wrap(scopeStatuses, fmt.Sprintf("set status %s on %s@%.7s", s.Context, repo, sha), err)
}

// StatusesSince returns the statuses of a context on sha created after the
// status whose id is after (0: all), newest first. Statuses cannot be
// compared-and-set, so a run reads them after its write to learn whether
// another run's status landed between its read and its write. GitHub
// lists a commit's statuses newest first; the read stops at the page that
// reaches after (complete), or after a few pages (not complete: the caller
// takes it that another run wrote in between).
func (c *Client) StatusesSince(ctx context.Context, repo snapshot.Repo, sha, statusContext string, after int64) (out []snapshot.Status, complete bool, err error) {
	opt := &gogithub.ListOptions{PerPage: 100}
	for page := 1; ; page++ {
		list, resp, err := c.rest.Repositories.ListStatuses(ctx, repo.Owner, repo.Name, sha, opt)
		if err != nil {
			return nil, false, wrap(scopeRead, fmt.Sprintf("list statuses of %s@%.7s (page %d)", repo, sha, page), err)
		}
		for _, st := range list {
			if st.GetID() <= after {
				return out, true, nil
			}
			if st.GetContext() == statusContext {
				out = append(out, restStatus(st))
			}
		}
		if resp.NextPage == 0 || page == maxStatusPages {
			return out, resp.NextPage == 0, nil
		}
		opt.Page = page + 1 // GitHub numbers the pages of this list
	}
}

// maxStatusPages bounds StatusesSince: a commit with more statuses than
// that since a run's read is one many runs are writing to.
const maxStatusPages = 3

func restStatus(st *gogithub.RepoStatus) snapshot.Status {
	return snapshot.Status{ID: st.GetID(), Context: st.GetContext(), State: st.GetState(), Description: st.GetDescription(), TargetURL: st.GetTargetURL()}
}

// RequestReviewers asks people to review the PR.
func (c *Client) RequestReviewers(ctx context.Context, repo snapshot.Repo, number int, logins []string) error {
	_, _, err := c.rest.PullRequests.RequestReviewers(ctx, repo.Owner, repo.Name, number, gogithub.ReviewersRequest{Reviewers: logins})
	return wrap(scopePulls, fmt.Sprintf("request reviewers on %s#%d", repo, number), err)
}

// threadPayload is what resolving or reopening a thread returns.
type threadPayload struct {
	Thread struct {
		ID         string
		IsResolved bool
	}
}

// ResolveThread resolves a review thread (GraphQL only; REST cannot).
func (c *Client) ResolveThread(ctx context.Context, threadID string) error {
	var m struct {
		Payload threadPayload `graphql:"resolveReviewThread(input: $input)"`
	}
	return c.mutateThread(ctx, "resolve", threadID, &m, githubv4.ResolveReviewThreadInput{ThreadID: githubv4.ID(threadID)})
}

// UnresolveThread reopens a resolved review thread (GraphQL only).
func (c *Client) UnresolveThread(ctx context.Context, threadID string) error {
	var m struct {
		Payload threadPayload `graphql:"unresolveReviewThread(input: $input)"`
	}
	return c.mutateThread(ctx, "reopen", threadID, &m, githubv4.UnresolveReviewThreadInput{ThreadID: githubv4.ID(threadID)})
}

func (c *Client) mutateThread(ctx context.Context, verb, threadID string, m any, input githubv4.Input) error {
	if err := c.gql.Mutate(withOperation(ctx, gqlRepeatableMutation), m, input, nil); err != nil {
		return fmt.Errorf("%s review thread %s: %w", verb, threadID, gqlError(err))
	}
	return nil
}

func restComment(ic *gogithub.IssueComment) snapshot.Comment {
	return snapshot.Comment{ID: ic.GetID(), NodeID: ic.GetNodeID(), Body: ic.GetBody(), URL: ic.GetHTMLURL(),
		Author:    snapshot.NewActor(ic.GetUser().GetLogin(), ic.GetUser().GetType()),
		CreatedAt: ic.GetCreatedAt().Time, UpdatedAt: ic.GetUpdatedAt().Time}
}

// EditReview replaces the body of a submitted review of a pull request.
func (c *Client) EditReview(ctx context.Context, repo snapshot.Repo, number int, id int64, body string) error {
	_, _, err := c.rest.PullRequests.UpdateReview(ctx, repo.Owner, repo.Name, number, id, body)
	return wrap(scopePulls, fmt.Sprintf("edit review %d on %s#%d", id, repo, number), err)
}

// EditReviewComment replaces the body of a review (thread) comment.
func (c *Client) EditReviewComment(ctx context.Context, repo snapshot.Repo, id int64, body string) error {
	_, _, err := c.rest.PullRequests.EditComment(ctx, repo.Owner, repo.Name, id, &gogithub.PullRequestComment{Body: &body})
	return wrap(scopePulls, fmt.Sprintf("edit review comment %d on %s", id, repo), err)
}

// Status returns the latest commit status of a context on sha; found is
// false when there is none. The combined status lists the newest status of
// each context a page at a time, so a busy commit's gate may sit on a later
// page: every page is read until the context is found.
func (c *Client) Status(ctx context.Context, repo snapshot.Repo, sha, statusContext string) (s snapshot.Status, found bool, err error) {
	opt := &gogithub.ListOptions{PerPage: 100}
	for {
		combined, resp, err := c.rest.Repositories.GetCombinedStatus(ctx, repo.Owner, repo.Name, sha, opt)
		if err != nil {
			return s, false, wrap(scopeRead, fmt.Sprintf("read statuses of %s@%.7s (page %d)", repo, sha, max(opt.Page, 1)), err)
		}
		for _, st := range combined.Statuses {
			if st.GetContext() == statusContext {
				return restStatus(st), true, nil
			}
		}
		if resp.NextPage == 0 {
			return s, false, nil
		}
		opt.Page = resp.NextPage
	}
}
