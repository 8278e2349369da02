package fakegithub

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-github/v62/github"
	"github.com/shurcooL/githubv4"
)

// The tests in this file drive the fake with the clients the project uses,
// proving their decoders accept what it sends.

func restClient(t *testing.T, s *Server, token string) *github.Client {
	t.Helper()
	c := github.NewClient(s.Client()).WithAuthToken(token)
	base, err := url.Parse(s.URL + "/")
	if err != nil {
		t.Fatalf("parsing %s: %v", s.URL, err)
	}
	c.BaseURL = base
	return c
}

// bearerTransport authenticates githubv4 requests the way oauth2 would.
type bearerTransport struct {
	token string
	next  http.RoundTripper
}

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

var _ http.RoundTripper = bearerTransport{}

func graphQLClient(s *Server, token string) *githubv4.Client {
	hc := &http.Client{Transport: bearerTransport{token: token, next: s.Client().Transport}}
	return githubv4.NewEnterpriseClient(s.GraphQLURL(), hc)
}

func TestGoGitHubPagination(t *testing.T) {
	t.Parallel()
	s := newFixture(t)
	for i := range 250 {
		s.AddIssueComment("o/r", 1, "github-actions[bot]", fmt.Sprint("comment ", i))
	}
	gh := restClient(t, s, tokInstall)
	opts := &github.IssueListCommentsOptions{ListOptions: github.ListOptions{PerPage: 100}}
	var all []*github.IssueComment
	for {
		page, resp, err := gh.Issues.ListComments(context.Background(), "o", "r", 1, opts)
		if err != nil {
			t.Fatalf("listing page %d: %v", opts.Page, err)
		}
		all = append(all, page...)
		if resp.NextPage == 0 {
			break
		}
		if resp.LastPage != 3 && resp.NextPage != 3 {
			t.Errorf("page %d: LastPage = %d, want 3", opts.Page, resp.LastPage)
		}
		opts.Page = resp.NextPage
	}
	if len(all) != 250 {
		t.Errorf("got %d comments, want 250", len(all))
	}
	if got := all[0].GetUser(); got.GetLogin() != "github-actions[bot]" || got.GetType() != "Bot" {
		t.Errorf("author = %s (%s)", got.GetLogin(), got.GetType())
	}
	if n := len(s.Requests()); n != 3 {
		t.Errorf("%d requests, want 3", n)
	}
	assertClean(t, s)
}

func TestGoGitHubErrors(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tests := map[string]struct {
		token string
		setup func(s *Server)
		call  func(gh *github.Client) error
		check func(t *testing.T, err error)
	}{
		"user endpoint refuses integrations": {
			token: tokInstall,
			call:  func(gh *github.Client) error { _, _, err := gh.Users.Get(ctx, ""); return err },
			check: wantErrorResponse(403, "Resource not accessible by integration", ""),
		},
		"review anchored outside the diff": {
			token: tokInstall,
			call: func(gh *github.Client) error {
				_, _, err := gh.PullRequests.CreateReview(ctx, "o", "r", 1, &github.PullRequestReviewRequest{
					Event: github.String("COMMENT"),
					Comments: []*github.DraftReviewComment{
						{Path: github.String("main.go"), Line: github.Int(4), Side: github.String("RIGHT"), Body: github.String("ok")},
						{Path: github.String("main.go"), Line: github.Int(9), Side: github.String("RIGHT"), Body: github.String("bad")},
					},
				})
				return err
			},
			check: wantErrorResponse(422, "Unprocessable Entity", msgLineNotInDiff),
		},
		"requesting changes on one's own PR": {
			token: tokAlice,
			call: func(gh *github.Client) error {
				_, _, err := gh.PullRequests.CreateReview(ctx, "o", "r", 1, &github.PullRequestReviewRequest{
					Event: github.String("REQUEST_CHANGES"), Body: github.String("hmm"),
				})
				return err
			},
			check: wantErrorResponse(422, "Unprocessable Entity", msgOwnRequestChanges),
		},
		"body too long": {
			token: tokInstall,
			call: func(gh *github.Client) error {
				_, _, err := gh.Issues.CreateComment(ctx, "o", "r", 1, &github.IssueComment{Body: github.String(strings.Repeat("x", 70000))})
				return err
			},
			check: func(t *testing.T, err error) {
				var er *github.ErrorResponse
				if !errors.As(err, &er) || len(er.Errors) != 1 {
					t.Fatalf("err = %v", err)
				}
				if e := er.Errors[0]; e.Resource != "IssueComment" || e.Code != "custom" || e.Field != "body" ||
					e.Message != "body is too long (maximum is 65536 characters)" {
					t.Errorf("error = %+v", e)
				}
			},
		},
		"secondary rate limit": {
			token: tokInstall,
			setup: func(s *Server) { s.Inject(SecondaryRateLimit(90 * time.Second).Once()) },
			call:  func(gh *github.Client) error { _, _, err := gh.Repositories.Get(ctx, "o", "r"); return err },
			check: func(t *testing.T, err error) {
				var al *github.AbuseRateLimitError
				if !errors.As(err, &al) || al.RetryAfter == nil || *al.RetryAfter != 90*time.Second {
					t.Errorf("err = %#v, want AbuseRateLimitError retrying after 90s", err)
				}
			},
		},
		"primary rate limit": {
			token: tokInstall,
			setup: func(s *Server) { s.SetRateLimit("core", 5000, 0, time.Now().Add(time.Hour)) },
			call:  func(gh *github.Client) error { _, _, err := gh.Repositories.Get(ctx, "o", "r"); return err },
			check: func(t *testing.T, err error) {
				var rl *github.RateLimitError
				if !errors.As(err, &rl) || rl.Rate.Remaining != 0 || rl.Rate.Limit != 5000 {
					t.Errorf("err = %#v, want RateLimitError", err)
				}
			},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := newFixture(t)
			if tc.setup != nil {
				tc.setup(s)
			}
			tc.check(t, tc.call(restClient(t, s, tc.token)))
			if w := s.Writes(); len(w) != 0 {
				t.Errorf("a failed call wrote %v", w)
			}
		})
	}
}

func wantErrorResponse(status int, message, firstError string) func(t *testing.T, err error) {
	return func(t *testing.T, err error) {
		t.Helper()
		var er *github.ErrorResponse
		if !errors.As(err, &er) {
			t.Fatalf("err = %v, want *github.ErrorResponse", err)
		}
		if er.Response.StatusCode != status || er.Message != message {
			t.Errorf("got %d %q, want %d %q", er.Response.StatusCode, er.Message, status, message)
		}
		if firstError != "" && (len(er.Errors) == 0 || er.Errors[0].Message != firstError) {
			t.Errorf("errors = %+v, want first %q", er.Errors, firstError)
		}
	}
}

func TestGoGitHubDecodesEverything(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newFixture(t)
	s.SetContents("o/r", "main", "docs/a.md", strings.Repeat("long line of text ", 20))
	_, root := s.AddThread("o/r", 1, ThreadSpec{Path: "main.go", Line: 4, Author: "alice", Body: "why?"})
	gh := restClient(t, s, tokInstall)

	pr, _, err := gh.PullRequests.Get(ctx, "o", "r", 1)
	if err != nil || pr.GetUser().GetLogin() != "alice" || pr.GetHead().GetRepo().GetFullName() != "o/r" {
		t.Fatalf("PR = %v, %v", pr, err)
	}
	diff, _, err := gh.PullRequests.GetRaw(ctx, "o", "r", 1, github.RawOptions{Type: github.Diff})
	if err != nil || !strings.Contains(diff, "+++ b/README.md") {
		t.Errorf("diff = %q, %v", diff, err)
	}
	files, _, err := gh.PullRequests.ListFiles(ctx, "o", "r", 1, nil)
	if err != nil || len(files) != 2 || files[1].GetStatus() != "added" {
		t.Errorf("files = %v, %v", files, err)
	}
	fc, _, _, err := gh.Repositories.GetContents(ctx, "o", "r", "docs/a.md", &github.RepositoryContentGetOptions{Ref: "main"})
	if err != nil {
		t.Fatalf("contents: %v", err)
	}
	if text, err := fc.GetContent(); err != nil || text != strings.Repeat("long line of text ", 20) {
		t.Errorf("content = %q, %v", text, err)
	}
	reply, _, err := gh.PullRequests.CreateCommentInReplyTo(ctx, "o", "r", 1, "on it", root)
	if err != nil || reply.GetInReplyTo() != root || reply.GetUser().GetLogin() != "github-actions[bot]" {
		t.Errorf("reply = %v, %v", reply, err)
	}
	_, first, err := gh.Reactions.CreatePullRequestCommentReaction(ctx, "o", "r", root, "eyes")
	if err != nil {
		t.Fatalf("reaction: %v", err)
	}
	_, again, err := gh.Reactions.CreatePullRequestCommentReaction(ctx, "o", "r", root, "eyes")
	if err != nil || first.StatusCode != 201 || again.StatusCode != 200 {
		t.Errorf("reaction statuses %d then %d (%v)", first.StatusCode, again.StatusCode, err)
	}
	review, _, err := gh.PullRequests.CreateReview(ctx, "o", "r", 1, &github.PullRequestReviewRequest{
		Event: github.String("COMMENT"), Body: github.String("summary"),
		Comments: []*github.DraftReviewComment{{Path: github.String("README.md"), Line: github.Int(1), Body: github.String("title")}},
	})
	if err != nil || review.GetState() != "COMMENTED" {
		t.Fatalf("review = %v, %v", review, err)
	}
	comments, _, err := gh.PullRequests.ListComments(ctx, "o", "r", 1, nil)
	if err != nil || len(comments) != 3 || comments[2].GetPullRequestReviewID() != review.GetID() {
		t.Errorf("review comments = %v, %v", comments, err)
	}
	st, _, err := gh.Repositories.CreateStatus(ctx, "o", "r", pr.GetHead().GetSHA(), &github.RepoStatus{
		State: github.String("failure"), Context: github.String("rmc/merge-gate"), Description: github.String("blocked"),
	})
	if err != nil || st.GetCreator().GetLogin() != "github-actions[bot]" {
		t.Errorf("status = %v, %v", st, err)
	}
	combined, _, err := gh.Repositories.GetCombinedStatus(ctx, "o", "r", pr.GetHead().GetSHA(), nil)
	if err != nil || combined.GetState() != "failure" {
		t.Errorf("combined = %v, %v", combined, err)
	}
	perm, _, err := gh.Repositories.GetPermissionLevel(ctx, "o", "r", "o")
	if err != nil || perm.GetPermission() != "admin" {
		t.Errorf("permission = %v, %v", perm, err)
	}
	want := []string{
		fmt.Sprintf("o/r#1:review-comment:reply:%d", reply.GetID()),
		fmt.Sprintf("o/r#1:reaction:eyes:%d", root),
		fmt.Sprintf("o/r#1:review:create:%d:COMMENT:1", review.GetID()),
		"o/r@" + pr.GetHead().GetSHA() + ":status:rmc/merge-gate:failure",
	}
	if got := s.Writes(); !slices.Equal(got, want) {
		t.Errorf("Writes = %v\nwant     %v", got, want)
	}
	assertClean(t, s)
}

func TestGithubv4(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newFixture(t)
	var ids []string
	for i := range 3 {
		id, root := s.AddThread("o/r", 1, ThreadSpec{Path: "main.go", Line: 4 + i, Author: "github-actions[bot]", Body: fmt.Sprint("nit ", i)})
		s.AddReply("o/r", 1, root, "alice", "fixed")
		ids = append(ids, id)
	}
	s.AddThread("o/r", 1, ThreadSpec{Path: "main.go", Line: 20, Outdated: true, Body: "old"})

	type thread struct {
		ID         string
		IsResolved bool
		IsOutdated bool
		Path       string
		Line       *int
		DiffSide   githubv4.DiffSide
		Comments   struct {
			Nodes []struct {
				DatabaseID int64
				Body       string
				Author     struct {
					Login    string
					Typename string `graphql:"__typename"`
				}
				ReplyTo *struct{ DatabaseID int64 }
			}
		} `graphql:"comments(first: 100)"`
	}
	var q struct {
		Viewer     struct{ Login string }
		Repository struct {
			PullRequest struct {
				ID            string
				HeadRefOid    string
				State         githubv4.PullRequestState
				ReviewThreads struct {
					PageInfo struct {
						HasNextPage bool
						EndCursor   githubv4.String
					}
					Nodes []thread
				} `graphql:"reviewThreads(first: $first, after: $after)"`
			} `graphql:"pullRequest(number: $number)"`
		} `graphql:"repository(owner: $owner, name: $name)"`
	}
	vars := map[string]any{
		"owner": githubv4.String("o"), "name": githubv4.String("r"), "number": githubv4.Int(1),
		"first": githubv4.Int(2), "after": (*githubv4.String)(nil),
	}
	gc := graphQLClient(s, tokInstall)
	var threads []thread
	for {
		if err := gc.Query(ctx, &q, vars); err != nil {
			t.Fatalf("query: %v (GraphQL errors: %v)", err, s.GraphQLErrors())
		}
		threads = append(threads, q.Repository.PullRequest.ReviewThreads.Nodes...)
		if !q.Repository.PullRequest.ReviewThreads.PageInfo.HasNextPage {
			break
		}
		vars["after"] = githubv4.NewString(q.Repository.PullRequest.ReviewThreads.PageInfo.EndCursor)
	}
	if q.Viewer.Login != "github-actions[bot]" || q.Repository.PullRequest.State != githubv4.PullRequestStateOpen {
		t.Errorf("viewer %q, state %q", q.Viewer.Login, q.Repository.PullRequest.State)
	}
	if len(threads) != 4 || !threads[3].IsOutdated || threads[3].Line != nil || *threads[1].Line != 5 {
		t.Fatalf("threads = %+v", threads)
	}
	c := threads[0].Comments.Nodes
	if len(c) != 2 || c[0].Author.Login != "github-actions" || c[0].Author.Typename != "Bot" ||
		c[1].ReplyTo == nil || c[1].ReplyTo.DatabaseID != c[0].DatabaseID {
		t.Errorf("thread comments = %+v", c)
	}

	var m struct {
		ResolveReviewThread struct {
			Thread struct {
				ID         string
				IsResolved bool
			}
		} `graphql:"resolveReviewThread(input: $input)"`
	}
	if err := gc.Mutate(ctx, &m, githubv4.ResolveReviewThreadInput{ThreadID: githubv4.ID(ids[1])}, nil); err != nil {
		t.Fatalf("mutate: %v", err)
	}
	if !m.ResolveReviewThread.Thread.IsResolved || !s.Threads("o/r", 1)[1].Resolved {
		t.Errorf("thread %s not resolved", ids[1])
	}
	if got := s.Writes(); !slices.Equal(got, []string{"o/r#1:thread:resolve:" + ids[1]}) {
		t.Errorf("Writes = %v", got)
	}
	if errs := s.GraphQLErrors(); len(errs) != 0 {
		t.Errorf("GraphQL errors: %v", errs)
	}
}
