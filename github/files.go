package github

import (
	"context"
	"fmt"

	gogithub "github.com/google/go-github/v62/github"

	"github.com/review-my-code-bot/rmc/snapshot"
)

// Files lists every changed file of a PR (GitHub pages them, 100 a page, up
// to 3,000 files).
func (c *Client) Files(ctx context.Context, repo snapshot.Repo, number int) ([]snapshot.ChangedFile, error) {
	var out []snapshot.ChangedFile
	opt := &gogithub.ListOptions{PerPage: 100}
	for {
		files, resp, err := c.rest.PullRequests.ListFiles(ctx, repo.Owner, repo.Name, number, opt)
		if err != nil {
			return out, wrap(fmt.Sprintf("list files of %s#%d", repo, number), err)
		}
		for _, f := range files {
			out = append(out, snapshot.ChangedFile{Path: f.GetFilename(), PreviousPath: f.GetPreviousFilename(), Status: f.GetStatus(),
				Additions: f.GetAdditions(), Deletions: f.GetDeletions(), Patch: f.GetPatch()})
		}
		if resp.NextPage == 0 {
			return out, nil
		}
		opt.Page = resp.NextPage
	}
}

// Diff returns the PR's unified diff (the raw diff media type).
func (c *Client) Diff(ctx context.Context, repo snapshot.Repo, number int) (string, error) {
	d, _, err := c.rest.PullRequests.GetRaw(ctx, repo.Owner, repo.Name, number, gogithub.RawOptions{Type: gogithub.Diff})
	return d, wrap(fmt.Sprintf("get the diff of %s#%d", repo, number), err)
}
