package github

import (
	"context"
	"fmt"
	"net/http"
	"time"

	gogithub "github.com/google/go-github/v62/github"

	"github.com/review-my-code-bot/rmc/snapshot"
)

// reaction is a reaction as the REST API returns it; go-github's type
// leaves out created_at, which a claim needs.
type reaction struct {
	ID        int64              `json:"id"`
	CreatedAt gogithub.Timestamp `json:"created_at"`
}

// Claim claims work on a comment with the bot's 👀 reaction. GitHub keeps
// one reaction of a kind per user and answers 201 when it creates it and
// 200 with the existing one otherwise: two runs of the same bot that claim
// at once cannot both win.
func (c *Client) Claim(ctx context.Context, repo snapshot.Repo, s snapshot.Subject) (snapshot.Claim, error) {
	path := fmt.Sprintf("repos/%s/%s/issues/comments/%d/reactions", repo.Owner, repo.Name, s.ID)
	if s.InThread {
		path = fmt.Sprintf("repos/%s/%s/pulls/comments/%d/reactions", repo.Owner, repo.Name, s.ID)
	}
	req, err := c.rest.NewRequest(http.MethodPost, path, map[string]string{"content": "eyes"})
	if err != nil {
		return snapshot.Claim{}, err
	}
	var r reaction
	res, err := c.rest.Do(ctx, req, &r)
	if err != nil {
		return snapshot.Claim{}, wrap(scopeIssues, fmt.Sprintf("claim comment %d on %s", s.ID, repo), err)
	}
	cl := snapshot.Claim{Won: res.StatusCode == http.StatusCreated, At: r.CreatedAt.Time}
	now := time.Now()
	if d, err := http.ParseTime(res.Header.Get("Date")); err == nil {
		now = d
	}
	cl.Age = max(now.Sub(cl.At), 0)
	return cl, nil
}

// RunActive reports whether a workflow run of repo is still queued or in
// progress: a claim a finished (or cancelled) run left is no one's. A run
// GitHub does not know is not active. The token needs actions: read.
func (c *Client) RunActive(ctx context.Context, repo snapshot.Repo, runID int64) (bool, error) {
	run, res, err := c.rest.Actions.GetWorkflowRunByID(ctx, repo.Owner, repo.Name, runID)
	if res != nil && res.StatusCode == http.StatusNotFound {
		return false, nil
	}
	if err != nil {
		return false, wrap("actions: read", fmt.Sprintf("read workflow run %d of %s", runID, repo), err)
	}
	return run.GetStatus() != "completed", nil
}
