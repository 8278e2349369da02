package review

import "github.com/review-my-code-bot/rmc/diff"

// anchor decides where each finding goes. GitHub rejects a whole review for
// one comment on a line outside the diff, so every inline anchor is checked:
// a line outside the diff moves to the nearest line of the same file that is
// in it; a finding on a file not in the diff, or past the inline cap, goes in
// the review's body. Findings are most severe first, so the cap keeps the
// important ones inline.
func anchor(fs []Finding, files map[string]*diff.File, maxInline int) {
	inline := 0
	for i := range fs {
		f := &fs[i]
		file := files[f.Path]
		if file == nil || f.Line <= 0 {
			continue
		}
		if !file.Contains(f.Side, f.Line) {
			n, ok := file.Nearest(f.Side, f.Line)
			if !ok && f.Side == diff.Left {
				f.Side = diff.Right
				n, ok = file.Nearest(diff.Right, f.Line)
			}
			if !ok {
				continue
			}
			f.Moved, f.Line, f.StartLine = f.Line, n, 0
		}
		if f.StartLine >= f.Line || (f.StartLine > 0 && !file.InSameHunk(f.Side, f.StartLine, f.Line)) {
			f.StartLine = 0
		}
		if inline < maxInline {
			f.Inline = true
			inline++
		}
	}
	// The merge gate is held only by findings someone can answer in a
	// thread: one that could not be placed inline informs, and its text says
	// so, but it cannot block.
	for i := range fs {
		if !fs[i].Inline && fs[i].Blocking {
			fs[i].Blocking, fs[i].Demoted = false, true
		}
	}
}
