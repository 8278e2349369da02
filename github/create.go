package github

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"time"

	gogithub "github.com/google/go-github/v62/github"
	"github.com/shurcooL/githubv4"

	"github.com/review-my-code-bot/rmc/snapshot"
)

// transient reports whether a failed request may or may not have been
// applied: a 5xx answer, a timeout, a dropped connection.
func transient(err error) bool {
	if errors.Is(err, errPacing) {
		return false
	}
	var ae *APIError
	if errors.As(err, &ae) {
		return ae.Status >= 500
	}
	var ue *url.Error
	var ne net.Error
	return errors.As(err, &ue) || errors.As(err, &ne) || strings.Contains(err.Error(), "EOF") || strings.Contains(err.Error(), "connection reset")
}

// createOnce creates something GitHub does not deduplicate (a comment, a
// reply, a review). When the answer is lost, it first looks for what it was
// creating, and repeats the request only if it is not there: a lost response
// never turns into a duplicate.
func createOnce[T any](ctx context.Context, c *Client, create func() (T, error), find func(since time.Time) (T, bool, error)) (T, error) {
	since := time.Now().Add(-time.Minute) // GitHub's clock may differ from ours
	policy := c.retry
	var zero T
	for attempt := 1; ; attempt++ {
		v, err := create()
		if err == nil || !transient(err) || attempt >= policy.MaxAttempts {
			return v, err
		}
		c.counts.retries.Add(1)
		// Let a slow write land before looking for it.
		if werr := sleep(ctx, policy.BaseBackoff<<(attempt-1)); werr != nil {
			return zero, werr
		}
		if v, ok, ferr := find(since); ferr == nil && ok {
			return v, nil
		}
	}
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// sameBody compares bodies as GitHub stores them (it normalizes line ends).
func sameBody(a, b string) bool {
	n := func(s string) string { return strings.TrimSpace(strings.ReplaceAll(s, "\r\n", "\n")) }
	return n(a) == n(b)
}

// findComment looks for a conversation comment with body by the token's
// account, created since.
func (c *Client) findComment(ctx context.Context, repo snapshot.Repo, number int, body string, since time.Time) (snapshot.Comment, bool, error) {
	opt := &gogithub.IssueListCommentsOptions{Since: &since, ListOptions: gogithub.ListOptions{PerPage: 100}}
	for {
		cs, resp, err := c.rest.Issues.ListComments(ctx, repo.Owner, repo.Name, number, opt)
		if err != nil {
			return snapshot.Comment{}, false, err
		}
		for _, ic := range cs {
			if sameBody(ic.GetBody(), body) {
				return restComment(ic), true, nil
			}
		}
		if resp.NextPage == 0 {
			return snapshot.Comment{}, false, nil
		}
		opt.Page = resp.NextPage
	}
}

// findReply looks for a reply with body to a review comment, created since.
func (c *Client) findReply(ctx context.Context, repo snapshot.Repo, number int, inReplyTo int64, body string, since time.Time) (*gogithub.PullRequestComment, bool, error) {
	opt := &gogithub.PullRequestListCommentsOptions{Since: since, ListOptions: gogithub.ListOptions{PerPage: 100}}
	for {
		cs, resp, err := c.rest.PullRequests.ListComments(ctx, repo.Owner, repo.Name, number, opt)
		if err != nil {
			return nil, false, err
		}
		for _, rc := range cs {
			if rc.GetInReplyTo() == inReplyTo && sameBody(rc.GetBody(), body) {
				return rc, true, nil
			}
		}
		if resp.NextPage == 0 {
			return nil, false, nil
		}
		opt.Page = resp.NextPage
	}
}

// reviewsSinceQuery reads a PR's newest reviews, one page further back at
// each read.
type reviewsSinceQuery struct {
	Repository struct {
		PullRequest struct {
			Reviews lastReviewsPage `graphql:"reviews(last: $pageSize, before: $before)"`
		} `graphql:"pullRequest(number: $number)"`
	} `graphql:"repository(owner: $owner, name: $name)"`
}

// reviewsSincePage is how many reviews one read of ReviewsSince takes: a
// run's own duration rarely sees more, and their bodies can be long.
const reviewsSincePage = 25

// ReviewsSince returns the PR's reviews whose id is above after, oldest
// first. The newest are read first (GraphQL reads a connection from its
// end, where REST lists a PR's reviews oldest first and would need the
// first page for the Link to the last): one read unless more than a page
// of reviews landed since after. The bodies are the reviewers' own text,
// for the caller to trust or not by author.
func (c *Client) ReviewsSince(ctx context.Context, repo snapshot.Repo, number int, after int64) ([]snapshot.Review, error) {
	var pages [][]snapshot.Review
	vars := map[string]any{"owner": githubv4.String(repo.Owner), "name": githubv4.String(repo.Name), "number": githubv4.Int(number),
		"pageSize": githubv4.Int(reviewsSincePage), "before": (*githubv4.String)(nil)}
	for {
		var q reviewsSinceQuery
		if err := c.gql.Query(withOperation(ctx, gqlQuery), &q, vars); err != nil {
			return nil, fmt.Errorf("read the newest reviews of %s#%d: %w", repo, number, gqlError(err))
		}
		page := q.Repository.PullRequest.Reviews
		above, reached := reviewsAbove(reviews(page.Nodes), after)
		pages = append(pages, above)
		if reached || !page.PageInfo.HasPreviousPage {
			break
		}
		vars["before"] = githubv4.NewString(page.PageInfo.StartCursor)
	}
	var out []snapshot.Review
	for i := len(pages) - 1; i >= 0; i-- {
		out = append(out, pages[i]...)
	}
	return out, nil
}

// reviewsAbove are a page's reviews above after, and whether the page
// reached after (so the pages before it hold none).
func reviewsAbove(rs []snapshot.Review, after int64) (out []snapshot.Review, reached bool) {
	for _, r := range rs {
		if r.ID <= after {
			reached = true
			continue
		}
		out = append(out, r)
	}
	return out, reached
}

// findReview looks for a submitted review with body on the PR.
func (c *Client) findReview(ctx context.Context, repo snapshot.Repo, number int, body string) (int64, bool, error) {
	opt := &gogithub.ListOptions{PerPage: 100}
	for {
		rs, resp, err := c.rest.PullRequests.ListReviews(ctx, repo.Owner, repo.Name, number, opt)
		if err != nil {
			return 0, false, err
		}
		for _, r := range rs {
			if sameBody(r.GetBody(), body) {
				return r.GetID(), true, nil
			}
		}
		if resp.NextPage == 0 {
			return 0, false, nil
		}
		opt.Page = resp.NextPage
	}
}
