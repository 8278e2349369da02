package github

import (
	"github.com/shurcooL/githubv4"

	"github.com/review-my-code-bot/rmc/internal/jsonnum"
)

// The GraphQL documents the snapshot is read with: githubv4 builds each query
// from the shape of its struct.

// Page sizes. Threads carry a first page of their comments inline; threads
// with more are completed with one batched nodes(ids:) query. These sizes keep
// a query's rate-limit cost near 20 points.
const (
	pageSize           = 100
	threadCommentsPage = 20
)

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
	ID string
	// FullDatabaseID is a BigInt, which GitHub sends as a string;
	// databaseId (Int, 32-bit) is deprecated because ids outgrew it.
	FullDatabaseID    jsonnum.Int `graphql:"fullDatabaseId"`
	AuthorAssociation string
	Body              string
	URL               string
	CreatedAt         githubv4.DateTime
	UpdatedAt         githubv4.DateTime
	// LastEditedAt is null until the body is edited: when Editor made
	// the last edit.
	LastEditedAt *githubv4.DateTime
	Author       *actorFields
	Editor       *actorFields
}

type issueCommentNode struct {
	commentFields
}

type reviewCommentNode struct {
	commentFields
	ReplyTo *struct {
		FullDatabaseID jsonnum.Int `graphql:"fullDatabaseId"`
	}
	PullRequestReview *struct {
		FullDatabaseID jsonnum.Int `graphql:"fullDatabaseId"`
	}
	Path   string
	Line   *int
	Commit *struct{ Oid string }
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
	// Hunk is the root comment's diff hunk. A reply is anchored where its
	// thread is, so the hunk is read once per thread and not once per
	// comment: on a busy PR it is most of what the threads weigh.
	Hunk struct {
		Nodes []struct{ DiffHunk string }
	} `graphql:"hunk: comments(first: 1)"`
}

type reviewNode struct {
	ID                string
	FullDatabaseID    jsonnum.Int `graphql:"fullDatabaseId"`
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
// one request advances all of them. The conversation and the reviews are
// read from both ends at once (bothEnds).
type snapshotQuery struct {
	Viewer     actorFields
	RateLimit  rateLimitFields
	Repository struct {
		configObjects
		learningsObjects
		PullRequest *snapshotPullRequest `graphql:"pullRequest(number: $number)"`
	} `graphql:"repository(owner: $owner, name: $name)"`
}

// lastReviewsPage is a page of the reviews connection read backwards.
type lastReviewsPage struct {
	PageInfo prevPageInfo
	Nodes    []reviewNode
}

type prevPageInfo struct {
	HasPreviousPage bool
	StartCursor     githubv4.String
}

// commitsPage is a page of the PR's commits, read backwards from the head.
type commitsPage struct {
	TotalCount int
	PageInfo   prevPageInfo
	Nodes      []struct {
		Commit struct{ Oid string }
	}
}

// snapshotPullRequest is the PR's part of snapshotQuery.
type snapshotPullRequest struct {
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
	ChangedFiles      int
	HeadRepository    *struct{ NameWithOwner string }
	Author            *actorFields
	Comments          struct {
		PageInfo pageInfo
		Nodes    []issueCommentNode
	} `graphql:"comments(first: $pageSize, after: $commentsAfter) @include(if: $withComments)"`
	LastComments struct {
		PageInfo prevPageInfo
		Nodes    []issueCommentNode
	} `graphql:"lastComments: comments(last: $pageSize, before: $commentsBefore) @include(if: $withLastComments)"`
	ReviewThreads struct {
		PageInfo pageInfo
		Nodes    []threadNode
	} `graphql:"reviewThreads(first: $pageSize, after: $threadsAfter) @include(if: $withThreads)"`
	Reviews struct {
		PageInfo pageInfo
		Nodes    []reviewNode
	} `graphql:"reviews(first: $pageSize, after: $reviewsAfter) @include(if: $withReviews)"`
	LastReviews lastReviewsPage `graphql:"lastReviews: reviews(last: $pageSize, before: $reviewsBefore) @include(if: $withLastReviews)"`
	Commits     commitsPage     `graphql:"commits(last: $commitsLast, before: $commitsBefore) @include(if: $withCommits)"`
	// ClosingIssues are read with the first page only.
	ClosingIssues struct {
		Nodes []closingIssueNode
	} `graphql:"closingIssuesReferences(first: $closesFirst) @include(if: $withCloses)"`
}

// closingIssueNode is an issue the pull request closes.
type closingIssueNode struct {
	Number     int
	Title      string
	Body       string
	URL        string
	Closed     bool
	Repository struct{ NameWithOwner string }
}

// threadCommentsQuery completes threads whose comments did not fit inline.
type threadCommentsQuery struct {
	RateLimit rateLimitFields
	Nodes     []threadCommentsNode `graphql:"nodes(ids: $ids)"`
}

type threadCommentsNode = struct {
	Thread struct {
		ID       string
		Comments threadComments `graphql:"comments(first: $pageSize, after: $after)"`
	} `graphql:"... on PullRequestReviewThread"`
}
