package github

import (
	"context"
	"fmt"

	"github.com/shurcooL/githubv4"

	"github.com/review-my-code-bot/rmc/snapshot"
)

// Snapshot reads the whole PR: metadata, conversation, review threads with
// all their comments, and reviews. Every connection is paged to its end,
// but the commits: the newest snapshot.MaxCommits of them, with their
// total.
func (c *Client) Snapshot(ctx context.Context, repo snapshot.Repo, number int) (snapshot.Snapshot, error) {
	return c.snapshot(ctx, repo, number, snapshotRead{})
}

// snapshotRead says what a snapshot reads beyond the PR itself.
type snapshotRead struct {
	// since, when set, is an earlier snapshot of the run: only what came
	// after it is read again (SnapshotSince).
	since *snapshot.Snapshot
	// config asks for the base's configuration, rules and attributes
	// files, the head's copy of the configuration, and the learnings
	// issue, in the same query (SnapshotWithConfig); base and head are the
	// commits to read them at.
	config     bool
	base, head string
}

func (c *Client) snapshot(ctx context.Context, repo snapshot.Repo, number int, rd snapshotRead) (snapshot.Snapshot, error) {
	since, withConfig, base, head := rd.since, rd.config, rd.base, rd.head
	snap := snapshot.Snapshot{Repo: repo}
	vars := map[string]any{
		"owner": githubv4.String(repo.Owner), "name": githubv4.String(repo.Name),
		"number": githubv4.Int(number), "pageSize": githubv4.Int(pageSize),
		"threadCommentsFirst": githubv4.Int(threadCommentsPage),
		"threadsAfter":        (*githubv4.String)(nil), "withThreads": githubv4.Boolean(true),
		"closesFirst": githubv4.Int(snapshot.MaxClosingIssues), "withCloses": githubv4.Boolean(true),
	}
	noConfig(vars)
	comments, reviewsRead := newCommentEnds(vars, since), newReviewEnds(vars, since)
	commits := newCommitPager(vars)
	if withConfig && base != "" && head != "" {
		askConfig(vars, base, head)
	}
	vars["withLearnings"], vars["learningsAfter"] = githubv4.Boolean(withConfig), (*githubv4.String)(nil)
	var incomplete []int // indexes of threads with more comments
	for page := 1; ; page++ {
		var q snapshotQuery
		if err := c.gql.Query(withOperation(ctx, gqlQuery), &q, vars); err != nil {
			return snap, fmt.Errorf("read %s#%d (page %d): %w", repo, number, page, gqlError(err))
		}
		c.counts.cost.Add(int64(q.RateLimit.Cost))
		pr := q.Repository.PullRequest
		if pr == nil {
			return snap, fmt.Errorf("read %s#%d: no such pull request", repo, number)
		}
		if page == 1 {
			snap.Viewer, snap.PR = snapshot.NewActor(q.Viewer.Login, q.Viewer.Typename), pullRequest(pr)
			vars["withCloses"] = githubv4.Boolean(false)
		}
		more := readThreads(&snap, pr, vars, &incomplete)
		more = comments.read(pr.Comments.PageInfo, issueComments(pr.Comments.Nodes), pr.LastComments.PageInfo, issueComments(pr.LastComments.Nodes)) || more
		more = reviewsRead.read(pr.Reviews.PageInfo, reviews(pr.Reviews.Nodes), pr.LastReviews.PageInfo, reviews(pr.LastReviews.Nodes)) || more
		more = commits.read(pr.Commits) || more
		if vars["withLearnings"] == githubv4.Boolean(true) {
			more = q.Repository.learningsObjects.read(&snap, vars) || more
		}
		more = readConfig(&snap, &q, vars, withConfig) || more
		if !more {
			break
		}
	}
	snap.IssueComments, snap.Reviews = comments.items(), reviewsRead.items()
	snap.PR.Commits, snap.PR.CommitsTotal = commits.oids(), commits.total
	if err := c.completeThreads(ctx, &snap, incomplete); err != nil {
		return snap, fmt.Errorf("read review threads of %s#%d: %w", repo, number, err)
	}
	return snap, nil
}

func pullRequest(pr *snapshotPullRequest) snapshot.PullRequest {
	out := snapshot.PullRequest{
		Number: pr.Number, NodeID: pr.ID, Title: pr.Title, Body: pr.Body, URL: pr.URL,
		Author: actor(pr.Author), Draft: pr.IsDraft, State: snapshot.PRState(pr.State),
		HeadSHA: pr.HeadRefOid, BaseSHA: pr.BaseRefOid, HeadRef: pr.HeadRefName, BaseRef: pr.BaseRefName,
		IsFork: pr.IsCrossRepository, CreatedAt: pr.CreatedAt.Time, ChangedFiles: pr.ChangedFiles,
	}
	if pr.HeadRepository != nil {
		out.HeadRepo = pr.HeadRepository.NameWithOwner
	}
	for _, n := range pr.ClosingIssues.Nodes[:min(len(pr.ClosingIssues.Nodes), snapshot.MaxClosingIssues)] {
		out.Closes = append(out.Closes, snapshot.ClosingIssue{Repo: n.Repository.NameWithOwner, Number: n.Number, Title: n.Title,
			Body: cutRunes(n.Body, snapshot.MaxIssueBody), URL: n.URL, Closed: n.Closed})
	}
	return out
}

// cutRunes cuts s to at most n runes, "…" ending a cut text.
func cutRunes(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// readThreads folds in a page of the review threads and says whether there
// is another.
func readThreads(snap *snapshot.Snapshot, pr *snapshotPullRequest, vars map[string]any, incomplete *[]int) bool {
	if vars["withThreads"] != githubv4.Boolean(true) {
		return false
	}
	for _, n := range pr.ReviewThreads.Nodes {
		if n.Comments.PageInfo.HasNextPage {
			*incomplete = append(*incomplete, len(snap.Threads))
		}
		snap.Threads = append(snap.Threads, thread(n))
	}
	return advance(vars, "withThreads", "threadsAfter", pr.ReviewThreads.PageInfo)
}

// readConfig takes the config files from a page that asked for them, and
// asks for them on the next page when they are wanted and not yet read.
func readConfig(snap *snapshot.Snapshot, q *snapshotQuery, vars map[string]any, want bool) bool {
	if vars["withConfig"] == githubv4.Boolean(true) {
		if asked(vars, snap.PR.BaseSHA, snap.PR.HeadSHA) {
			snap.Config = q.Repository.configFile()
		}
		noConfig(vars)
	}
	if want && !snap.Config.Read {
		// The expressions need the base and head commits, which the
		// first page tells: the next page asks for the files.
		askConfig(vars, snap.PR.BaseSHA, snap.PR.HeadSHA)
		return true
	}
	return false
}

func advance(vars map[string]any, with, after string, pi pageInfo) bool {
	if !pi.HasNextPage {
		vars[with] = githubv4.Boolean(false)
		return false
	}
	cursor := pi.EndCursor
	vars[after] = &cursor
	return true
}

// completeThreads fetches the remaining comments of threads whose first
// page did not hold them all: up to 100 threads per request, each re-read from
// its first comment. A thread with more than 100 comments then pages on alone,
// since a cursor belongs to one connection.
func (c *Client) completeThreads(ctx context.Context, snap *snapshot.Snapshot, idx []int) error {
	type long struct {
		i     int
		after githubv4.String
	}
	var longs []long
	for len(idx) > 0 {
		batch := idx[:min(len(idx), pageSize)]
		idx = idx[len(batch):]
		byID := map[string]int{}
		ids := make([]githubv4.ID, 0, len(batch))
		for _, i := range batch {
			byID[snap.Threads[i].ID] = i
			ids = append(ids, githubv4.ID(snap.Threads[i].ID))
		}
		nodes, err := c.threadComments(ctx, ids, nil)
		if err != nil {
			return err
		}
		for _, n := range nodes {
			i, ok := byID[n.Thread.ID]
			if !ok {
				continue
			}
			hunk := snap.Threads[i].Comments[0].DiffHunk // the thread's, read with its first page
			snap.Threads[i].Comments = snap.Threads[i].Comments[:0]
			for _, cm := range n.Thread.Comments.Nodes {
				snap.Threads[i].Comments = append(snap.Threads[i].Comments, withHunk(reviewComment(cm), hunk))
			}
			if pi := n.Thread.Comments.PageInfo; pi.HasNextPage {
				longs = append(longs, long{i, pi.EndCursor})
			}
		}
	}
	for _, l := range longs {
		for after := l.after; ; {
			nodes, err := c.threadComments(ctx, []githubv4.ID{githubv4.ID(snap.Threads[l.i].ID)}, &after)
			if err != nil {
				return err
			}
			if len(nodes) != 1 {
				return fmt.Errorf("thread %s vanished while paging its comments", snap.Threads[l.i].ID)
			}
			hunk := snap.Threads[l.i].Comments[0].DiffHunk
			for _, cm := range nodes[0].Thread.Comments.Nodes {
				snap.Threads[l.i].Comments = append(snap.Threads[l.i].Comments, withHunk(reviewComment(cm), hunk))
			}
			pi := nodes[0].Thread.Comments.PageInfo
			if !pi.HasNextPage {
				break
			}
			after = pi.EndCursor
		}
	}
	return nil
}

func (c *Client) threadComments(ctx context.Context, ids []githubv4.ID, after *githubv4.String) ([]threadCommentsNode, error) {
	var q threadCommentsQuery
	if err := c.gql.Query(withOperation(ctx, gqlQuery), &q, map[string]any{"ids": ids, "pageSize": githubv4.Int(pageSize), "after": after}); err != nil {
		return nil, gqlError(err)
	}
	c.counts.cost.Add(int64(q.RateLimit.Cost))
	return q.Nodes, nil
}

// gqlError adds a hint to GraphQL errors that usually mean a token problem.
func gqlError(err error) error {
	return fmt.Errorf("GitHub GraphQL: %w", err)
}
