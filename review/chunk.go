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
			left, right := "", ""
			if l.OldLine > 0 {
				left = fmt.Sprintf("L%d", l.OldLine)
			}
			if l.NewLine > 0 {
				right = fmt.Sprintf("R%d", l.NewLine)
			}
			fmt.Fprintf(&b, "%-6s %-6s| %c%s\n", left, right, l.Kind.Marker(), l.Text)
		}
	}
	return b.String()
}

// chunk packs files into pieces of at most max characters, splitting a big
// file by hunks and cutting a single oversized hunk with a note.
func chunk(files []diff.File, max int) []string {
	texts, _ := chunkPaths(files, max)
	return texts
}

// chunkPaths is chunk, also naming the files each piece holds (a split
// file is named in every piece that holds part of it).
func chunkPaths(files []diff.File, max int) ([]string, [][]string) {
	var chunks []string
	var paths [][]string
	var cur strings.Builder
	var curPaths []string
	flush := func() {
		if cur.Len() > 0 {
			chunks = append(chunks, cur.String())
			paths = append(paths, curPaths)
			cur.Reset()
			curPaths = nil
		}
	}
	add := func(path, s string) {
		if cur.Len()+len(s) > max {
			flush()
		}
		if len(s) > max {
			s = s[:max] + fmt.Sprintf("\n[… %d characters of this hunk not shown]\n", len(s)-max)
		}
		cur.WriteString(s)
		if len(curPaths) == 0 || curPaths[len(curPaths)-1] != path {
			curPaths = append(curPaths, path)
		}
	}
	for _, f := range files {
		if whole := render(f, f.Hunks); len(whole) <= max {
			add(f.Path(), whole)
			continue
		}
		for i := range f.Hunks {
			add(f.Path(), render(f, f.Hunks[i:i+1]))
		}
	}
	flush()
	return chunks, paths
}
