package github

import (
	"context"
	"fmt"
	"io/fs"

	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/workspace"
)

// source is a repository at one commit through the API: the git trees API
// lists it in one request, the contents API reads each file.
type source struct {
	c    *Client
	repo snapshot.Repo
	sha  string
}

// Source reads repo at sha through the API, for when the workspace does not
// hold that commit.
func (c *Client) Source(repo snapshot.Repo, sha string) workspace.Source {
	return &source{c: c, repo: repo, sha: sha}
}

func (s *source) Tree(ctx context.Context) ([]workspace.Entry, error) {
	t, _, err := s.c.rest.Git.GetTree(ctx, s.repo.Owner, s.repo.Name, s.sha, true)
	if err != nil {
		return nil, wrap(scopeRead, fmt.Sprintf("list the files of %s@%.7s", s.repo, s.sha), err)
	}
	var out []workspace.Entry
	for _, e := range t.Entries {
		if e.GetType() == "blob" {
			out = append(out, workspace.Entry{Path: e.GetPath(), Size: int64(e.GetSize())})
		}
	}
	return out, nil
}

func (s *source) File(ctx context.Context, path string) ([]byte, error) {
	content, found, err := s.c.Contents(ctx, s.repo, s.sha, path)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, fmt.Errorf("%s does not exist at %.7s: %w", path, s.sha, fs.ErrNotExist)
	}
	return []byte(content), nil
}
