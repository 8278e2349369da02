package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/review-my-code-bot/rmc/agentmd"
	"github.com/review-my-code-bot/rmc/inbox"
)

// BenchmarkInboxList times `reviews-for-agent inbox list` on a store of
// 10,000 reviews, a fifth of them submitted: every status, with requests,
// comments, claims and notes as real ones have. The goal is under 50 ms.
func BenchmarkInboxList(b *testing.B) {
	store := filepath.Join(b.TempDir(), "reviews.jsonl")
	if err := os.WriteFile(store, bulkStore(10000), 0o600); err != nil {
		b.Fatal(err)
	}
	c := &cli{stdout: io.Discard, stderr: io.Discard, getenv: func(k string) string {
		if k == inbox.StoreEnv {
			return store
		}
		return ""
	}}
	ctx := context.Background()
	start := time.Now()
	for b.Loop() {
		if code := c.run(ctx, []string{"inbox", "list"}); code != 0 {
			b.Fatalf("inbox list exited %d", code)
		}
	}
	perList := time.Since(start) / time.Duration(b.N)
	b.ReportMetric(float64(perList.Microseconds())/1000, "ms/list")
	b.Logf("inbox list on 10,000 records: %v", perList)
}

func bulkStore(n int) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	statuses := []inbox.Status{inbox.StatusSubmitted, inbox.StatusClaimed, inbox.StatusResolved, inbox.StatusOpen, inbox.StatusCancelled}
	global, line := "Close; see the notes.", 42
	at := time.Now().Add(-29 * 24 * time.Hour)
	for i := range n {
		created := at.Add(time.Duration(i) * time.Minute)
		r := inbox.Record{V: inbox.FormatVersion, ID: fmt.Sprintf("b%07d", i), Kind: inbox.KindReview, Status: statuses[i%len(statuses)],
			CreatedAt: created, UpdatedAt: created, Request: &inbox.Request{Files: []string{"src/a.go", "src/b.go", "README.md"},
				Cwd: "/home/dev/project", Root: "/home/dev/project", Branch: "main", Commit: "0123456789abcdef0123456789abcdef01234567",
				Base: "HEAD (0123456)", Message: "Please check the retry logic", Server: "http://localhost:4100",
				DiffSHA256: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", DiffBytes: 2048}}
		if r.Status != inbox.StatusOpen && r.Status != inbox.StatusCancelled {
			r.SubmittedAt = &created
			r.Submission = &inbox.Submission{Submission: agentmd.Submission{GlobalComment: &global, Comments: []agentmd.SubmittedComment{
				{File: "src/a.go", StartLine: &line, EndLine: &line, Side: "right", Body: "Retrying here hides the real error: return it."},
				{File: "README.md", Side: "right", Body: "Document the new flag."}}}, JSONPath: "rfa/comments_0123abcd.json", MDPath: "rfa/comments_0123abcd.md"}
			r.ResultSummary = &inbox.ResultSummary{CommentCount: 3, Global: true}
		}
		if r.Status == inbox.StatusClaimed || r.Status == inbox.StatusResolved {
			r.Claim = &inbox.Claim{ClaimedBy: "agent-1", ClaimedAt: created}
		}
		if r.Status == inbox.StatusResolved {
			r.ResolvedAt, r.Resolution = &created, &inbox.Resolution{Note: "Fixed in the next commit."}
		}
		enc.Encode(r)
	}
	return buf.Bytes()
}
