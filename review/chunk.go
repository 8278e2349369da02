package review

import (
	"fmt"
	"strings"

	"github.com/review-my-code-bot/rmc/diff"
)

// render writes a file's hunks with explicit line numbers, so the model can
// name exactly the line (and side) a finding sits on:
//
//	L12 R13 |  unchanged line
//	    R14 | +added line
//	L13     | -deleted line
func render(f diff.File, hunks []diff.Hunk) string {
	var b strings.Builder
	fmt.Fprintf(&b, "### %s (%s)\n", f.Path(), f.Status)
	for _, h := range hunks {
		fmt.Fprintf(&b, "@@ -%d,%d +%d,%d @@ %s\n", h.OldStart, h.OldLines, h.NewStart, h.NewLines, h.Section)
		for _, l := range h.Lines {
			renderLine(&b, l)
		}
	}
	return b.String()
}

func renderLine(b *strings.Builder, l diff.Line) {
	left, right := "", ""
	if l.OldLine > 0 {
		left = fmt.Sprintf("L%d", l.OldLine)
	}
	if l.NewLine > 0 {
		right = fmt.Sprintf("R%d", l.NewLine)
	}
	fmt.Fprintf(b, "%-6s %-6s| %c%s\n", left, right, l.Kind.Marker(), l.Text)
}

// unit is the smallest piece of the diff the review accounts for: a whole
// file, one hunk of a file too big for a chunk, or a window of lines of a
// hunk too big for a chunk. Every changed line of a reviewed file is in
// some unit; nothing is cut off.
type unit struct {
	path string
	text string
	// lines are the hunk's lines a window unit holds, for splitting it
	// again; nil for a file or a whole hunk.
	file  *diff.File
	hunk  *diff.Hunk
	lines []diff.Line
	// parent is the unit this one was split from (-1 for none): a parent
	// is covered by a pass when all its children are.
	parent int
}

// overlap is how many lines two windows of one hunk share, so a problem
// that straddles a window's edge is seen whole in one of them.
const overlap = 5

// units cuts files into units of at most max characters: a file that fits
// is one unit, a bigger one a unit per hunk, a hunk too big for max a unit
// per window of lines.
func units(files []diff.File, limit int) []unit {
	var out []unit
	for i := range files {
		f := &files[i]
		if whole := render(*f, f.Hunks); len(whole) <= limit {
			out = append(out, unit{path: f.Path(), text: whole, file: f, parent: -1})
			continue
		}
		for j := range f.Hunks {
			h := &f.Hunks[j]
			if text := render(*f, f.Hunks[j:j+1]); len(text) <= limit {
				out = append(out, unit{path: f.Path(), text: text, file: f, hunk: h, parent: -1})
				continue
			}
			out = append(out, windows(unit{path: f.Path(), file: f, hunk: h, lines: h.Lines, parent: -1}, limit)...)
		}
	}
	return out
}

// windows cuts u's lines into windows of at most max characters that
// overlap by a few lines. Each window names its place in the hunk.
func windows(u unit, limit int) []unit {
	var out []unit
	head := func(from, to int) string {
		return fmt.Sprintf("### %s (%s)\n@@ -%d,%d +%d,%d @@ %s [lines %d-%d of this hunk]\n", u.file.Path(), u.file.Status,
			u.hunk.OldStart, u.hunk.OldLines, u.hunk.NewStart, u.hunk.NewLines, u.hunk.Section, from+1, to)
	}
	for start := 0; start < len(u.lines); {
		var b strings.Builder
		end := start
		for end < len(u.lines) {
			var l strings.Builder
			renderLine(&l, u.lines[end])
			if b.Len()+l.Len()+120 > limit && end > start {
				break
			}
			b.WriteString(l.String())
			end++
		}
		w := unit{path: u.path, file: u.file, hunk: u.hunk, lines: u.lines[start:end], parent: u.parent}
		w.text = head(start, end) + b.String()
		out = append(out, w)
		if end == len(u.lines) {
			break
		}
		start = max(end-overlap, start+1)
	}
	return out
}

// minSplit is the smallest unit split again when the model's window
// refuses it: below it, the window cannot hold a review at all.
const minSplit = 1500

// split cuts u in about two halves, for a window that refused it: a file
// into its hunks (or windows), a hunk or a window into smaller windows.
// ok is false when u is too small to split.
func split(u unit, id int) (parts []unit, ok bool) {
	if len(u.text) < minSplit {
		return nil, false
	}
	half := len(u.text)/2 + 200
	switch {
	case u.hunk == nil && len(u.file.Hunks) > 1:
		parts = units([]diff.File{*u.file}, half)
	case u.hunk == nil:
		h := &u.file.Hunks[0]
		parts = windows(unit{path: u.path, file: u.file, hunk: h, lines: h.Lines}, half)
	case u.lines == nil:
		parts = windows(unit{path: u.path, file: u.file, hunk: u.hunk, lines: u.hunk.Lines}, half)
	default:
		parts = windows(u, half)
	}
	if len(parts) < 2 {
		return nil, false
	}
	for i := range parts {
		parts[i].parent = id
	}
	return parts, true
}

// chunk is the units one request carries.
type chunk []int

// pack groups units, in order, into chunks of at most max characters.
func pack(us []unit, ids []int, limit int) []chunk {
	var out []chunk
	var cur chunk
	size := 0
	for _, id := range ids {
		n := len(us[id].text)
		if len(cur) > 0 && size+n > limit {
			out = append(out, cur)
			cur, size = nil, 0
		}
		cur = append(cur, id)
		size += n
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

// text is the chunk's diff.
func (c chunk) text(us []unit) string {
	var b strings.Builder
	for _, id := range c {
		b.WriteString(us[id].text)
	}
	return b.String()
}

// paths are the files the chunk holds part of, in order.
func (c chunk) paths(us []unit) []string {
	var out []string
	for _, id := range c {
		if p := us[id].path; len(out) == 0 || out[len(out)-1] != p {
			out = append(out, p)
		}
	}
	return out
}
