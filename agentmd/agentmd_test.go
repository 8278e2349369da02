package agentmd

import (
	"github.com/review-my-code-bot/rmc/internal/golden"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/diff"
)

// reviewFiles is testdata/review.diff: real git output of a change to
// src/api/handler.ts (hunks at new 39-45 and 76-88), src/utils/parse.ts, a
// deleted src/legacy.ts and a binary assets/logo.png.
func reviewFiles(t *testing.T) []diff.File {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "review.diff"))
	if err != nil {
		t.Fatal(err)
	}
	files, err := diff.Parse(string(b))
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func TestMarkdownGolden(t *testing.T) {
	t.Parallel()
	files := reviewFiles(t)
	tests := map[string]Review{
		// The shaping doc's example, comment for comment.
		"spec_example": {
			Global: "Overall, nice progress but a few things to address before this is ready.",
			Comments: []Comment{
				{File: "src/utils/parse.ts", Body: "This file duplicates logic from src/core/parser.ts — consider consolidating."},
				{File: "src/api/handler.ts", StartLine: 78, EndLine: 80, Side: diff.Right, Body: "This grants blanket permissions. Should we scope this to the specific resource?"},
				{File: "src/api/handler.ts", StartLine: 42, EndLine: 42, Side: diff.Right, Body: "Add error handling here — what happens if the fetch fails?"},
			},
		},
		// File-level and line comments on one file, an old-side comment,
		// and a single-line comment given with EndLine 0.
		"file_and_line_comments": {
			Comments: []Comment{
				{File: "src/api/handler.ts", StartLine: 42, Side: diff.Left, Body: "Why was this not awaited before?"},
				{File: "src/api/handler.ts", Body: "Split this handler: it does auth and IO."},
				{File: "src/api/handler.ts", StartLine: 81, EndLine: 85, Body: "\n\nToo many side effects in a row.  \n\n"},
				{File: "src/api/handler.ts", Body: "Also add tests."},
			},
		},
		// How the action renders its findings: own title, meta lines,
		// a deleted file, a binary file, and a file the diff lacks.
		"findings_with_meta": {
			Title: "Review findings",
			Comments: []Comment{
				{File: "docs/missing.md", StartLine: 3, EndLine: 3, Body: "Not in the diff: no quote.", Meta: "nit"},
				{File: "src/legacy.ts", StartLine: 1, EndLine: 2, Side: diff.Left, Body: "Callers still import these.", Meta: "blocking · score 8"},
				{File: "assets/logo.png", Body: "Was this meant to change?", Meta: "question"},
				{File: "src/utils/parse.ts", StartLine: 2, EndLine: 2, Side: diff.Right, Body: "Trim before split?\n\n```ts\ns.trim().split(',')\n```", Meta: "suggestion\nscore 3"},
			},
		},
		"global_only": {Global: "Looks good to me.\r\nShip it."},
		"empty":       {},
	}
	for name, r := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			golden.Assert(t, name+".md.golden", Markdown(r, files))
		})
	}
}

func TestMarkdownTruncatesLongSnippets(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("diff --git a/big.txt b/big.txt\nnew file mode 100644\n--- /dev/null\n+++ b/big.txt\n@@ -0,0 +1,40 @@\n")
	for i := 1; i <= 40; i++ {
		b.WriteString("+line\n")
	}
	files, err := diff.Parse(b.String())
	if err != nil {
		t.Fatal(err)
	}
	md := Markdown(Review{Comments: []Comment{{File: "big.txt", StartLine: 1, EndLine: 40, Body: "Too long."}}}, files)
	if got := strings.Count(md, "> +line\n"); got != MaxSnippetLines {
		t.Errorf("quoted %d lines, want %d", got, MaxSnippetLines)
	}
	if !strings.Contains(md, "> ... (10 more lines)\n") {
		t.Errorf("no note of the lines left out:\n%s", md)
	}
}

// Markdown must not reorder the caller's slice.
func TestMarkdownKeepsInput(t *testing.T) {
	t.Parallel()
	cs := []Comment{{File: "b", Body: "1"}, {File: "a", Body: "2"}}
	Markdown(Review{Comments: cs}, nil)
	if cs[0].File != "b" {
		t.Error("Markdown sorted the caller's comments")
	}
}
