package github

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"

	"github.com/review-my-code-bot/rmc/github/fakegithub"
	"github.com/review-my-code-bot/rmc/snapshot"
)

// recorder keeps every GraphQL document and its variables on the way out.
type recorder struct {
	next http.RoundTripper
	mu   sync.Mutex
	docs map[string][]map[string]any // document -> variables of each send
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	if strings.HasSuffix(req.URL.Path, "/graphql") && req.Body != nil {
		b, _ := io.ReadAll(req.Body)
		req.Body = io.NopCloser(bytes.NewReader(b))
		var in struct {
			Query     string         `json:"query"`
			Variables map[string]any `json:"variables"`
		}
		if err := json.Unmarshal(b, &in); err == nil {
			r.mu.Lock()
			r.docs[in.Query] = append(r.docs[in.Query], in.Variables)
			r.mu.Unlock()
		}
	}
	return r.next.RoundTrip(req)
}

const token = "ghs_test"

// seeded starts a fake GitHub with one PR whose threads and comments force
// every paging path: many comments, many threads, long threads, a very long one.
func seeded(t testing.TB, comments, threads int) (*fakegithub.Server, snapshot.Repo) {
	t.Helper()
	f := fakegithub.New()
	t.Cleanup(f.Close)
	f.AddToken(token, fakegithub.Identity{Login: "github-actions[bot]", Kind: fakegithub.TokenInstallation})
	f.AddUser("alice", false)
	f.AddRepo("o/r")
	pr := f.AddPR("o/r", fakegithub.PR{Author: "alice", Title: "t"})
	f.SetFiles("o/r", pr.Number, []fakegithub.File{{Path: "a.go", Status: "modified", Patch: "@@ -1,3 +1,400 @@\n" + strings.Repeat("+x\n", 399) + " y"}})
	for i := range comments {
		f.AddIssueComment("o/r", pr.Number, "alice", fmt.Sprintf("comment %d", i))
	}
	for i := range threads {
		_, root := f.AddThread("o/r", pr.Number, fakegithub.ThreadSpec{Path: "a.go", Line: 1 + i%300, Author: "alice", Body: fmt.Sprintf("thread %d", i)})
		replies := 1
		switch i {
		case 0:
			replies = 25 // more than fit inline
		case 1:
			replies = 150 // more than one page of 100
		}
		for j := range replies {
			f.AddReply("o/r", pr.Number, root, "alice", fmt.Sprintf("reply %d", j))
		}
	}
	return f, snapshot.Repo{Owner: "o", Name: "r"}
}

func client(t testing.TB, f *fakegithub.Server, rt http.RoundTripper) *Client {
	t.Helper()
	c, err := New(Options{Token: token, APIURL: f.URL, GraphQLURL: f.GraphQLURL(), Transport: rt})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Every GraphQL document the adapter can send is valid against GitHub's
// schema, with the variables it sends.
func TestGraphQLDocumentsValidateAgainstSchema(t *testing.T) {
	t.Parallel()
	f, repo := seeded(t, 130, 120)
	rec := &recorder{next: http.DefaultTransport, docs: map[string][]map[string]any{}}
	c := client(t, f, rec)
	snap, err := c.SnapshotWithConfig(context.Background(), repo, 1, "", "")
	if err != nil {
		t.Fatal(err)
	}
	if err := c.ResolveThread(context.Background(), snap.Threads[2].ID); err != nil {
		t.Fatal(err)
	}
	if err := c.UnresolveThread(context.Background(), snap.Threads[2].ID); err != nil {
		t.Fatal(err)
	}
	schema, err := fakegithub.Schema()
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]bool{}
	for doc, sends := range rec.docs {
		q, errs := parser.ParseQuery(&ast.Source{Input: doc})
		if errs != nil {
			t.Fatalf("parse %s: %v", doc, errs)
		}
		if errs := validator.ValidateWithRules(schema, q, nil); errs != nil {
			t.Errorf("document does not validate: %v\n%s", errs, doc)
		}
		for _, op := range q.Operations {
			for _, vars := range sends {
				if _, err := validator.VariableValues(schema, op, vars); err != nil {
					t.Errorf("variables %v do not validate: %v\n%s", vars, err, doc)
				}
			}
			kinds[string(op.Operation)+":"+op.SelectionSet[len(op.SelectionSet)-1].(*ast.Field).Name] = true
		}
	}
	for _, want := range []string{"query:repository", "query:nodes", "mutation:resolveReviewThread", "mutation:unresolveReviewThread"} {
		if !kinds[want] {
			t.Errorf("no %s document was exercised (got %v)", want, kinds)
		}
	}
	if errs := f.GraphQLErrors(); len(errs) > 0 {
		t.Errorf("the fake rejected documents: %v", errs)
	}
}

func TestSnapshotReadsEverything(t *testing.T) {
	t.Parallel()
	f, repo := seeded(t, 130, 120)
	snap, err := client(t, f, nil).Snapshot(context.Background(), repo, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.IssueComments) != 130 || len(snap.Threads) != 120 {
		t.Fatalf("read %d comments and %d threads, want 130 and 120", len(snap.IssueComments), len(snap.Threads))
	}
	for i, want := range map[int]int{0: 26, 1: 151, 2: 2, 119: 2} {
		if got := len(snap.Threads[i].Comments); got != want {
			t.Errorf("thread %d has %d comments, want %d", i, got, want)
		}
	}
	// Every comment carries its thread's hunk, the long threads' pages too.
	for i, th := range f.Threads("o/r", 1) {
		for j, c := range th.Comments {
			if got := snap.Threads[i].Comments[j].DiffHunk; got != c.DiffHunk || got == "" {
				t.Fatalf("thread %d comment %d hunk %q, want %q", i, j, got, c.DiffHunk)
			}
		}
	}
	long := snap.Threads[1].Comments
	for i := 1; i < len(long); i++ {
		if long[i].ReplyToID != long[0].ID || !strings.HasPrefix(long[i].Body, "reply ") {
			t.Fatalf("thread 1 comment %d = %+v, want a reply to the root", i, long[i])
		}
		if i > 1 && long[i].ID <= long[i-1].ID {
			t.Fatalf("thread 1 comments out of order at %d", i)
		}
	}
	if snap.PR.Author.Login != "alice" || snap.PR.HeadSHA == "" || snap.Viewer.Login != "github-actions" || !snap.Viewer.IsBot {
		t.Errorf("metadata: %+v viewer %+v", snap.PR, snap.Viewer)
	}
	if snap.IssueComments[0].ID < 1000 || snap.IssueComments[0].Author.Login != "alice" {
		t.Errorf("comment 0 = %+v", snap.IssueComments[0])
	}
}

// The issue's budget: a PR with 1,000 comments and 300 threads is read in at
// most 15 requests.
func TestSnapshotReadBudget(t *testing.T) {
	t.Parallel()
	f, repo := seeded(t, 1000, 300)
	c := client(t, f, nil)
	if _, err := c.Snapshot(context.Background(), repo, 1); err != nil {
		t.Fatal(err)
	}
	if n := c.Counts().Reads; n > 15 {
		t.Errorf("snapshot took %d read requests, budget 15", n)
	}
	t.Logf("1,000 comments + 300 threads: %d read requests, GraphQL cost %d", c.Counts().Reads, c.Counts().GraphQLCost)
}

func BenchmarkSnapshot(b *testing.B) {
	f, repo := seeded(b, 1000, 300)
	c := client(b, f, nil)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, err := c.Snapshot(context.Background(), repo, 1); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(c.Counts().Reads)/float64(b.N), "reads/op")
	b.ReportMetric(float64(c.Counts().GraphQLCost)/float64(b.N), "gqlcost/op")
}

// SnapshotSince reads the threads again in full, only the reviews posted
// since the start (paging back past a page of new ones), and no
// conversation.
func TestSnapshotSince(t *testing.T) {
	t.Parallel()
	f, repo := seeded(t, 250, 120)
	c := client(t, f, nil)
	ctx := context.Background()
	start, err := c.Snapshot(ctx, repo, 1)
	if err != nil {
		t.Fatal(err)
	}
	threadID, _ := f.AddThread("o/r", 1, fakegithub.ThreadSpec{Path: "a.go", Line: 7, Author: "alice", Body: "new thread"})
	f.ResolveThreadAs(start.Threads[5].ID, "alice", true)
	for i := range 130 {
		f.AddReview("o/r", 1, "alice", "COMMENTED", fmt.Sprintf("new review %d", i))
	}
	f.AddIssueComment("o/r", 1, "alice", "not read again")
	c = client(t, f, nil)
	after, err := c.SnapshotSince(ctx, start)
	if err != nil {
		t.Fatal(err)
	}
	full, err := c.Snapshot(ctx, repo, 1)
	if err != nil {
		t.Fatal(err)
	}
	if after.IssueComments != nil {
		t.Errorf("read %d conversation comments", len(after.IssueComments))
	}
	if fmt.Sprint(after.Threads) != fmt.Sprint(full.Threads) || after.Threads[len(after.Threads)-1].ID != threadID || !after.Threads[5].IsResolved {
		t.Errorf("threads differ from a full read")
	}
	if fmt.Sprint(after.Reviews) != fmt.Sprint(full.Reviews) || len(after.Reviews) != len(start.Reviews)+131 {
		t.Errorf("%d reviews, a full read %d (start %d)", len(after.Reviews), len(full.Reviews), len(start.Reviews))
	}
	if !reflect.DeepEqual(after.PR, full.PR) {
		t.Errorf("PR = %+v, want %+v", after.PR, full.PR)
	}
	if errs := f.GraphQLErrors(); len(errs) > 0 {
		t.Errorf("the fake rejected documents: %v", errs)
	}
}
