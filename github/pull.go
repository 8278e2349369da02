package github

import (
	"context"
	"fmt"

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
		CreatedAt: pr.GetCreatedAt().Time,
	}, nil
}
