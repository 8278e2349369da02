package mention

import (
	"sort"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"

	"github.com/review-my-code-bot/rmc/sanitize"
)

// span is a half-open byte range [start, end) of a normalized body.
type span struct{ start, end int }

// layout is what the scanner learns about a body: where prose is (the only
// place a mention counts) and where HTML comments are (text nobody sees on
// GitHub, kept out of Mention.Text).
type layout struct {
	prose    []span
	comments []span
}

// normalize turns CRLF and lone CR into LF, so every offset the scanner
// reports refers to one canonical string.
func normalize(s string) string {
	if !strings.Contains(s, "\r") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

// scan parses a normalized body as CommonMark (goldmark) and reports its
// prose — the text of paragraphs and headings, list items included, outside
// block quotes, code spans, links and images — and its HTML comments, both
// in order.
func scan(s string) layout {
	var out layout
	scanInto(s, 0, len(s), &out)
	byStart := func(v []span) func(i, j int) bool {
		return func(i, j int) bool { return v[i].start < v[j].start }
	}
	sort.Slice(out.prose, byStart(out.prose))
	sort.Slice(out.comments, byStart(out.comments))
	return out
}

// commentSpans returns the HTML comments of s as scan reads them. A body
// too complex to parse (see tooComplex) loses every "<!--" up to the next
// "-->" or the end instead: more than a renderer hides, never less.
func commentSpans(s string) []span {
	if !strings.Contains(s, "<!--") {
		return nil
	}
	if !sanitize.TooComplex(s) {
		return scan(s).comments
	}
	var out []span
	for i := 0; i < len(s); {
		k := strings.Index(s[i:], "<!--")
		if k < 0 {
			break
		}
		c := i + k
		e := strings.Index(s[c+2:], "-->")
		if e < 0 {
			out = append(out, span{c, len(s)})
			break
		}
		out = append(out, span{c, c + 2 + e + 3})
		i = c + 2 + e + 3
	}
	return out
}

// scanInto parses s[from:to] as a document of its own and records its spans.
func scanInto(s string, from, to int, out *layout) {
	src := []byte(s[from:to])
	doc := sanitize.Parser().Parse(text.NewReader(src))
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Blockquote, *ast.CodeBlock, *ast.FencedCodeBlock, *ast.CodeSpan,
			*ast.Link, *ast.Image, *ast.AutoLink:
			// Quotes are someone else's words; code, link text and alt
			// text are not addressed to anyone.
			return ast.WalkSkipChildren, nil
		case *ast.HTMLBlock:
			htmlBlock(s, from, n, out)
			return ast.WalkSkipChildren, nil
		case *ast.RawHTML:
			if seg := n.Segments; seg.Len() > 0 {
				start, end := from+seg.At(0).Start, from+seg.At(seg.Len()-1).Stop
				if strings.HasPrefix(s[start:end], "<!--") {
					out.comments = append(out.comments, span{start, end})
				}
			}
			return ast.WalkSkipChildren, nil
		case *ast.Text:
			if n.Segment.Len() > 0 {
				out.prose = append(out.prose, span{from + n.Segment.Start, from + n.Segment.Stop})
			}
		}
		return ast.WalkContinue, nil
	})
}

// htmlBlock records the comments of an HTML block. Nothing in an HTML block
// is prose — its text may sit in an attribute or a hidden element — except
// what follows a comment that opened the block and closed on its first line:
// "<!-- note --> @rmc-bot why?" shows the mention as text.
func htmlBlock(s string, from int, n *ast.HTMLBlock, out *layout) {
	lines := n.Lines()
	if lines.Len() == 0 {
		return
	}
	start, end := from+lines.At(0).Start, from+lines.At(lines.Len()-1).Stop
	if n.HasClosure() {
		end = from + n.ClosureLine.Stop
	}
	first := len(out.comments)
	for i := start; i < end; {
		k := strings.Index(s[i:end], "<!--")
		if k < 0 {
			break
		}
		c := i + k
		e := strings.Index(s[c+2:end], "-->")
		if e < 0 {
			out.comments = append(out.comments, span{c, end})
			break
		}
		out.comments = append(out.comments, span{c, c + 2 + e + 3})
		i = c + 2 + e + 3
	}
	if n.HTMLBlockType != ast.HTMLBlockType2 || first == len(out.comments) {
		return
	}
	le := end
	if k := strings.IndexByte(s[start:end], '\n'); k >= 0 {
		le = start + k
	}
	// Comments side by side on the first line, then the rest is a paragraph.
	rest := start
	for _, c := range out.comments[first:] {
		if c.end > le || strings.TrimLeft(s[rest:c.start], " \t") != "" {
			break
		}
		rest = c.end
	}
	if rest == start {
		return
	}
	for rest < le && (s[rest] == ' ' || s[rest] == '\t') {
		rest++
	}
	if rest < le {
		scanInto(s, rest, le, out)
	}
}

// isQuote reports a quoted line. Any indentation counts: an indented '>' is
// either a quote or code, and neither is addressed to the bot.
func isQuote(line string) bool {
	return strings.HasPrefix(strings.TrimLeft(line, " \t"), ">")
}
