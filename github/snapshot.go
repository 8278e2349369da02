package github

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/shurcooL/githubv4"

	"github.com/review-my-code-bot/rmc/snapshot"
)

// Page sizes. Threads carry a first page of their comments inline; threads
// with more are completed with one batched nodes(ids:) query. These sizes keep
// a query's rate-limit cost near 20 points.
const (
	pageSize           = 100
	threadCommentsPage = 20
)

// bigInt reads GraphQL's BigInt, which GitHub serializes as a string.
// databaseId (Int, 32-bit) is deprecated because ids outgrew it.
type bigInt int64

func (b *bigInt) UnmarshalJSON(p []byte) error {
	var s json.Number
	if len(p) > 0 && p[0] == '"' {
		var str string
		if err := json.Unmarshal(p, &str); err != nil {
			return err
		}
		s = json.Number(str)
	} else if string(p) == "null" {
		return nil
	} else if err := json.Unmarshal(p, &s); err != nil {
		return err
	}
	n, err := strconv.ParseInt(string(s), 10, 64)
	*b = bigInt(n)
	return err
}

type actorFields struct {
	Login    string
	Typename string `graphql:"__typename"`
}

type pageInfo struct {
	HasNextPage bool
	EndCursor   githubv4.String
}

// commentFields are what every comment-like node carries; githubv4 inlines
// an embedded struct's fields into the query.
type commentFields struct {
	ID                string
	FullDatabaseID    bigInt `graphql:"fullDatabaseId"`
	AuthorAssociation string
	Body              string
	URL               string
	CreatedAt         githubv4.DateTime
	UpdatedAt         githubv4.DateTime
	Author            *actorFields
	Editor            *actorFields
}

type issueCommentNode struct {
	commentFields
}

type reviewCommentNode struct {
	commentFields
	ReplyTo *struct {
		FullDatabaseID bigInt `graphql:"fullDatabaseId"`
	}
	PullRequestReview *struct {
		FullDatabaseID bigInt `graphql:"fullDatabaseId"`
	}
	Path     string
	Line     *int
	DiffHunk string
	Commit   *struct{ Oid string }
}

type threadComments struct {
	PageInfo pageInfo
	Nodes    []reviewCommentNode
}

type threadNode struct {
	ID         string
	IsResolved bool
	IsOutdated bool
	Path       string
	Line       *int
	StartLine  *int
	DiffSide   string
	ResolvedBy *actorFields
	Comments   threadComments `graphql:"comments(first: $threadCommentsFirst)"`
}

type reviewNode struct {
	ID                string
	FullDatabaseID    bigInt `graphql:"fullDatabaseId"`
	AuthorAssociation string
	Author            *actorFields
	Editor            *actorFields
	State             string
	Body              string
	SubmittedAt       *githubv4.DateTime
	Commit            *struct{ Oid string }
}

type rateLimitFields struct {
	Cost      int
	Remaining int
}

// snapshotQuery reads the PR and the next page of every connection that still
// has one. @include switches off the connections already read to the end, so
// one request advances all of them.
type snapshotQuery struct {
	Viewer     actorFields
	RateLimit  rateLimitFields
	Repository struct {
		configObjects
		learningsObjects
		PullRequest *struct {
			ID                string
			Number            int
			Title             string
			Body              string
			URL               string
			IsDraft           bool
			State             string
			CreatedAt         githubv4.DateTime
			HeadRefOid        string
			BaseRefOid        string
			HeadRefName       string
			BaseRefName       string
			IsCrossRepository bool
			HeadRepository    *struct{ NameWithOwner string }
			Author            *actorFields
			Comments          struct {
				PageInfo pageInfo
				Nodes    []issueCommentNode
			} `graphql:"comments(first: $pageSize, after: $commentsAfter) @include(if: $withComments)"`
			ReviewThreads struct {
				PageInfo pageInfo
				Nodes    []threadNode
			} `graphql:"reviewThreads(first: $pageSize, after: $threadsAfter) @include(if: $withThreads)"`
			Reviews struct {
				PageInfo pageInfo
				Nodes    []reviewNode
			} `graphql:"reviews(first: $pageSize, after: $reviewsAfter) @include(if: $withReviews)"`
			NewReviews newReviewsPage `graphql:"newReviews: reviews(last: $pageSize, before: $reviewsBefore) @include(if: $withNewReviews)"`
		} `graphql:"pullRequest(number: $number)"`
	} `graphql:"repository(owner: $owner, name: $name)"`
}

// threadCommentsQuery completes threads whose comments did not fit inline.
type threadCommentsQuery struct {
	RateLimit rateLimitFields
	Nodes     []threadCommentsNode `graphql:"nodes(ids: $ids)"`
}

// Snapshot reads the whole PR: metadata, conversation, review threads with
// all their comments, and reviews. Every connection is paged to its end.
func (c *Client) Snapshot(ctx context.Context, repo snapshot.Repo, number int) (snapshot.Snapshot, error) {
	return c.snapshot(ctx, repo, number, nil, false, "", "")
}

func (c *Client) snapshot(ctx context.Context, repo snapshot.Repo, number int, since *snapshot.Snapshot, withConfig bool, base, head string) (snapshot.Snapshot, error) {
	snap := snapshot.Snapshot{Repo: repo}
	vars := map[string]any{
		"owner": githubv4.String(repo.Owner), "name": githubv4.String(repo.Name),
		"number": githubv4.Int(number), "pageSize": githubv4.Int(pageSize),
		"threadCommentsFirst": githubv4.Int(threadCommentsPage),
		"commentsAfter":       (*githubv4.String)(nil), "threadsAfter": (*githubv4.String)(nil), "reviewsAfter": (*githubv4.String)(nil),
		"withComments": githubv4.Boolean(since == nil), "withThreads": githubv4.Boolean(true), "withReviews": githubv4.Boolean(true),
	}
	noConfig(vars)
	newReviews := newReviewsSince(since, vars)
	if withConfig && base != "" && head != "" {
		askConfig(vars, base, head)
	}
	vars["withLearnings"], vars["learningsAfter"] = githubv4.Boolean(withConfig), (*githubv4.String)(nil)
	var incomplete []int // indexes of threads with more comments
	for page := 1; ; page++ {
		var q snapshotQuery
		if err := c.gql.Query(ctx, &q, vars); err != nil {
			return snap, fmt.Errorf("read %s#%d (page %d): %w", repo, number, page, gqlError(err))
		}
		c.counts.cost.Add(int64(q.RateLimit.Cost))
		pr := q.Repository.PullRequest
		if pr == nil {
			return snap, fmt.Errorf("read %s#%d: no such pull request", repo, number)
		}
		if page == 1 {
			snap.Viewer = snapshot.NewActor(q.Viewer.Login, q.Viewer.Typename)
			snap.PR = snapshot.PullRequest{
				Number: pr.Number, NodeID: pr.ID, Title: pr.Title, Body: pr.Body, URL: pr.URL,
				Author: actor(pr.Author), Draft: pr.IsDraft, State: pr.State,
				HeadSHA: pr.HeadRefOid, BaseSHA: pr.BaseRefOid, HeadRef: pr.HeadRefName, BaseRef: pr.BaseRefName,
				IsFork: pr.IsCrossRepository, CreatedAt: pr.CreatedAt.Time,
			}
			if pr.HeadRepository != nil {
				snap.PR.HeadRepo = pr.HeadRepository.NameWithOwner
			}
		}
		more := false
		if vars["withComments"] == githubv4.Boolean(true) {
			for _, n := range pr.Comments.Nodes {
				snap.IssueComments = append(snap.IssueComments, issueComment(n))
			}
			more = advance(vars, "withComments", "commentsAfter", pr.Comments.PageInfo) || more
		}
		if vars["withThreads"] == githubv4.Boolean(true) {
			for _, n := range pr.ReviewThreads.Nodes {
				if n.Comments.PageInfo.HasNextPage {
					incomplete = append(incomplete, len(snap.Threads))
				}
				snap.Threads = append(snap.Threads, thread(n))
			}
			more = advance(vars, "withThreads", "threadsAfter", pr.ReviewThreads.PageInfo) || more
		}
		if vars["withReviews"] == githubv4.Boolean(true) {
			for _, n := range pr.Reviews.Nodes {
				snap.Reviews = append(snap.Reviews, review(n))
			}
			more = advance(vars, "withReviews", "reviewsAfter", pr.Reviews.PageInfo) || more
		}
		if newReviews != nil {
			more = newReviews.read(pr.NewReviews.PageInfo, pr.NewReviews.Nodes) || more
		}
		if vars["withLearnings"] == githubv4.Boolean(true) {
			more = q.Repository.learningsObjects.read(&snap, vars) || more
		}
		if vars["withConfig"] == githubv4.Boolean(true) {
			if asked(vars, snap.PR.BaseSHA, snap.PR.HeadSHA) {
				snap.Config = q.Repository.configFile()
			}
			noConfig(vars)
		}
		if withConfig && !snap.Config.Read {
			// The expressions need the base and head commits, which the
			// first page tells: the next page asks for the file.
			askConfig(vars, snap.PR.BaseSHA, snap.PR.HeadSHA)
			more = true
		}
		if !more {
			break
		}
	}
	if newReviews != nil {
		snap.Reviews = newReviews.merged()
	}
	if err := c.completeThreads(ctx, &snap, incomplete); err != nil {
		return snap, fmt.Errorf("read review threads of %s#%d: %w", repo, number, err)
	}
	return snap, nil
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
			snap.Threads[i].Comments = snap.Threads[i].Comments[:0]
			for _, cm := range n.Thread.Comments.Nodes {
				snap.Threads[i].Comments = append(snap.Threads[i].Comments, reviewComment(cm))
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
			for _, cm := range nodes[0].Thread.Comments.Nodes {
				snap.Threads[l.i].Comments = append(snap.Threads[l.i].Comments, reviewComment(cm))
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

type threadCommentsNode = struct {
	Thread struct {
		ID       string
		Comments threadComments `graphql:"comments(first: $pageSize, after: $after)"`
	} `graphql:"... on PullRequestReviewThread"`
}

func (c *Client) threadComments(ctx context.Context, ids []githubv4.ID, after *githubv4.String) ([]threadCommentsNode, error) {
	var q threadCommentsQuery
	if err := c.gql.Query(ctx, &q, map[string]any{"ids": ids, "pageSize": githubv4.Int(pageSize), "after": after}); err != nil {
		return nil, gqlError(err)
	}
	c.counts.cost.Add(int64(q.RateLimit.Cost))
	return q.Nodes, nil
}

func actor(a *actorFields) snapshot.Actor {
	if a == nil {
		return snapshot.Actor{Login: "ghost"} // a deleted account
	}
	return snapshot.NewActor(a.Login, a.Typename)
}

func issueComment(n issueCommentNode) snapshot.Comment {
	c := snapshot.Comment{ID: int64(n.FullDatabaseID), NodeID: n.ID, Author: actor(n.Author), Body: n.Body, URL: n.URL,
		CreatedAt: n.CreatedAt.Time, UpdatedAt: n.UpdatedAt.Time, Association: n.AuthorAssociation}
	if n.Editor != nil {
		e := actor(n.Editor)
		c.Editor = &e
	}
	return c
}

func reviewComment(n reviewCommentNode) snapshot.ReviewComment {
	rc := snapshot.ReviewComment{Comment: issueComment(issueCommentNode{n.commentFields}),
		Path: n.Path, DiffHunk: n.DiffHunk}
	if n.ReplyTo != nil {
		rc.ReplyToID = int64(n.ReplyTo.FullDatabaseID)
	}
	if n.PullRequestReview != nil {
		rc.ReviewID = int64(n.PullRequestReview.FullDatabaseID)
	}
	if n.Line != nil {
		rc.Line = *n.Line
	}
	if n.Commit != nil {
		rc.CommitSHA = n.Commit.Oid
	}
	return rc
}

func thread(n threadNode) snapshot.Thread {
	t := snapshot.Thread{ID: n.ID, IsResolved: n.IsResolved, IsOutdated: n.IsOutdated, Path: n.Path, DiffSide: n.DiffSide}
	if n.Line != nil {
		t.Line = *n.Line
	}
	if n.StartLine != nil {
		t.StartLine = *n.StartLine
	}
	if n.ResolvedBy != nil {
		a := actor(n.ResolvedBy)
		t.ResolvedBy = &a
	}
	for _, cm := range n.Comments.Nodes {
		t.Comments = append(t.Comments, reviewComment(cm))
	}
	return t
}

func review(n reviewNode) snapshot.Review {
	r := snapshot.Review{ID: int64(n.FullDatabaseID), NodeID: n.ID, Author: actor(n.Author), State: snapshot.ReviewState(n.State), Body: n.Body, Association: n.AuthorAssociation}
	if n.SubmittedAt != nil {
		r.SubmittedAt = n.SubmittedAt.Time
	}
	if n.Editor != nil {
		e := actor(n.Editor)
		r.Editor = &e
	}
	if n.Commit != nil {
		r.CommitSHA = n.Commit.Oid
	}
	return r
}

// gqlError adds a hint to GraphQL errors that usually mean a token problem.
func gqlError(err error) error {
	return fmt.Errorf("GitHub GraphQL: %w", err)
}
