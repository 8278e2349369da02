package agentmd

import (
	"fmt"
	"github.com/review-my-code-bot/rmc/internal/mdfence"
	"strconv"
	"strings"

	"github.com/review-my-code-bot/rmc/diff"
)

// With Review.Context set, a line comment quotes its lines in a fenced
// block under the hunk's header (which names the enclosing function), with
// up to Context lines of its side before and after them (and the other
// side's lines among those), so that a comment on a "}" can be found. The commented lines are marked ">"; each line shows
// its number on the comment's side and its diff marker:
//
//	### Line 42
//	In `@@ -40,6 +40,7 @@ func handler() {`:
//	```
//	  41     if err != nil {
//	> 42 +       return err
//	  43     }
//	```
//
// With Review.FenceBodies set, a comment's body is a fenced block too, so
// that a heading, a list or an unclosed fence a reviewer wrote stays inside
// that comment. Either fence is longer than any run of backticks in what
// it holds, so nothing inside can close it.

// writeContextSnippet writes the quote of c, which has lines, in f: the
// hunk's header, then the commented lines marked, with context around.
func writeContextSnippet(b *strings.Builder, f diff.File, c Comment, context int) {
	side := c.side()
	start, end := c.lines()
	for _, h := range f.Hunks {
		first, last := span(h, side, start, end)
		if first < 0 || last < first {
			continue
		}
		if last-first+1 > MaxSnippetLines {
			context = 0 // the quote is long already
		}
		from, to := widen(h, side, first, last, context)
		header := fmt.Sprintf("@@ -%d,%d +%d,%d @@", h.OldStart, h.OldLines, h.NewStart, h.NewLines)
		if s := oneLine(strings.TrimSpace(h.Section)); s != "" {
			header += " " + s
		}
		b.WriteString("In " + inlineCode(header) + ":\n")
		writeFenced(b, quoteLines(h.Lines, side, from, to, first, last))
		return
	}
}

// span is where the commented lines start and end in h (-1 when not).
func span(h diff.Hunk, side diff.Side, start, end int) (first, last int) {
	first, last = -1, -1
	for i, l := range h.Lines {
		n := number(l, side)
		if n == start && first < 0 {
			first = i
		}
		if n == end {
			last = i
		}
	}
	return first, last
}

// widen adds context lines around first..last. Context counts lines of
// the comment's side; lines of the other side between them come along, as
// the reviewer saw them.
func widen(h diff.Hunk, side diff.Side, first, last, context int) (from, to int) {
	from, to = first, last+1
	for n := 0; from > 0 && n < context; from-- {
		if number(h.Lines[from-1], side) > 0 {
			n++
		}
	}
	for n := 0; to < len(h.Lines) && n < context; to++ {
		if number(h.Lines[to], side) > 0 {
			n++
		}
	}
	return from, to
}

// quoteLines renders lines[from:to] with their numbers, the commented ones
// (first..last) marked and cut after MaxSnippetLines.
func quoteLines(all []diff.Line, side diff.Side, from, to, first, last int) []string {
	width := 1
	for _, l := range all[from:to] {
		width = max(width, len(strconv.Itoa(number(l, side))))
	}
	var lines []string
	for i, l := range all[from:to] {
		at := from + i
		mark := " "
		if at >= first && at <= last {
			mark = ">"
		}
		if at > first+MaxSnippetLines-1 && at <= last {
			if at == first+MaxSnippetLines {
				lines = append(lines, fmt.Sprintf("  ... (%d more lines)", last-at+1))
			}
			continue
		}
		num := ""
		if n := number(l, side); n > 0 {
			num = strconv.Itoa(n)
		}
		lines = append(lines, fmt.Sprintf("%s %*s %c%s", mark, width, num, l.Kind.Marker(), strings.TrimSuffix(l.Text, "\r")))
	}
	return lines
}

func number(l diff.Line, side diff.Side) int {
	if side == diff.Left {
		return l.OldLine
	}
	return l.NewLine
}

// writeFencedBody writes a comment's body as a fenced block.
func writeFencedBody(b *strings.Builder, body string) {
	if body = cleanBody(body); body != "" {
		writeFenced(b, strings.Split(body, "\n"))
	}
}

// writeFenced writes lines in a backtick fence longer than any backtick
// run among them.
func writeFenced(b *strings.Builder, lines []string) {
	fence := mdfence.Longer(strings.Join(lines, "\n"), '`', 3)
	b.WriteString(fence + "\n")
	for _, l := range lines {
		b.WriteString(l + "\n")
	}
	b.WriteString(fence + "\n")
}

// inlineCode spells s as inline code that no backtick in s can end.
func inlineCode(s string) string {
	ticks := mdfence.Longer(s, '`', 1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return ticks + s + ticks
}
