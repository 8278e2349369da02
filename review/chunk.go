package review

import (
	"fmt"
	"io"
	"strings"

	"github.com/review-my-code-bot/rmc/diff"
)

// render writes hunks of a file with each line's number in front of its
// mark, so the model can name exactly the line (and side) a finding sits
// on: the new file's number before " " and "+", the old file's before "-".
//
//	13 unchanged line
//	14+added line
//	13-deleted line
//
// One number a line, and no padding: the gutter of both numbers, padded,
// made the diff half as long again; this one adds a few characters, and
// what the model reads off a line is still that line's own number, never
// one it has to count to.
func render(w io.Writer, f *diff.File, hunks []diff.Hunk) {
	fmt.Fprintf(w, "### %s (%s)\n", f.Path(), f.Status)
	for _, h := range hunks {
		fmt.Fprintf(w, "@@ -%d,%d +%d,%d @@ %s\n", h.OldStart, h.OldLines, h.NewStart, h.NewLines, h.Section)
		for _, l := range h.Lines {
			renderLine(w, l)
		}
	}
}

// renderLine writes one line: its number on its side, its mark, its text.
func renderLine(w io.Writer, l diff.Line) {
	n := l.NewLine
	if l.Kind == diff.Delete {
		n = l.OldLine
	}
	fmt.Fprintf(w, "%d%c%s\n", n, l.Kind.Marker(), l.Text)
}

// counter counts what is written to it: the size of a rendering, without
// keeping it.
type counter int

func (c *counter) Write(p []byte) (int, error) { *c += counter(len(p)); return len(p), nil }

// unit is the smallest piece of the diff the review accounts for: a whole
// file, one hunk of a file too big for a chunk, or a window of lines of a
// hunk too big for a chunk. Every changed line of a reviewed file is in
// some unit; nothing is cut off. A unit holds no text: it is rendered when
// its chunk is sent, so a huge diff is held once, as parsed.
type unit struct {
	path string
	file *diff.File
	// hunks are the unit's hunks: the file's, or one of them.
	hunks []diff.Hunk
	// lines, for a window, are the lines of hunks[0] it shows, from the
	// from-th (0-based).
	lines []diff.Line
	from  int
	size  int // characters when rendered
	// parent is the unit this one was split from (-1 for none): a parent
	// is covered by a pass when all its children are.
	parent int
}

// write renders the unit.
func (u unit) write(w io.Writer) {
	if u.lines == nil {
		render(w, u.file, u.hunks)
		return
	}
	h := u.hunks[0]
	fmt.Fprintf(w, "### %s (%s)\n@@ -%d,%d +%d,%d @@ %s [lines %d-%d of this hunk]\n", u.file.Path(), u.file.Status,
		h.OldStart, h.OldLines, h.NewStart, h.NewLines, h.Section, u.from+1, u.from+len(u.lines))
	for _, l := range u.lines {
		renderLine(w, l)
	}
}

// sized is u with its rendered size.
func sized(u unit) unit {
	var c counter
	u.write(&c)
	u.size = int(c)
	return u
}

// overlap is how many lines two windows of one hunk share, so a problem
// that straddles a window's edge is seen whole in one of them.
const overlap = 5

// units cuts files into units of at most limit characters: a file that
// fits is one unit, a bigger one a unit per hunk, a hunk too big for limit
// a unit per window of lines.
func units(files []diff.File, limit int) []unit {
	var out []unit
	for i := range files {
		f := &files[i]
		if u := sized(unit{path: f.Path(), file: f, hunks: f.Hunks, parent: -1}); u.size <= limit {
			out = append(out, u)
			continue
		}
		for j := range f.Hunks {
			h := unit{path: f.Path(), file: f, hunks: f.Hunks[j : j+1], parent: -1}
			if u := sized(h); u.size <= limit {
				out = append(out, u)
				continue
			}
			h.lines = f.Hunks[j].Lines
			out = append(out, windows(h, limit)...)
		}
	}
	return out
}

// windows cuts u's lines into windows of at most limit characters that
// overlap by a few lines.
func windows(u unit, limit int) []unit {
	var out []unit
	head := 200 + len(u.path) + len(u.hunks[0].Section) // the window's heading, at most
	for start := 0; start < len(u.lines); {
		size, end := head, start
		for end < len(u.lines) {
			var c counter
			renderLine(&c, u.lines[end])
			if size+int(c) > limit && end > start {
				break
			}
			size += int(c)
			end++
		}
		out = append(out, sized(unit{path: u.path, file: u.file, hunks: u.hunks, lines: u.lines[start:end], from: u.from + start, parent: u.parent}))
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
	if u.size < minSplit {
		return nil, false
	}
	half := u.size/2 + 200
	switch {
	case u.lines == nil && len(u.hunks) > 1:
		parts = units([]diff.File{{OldPath: u.file.OldPath, NewPath: u.file.NewPath, Status: u.file.Status, Hunks: u.hunks}}, half)
		for i := range parts {
			parts[i].file = u.file
		}
	case u.lines == nil:
		parts = windows(unit{path: u.path, file: u.file, hunks: u.hunks, lines: u.hunks[0].Lines}, half)
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

// pack groups units, in order, into chunks of at most limit characters.
func pack(us []unit, ids []int, limit int) []chunk {
	var out []chunk
	var cur chunk
	size := 0
	for _, id := range ids {
		n := us[id].size
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

// text is the chunk's diff, rendered now.
func (c chunk) text(us []unit) string {
	var b strings.Builder
	for _, id := range c {
		us[id].write(&b)
	}
	return b.String()
}
