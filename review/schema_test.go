package review

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/diff"
	"github.com/review-my-code-bot/rmc/internal/golden"
	"github.com/review-my-code-bot/rmc/llm"
)

// TestFindingsSchema pins the pass answer's schema as the model sees it
// (the bytes the hand-written schema it replaced had): score 1..10, the
// side and category enums, every property required; the bytes are in
// testdata/schema/findings.json.
func TestFindingsSchema(t *testing.T) {
	t.Parallel()
	s, err := llm.SchemaFor[passAnswer]()
	if err != nil {
		t.Fatal(err)
	}
	if s.Name() != "findings" {
		t.Errorf("schema %q, want findings", s.Name())
	}
	golden.Assert(t, "schema/findings.json", string(s.JSON()))
	for doc, ok := range map[string]bool{
		`{"findings":[]}`:   true,
		`{"findings":null}`: false,
		`{"findings":[{"path":"a","line":1,"start_line":0,"side":"right","title":"t","explanation":"e","score":11,"category":"bug","suggestion":""}]}`: false,
		`{"findings":[{"path":"a","line":1,"start_line":0,"side":"up","title":"t","explanation":"e","score":5,"category":"bug","suggestion":""}]}`:     false,
		`{"findings":[{"path":"a","line":1,"start_line":0,"side":"left","title":"t","explanation":"e","score":5,"category":"bug","suggestion":""}]}`:   true,
	} {
		if err := s.Validate(doc); (err == nil) != ok {
			t.Errorf("Validate(%s) = %v, want ok %v", doc, err, ok)
		}
	}
}

// TestPassLabels: every pass request is labelled with the review task's
// key and its pass, which is how the run report attributes its usage.
func TestPassLabels(t *testing.T) {
	t.Parallel()
	files, err := diff.Parse(goDiff)
	if err != nil {
		t.Fatal(err)
	}
	s := &scripted{}
	if _, err := Run(context.Background(), s, Input{Anchor: files}, Options{Settings: DefaultSettings(), Task: "review-auto-abc"}, nil); err != nil {
		t.Fatal(err)
	}
	want := []llm.Label{{Task: "review-auto-abc", Step: "pass 1"}, {Task: "review-auto-abc", Step: "pass 2"}, {Task: "review-auto-abc", Step: "pass 3"}}
	if len(s.labels) != len(want) {
		t.Fatalf("labels = %+v, want %+v", s.labels, want)
	}
	for i := range want {
		if s.labels[i] != want[i] {
			t.Errorf("label %d = %+v, want %+v", i, s.labels[i], want[i])
		}
	}
}

// BenchmarkValidateFindings: checking and decoding a pass answer with 80
// findings, as every pass answer is.
//
//	go test ./review -run '^$' -bench ValidateFindings
func BenchmarkValidateFindings(b *testing.B) {
	s, err := llm.SchemaFor[passAnswer]()
	if err != nil {
		b.Fatal(err)
	}
	var fs []answerFinding
	for i := range 80 {
		fs = append(fs, answerFinding{Path: "svc/cache.go", Line: i + 1, Side: "right", Title: "t", Explanation: strings.Repeat("e", 400), Score: 7, Category: "bug"})
	}
	doc, _ := json.Marshal(passAnswer{Findings: fs})
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		if err := s.Validate(string(doc)); err != nil {
			b.Fatal(err)
		}
	}
}
