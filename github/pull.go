package github

import (
	"context"
	"fmt"

	gogithub "github.com/google/go-github/v62/github"

	"github.com/review-my-code-bot/rmc/snapshot"
)

// PullRequest reads a PR's metadata through REST: one request, for callers
// that need no comments or threads (the snapshot reads those with GraphQL).
func (c *Client) PullRequest(ctx context.Context, repo snapshot.Repo, number int) (snapshot.PullRequest, error) {
	pr, _, err := c.rest.PullRequests.Get(ctx, repo.Owner, repo.Name, number)
	if err != nil {
		return snapshot.PullRequest{}, wrap(scopeRead, fmt.Sprintf("get %s#%d", repo, number), err)
	}
	state := snapshot.PROpen
	switch {
	case pr.GetMerged():
		state = snapshot.PRMerged
	case pr.GetState() == "closed":
		state = snapshot.PRClosed
	}
	return snapshot.PullRequest{
		Number: pr.GetNumber(), NodeID: pr.GetNodeID(), Title: pr.GetTitle(), Body: pr.GetBody(), URL: pr.GetHTMLURL(),
		Author: snapshot.NewActor(pr.GetUser().GetLogin(), pr.GetUser().GetType()), Draft: pr.GetDraft(), State: state,
		HeadSHA: pr.GetHead().GetSHA(), BaseSHA: pr.GetBase().GetSHA(), HeadRef: pr.GetHead().GetRef(), BaseRef: pr.GetBase().GetRef(),
		HeadRepo: pr.GetHead().GetRepo().GetFullName(), IsFork: pr.GetHead().GetRepo().GetFullName() != pr.GetBase().GetRepo().GetFullName(),
		CreatedAt: pr.GetCreatedAt().Time, ChangedFiles: pr.GetChangedFiles(),
	}, nil
}

// OpenPullsWithHead lists the open pull requests whose head is sha: the PRs
// that share the commit's statuses.
func (c *Client) OpenPullsWithHead(ctx context.Context, repo snapshot.Repo, sha string) ([]int, error) {
	var out []int
	opt := &gogithub.ListOptions{PerPage: 100}
	for {
		prs, resp, err := c.rest.PullRequests.ListPullRequestsWithCommit(ctx, repo.Owner, repo.Name, sha, opt)
		if err != nil {
			return out, wrap(scopeRead, fmt.Sprintf("list the pull requests of %.7s on %s", sha, repo), err)
		}
		for _, pr := range prs {
			if pr.GetState() == "open" && pr.GetHead().GetSHA() == sha {
				out = append(out, pr.GetNumber())
			}
		}
		if resp.NextPage == 0 {
			return out, nil
		}
		opt.Page = resp.NextPage
	}
}
