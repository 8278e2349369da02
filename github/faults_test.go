package github_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/review-my-code-bot/rmc/github"
	"github.com/review-my-code-bot/rmc/github/fakegithub"
	"github.com/review-my-code-bot/rmc/snapshot"
)

// callKind is one kind of request the action makes, with a check that its
// effect happened exactly once.
type callKind struct {
	method, path string // what to inject the fault on
	do           func(ctx context.Context, c *github.Client, f *fixture) error
	once         func(f *fixture) error // nil: a read, nothing to count
}

type fixture struct {
	gh       *fakegithub.Server
	repo     snapshot.Repo
	pr       int
	threadID string
	root     int64
	head     string
}

func newFixture(t *testing.T) *fixture {
	f := fakegithub.New()
	t.Cleanup(f.Close)
	f.AddToken("tok", fakegithub.Identity{Login: "github-actions[bot]", Kind: fakegithub.TokenInstallation})
	f.AddUser("alice", false)
	f.AddUser("bob", false)
	f.SetPermission("o/r", "bob", "maintain")
	pr := f.AddPR("o/r", fakegithub.PR{Author: "alice"})
	f.SetFiles("o/r", pr.Number, []fakegithub.File{{Path: "a.go", Status: "modified", Patch: "@@ -1,1 +1,2 @@\n a\n+b"}})
	f.SetContents("o/r", pr.BaseSHA, "AGENTS.md", "rules")
	thread, root := f.AddThread("o/r", pr.Number, fakegithub.ThreadSpec{Path: "a.go", Line: 2, Author: "github-actions[bot]", Body: "finding"})
	f.AddIssueComment("o/r", pr.Number, "github-actions[bot]", "status")
	return &fixture{gh: f, repo: snapshot.Repo{Owner: "o", Name: "r"}, pr: pr.Number, threadID: thread, root: root, head: pr.HeadSHA}
}

func count[T any](xs []T, keep func(T) bool) int {
	n := 0
	for _, x := range xs {
		if keep(x) {
			n++
		}
	}
	return n
}

func exactly(what string, n int) error {
	if n != 1 {
		return fmt.Errorf("%s happened %d times, want exactly once", what, n)
	}
	return nil
}

var kinds = map[string]callKind{
	"read the PR (GraphQL)": {"POST", "/graphql", func(ctx context.Context, c *github.Client, f *fixture) error {
		s, err := c.Snapshot(ctx, f.repo, f.pr)
		if err == nil && len(s.Threads) != 1 {
			err = fmt.Errorf("read %d threads", len(s.Threads))
		}
		return err
	}, nil},
	"list files": {"GET", "/repos/o/r/pulls/1/files", func(ctx context.Context, c *github.Client, f *fixture) error {
		_, err := c.Files(ctx, f.repo, f.pr)
		return err
	}, nil},
	"read contents": {"GET", "/repos/o/r/contents/", func(ctx context.Context, c *github.Client, f *fixture) error {
		_, found, err := c.Contents(ctx, f.repo, "main", "AGENTS.md")
		_ = found
		return err
	}, nil},
	"create a comment": {"POST", "/repos/o/r/issues/1/comments", func(ctx context.Context, c *github.Client, f *fixture) error {
		_, err := c.CreateComment(ctx, f.repo, f.pr, "the answer")
		return err
	}, func(f *fixture) error {
		return exactly("the comment", count(f.gh.IssueComments("o/r", f.pr), func(c fakegithub.Comment) bool { return c.Body == "the answer" }))
	}},
	"edit a comment": {"PATCH", "/repos/o/r/issues/comments/", func(ctx context.Context, c *github.Client, f *fixture) error {
		return c.EditComment(ctx, f.repo, f.gh.IssueComments("o/r", f.pr)[0].ID, "edited")
	}, func(f *fixture) error {
		return exactly("the edit", count(f.gh.IssueComments("o/r", f.pr), func(c fakegithub.Comment) bool { return c.Body == "edited" }))
	}},
	"reply in a thread": {"POST", "/repos/o/r/pulls/1/comments", func(ctx context.Context, c *github.Client, f *fixture) error {
		_, err := c.Reply(ctx, f.repo, f.pr, f.root, "conceded")
		return err
	}, func(f *fixture) error {
		return exactly("the reply", count(f.gh.ReviewComments("o/r", f.pr), func(c fakegithub.ReviewComment) bool { return c.Body == "conceded" }))
	}},
	"react": {"POST", "/repos/o/r/pulls/comments/", func(ctx context.Context, c *github.Client, f *fixture) error {
		return c.React(ctx, f.repo, snapshot.Subject{ID: f.root, InThread: true}, "eyes")
	}, func(f *fixture) error { return exactly("the reaction", len(f.gh.Reactions(f.root))) }},
	"create a review": {"POST", "/repos/o/r/pulls/1/reviews", func(ctx context.Context, c *github.Client, f *fixture) error {
		_, err := c.CreateReview(ctx, f.repo, f.pr, snapshot.NewReview{Event: "COMMENT", Body: "one review", CommitSHA: f.head,
			Comments: []snapshot.NewReviewComment{{Path: "a.go", Line: 2, Side: "RIGHT", Body: "inline"}}})
		return err
	}, func(f *fixture) error {
		return exactly("the review", count(f.gh.Reviews("o/r", f.pr), func(r fakegithub.Review) bool { return r.Body == "one review" }))
	}},
	"set a status": {"POST", "/repos/o/r/statuses/", func(ctx context.Context, c *github.Client, f *fixture) error {
		return c.SetStatus(ctx, f.repo, f.head, snapshot.Status{Context: "rmc/merge-gate", State: "failure", Description: "1 open"})
	}, func(f *fixture) error {
		if st, _ := f.gh.Statuses("o/r", f.head), 0; len(st) == 0 || st[len(st)-1].State != "failure" {
			return fmt.Errorf("statuses %v", st)
		}
		return nil
	}},
	"resolve a thread (GraphQL)": {"POST", "/graphql", func(ctx context.Context, c *github.Client, f *fixture) error {
		return c.ResolveThread(ctx, f.threadID)
	}, func(f *fixture) error {
		return exactly("the resolution", count(f.gh.Threads("o/r", f.pr), func(t fakegithub.Thread) bool { return t.Resolved }))
	}},
	"read a permission": {"GET", "/repos/o/r/collaborators/", func(ctx context.Context, c *github.Client, f *fixture) error {
		p, err := c.Permission(ctx, f.repo, "bob")
		if err == nil && p != "maintain" {
			err = fmt.Errorf("permission %q, want maintain", p)
		}
		return err
	}, nil},
	"request reviewers": {"POST", "/repos/o/r/pulls/1/requested_reviewers", func(ctx context.Context, c *github.Client, f *fixture) error {
		return c.RequestReviewers(ctx, f.repo, f.pr, []string{"bob"})
	}, func(f *fixture) error { return exactly("the request", len(f.gh.RequestedReviewers("o/r", f.pr))) }},
}

var faults = map[string]fakegithub.Fault{
	"500":                      fakegithub.ServerError(),
	"502":                      fakegithub.BadGateway(),
	"timeout":                  fakegithub.Timeout(faultDelay),
	"403 secondary rate limit": fakegithub.SecondaryRateLimit(2 * time.Second),
	"429":                      fakegithub.TooManyRequests(3 * time.Second),
	"lost response":            fakegithub.LostResponse(),
}

// The timeout fault races real clocks, so each step has half a second of room on
// a loaded machine: an attempt gives up after attemptTimeout, the stalled
// request lands at faultDelay, and a create whose answer was lost looks for
// it after createBackoff more (the backoff waits themselves are recorded,
// not slept; only createOnce's wait for a slow write is real).
const (
	attemptTimeout = 500 * time.Millisecond
	faultDelay     = time.Second
	createBackoff  = time.Second
)

// Every kind of request × every failure GitHub produces: the call completes,
// its effect happens exactly once, and a rate-limit wait is honoured.
func TestFaultTable(t *testing.T) {
	t.Parallel()
	for kname, k := range kinds {
		for fname, fault := range faults {
			t.Run(kname+" × "+fname, func(t *testing.T) {
				t.Parallel()
				if fname == "lost response" && k.once == nil {
					t.Skip("reads have no response to lose") // not a gap: nothing to apply
				}
				f := newFixture(t)
				var waited atomic.Int64
				c, err := github.New(github.Options{Token: "tok", APIURL: f.gh.URL, GraphQLURL: f.gh.GraphQLURL(), Timeout: attemptTimeout,
					Retry: github.RetryPolicy{BaseBackoff: createBackoff, Sleep: func(_ *http.Request, d time.Duration) error {
						waited.Add(int64(d))
						return nil
					}}})
				if err != nil {
					t.Fatal(err)
				}
				f.gh.Inject(fault.For(k.method, k.path).Once())
				if err := k.do(context.Background(), c, f); err != nil {
					t.Fatalf("call failed: %v", err)
				}
				if k.once != nil {
					if err := k.once(f); err != nil {
						t.Error(err)
					}
				}
				if strings.Contains(fname, "rate limit") || fname == "429" {
					if want := map[string]time.Duration{"429": 3 * time.Second}[fname]; time.Duration(waited.Load()) < max(want, 2*time.Second) {
						t.Errorf("waited %s, want at least the Retry-After", time.Duration(waited.Load()))
					}
				}
				if c.Counts().Retries == 0 {
					t.Errorf("no retry was counted")
				}
			})
		}
	}
}
