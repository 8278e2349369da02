package fakegithub

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestGraphQLRejectsInvalidDocuments(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		query   string
		wantMsg string
	}{
		"unknown field": {
			query:   "query Q { repository(owner: \"o\", name: \"r\") { pullRequest(number: 1) { bogus } } }",
			wantMsg: "Field 'bogus' doesn't exist on type 'PullRequest'",
		},
		"missing argument": {
			query:   "query Q { repository(owner: \"o\") { id } }",
			wantMsg: `Field "repository" argument "name" of type "String!" is required, but it was not provided.`,
		},
		"syntax error": {query: "query Q { viewer { login }", wantMsg: "Expected Name, found <EOF>"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := newFixture(t)
			r := gql(t, s, tokInstall, tc.query, nil)
			var out struct {
				Data   *struct{} `json:"data"`
				Errors []gqlError
			}
			r.decode(t, &out)
			if r.status != 200 || out.Data != nil || len(out.Errors) != 1 {
				t.Fatalf("got %d %s, want 200 with only errors", r.status, r.body)
			}
			if e := out.Errors[0]; e.Message != tc.wantMsg || len(e.Locations) != 1 {
				t.Errorf("error = %+v, want message %q with a location", e, tc.wantMsg)
			}
			if got := s.GraphQLErrors(); len(got) != 1 || !strings.Contains(got[0], tc.wantMsg) {
				t.Errorf("GraphQLErrors = %v", got)
			}
		})
	}
}

func TestGraphQLLoginSpellings(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		token          string
		wantViewer     string
		wantAuthor     string
		wantAuthorType string
	}{
		"GITHUB_TOKEN": {token: tokInstall, wantViewer: "github-actions[bot]", wantAuthor: "github-actions", wantAuthorType: "Bot"},
		"app token":    {token: tokApp, wantViewer: "my-app[bot]", wantAuthor: "my-app", wantAuthorType: "Bot"},
		"user token":   {token: tokPAT, wantViewer: "octocat", wantAuthor: "octocat", wantAuthorType: "User"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := newFixture(t)
			do(t, s, tc.token, "POST", "/repos/o/r/issues/1/comments", map[string]string{"body": "hello"})
			var data struct {
				Viewer struct {
					Login      string
					DatabaseID int64  `json:"databaseId"`
					Typename   string `json:"__typename"`
				}
				Repository struct {
					PullRequest struct {
						Author   struct{ Login, Typename string }
						Comments struct {
							Nodes []struct {
								Author struct {
									Login    string
									Typename string `json:"__typename"`
								}
							}
						}
					}
				}
			}
			gqlData(t, s, tc.token, `query {
				viewer { login databaseId __typename }
				repository(owner: "o", name: "r") { pullRequest(number: 1) {
					author { login }
					comments(first: 10) { nodes { author { login __typename } } }
				} }
			}`, nil, &data)
			if data.Viewer.Login != tc.wantViewer || data.Viewer.Typename != "User" || data.Viewer.DatabaseID == 0 {
				t.Errorf("viewer = %+v, want login %q", data.Viewer, tc.wantViewer)
			}
			nodes := data.Repository.PullRequest.Comments.Nodes
			if len(nodes) != 1 || nodes[0].Author.Login != tc.wantAuthor || nodes[0].Author.Typename != tc.wantAuthorType {
				t.Errorf("comment authors = %+v, want %s (%s)", nodes, tc.wantAuthor, tc.wantAuthorType)
			}
			if got := data.Repository.PullRequest.Author.Login; got != "alice" {
				t.Errorf("PR author = %q", got)
			}
		})
	}
}

// commentsPage is the paging query the project's adapter uses, with a
// variable cursor.
const commentsPage = `query Comments($owner: String!, $name: String!, $number: Int!, $after: String) {
	repository(owner: $owner, name: $name) {
		pullRequest(number: $number) {
			comments(first: 100, after: $after) {
				totalCount
				pageInfo { hasNextPage endCursor }
				edges { cursor node { databaseId body } }
			}
		}
	}
}`

func TestGraphQLConnectionPaging(t *testing.T) {
	t.Parallel()
	s := newFixture(t)
	var want []int64
	for i := range 250 {
		want = append(want, s.AddIssueComment("o/r", 1, "alice", fmt.Sprint("comment ", i)).ID)
	}
	var got []int64
	var after any
	for page := 1; ; page++ {
		var data struct {
			Repository struct {
				PullRequest struct {
					Comments struct {
						TotalCount int
						PageInfo   struct {
							HasNextPage bool
							EndCursor   string
						}
						Edges []struct {
							Cursor string
							Node   struct{ DatabaseID int64 }
						}
					}
				}
			}
		}
		vars := map[string]any{"owner": "o", "name": "r", "number": 1, "after": after}
		gqlData(t, s, tokInstall, commentsPage, vars, &data)
		c := data.Repository.PullRequest.Comments
		if c.TotalCount != 250 {
			t.Fatalf("page %d: totalCount %d", page, c.TotalCount)
		}
		for _, e := range c.Edges {
			got = append(got, e.Node.DatabaseID)
		}
		if n := len(c.Edges); n > 0 && c.Edges[n-1].Cursor != c.PageInfo.EndCursor {
			t.Errorf("page %d: last edge cursor %s != endCursor %s", page, c.Edges[n-1].Cursor, c.PageInfo.EndCursor)
		}
		if !c.PageInfo.HasNextPage {
			if page != 3 {
				t.Errorf("took %d pages, want 3", page)
			}
			break
		}
		after = c.PageInfo.EndCursor
	}
	if !slices.Equal(got, want) {
		t.Errorf("paged ids differ: got %d ids, want %d", len(got), len(want))
	}
	ops := 0
	for _, r := range s.Requests() {
		if r.Operation == "Comments" {
			ops++
		}
	}
	if ops != 3 {
		t.Errorf("%d Comments requests, want 3", ops)
	}
}

func TestGraphQLExecutionErrors(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		query    string
		wantType string
		wantMsg  string
	}{
		"first over 100": {
			query:    `{ repository(owner: "o", name: "r") { pullRequest(number: 1) { comments(first: 101) { totalCount } } } }`,
			wantType: "EXCESSIVE_PAGINATION",
			wantMsg:  "Requesting 101 records on the `comments` connection exceeds the `first` limit of 100 records.",
		},
		"no page size": {
			query:    `{ repository(owner: "o", name: "r") { pullRequest(number: 1) { reviewThreads { totalCount } } } }`,
			wantType: "MISSING_PAGINATION_BOUNDARIES",
			wantMsg:  "You must provide a `first` or `last` value to properly paginate the `reviewThreads` connection.",
		},
		"unknown repository": {
			query:    `{ repository(owner: "o", name: "nope") { id } }`,
			wantType: "NOT_FOUND",
			wantMsg:  "Could not resolve to a Repository with the name 'o/nope'.",
		},
		"unknown pull request": {
			query:    `{ repository(owner: "o", name: "r") { pullRequest(number: 99) { id } } }`,
			wantType: "NOT_FOUND",
			wantMsg:  "Could not resolve to a PullRequest with the number of 99.",
		},
		"unimplemented field is loud": {
			query:    `{ repository(owner: "o", name: "r") { pullRequest(number: 1) { mergeable } } }`,
			wantType: "FAKE_UNSUPPORTED",
			wantMsg:  "fakegithub does not implement PullRequest.mergeable; add a resolver for it",
		},
		"unimplemented argument is loud": {
			query:    `{ repository(owner: "o", name: "r") { pullRequest(number: 1) { comments(first: 1, orderBy: {field: UPDATED_AT, direction: DESC}) { totalCount } } } }`,
			wantType: "FAKE_UNSUPPORTED",
			wantMsg:  `fakegithub does not implement argument "orderBy" of PullRequest.comments`,
		},
		"bad cursor": {
			query:    `{ repository(owner: "o", name: "r") { pullRequest(number: 1) { comments(first: 1, after: "xyz") { totalCount } } } }`,
			wantType: "INVALID_CURSOR_ARGUMENTS",
			wantMsg:  "`xyz` does not appear to be a valid cursor.",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := newFixture(t)
			var out struct {
				Errors []gqlError
			}
			gql(t, s, tokInstall, tc.query, nil).decode(t, &out)
			if len(out.Errors) != 1 || out.Errors[0].Type != tc.wantType || out.Errors[0].Message != tc.wantMsg {
				t.Errorf("errors = %+v\nwant %s: %s", out.Errors, tc.wantType, tc.wantMsg)
			}
			if len(s.GraphQLErrors()) != 1 {
				t.Errorf("GraphQLErrors = %v", s.GraphQLErrors())
			}
		})
	}
}

func TestGraphQLDocumentFeatures(t *testing.T) {
	t.Parallel()
	s := newFixture(t)
	threadID, _ := s.AddThread("o/r", 1, ThreadSpec{Path: "main.go", Line: 4, Author: "github-actions[bot]", Body: "nit"})
	pr, _ := s.PR("o/r", 1)
	tests := map[string]struct {
		query string
		vars  map[string]any
		fresh bool // needs its own server, e.g. an untouched rate-limit budget
		want  string
	}{
		"alias and typename": {
			query: `{ r: repository(owner: "o", name: "r") { __typename full: nameWithOwner } }`,
			want:  `{"r":{"__typename":"Repository","full":"o/r"}}`,
		},
		"named fragment and include": {
			query: `query($more: Boolean!) { viewer { ...V } } fragment V on User { login databaseId @include(if: $more) }`,
			vars:  map[string]any{"more": false},
			want:  `{"viewer":{"login":"github-actions[bot]"}}`,
		},
		"node as a thread": {
			query: `query($id: ID!) { node(id: $id) { __typename ... on PullRequestReviewThread { path line diffSide isResolved comments(first: 5) { nodes { body author { login } } } } } }`,
			vars:  map[string]any{"id": threadID},
			want:  `{"node":{"__typename":"PullRequestReviewThread","path":"main.go","line":4,"diffSide":"RIGHT","isResolved":false,"comments":{"nodes":[{"body":"nit","author":{"login":"github-actions"}}]}}}`,
		},
		"node as a pull request": {
			query: `query($id: ID!) { node(id: $id) { ... on PullRequest { number headRefOid state isDraft } } }`,
			vars:  map[string]any{"id": pr.NodeID},
			want:  `{"node":{"number":1,"headRefOid":"` + pr.HeadSHA + `","state":"OPEN","isDraft":false}}`,
		},
		"rate limit": {
			query: `{ rateLimit { limit cost remaining used } }`,
			fresh: true,
			want:  `{"rateLimit":{"limit":5000,"cost":1,"remaining":4999,"used":1}}`,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv := s
			if tc.fresh {
				srv = newFixture(t)
			}
			r := gql(t, srv, tokInstall, tc.query, tc.vars)
			if want := `{"data":` + tc.want + `}`; r.body != want {
				t.Errorf("body = %s\nwant   %s", r.body, want)
			}
		})
	}
}

func TestGraphQLResolveThread(t *testing.T) {
	t.Parallel()
	const mutation = `mutation($id: ID!) { resolveReviewThread(input: {threadId: $id}) { thread { id isResolved resolvedBy { login } } } }`
	const undo = `mutation($id: ID!) { unresolveReviewThread(input: {threadId: $id}) { thread { isResolved } } }`
	tests := map[string]struct {
		ops        []string
		wantWrites func(id string) []string
		resolved   bool
	}{
		"resolve": {ops: []string{mutation}, resolved: true,
			wantWrites: func(id string) []string { return []string{"o/r#1:thread:resolve:" + id} }},
		"resolving twice writes once": {ops: []string{mutation, mutation}, resolved: true,
			wantWrites: func(id string) []string { return []string{"o/r#1:thread:resolve:" + id} }},
		"resolve then unresolve": {ops: []string{mutation, undo}, resolved: false,
			wantWrites: func(id string) []string {
				return []string{"o/r#1:thread:resolve:" + id, "o/r#1:thread:unresolve:" + id}
			}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := newFixture(t)
			id, _ := s.AddThread("o/r", 1, ThreadSpec{Path: "main.go", Line: 4, Body: "nit"})
			for _, op := range tc.ops {
				var data map[string]any
				gqlData(t, s, tokInstall, op, map[string]any{"id": id}, &data)
			}
			th := s.Threads("o/r", 1)[0]
			if th.Resolved != tc.resolved {
				t.Errorf("resolved = %v, want %v", th.Resolved, tc.resolved)
			}
			if tc.resolved && th.ResolvedBy != "github-actions[bot]" {
				t.Errorf("resolvedBy = %q", th.ResolvedBy)
			}
			if got := s.Writes(); !slices.Equal(got, tc.wantWrites(id)) {
				t.Errorf("Writes = %v, want %v", got, tc.wantWrites(id))
			}
			if s.WriteCount() != len(tc.ops) {
				t.Errorf("WriteCount = %d, want %d", s.WriteCount(), len(tc.ops))
			}
		})
	}
}

func TestGraphQLMinimizeComment(t *testing.T) {
	t.Parallel()
	const minimize = `mutation($id: ID!) { minimizeComment(input: {subjectId: $id, classifier: OUTDATED}) { minimizedComment { isMinimized minimizedReason } } }`
	tests := map[string]struct {
		review bool // minimize a review comment rather than an issue comment
	}{
		"issue comment":  {review: false},
		"review comment": {review: true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := newFixture(t)
			c := s.AddIssueComment("o/r", 1, "github-actions[bot]", "old summary")
			nodeID, id := c.NodeID, c.ID
			if tc.review {
				_, id = s.AddThread("o/r", 1, ThreadSpec{Path: "main.go", Line: 4, Body: "old"})
				nodeID = s.Threads("o/r", 1)[0].Comments[0].NodeID
			}
			r := gql(t, s, tokInstall, minimize, map[string]any{"id": nodeID})
			want := `{"data":{"minimizeComment":{"minimizedComment":{"isMinimized":true,"minimizedReason":"outdated"}}}}`
			if r.body != want {
				t.Errorf("body = %s\nwant   %s", r.body, want)
			}
			if got := s.Writes(); !slices.Equal(got, []string{fmt.Sprintf("o/r#1:comment:minimize:%d", id)}) {
				t.Errorf("Writes = %v", got)
			}
		})
	}
}

func TestSetThreadOutdated(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		outdated bool
		wantLine string
	}{
		"outdated has no line": {outdated: true, wantLine: "null"},
		"current again":        {outdated: false, wantLine: "4"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := newFixture(t)
			id, _ := s.AddThread("o/r", 1, ThreadSpec{Path: "main.go", Line: 4, Body: "nit"})
			s.SetThreadOutdated(id, true)
			s.SetThreadOutdated(id, tc.outdated)
			r := gql(t, s, tokInstall, `query($id: ID!) { node(id: $id) { ... on PullRequestReviewThread { isOutdated line originalLine } } }`, map[string]any{"id": id})
			want := fmt.Sprintf(`{"data":{"node":{"isOutdated":%v,"line":%s,"originalLine":4}}}`, tc.outdated, tc.wantLine)
			if r.body != want {
				t.Errorf("body = %s\nwant   %s", r.body, want)
			}
		})
	}
}

// GitHub's lastEditedAt is null until a body is edited, then the time of
// its last edit, with the editor; a comment and a review alike.
func TestGraphQLLastEditedAt(t *testing.T) {
	t.Parallel()
	s := newFixture(t)
	var c, r struct{ ID int64 }
	do(t, s, tokAlice, "POST", "/repos/o/r/issues/1/comments", map[string]string{"body": "first"}).decode(t, &c)
	do(t, s, tokPAT, "POST", "/repos/o/r/pulls/1/reviews", map[string]string{"body": "looks fine", "event": "COMMENT"}).decode(t, &r)
	const q = `query { repository(owner: "o", name: "r") { pullRequest(number: 1) {
		comments(first: 10) { nodes { lastEditedAt updatedAt editor { login } } }
		reviews(first: 10) { nodes { lastEditedAt editor { login } } }
	} } }`
	type edit struct {
		LastEditedAt *time.Time
		UpdatedAt    time.Time
		Editor       *struct{ Login string }
	}
	read := func() (comment, review edit) {
		var data struct {
			Repository struct {
				PullRequest struct {
					Comments, Reviews struct{ Nodes []edit }
				}
			}
		}
		gqlData(t, s, tokPAT, q, nil, &data)
		pr := data.Repository.PullRequest
		if len(pr.Comments.Nodes) != 1 || len(pr.Reviews.Nodes) != 1 {
			t.Fatalf("read %d comments and %d reviews, want one each", len(pr.Comments.Nodes), len(pr.Reviews.Nodes))
		}
		return pr.Comments.Nodes[0], pr.Reviews.Nodes[0]
	}
	if comment, review := read(); comment.LastEditedAt != nil || comment.Editor != nil || review.LastEditedAt != nil || review.Editor != nil {
		t.Fatalf("before any edit: comment %+v, review %+v, want no edit", comment, review)
	}
	do(t, s, tokPAT, "PATCH", fmt.Sprintf("/repos/o/r/issues/comments/%d", c.ID), map[string]string{"body": "second"})
	do(t, s, tokAlice, "PUT", fmt.Sprintf("/repos/o/r/pulls/1/reviews/%d", r.ID), map[string]string{"body": "looks fine, edited"})
	comment, review := read()
	if comment.LastEditedAt == nil || comment.Editor == nil || comment.Editor.Login != "octocat" || !comment.UpdatedAt.Equal(*comment.LastEditedAt) {
		t.Errorf("edited comment: %+v, want edited by octocat, updated when edited", comment)
	}
	if review.LastEditedAt == nil || review.Editor == nil || review.Editor.Login != "alice" || !review.LastEditedAt.After(*comment.LastEditedAt) {
		t.Errorf("edited review: %+v, want edited by alice after the comment", review)
	}
}
