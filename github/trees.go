package github

import (
	"context"
	"fmt"

	gogithub "github.com/google/go-github/v62/github"

	"github.com/review-my-code-bot/rmc/gate"
	"github.com/review-my-code-bot/rmc/snapshot"
)

// Tree reads one git tree (sha names a tree or a commit): one level, or
// with recursive everything under it. GitHub cuts an answer past 100,000
// entries or 7 MB and says so (Truncated).
func (c *Client) Tree(ctx context.Context, repo snapshot.Repo, sha string, recursive bool) (gate.Tree, error) {
	t, _, err := c.rest.Git.GetTree(ctx, repo.Owner, repo.Name, sha, recursive)
	if err != nil {
		return gate.Tree{}, wrap(scopeRead, fmt.Sprintf("read the tree %.7s of %s", sha, repo), err)
	}
	out := gate.Tree{ID: t.GetSHA(), Truncated: t.GetTruncated()}
	for _, e := range t.Entries {
		out.Entries = append(out.Entries, gate.TreeEntry{Name: e.GetPath(), Mode: e.GetMode(), Kind: gate.EntryKind(e.GetType()), ID: e.GetSHA()})
	}
	return out, nil
}

// MergeBase is the commit a PR's changes are counted from: the merge base
// of base and head, as GitHub's comparison reports it (its file list is
// not read: it stops at 300 files).
func (c *Client) MergeBase(ctx context.Context, repo snapshot.Repo, base, head string) (string, error) {
	cmp, _, err := c.rest.Repositories.CompareCommits(ctx, repo.Owner, repo.Name, base, head, &gogithub.ListOptions{PerPage: 1})
	if err != nil {
		return "", wrap(scopeRead, fmt.Sprintf("find the merge base of %.7s...%.7s on %s", base, head, repo), err)
	}
	sha := cmp.GetMergeBaseCommit().GetSHA()
	if sha == "" {
		return "", fmt.Errorf("find the merge base of %.7s...%.7s on %s: GitHub named none", base, head, repo)
	}
	return sha, nil
}
