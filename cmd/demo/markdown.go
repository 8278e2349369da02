package main

import (
	"fmt"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// gfm parses GitHub-flavoured Markdown (tables, strikethrough, task lists,
// autolinks), as GitHub renders the bot's comments and the job summary.
var gfm parser.Parser = goldmark.New(goldmark.WithExtensions(extension.GFM)).Parser()

// md renders Markdown as a terminal shows it: no markup characters, headings
// and emphasis as styles, tables as aligned columns, links as their text,
// and the HTML GitHub accepts reduced to what it shows. The bot's state
// blocks (```rmcoc, in a "rmc state" <details>) are hidden, as GitHub hides
// them in a collapsed section nobody opens.
type md struct {
	st    style
	width int // columns to wrap text at
	// suggestion renders the lines of a ```suggestion block; nil shows them
	// as added lines.
	suggestion func(lines []string) []string
	// noSmall leaves out small print (<sub>, <sup>, <small>).
	noSmall bool
	src     []byte
}

// render returns the lines of the rendered Markdown, without a final
// newline. The text is cleaned of terminal control sequences first.
func (m md) render(markdown string) []string {
	m.src = []byte(clean(markdown))
	doc := gfm.Parse(text.NewReader(m.src))
	return m.seq(doc.FirstChild(), m.width, false)
}

// seq renders sibling blocks from first on, a blank line between each two
// (none when tight, as in a tight list item).
func (m md) seq(first ast.Node, w int, tight bool) []string {
	var out []string
	for n := first; n != nil; n = n.NextSibling() {
		var lines []string
		if h, ok := n.(*ast.HTMLBlock); ok && openDetailsRe.Match(m.html(h)) {
			lines, n = m.details(h, w)
		} else {
			lines = m.block(n, w)
		}
		if len(lines) == 0 {
			continue
		}
		if len(out) > 0 && !tight {
			out = append(out, "")
		}
		out = append(out, lines...)
	}
	return out
}

func (m md) block(n ast.Node, w int) []string {
	switch n := n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		if t := m.inline(n); strings.TrimSpace(t) != "" {
			return wrap(t, w)
		}
		return nil
	case *ast.Heading:
		return wrap(m.st.bold(m.inline(n)), w)
	case *ast.ThematicBreak:
		return []string{m.st.dim(strings.Repeat("─", min(w, 40)))}
	case *ast.FencedCodeBlock:
		switch string(n.Language(m.src)) {
		case "rmcoc":
			return nil
		case "suggestion":
			if m.suggestion != nil {
				return m.suggestion(m.lines(n))
			}
			return append([]string{"Suggested change:"}, m.diffLines("+ ", m.lines(n))...)
		}
		return m.code(m.lines(n))
	case *ast.CodeBlock:
		return m.code(m.lines(n))
	case *ast.Blockquote:
		return indent(m.seq(n.FirstChild(), w-2, false), m.st.dim("│")+" ")
	case *ast.List:
		return m.list(n, w)
	case *ast.HTMLBlock:
		if t := stripTags(string(m.html(n))); t != "" {
			return wrap(t, w)
		}
		return nil
	case *east.Table:
		return m.table(n, w)
	}
	return m.seq(n.FirstChild(), w, false)
}

func (m md) lines(n ast.Node) []string {
	var out []string
	ls := n.Lines()
	for i := 0; i < ls.Len(); i++ {
		seg := ls.At(i)
		out = append(out, strings.TrimRight(string(seg.Value(m.src)), "\n"))
	}
	return out
}

func (m md) code(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = "    " + m.st.cyan(l)
	}
	return out
}

// diffLines shows code lines as a diff shows them: "+ " green, "- " red.
func (m md) diffLines(marker string, lines []string) []string {
	color := m.st.green
	if strings.HasPrefix(marker, "-") {
		color = m.st.red
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = color(marker + l)
	}
	return out
}

func (m md) list(l *ast.List, w int) []string {
	var out []string
	n := l.Start
	for item := l.FirstChild(); item != nil; item = item.NextSibling() {
		marker := "• "
		if l.IsOrdered() {
			marker = fmt.Sprintf("%d. ", n)
			n++
		}
		lines := m.seq(item.FirstChild(), w-width(marker), l.IsTight)
		if len(lines) == 0 {
			lines = []string{""}
		}
		if len(out) > 0 && !l.IsTight {
			out = append(out, "")
		}
		out = append(out, marker+lines[0])
		out = append(out, indent(lines[1:], strings.Repeat(" ", width(marker)))...)
	}
	return out
}

// table aligns the columns when they fit the width; a table too wide for it
// is shown one row at a time, each cell under its column's name.
func (m md) table(t *east.Table, w int) []string {
	var rows [][]string
	for r := t.FirstChild(); r != nil; r = r.NextSibling() {
		var cells []string
		for c := r.FirstChild(); c != nil; c = c.NextSibling() {
			cells = append(cells, strings.ReplaceAll(m.inline(c), "\n", " "))
		}
		rows = append(rows, cells)
	}
	if len(rows) == 0 {
		return nil
	}
	widths := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r {
			if i < len(widths) {
				widths[i] = max(widths[i], width(c))
			}
		}
	}
	total := 2 * (len(widths) - 1)
	for _, cw := range widths {
		total += cw
	}
	if total <= w {
		return m.columns(rows, widths)
	}
	return m.records(rows[0], rows[1:], w)
}

// columns lays rows out in aligned columns of the given widths, the first
// row (the header) in bold.
func (m md) columns(rows [][]string, widths []int) []string {
	var out []string
	for ri, r := range rows {
		var cells []string
		for i := range widths {
			c := ""
			if i < len(r) {
				c = r[i]
			}
			if ri == 0 {
				c = m.st.bold(c)
			}
			cells = append(cells, pad(c, widths[i]))
		}
		out = append(out, strings.TrimRight(strings.Join(cells, "  "), " "))
	}
	return out
}

// records shows each row of body as a list item, each cell labelled with
// its column's name from header. A "#" column numbers the items, and the
// row's first column names it, unlabelled; empty cells and rows are left
// out.
func (m md) records(header []string, body [][]string, w int) []string {
	var out []string
	for _, r := range body {
		bullet, lines := "• ", []string(nil)
		for i, c := range r {
			name := ""
			if i < len(header) {
				name = header[i]
			}
			switch {
			case c == "":
			case i == 0 && name == "#":
				bullet = c + ". "
			case i <= 1 && len(lines) == 0, name == "":
				// The row's first column names it: no label needed.
				lines = append(lines, wrap(c, w-4)...)
			default:
				lines = append(lines, wrap(m.st.dim(name+":")+" "+c, w-4)...)
			}
		}
		if len(lines) == 0 {
			continue
		}
		out = append(out, bullet+lines[0])
		out = append(out, indent(lines[1:], strings.Repeat(" ", width(bullet)))...)
	}
	return out
}

// inline renders the inline content of a block as one string; hard line
// breaks stay newlines.
func (m md) inline(n ast.Node) string {
	w := inlineWriter{m: m}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		w.node(c)
	}
	return w.b.String()
}

// inlineWriter collects the text of inline nodes.
type inlineWriter struct {
	m     md
	b     strings.Builder
	marks []int // where each open <sub>, <sup> or <small> began
}

func (w *inlineWriter) node(c ast.Node) {
	m := w.m
	switch c := c.(type) {
	case *ast.Text:
		w.text(c)
	case *ast.String:
		w.b.Write(c.Value)
	case *ast.CodeSpan:
		code := strings.ReplaceAll(m.raw(c), "\n", " ")
		if m.st.on {
			w.b.WriteString(m.st.cyan(code))
		} else {
			w.b.WriteString("`" + code + "`")
		}
	case *ast.Emphasis:
		if c.Level >= 2 {
			w.b.WriteString(m.st.bold(m.inline(c)))
		} else {
			w.b.WriteString(m.st.italic(m.inline(c)))
		}
	case *ast.AutoLink:
		w.b.Write(c.Label(m.src))
	case *ast.Image:
		fmt.Fprintf(&w.b, "[image: %s]", m.inline(c))
	case *ast.RawHTML:
		w.tag(strings.ToLower(strings.Join(strings.Fields(m.raw(c)), "")))
	case *east.TaskCheckBox:
		if c.IsChecked {
			w.b.WriteString("[x] ")
		} else {
			w.b.WriteString("[ ] ")
		}
	default: // links show their text; strikethrough and the rest, theirs
		w.b.WriteString(m.inline(c))
	}
}

// text writes a text node with its entities and escapes resolved, and its
// line break: a hard one stays, a soft one is a space.
func (w *inlineWriter) text(c *ast.Text) {
	v := c.Segment.Value(w.m.src)
	if !c.IsRaw() {
		v = util.ResolveEntityNames(util.ResolveNumericReferences(util.UnescapePunctuations(v)))
	}
	w.b.Write(v)
	switch {
	case c.HardLineBreak():
		w.b.WriteByte('\n')
	case c.SoftLineBreak():
		w.b.WriteByte(' ')
	}
}

// tag handles an inline HTML tag (lowercase, spaces removed): <br> breaks
// the line, and the text between <sub>, <sup> or <small> and its end tag is
// small print, dimmed, or dropped with noSmall. Other tags show nothing.
func (w *inlineWriter) tag(tag string) {
	switch {
	case strings.HasPrefix(tag, "<br"):
		w.b.WriteByte('\n')
	case tag == "<sub>" || tag == "<sup>" || tag == "<small>":
		w.marks = append(w.marks, w.b.Len())
	case (tag == "</sub>" || tag == "</sup>" || tag == "</small>") && len(w.marks) > 0:
		s, from := w.b.String(), w.marks[len(w.marks)-1]
		w.marks = w.marks[:len(w.marks)-1]
		w.b.Reset()
		if !w.m.noSmall {
			w.b.WriteString(s[:from] + w.m.st.dim(s[from:]))
		} else {
			w.b.WriteString(s[:from])
		}
	}
}

// raw is the source text of an inline node's segments (code spans, raw
// HTML), as written.
func (m md) raw(n ast.Node) string {
	if h, ok := n.(*ast.RawHTML); ok {
		var b strings.Builder
		for i := 0; i < h.Segments.Len(); i++ {
			seg := h.Segments.At(i)
			b.Write(seg.Value(m.src))
		}
		return b.String()
	}
	var b strings.Builder
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if t, ok := c.(*ast.Text); ok {
			b.Write(t.Segment.Value(m.src))
		}
	}
	return b.String()
}
