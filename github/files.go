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
			return out, wrap(scopeRead, fmt.Sprintf("list files of %s#%d", repo, number), err)
		}
		for _, f := range files {
			out = append(out, snapshot.ChangedFile{Path: f.GetFilename(), PreviousPath: f.GetPreviousFilename(), Status: f.GetStatus(),
				Additions: f.GetAdditions(), Deletions: f.GetDeletions(), Patch: f.GetPatch(), Blob: blobOf(f)})
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
	return d, wrap(scopeRead, fmt.Sprintf("get the diff of %s#%d", repo, number), err)
}

// Compare lists the files changed from base to head.
func (c *Client) Compare(ctx context.Context, repo snapshot.Repo, base, head string) (snapshot.Comparison, error) {
	cmp, _, err := c.rest.Repositories.CompareCommits(ctx, repo.Owner, repo.Name, base, head, &gogithub.ListOptions{PerPage: 100})
	if err != nil {
		return snapshot.Comparison{}, wrap(scopeRead, fmt.Sprintf("compare %.7s...%.7s on %s", base, head, repo), err)
	}
	out := snapshot.Comparison{Status: cmp.GetStatus()}
	for _, f := range cmp.Files {
		out.Files = append(out.Files, snapshot.ChangedFile{Path: f.GetFilename(), PreviousPath: f.GetPreviousFilename(), Status: f.GetStatus(),
			Additions: f.GetAdditions(), Deletions: f.GetDeletions(), Patch: f.GetPatch(), Blob: blobOf(f)})
	}
	return out, nil
}

// Contents returns a file's content at ref; found is false when it does not
// exist there.
func (c *Client) Contents(ctx context.Context, repo snapshot.Repo, ref, path string) (content string, found bool, err error) {
	fc, _, resp, err := c.rest.Repositories.GetContents(ctx, repo.Owner, repo.Name, path, &gogithub.RepositoryContentGetOptions{Ref: ref})
	if resp != nil && resp.StatusCode == 404 {
		return "", false, nil
	}
	if err != nil {
		return "", false, wrap(scopeRead, fmt.Sprintf("read %s at %.7s on %s", path, ref, repo), err)
	}
	if fc == nil {
		return "", false, fmt.Errorf("read %s at %.7s on %s: it is a directory", path, ref, repo)
	}
	s, err := fc.GetContent()
	return s, err == nil, err
}

// blobOf is a changed file's blob id at the head; a removed file has none.
func blobOf(f *gogithub.CommitFile) string {
	if f.GetStatus() == "removed" {
		return ""
	}
	return f.GetSHA()
}
