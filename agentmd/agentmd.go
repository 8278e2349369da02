// Package agentmd is the project's one formatter of review comments for
// coding agents: a Markdown document that names each file and line, quotes
// the diff lines a comment is about, and gives the comment. The local review
// page writes it for the comments a person left; the action renders its own
// findings with it, so an agent reads one format whoever reviewed.
//
// The document is written for an agent reading it as plain text, so its
// layout is fixed and simple:
//
//	# Code Review Comments
//
//	Overall comment.
//
//	## path/to/file.go
//
//	### Line 42
//	> +the quoted diff line
//	The comment.
//
//	## path/to/other.go (file-level)
//	A comment on the whole file.
//
// A file with several file-level comments, or file-level and line comments,
// gets a "### File-level" section for each file-level comment, before its
// line comments. Comments on the old side of the diff say so: "### Line 12
// (old)".
package agentmd

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/review-my-code-bot/rmc/diff"
	"github.com/review-my-code-bot/rmc/sanitize"
)

// DefaultTitle is the document's heading when Review.Title is empty.
const DefaultTitle = "Code Review Comments"

// MaxSnippetLines caps the diff lines quoted for one comment: past that the
// quote would bury the comment, and the heading names the lines anyway.
const MaxSnippetLines = 30

// Review is what one document holds.
type Review struct {
	Title    string // DefaultTitle when empty
	Global   string // the overall comment, may be empty
	Comments []Comment
	// Context, when positive, quotes line comments with the hunk header
	// and up to this many diff lines around them (see context.go).
	Context int
	// FenceBodies puts each comment's body (and the overall comment) in a
	// fenced block, so that what a person wrote cannot end the document's
	// sections or open a fence that swallows the rest.
	FenceBodies bool
}

// Comment is one comment on a file or on lines of it.
type Comment struct {
	File string // the file's path as diff.File.Path gives it
	// StartLine and EndLine are 0 for a comment on the whole file. EndLine
	// 0 with StartLine set means the single line StartLine.
	StartLine, EndLine int
	// Side is which version the line numbers refer to; the zero value means
	// diff.Right, where nearly every comment lands.
	Side diff.Side
	Body string
	// Meta is an optional short line shown under the comment's heading,
	// such as "blocking · score 8".
	Meta string
}

func (c Comment) fileLevel() bool { return c.StartLine <= 0 }

func (c Comment) side() diff.Side {
	if c.Side == diff.Left {
		return diff.Left
	}
	return diff.Right
}

func (c Comment) lines() (start, end int) {
	if c.EndLine < c.StartLine {
		return c.StartLine, c.StartLine
	}
	return c.StartLine, c.EndLine
}

// Markdown renders r. files is the parsed diff the comments are about: it
// orders the files and supplies the quoted lines. A comment whose lines the
// diff does not show is rendered without a quote.
func Markdown(r Review, files []diff.File) string {
	var b strings.Builder
	title := cmp.Or(strings.TrimSpace(r.Title), DefaultTitle)
	b.WriteString("# " + oneLine(title) + "\n")
	if g := cleanBody(r.Global); g != "" && r.FenceBodies {
		b.WriteString("\n")
		writeFencedBody(&b, g)
	} else if g != "" {
		b.WriteString("\n" + g + "\n")
	}
	byPath := make(map[string]diff.File, len(files))
	for _, f := range files {
		byPath[f.Path()] = f
	}
	comments := slices.Clone(r.Comments)
	sortComments(comments, files)
	for len(comments) > 0 {
		// comments is sorted by file: take one file's run at a time.
		n := 1
		for n < len(comments) && comments[n].File == comments[0].File {
			n++
		}
		writeFile(&b, r, comments[:n], byPath[comments[0].File])
		comments = comments[n:]
	}
	return b.String()
}

// writeFile writes the section of one file; cs are its comments, file-level
// ones first.
func writeFile(b *strings.Builder, r Review, cs []Comment, f diff.File) {
	// A path is the PR author's choice: on one line, with nothing invisible
	// and no backtick that could open a code span.
	path := sanitize.Name(cs[0].File)
	body := writeBody
	if r.FenceBodies {
		body = writeFencedBody
	}
	if len(cs) == 1 && cs[0].fileLevel() {
		b.WriteString("\n## " + path + " (file-level)\n")
		writeMeta(b, cs[0].Meta)
		body(b, cs[0].Body)
		return
	}
	b.WriteString("\n## " + path + "\n")
	for _, c := range cs {
		b.WriteString("\n### " + heading(c) + "\n")
		writeMeta(b, c.Meta)
		if !c.fileLevel() {
			start, end := c.lines()
			if r.Context > 0 {
				writeContextSnippet(b, f, c, r.Context)
			} else {
				writeSnippet(b, f.Snippet(c.side(), start, end))
			}
		}
		body(b, c.Body)
	}
}

func heading(c Comment) string {
	if c.fileLevel() {
		return "File-level"
	}
	start, end := c.lines()
	h := "Line " + strconv.Itoa(start)
	if end != start {
		h = fmt.Sprintf("Lines %d-%d", start, end)
	}
	if c.side() == diff.Left {
		h += " (old)"
	}
	return h
}

func writeMeta(b *strings.Builder, meta string) {
	if m := oneLine(strings.TrimSpace(meta)); m != "" {
		b.WriteString("_" + m + "_\n")
	}
}

func writeSnippet(b *strings.Builder, lines []diff.Line) {
	shown := lines
	if len(shown) > MaxSnippetLines {
		shown = shown[:MaxSnippetLines]
	}
	for _, l := range shown {
		b.WriteString("> " + string(l.Kind.Marker()) + strings.TrimSuffix(l.Text, "\r") + "\n")
	}
	if more := len(lines) - len(shown); more > 0 {
		fmt.Fprintf(b, "> ... (%d more lines)\n", more)
	}
}

func writeBody(b *strings.Builder, body string) {
	if body = cleanBody(body); body != "" {
		b.WriteString(body + "\n")
	}
}

// cleanBody normalizes line endings and drops the blank lines and trailing
// spaces around a body, which a textarea collects and which would break the
// document's blank-line rhythm. Leading indentation is kept: it may be code.
func cleanBody(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.TrimRight(s, " \t\n\r")
	for {
		line, rest, found := strings.Cut(s, "\n")
		if !found || strings.TrimSpace(line) != "" {
			return s
		}
		s = rest
	}
}

// oneLine keeps a heading on one line: a path or title holding a line break
// (git allows one in a path) would otherwise end the heading early.
func oneLine(s string) string {
	if strings.ContainsAny(s, "\n\r") {
		return strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s)
	}
	return s
}

// sortComments orders comments as the document lists them: files in diff
// order (files the diff lacks after, by path), in a file its file-level
// comments first, then line comments in the order the diff shows their
// first line. The sort is stable, so equal places keep the input order.
func sortComments(cs []Comment, files []diff.File) {
	fileRank := make(map[string]int, len(files))
	for i, f := range files {
		if _, seen := fileRank[f.Path()]; !seen {
			fileRank[f.Path()] = i
		}
	}
	rank := func(path string) int {
		if r, ok := fileRank[path]; ok {
			return r
		}
		return len(files)
	}
	filesByPath := make(map[string]diff.File, len(files))
	for _, f := range files {
		filesByPath[f.Path()] = f
	}
	slices.SortStableFunc(cs, func(a, b Comment) int {
		if c := cmp.Compare(rank(a.File), rank(b.File)); c != 0 {
			return c
		}
		if c := strings.Compare(a.File, b.File); c != 0 {
			return c
		}
		if a.fileLevel() || b.fileLevel() {
			return compareBool(!a.fileLevel(), !b.fileLevel())
		}
		f := filesByPath[a.File]
		return cmp.Compare(position(f, a), position(f, b))
	})
}

// position is where c's first line sits in the diff of f, counted in shown
// lines; lines the diff does not show sort after it, by number.
func position(f diff.File, c Comment) int {
	start, _ := c.lines()
	n := 0
	for _, h := range f.Hunks {
		for _, l := range h.Lines {
			num := l.NewLine
			if c.side() == diff.Left {
				num = l.OldLine
			}
			if num == start {
				return n
			}
			n++
		}
	}
	return n + start
}

func compareBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !a:
		return -1
	default:
		return 1
	}
}
