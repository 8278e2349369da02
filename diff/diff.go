// Package diff is the project's one model of a code change: it parses unified
// git diffs and GitHub's per-file "patch" fields into the same File, Hunk and
// Line types, and answers the questions a review comment asks of them (may a
// comment anchor on this line, which lines does it quote).
//
// Line numbers are 1-based, as in a hunk header. A side names which version
// of the file a line number refers to: Left is the old file, Right the new
// one (GitHub's LEFT and RIGHT).
package diff

import (
	"fmt"
)

// Status is what happened to a file.
type Status string

// The statuses. A copy (git diff -C) is reported as Added, with OldPath set
// to its source, because for a reviewer the new path is a new file.
const (
	Added    Status = "added"
	Modified Status = "modified"
	Deleted  Status = "deleted"
	Renamed  Status = "renamed"
)

// Side names which version of a file a line number refers to. It is a string
// so that it reads the same in Go, in JSON and in the browser.
type Side string

// The sides.
const (
	Left  Side = "left"  // the old file: deleted and context lines
	Right Side = "right" // the new file: added and context lines
)

// Valid reports whether s is Left or Right.
func (s Side) Valid() bool { return s == Left || s == Right }

// Kind is what a diff line does.
type Kind int

// The kinds.
const (
	Context Kind = iota // present in both versions
	Add                 // present only in the new version
	Delete              // present only in the old version
)

// Marker is the character that starts the line in a unified diff.
func (k Kind) Marker() byte {
	switch k {
	case Add:
		return '+'
	case Delete:
		return '-'
	case Context:
	}
	return ' ' // context, and a Kind out of range
}

func (k Kind) String() string {
	switch k {
	case Context:
		return "context"
	case Add:
		return "add"
	case Delete:
		return "delete"
	default:
		return fmt.Sprintf("Kind(%d)", int(k))
	}
}

// File is the change to one file.
type File struct {
	// OldPath is empty for an added file, NewPath for a deleted one. Both are
	// set (and equal unless renamed) otherwise. Paths carry no a/ or b/
	// prefix and are unquoted.
	OldPath string
	NewPath string
	Status  Status
	// Binary files have no hunks: git shows no lines for them.
	Binary bool
	Hunks  []Hunk
}

// Hunk is one "@@ -a,b +c,d @@ section" block.
type Hunk struct {
	OldStart, OldLines int
	NewStart, NewLines int
	// Section is the text git prints after the closing "@@", usually the
	// enclosing function.
	Section string
	Lines   []Line
}

// Line is one line of a hunk.
type Line struct {
	Kind Kind
	// Text is the line without its marker and without its line ending.
	Text string
	// OldLine is the line's number in the old file, 0 for an added line;
	// NewLine the number in the new file, 0 for a deleted line.
	OldLine, NewLine int
	// NoNewline is set when "\ No newline at end of file" followed the line.
	NoNewline bool
}

// Path is the path a reviewer knows the file by: the new path, or the old
// one for a deleted file.
func (f File) Path() string {
	if f.NewPath != "" {
		return f.NewPath
	}
	return f.OldPath
}

// number is l's line number on side, 0 when the line is not on that side.
func (l Line) number(side Side) int {
	if side == Left {
		return l.OldLine
	}
	return l.NewLine
}

// locate finds the hunk and line index of the line numbered n on side. Left
// lines are deleted or context lines, right lines added or context lines,
// as GitHub anchors review comments. ok is false when no such line is shown.
func (f File) locate(side Side, n int) (hunk, line int, ok bool) {
	if n <= 0 || !side.Valid() {
		return 0, 0, false
	}
	for hi, h := range f.Hunks {
		// A linear scan: the header counts could prune hunks, but a
		// hand-built File need not keep them true, and even a 20,000-line
		// diff scans in microseconds.
		for li, l := range h.Lines {
			if l.number(side) == n {
				return hi, li, true
			}
		}
	}
	return 0, 0, false
}

// Contains reports whether a review comment can anchor on line of side: the
// diff shows that line on that side.
func (f File) Contains(side Side, line int) bool {
	_, _, ok := f.locate(side, line)
	return ok
}

// InSameHunk reports whether start and end (start <= end) are both shown on
// side within one hunk, so that a range comment between them covers only
// lines the reviewer saw.
func (f File) InSameHunk(side Side, start, end int) bool {
	if start > end {
		return false
	}
	hs, _, ok1 := f.locate(side, start)
	he, _, ok2 := f.locate(side, end)
	return ok1 && ok2 && hs == he
}

// Nearest returns the anchorable line on side closest to line, preferring
// the lower one on a tie. ok is false when the file shows no line on that
// side (a binary file, or the right side of a deleted file).
func (f File) Nearest(side Side, line int) (int, bool) {
	if !side.Valid() {
		return 0, false
	}
	best, bestDist := 0, -1
	for _, h := range f.Hunks {
		for _, l := range h.Lines {
			n := l.number(side)
			if n == 0 {
				continue
			}
			d := n - line
			if d < 0 {
				d = -d
			}
			if bestDist < 0 || d < bestDist || (d == bestDist && n < best) {
				best, bestDist = n, d
			}
		}
	}
	return best, bestDist >= 0
}

// Snippet returns the lines a comment on side from start to end quotes: the
// lines of that side numbered start..end and, because the reviewer saw them
// between those, any lines of the other side interleaved with them. It is
// empty when start or end is not shown or they lie in different hunks.
func (f File) Snippet(side Side, start, end int) []Line {
	if !f.InSameHunk(side, start, end) {
		return nil
	}
	hi, first, _ := f.locate(side, start)
	_, last, _ := f.locate(side, end)
	if last < first {
		return nil // only a hand-built File numbers its lines backwards
	}
	src := f.Hunks[hi].Lines[first : last+1]
	out := make([]Line, len(src))
	copy(out, src)
	return out
}
