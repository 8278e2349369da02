package review

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/diff"
	"github.com/review-my-code-bot/rmc/llm"
)

// windowed is scripted behind a model window: a chunk longer than window
// characters is refused as the providers refuse it.
type windowed struct {
	scripted
	window  int
	refused int
}

// sub is the view of a windowed model over one chunk.
type sub struct {
	w     *windowed
	block string
}

func (w *windowed) Sub(block string) llm.JSONAsker {
	w.scripted.Sub(block)
	return sub{w, block}
}

func (s sub) AskSchema(ctx context.Context, label llm.Label, prompt string, schema *llm.Schema) (llm.Reply, error) {
	if len(s.block) > s.w.window {
		s.w.mu.Lock()
		s.w.refused++
		s.w.mu.Unlock()
		return llm.Reply{}, fmt.Errorf("%w: %w: maximum context length", llm.ErrRejected, llm.ErrContextLength)
	}
	return s.w.scripted.AskSchema(ctx, label, prompt, schema)
}

// bigFile is one added file of n lines in a single hunk.
func bigFile(t *testing.T, path string, n int) diff.File {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "diff --git a/%s b/%s\nnew file mode 100644\n--- /dev/null\n+++ b/%s\n@@ -0,0 +1,%d @@\n", path, path, path, n)
	for i := range n {
		fmt.Fprintf(&b, "+line %d of %s\n", i+1, path)
	}
	fs, err := diff.Parse(b.String())
	if err != nil || len(fs) != 1 {
		t.Fatalf("parse: %v", err)
	}
	return fs[0]
}

// lineRef is a new-side line of a rendered chunk: its number, then " " or
// "+".
var lineRef = regexp.MustCompile(`(?m)^(\d+)[ +]`)

// seenLines is every new-side line number a list of chunks shows.
func seenLines(blocks []string) map[int]int {
	seen := map[int]int{}
	for _, b := range blocks {
		for _, m := range lineRef.FindAllStringSubmatch(b, -1) {
			var n int
			fmt.Sscan(m[1], &n)
			seen[n]++
		}
	}
	return seen
}

// A hunk bigger than a chunk is reviewed in overlapping windows: every line
// is shown, none is cut off, and the file counts as reviewed.
func TestWindowsCoverEveryLine(t *testing.T) {
	t.Parallel()
	f := bigFile(t, "big.go", 3000)
	s := &scripted{}
	r, err := Run(context.Background(), s, Input{Anchor: []diff.File{f}}, options(func(s *Settings) { s.ContextTokens = 13_334 }) /* chunks of 20,000 characters */, nil)
	if err != nil {
		t.Fatal(err)
	}
	seen := seenLines(s.blocks)
	for n := 1; n <= 3000; n++ {
		if seen[n] == 0 {
			t.Fatalf("line %d is in no chunk", n)
		}
	}
	for _, b := range s.blocks {
		if len(b) > 21_000 || strings.Contains(b, "not shown") {
			t.Errorf("a chunk of %d chars, or one that cuts text off", len(b))
		}
	}
	if len(s.blocks) < 4 || len(s.prompts) != 3*len(s.blocks) || strings.Join(r.Reviewed, ",") != "big.go" || len(r.Unreviewed) != 0 {
		t.Errorf("%d chunks, %d requests, reviewed %v, unreviewed %v", len(s.blocks), len(s.prompts), r.Reviewed, r.Unreviewed)
	}
	overlap := 0
	for _, c := range seen {
		if c > 1 {
			overlap++
		}
	}
	if overlap == 0 {
		t.Errorf("windows do not overlap")
	}
}

// A chunk the model's window refuses is split and sent again, down to
// pieces that fit; the passes it already had are not repeated, and the
// review still covers every file.
func TestContextRefusalSplits(t *testing.T) {
	t.Parallel()
	files := []diff.File{bigFile(t, "a.go", 400), bigFile(t, "b.go", 400), bigFile(t, "c.go", 900)}
	w := &windowed{window: 12_000}
	r, err := Run(context.Background(), w, Input{Anchor: files}, options(nil), nil)
	if err != nil {
		t.Fatal(err)
	}
	if w.refused == 0 || len(r.Unreviewed) != 0 || strings.Join(r.Reviewed, ",") != "a.go,b.go,c.go" {
		t.Fatalf("refused %d, reviewed %v, unreviewed %v", w.refused, r.Reviewed, r.Unreviewed)
	}
	var fitted []string
	for _, b := range w.blocks {
		if len(b) <= w.window {
			fitted = append(fitted, b)
		}
	}
	seen := seenLines(fitted)
	for n := 1; n <= 900; n++ {
		if seen[n] == 0 {
			t.Fatalf("line R%d reached the model in no accepted chunk", n)
		}
	}
	if answered := len(w.prompts); answered != 3*len(fitted) {
		t.Errorf("%d answered requests for %d accepted chunks: a pass was repeated or skipped", answered, len(fitted))
	}
}

// A unit too small to split that the window still refuses fails the
// review with the provider's error: nothing is reported as covered.
func TestContextRefusalTooSmall(t *testing.T) {
	t.Parallel()
	w := &windowed{window: 100}
	_, err := Run(context.Background(), w, Input{Anchor: files(t)}, options(nil), nil)
	if err == nil || !strings.Contains(err.Error(), "maximum context length") {
		t.Fatalf("err = %v", err)
	}
}

// diffLine is a changed line as a chunk renders it.
var diffLine = regexp.MustCompile(`(?m)^\d+[+-]`)

// Each pass prompt lists what earlier requests found (place and title) and
// never carries a diff; the chunk is the only diff a request holds.
func TestPromptsCarryFoundNotDiffs(t *testing.T) {
	t.Parallel()
	s := &scripted{byPass: map[int][]Finding{1: {f(12, "Key logged in plain text", 7)}}}
	if _, err := Run(context.Background(), s, Input{Anchor: files(t)}, options(nil), nil); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(s.prompts[0], "Already reported") || !strings.Contains(s.prompts[1], "svc/cache.go:12: Key logged in plain text") {
		t.Errorf("prompts:\n%s\n---\n%s", s.prompts[0], s.prompts[1])
	}
	for _, p := range s.prompts {
		if diffLine.MatchString(p) {
			t.Errorf("a pass prompt carries diff lines: %q", p)
		}
	}
}

func TestSkipReasons(t *testing.T) {
	t.Parallel()
	parse := func(text string) diff.File {
		fs, err := diff.Parse(text)
		if err != nil || len(fs) != 1 {
			t.Fatalf("parse %q: %v", text, err)
		}
		return fs[0]
	}
	long := strings.Repeat("x", 6000)
	tests := []struct {
		name, diff, attrs, want string
	}{
		{"marker the base carried", "diff --git a/api.go b/api.go\n--- a/api.go\n+++ b/api.go\n@@ -1,3 +1,3 @@\n // Code generated by protoc-gen-go. DO NOT EDIT.\n package api\n-var x = 1\n+var x = 2\n", "", "generated (the base version already carries a generated-code marker)"},
		{"marker the PR deletes", "diff --git a/api.go b/api.go\n--- a/api.go\n+++ b/api.go\n@@ -1,3 +1,2 @@\n-// Code generated by protoc-gen-go. DO NOT EDIT.\n package api\n-var x = 1\n+var x = 2\n", "", ""},
		{"marker the PR adds to a file", "diff --git a/api.go b/api.go\n--- a/api.go\n+++ b/api.go\n@@ -1,2 +1,3 @@\n+// Code generated by hand. DO NOT EDIT.\n package api\n-var x = 1\n+var x = 2\n", "", ""},
		{"marker in a new file", "diff --git a/x.go b/x.go\nnew file mode 100644\n--- /dev/null\n+++ b/x.go\n@@ -0,0 +1,2 @@\n+// @generated\n+package x\n", "", ""},
		{"vendored by name only", "diff --git a/vendor/a/a.go b/vendor/a/a.go\n--- a/vendor/a/a.go\n+++ b/vendor/a/a.go\n@@ -1 +1 @@\n-a\n+b\n", "", ""},
		{"vendored by the base's attributes", "diff --git a/vendor/a/a.go b/vendor/a/a.go\n--- a/vendor/a/a.go\n+++ b/vendor/a/a.go\n@@ -1 +1 @@\n-a\n+b\n", "vendor/** linguist-vendored", "marked linguist-generated or linguist-vendored in the base branch's .gitattributes"},
		{"attribute unset", "diff --git a/gen/a.go b/gen/a.go\n--- a/gen/a.go\n+++ b/gen/a.go\n@@ -1 +1 @@\n-a\n+b\n", "gen/** -linguist-generated", ""},
		{"lock file by exact name", "diff --git a/web/yarn.lock b/web/yarn.lock\n--- a/web/yarn.lock\n+++ b/web/yarn.lock\n@@ -1 +1 @@\n-a\n+b\n", "", "lock file"},
		{"not a lock file", "diff --git a/yarn.lock.go b/yarn.lock.go\n--- a/yarn.lock.go\n+++ b/yarn.lock.go\n@@ -1 +1 @@\n-a\n+b\n", "", ""},
		{"one long line in a source file is read", "diff --git a/main.go b/main.go\n--- a/main.go\n+++ b/main.go\n@@ -1 +1 @@\n-a\n+" + long + "\n", "", ""},
		{"minified", "diff --git a/app.js b/app.js\n--- a/app.js\n+++ b/app.js\n@@ -1 +1 @@\n-a\n+" + long + "\n", "", "minified (lines far longer than code a person writes)"},
	}
	for _, tc := range tests {
		f := parse(tc.diff)
		if got := skipReason(f, NewExclusions(nil, Generated{Attributes: tc.attrs})); got != tc.want {
			t.Errorf("%s: skip %q, want %q", tc.name, got, tc.want)
		}
	}
}
