package precision

import (
	"github.com/review-my-code-bot/rmc/diff"
	"github.com/review-my-code-bot/rmc/rmcoc"
)

// Forward is fixes with, for each fix verified on from whose file the diff
// since (from to head, as an incremental review reads it) changed in
// place, a copy numbered at head: a finding a later review raises on the
// lines the fix wrote is matched though they moved. A line the diff
// deleted drops out; a suggestion survives only whole and in a row. A fix
// whose file the diff does not hold (unchanged, renamed, or not read) is
// not moved: its lines are not known at head.
func Forward(fixes []Fix, from, head string, since []diff.File) []Fix {
	if from == "" || head == "" || from == head {
		return fixes
	}
	byPath := map[string]diff.File{}
	for _, d := range since {
		if d.OldPath == d.NewPath && len(d.Hunks) > 0 {
			byPath[d.NewPath] = d
		}
	}
	out := fixes
	for _, fx := range fixes {
		d, ok := byPath[fx.Path]
		if fx.Head != from || !ok {
			continue
		}
		moved := Fix{FindingID: fx.FindingID, Path: fx.Path, Head: head, Lines: forwardRanges(d, fx.Lines)}
		if s := forwardRanges(d, []rmcoc.LineRange{fx.Suggestion}); fx.Suggestion.Start > 0 && len(s) == 1 && s[0].End-s[0].Start == fx.Suggestion.End-fx.Suggestion.Start {
			moved.Suggestion = s[0]
		}
		if len(moved.Lines) > 0 || moved.Suggestion.Start > 0 {
			out = append(out[:len(out):len(out)], moved)
		}
	}
	return out
}

// forwardRanges maps rs (old-side lines of d) to d's new side, in runs, at
// most rmcoc.MaxFixLines of them.
func forwardRanges(d diff.File, rs []rmcoc.LineRange) []rmcoc.LineRange {
	var out []rmcoc.LineRange
	for _, r := range rs {
		for n := max(r.Start, 1); n <= r.End; n++ {
			m := forwardLine(d, n)
			switch {
			case m == 0:
			case len(out) > 0 && out[len(out)-1].End == m-1:
				out[len(out)-1].End = m
			case len(out) < rmcoc.MaxFixLines:
				out = append(out, rmcoc.LineRange{Start: m, End: m})
			}
		}
	}
	return out
}

// forwardLine is old-side line n's number on d's new side, 0 when d
// deleted it. Hunks are in order; a hunk of no old lines inserts after
// line OldStart.
func forwardLine(d diff.File, n int) int {
	offset := 0
	for _, h := range d.Hunks {
		first := h.OldStart
		if h.OldLines == 0 {
			first++
		}
		switch {
		case n < first:
			return n + offset
		case n < first+h.OldLines:
			for _, l := range h.Lines {
				if l.OldLine == n && l.Kind == diff.Context {
					return l.NewLine
				}
			}
			return 0 // deleted
		}
		offset += h.NewLines - h.OldLines
	}
	return n + offset
}
