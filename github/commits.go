package github

import (
	"slices"

	"github.com/shurcooL/githubv4"

	"github.com/review-my-code-bot/rmc/snapshot"
)

// commitPager reads the PR's commits backwards from the head, riding along
// the snapshot's pages, until it holds snapshot.MaxCommits of them or the
// first. GitHub's GraphQL connection, unlike the REST list, is not capped
// at 250, so the newest are what it reads.
type commitPager struct {
	vars  map[string]any
	newer [][]string // pages, newest first; each oldest first
	n     int
	total int
}

func newCommitPager(vars map[string]any) *commitPager {
	vars["withCommits"], vars["commitsBefore"] = githubv4.Boolean(true), (*githubv4.String)(nil)
	vars["commitsLast"] = githubv4.Int(min(pageSize, snapshot.MaxCommits))
	return &commitPager{vars: vars}
}

// read folds in a page and says whether to read the one before it.
func (cp *commitPager) read(page commitsPage) bool {
	if cp.vars["withCommits"] != githubv4.Boolean(true) {
		return false
	}
	oids := make([]string, 0, len(page.Nodes))
	for _, n := range page.Nodes {
		oids = append(oids, n.Commit.Oid)
	}
	cp.newer, cp.n, cp.total = append(cp.newer, oids), cp.n+len(oids), page.TotalCount
	if !page.PageInfo.HasPreviousPage || cp.n >= snapshot.MaxCommits || len(oids) == 0 {
		cp.vars["withCommits"] = githubv4.Boolean(false)
		return false
	}
	cursor := page.PageInfo.StartCursor
	cp.vars["commitsBefore"] = &cursor
	cp.vars["commitsLast"] = githubv4.Int(min(pageSize, snapshot.MaxCommits-cp.n))
	return true
}

// oids are the commits read, oldest first.
func (cp *commitPager) oids() []string {
	out := make([]string, 0, cp.n)
	for _, page := range slices.Backward(cp.newer) {
		out = append(out, page...)
	}
	return out
}
