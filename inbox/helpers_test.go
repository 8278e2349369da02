package inbox

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/review-my-code-bot/rmc/agentmd"
)

// clock is a settable time source for stores under test.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(time.Second) // every event gets its own instant
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// testStore opens a store in a temp dir.
func testStore(t testing.TB, opts Options) *Store {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "reviews.jsonl"), opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

const testDiff = "diff --git a/a.go b/a.go\n--- a/a.go\n+++ b/a.go\n@@ -1,3 +1,3 @@\n package a\n-var x = 1\n+var x = 2\n // end\n"

func testRequest(files ...string) Request {
	if len(files) == 0 {
		files = []string{"a.go"}
	}
	return Request{Files: files, Cwd: "/repo", Root: "/repo", Branch: "main", Base: "HEAD (abc1234)", Message: "check x"}
}

func testSubmission() Submission {
	g := "Looks fine otherwise."
	line := 2
	return Submission{Submission: agentmd.Submission{GlobalComment: &g, Comments: []agentmd.SubmittedComment{
		{File: "a.go", StartLine: &line, EndLine: &line, Side: "right", Body: "Why 2?"},
	}}, JSONPath: "rfa/comments_00000000.json", MDPath: "rfa/comments_00000000.md"}
}

// reviewIn creates a review and moves it to status.
func reviewIn(t testing.TB, s *Store, status Status) Record {
	t.Helper()
	ctx := context.Background()
	r, err := s.Create(ctx, testRequest(), testDiff)
	if err != nil {
		t.Fatal(err)
	}
	steps := map[Status][]func() (Record, error){
		StatusOpen:      nil,
		StatusCancelled: {func() (Record, error) { return s.Cancel(ctx, r.ID) }},
		StatusSubmitted: {func() (Record, error) { return s.Submit(ctx, r.ID, testSubmission()) }},
		StatusClaimed: {func() (Record, error) { return s.Submit(ctx, r.ID, testSubmission()) },
			func() (Record, error) { return s.Claim(ctx, r.ID, "alpha", false) }},
		StatusResolved: {func() (Record, error) { return s.Submit(ctx, r.ID, testSubmission()) },
			func() (Record, error) { return s.Resolve(ctx, r.ID, ResolveOptions{Note: "done"}) }},
	}
	for _, step := range steps[status] {
		if r, err = step(); err != nil {
			t.Fatal(err)
		}
	}
	if r.Status != status {
		t.Fatalf("review %s is %s, want %s", r.ID, r.Status, status)
	}
	return r
}

func kindOf(err error) string {
	for _, k := range []error{ErrNotFound, ErrConflict, ErrInvalidState, ErrInvalidInput} {
		if errors.Is(err, k) {
			return k.Error()
		}
	}
	if err != nil {
		return "other: " + err.Error()
	}
	return ""
}

func readStore(t testing.TB, s *Store) string {
	t.Helper()
	b, err := os.ReadFile(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func lines(s string) int { return strings.Count(s, "\n") }

// bulkRecords renders n full records of every status, as a store holds
// them after compaction, for benchmarks.
func bulkRecords(n int, at time.Time) []byte {
	var b []byte
	statuses := []Status{StatusSubmitted, StatusClaimed, StatusResolved, StatusOpen, StatusCancelled}
	for i := range n {
		created := at.Add(time.Duration(i) * time.Minute)
		r := Record{V: FormatVersion, ID: fmt.Sprintf("b%07d", i), Kind: KindReview, Status: statuses[i%len(statuses)],
			CreatedAt: created, UpdatedAt: created, Request: &Request{Files: []string{"src/a.go", "src/b.go", "README.md"},
				Cwd: "/home/dev/project", Root: "/home/dev/project", Branch: "main", Commit: "0123456789abcdef0123456789abcdef01234567",
				Base: "HEAD (0123456)", Message: "Please check the retry logic", Server: "http://localhost:4100",
				DiffSHA256: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", DiffBytes: 2048}}
		if r.Status != StatusOpen && r.Status != StatusCancelled {
			sub := testSubmission()
			r.SubmittedAt, r.Submission, r.ResultSummary = &created, &sub, summarize(sub.Submission)
		}
		if r.Status == StatusClaimed || r.Status == StatusResolved {
			r.Claim = &Claim{ClaimedBy: "agent-1", ClaimedAt: created}
		}
		if r.Status == StatusResolved {
			r.ResolvedAt, r.Resolution = &created, &Resolution{Note: "fixed in the next commit"}
		}
		line, err := encodeLine(r)
		if err != nil {
			panic(err)
		}
		b = append(b, line...)
	}
	return b
}
