package reviewsforagent

import (
	"path"
	"strings"

	"github.com/review-my-code-bot/rmc/diff"
	actionreview "github.com/review-my-code-bot/rmc/review"
)

// Files the page shows folded, with a "Load diff" button: they are slow to
// draw and rarely read line by line. The reason is shown to the person.
const (
	collapseLines = 5000    // diff lines
	collapseBytes = 1 << 20 // bytes of the file's diff section
)

// collapseReason says why f (whose diff section is section) starts folded,
// or "" when it does not. What the action does not review as generated (a
// lock file, a marker the old version carried, minified lines:
// actionreview.GeneratedByContent) is folded alike; beyond that, a name only
// tools give a file and a marker at the top of a new file fold it too,
// which on the person's own machine is their word, not a stranger's.
func collapseReason(f diff.File, section string) string {
	lower := strings.ToLower(path.Base(f.Path()))
	if f.Binary {
		return ""
	}
	switch actionreview.GeneratedByContent(f) {
	case actionreview.GeneratedLockFile:
		return "a lock file"
	case actionreview.GeneratedMarker:
		return "generated"
	case actionreview.GeneratedMinified:
		return "minified"
	case actionreview.NotGenerated:
	}
	switch {
	case strings.HasSuffix(lower, ".min.js") || strings.HasSuffix(lower, ".min.css") || strings.HasSuffix(lower, ".min.mjs") || strings.HasSuffix(lower, ".map"):
		return "minified"
	case generated(f, lower):
		return "generated"
	case len(section) > collapseBytes:
		return "over 1 MB"
	}
	lines := 0
	for _, h := range f.Hunks {
		lines += len(h.Lines)
	}
	if lines > collapseLines {
		return "over 5,000 lines"
	}
	return ""
}

// generated recognizes generated code by name, or by the marker Go and
// other generators put in the first lines ("Code generated ... DO NOT
// EDIT.", "@generated").
func generated(f diff.File, lower string) bool {
	for _, suffix := range []string{".pb.go", "_generated.go", ".generated.ts", ".generated.js", "_pb2.py", ".g.dart"} {
		if strings.HasSuffix(lower, suffix) {
			return true
		}
	}
	if strings.HasPrefix(lower, "zz_generated") {
		return true
	}
	if len(f.Hunks) == 0 || f.Hunks[0].NewStart > 1 {
		return false
	}
	for i, l := range f.Hunks[0].Lines {
		if i >= 5 {
			break
		}
		if l.Kind != diff.Delete && (strings.Contains(l.Text, "@generated") ||
			(strings.Contains(l.Text, "Code generated") && strings.Contains(l.Text, "DO NOT EDIT"))) {
			return true
		}
	}
	return false
}
