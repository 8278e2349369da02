package agentmd

import (
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"

	"github.com/review-my-code-bot/rmc/diff"
)

const contextDiff = "diff --git a/a.go b/a.go\n" +
	"index 1111111..2222222 100644\n" +
	"--- a/a.go\n" +
	"+++ b/a.go\n" +
	"@@ -10,8 +10,9 @@ func handler(w http.ResponseWriter) {\n" +
	" \tone()\n" +
	" \ttwo()\n" +
	" \tthree()\n" +
	" \tfour()\n" +
	"-\treturn nil\n" +
	"+\tif err != nil {\n" +
	"+\t\treturn err\n" +
	" \t}\n" +
	" \tfive()\n" +
	" \tsix()\n"

// A comment on a "}" is quoted with the hunk's header (its function) and
// the lines around it, its own lines marked.
func TestMarkdownContext(t *testing.T) {
	t.Parallel()
	files, err := diff.Parse(contextDiff)
	if err != nil {
		t.Fatal(err)
	}
	got := Markdown(Review{Context: 3, Comments: []Comment{
		{File: "a.go", StartLine: 16, EndLine: 16, Body: "Which block does this close?"},
		{File: "a.go", StartLine: 14, EndLine: 14, Side: diff.Left, Body: "Why not nil?"},
	}}, files)
	want := "# Code Review Comments\n\n## a.go\n\n" +
		"### Line 14 (old)\n" +
		"In `@@ -10,8 +10,9 @@ func handler(w http.ResponseWriter) {`:\n" +
		"```\n" +
		"  11  \ttwo()\n" +
		"  12  \tthree()\n" +
		"  13  \tfour()\n" +
		"> 14 -\treturn nil\n" +
		"     +\tif err != nil {\n" +
		"     +\t\treturn err\n" +
		"  15  \t}\n" +
		"  16  \tfive()\n" +
		"  17  \tsix()\n" +
		"```\n" +
		"Why not nil?\n" +
		"\n### Line 16\n" +
		"In `@@ -10,8 +10,9 @@ func handler(w http.ResponseWriter) {`:\n" +
		"```\n" +
		"  13  \tfour()\n" +
		"     -\treturn nil\n" +
		"  14 +\tif err != nil {\n" +
		"  15 +\t\treturn err\n" +
		"> 16  \t}\n" +
		"  17  \tfive()\n" +
		"  18  \tsix()\n" +
		"```\n" +
		"Which block does this close?\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// Whatever a reviewer writes (headings, lists, an unclosed fence, longer
// fences) stays inside its comment: the document keeps exactly its own
// headings, and each body is one code block.
func TestMarkdownFencedBodies(t *testing.T) {
	t.Parallel()
	files, err := diff.Parse(contextDiff)
	if err != nil {
		t.Fatal(err)
	}
	bodies := []string{
		"# Not a heading\n## Nor this\n```go\nunclosed fence",
		"````\nfour ticks\n~~~ tildes\n",
		"---\n> quote\n- list",
	}
	global := "## Fake section\n```"
	r := Review{Context: 3, FenceBodies: true, Global: global, Comments: []Comment{
		{File: "a.go", StartLine: 16, EndLine: 16, Body: bodies[0]},
		{File: "a.go", Body: bodies[1]},
		{File: "b.go", Body: bodies[2]},
	}}
	md := Markdown(r, files)
	src := []byte(md)
	doc := goldmark.New().Parser().Parse(text.NewReader(src))
	var headings, blocks []string
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		switch n := n.(type) {
		case *ast.Heading:
			headings = append(headings, strings.Repeat("#", n.Level)+" "+string(n.Lines().Value(src)))
		case *ast.FencedCodeBlock:
			var b strings.Builder
			for i := 0; i < n.Lines().Len(); i++ {
				seg := n.Lines().At(i)
				b.Write(seg.Value(src))
			}
			blocks = append(blocks, b.String())
		}
	}
	wantHeadings := []string{"# Code Review Comments", "## a.go", "### File-level", "### Line 16", "## b.go (file-level)"}
	if strings.Join(headings, "|") != strings.Join(wantHeadings, "|") {
		t.Errorf("headings = %q, want %q\n%s", headings, wantHeadings, md)
	}
	// The overall comment, then by document order: the file-level body,
	// the quote and the line comment's body, the other file's body.
	wantBlocks := []string{global + "\n", cleanBody(bodies[1]) + "\n", "", bodies[0] + "\n", bodies[2] + "\n"}
	if len(blocks) != len(wantBlocks) {
		t.Fatalf("%d code blocks, want %d:\n%s", len(blocks), len(wantBlocks), md)
	}
	for i, w := range wantBlocks {
		if w != "" && blocks[i] != w {
			t.Errorf("block %d = %q, want %q", i, blocks[i], w)
		}
	}
}
