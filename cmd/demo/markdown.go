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
	header, body := rows[0], rows[1:]
	widths := make([]int, len(header))
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
	var out []string
	if total <= w {
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
	var b strings.Builder
	var marks []int // where each open <sub> began
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Text:
			v := c.Segment.Value(m.src)
			if !c.IsRaw() {
				v = util.ResolveEntityNames(util.ResolveNumericReferences(util.UnescapePunctuations(v)))
			}
			b.Write(v)
			switch {
			case c.HardLineBreak():
				b.WriteByte('\n')
			case c.SoftLineBreak():
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(c.Value)
		case *ast.CodeSpan:
			code := strings.ReplaceAll(m.raw(c), "\n", " ")
			if m.st.on {
				b.WriteString(m.st.cyan(code))
			} else {
				b.WriteString("`" + code + "`")
			}
		case *ast.Emphasis:
			if c.Level >= 2 {
				b.WriteString(m.st.bold(m.inline(c)))
			} else {
				b.WriteString(m.st.italic(m.inline(c)))
			}
		case *ast.AutoLink:
			b.Write(c.Label(m.src))
		case *ast.Image:
			fmt.Fprintf(&b, "[image: %s]", m.inline(c))
		case *ast.RawHTML:
			tag := strings.ToLower(strings.Join(strings.Fields(m.raw(c)), ""))
			switch {
			case strings.HasPrefix(tag, "<br"):
				b.WriteByte('\n')
			case tag == "<sub>" || tag == "<sup>" || tag == "<small>":
				marks = append(marks, b.Len())
			case (tag == "</sub>" || tag == "</sup>" || tag == "</small>") && len(marks) > 0:
				s, from := b.String(), marks[len(marks)-1]
				marks = marks[:len(marks)-1]
				b.Reset()
				if !m.noSmall {
					b.WriteString(s[:from] + m.st.dim(s[from:]))
				} else {
					b.WriteString(s[:from])
				}
			}
		case *east.TaskCheckBox:
			if c.IsChecked {
				b.WriteString("[x] ")
			} else {
				b.WriteString("[ ] ")
			}
		default: // links show their text; strikethrough and the rest, theirs
			b.WriteString(m.inline(c))
		}
	}
	return b.String()
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
