package reviewsforagent

import (
	"io"
	"os"
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
	// maxAttributes is as much of .gitattributes as is read: a file
	// larger is cut there, its later lines marking nothing.
	maxAttributes = 1 << 20
)

// collapseReason says why f (whose diff section is section) starts folded,
// or "" when it does not. What the action does not review as generated is
// folded alike, by the action's own rules: a path the repository's
// .gitattributes marks linguist-generated or linguist-vendored (attrs:
// actionreview.Exclusions), a lock file, a marker the old version carried,
// minified lines (actionreview.GeneratedByContent). Beyond that, a name
// only tools give a file and a marker at the top of a new file fold it
// too, which on the person's own machine is their word, not a stranger's.
func collapseReason(f diff.File, section string, attrs actionreview.Exclusions) string {
	lower := strings.ToLower(path.Base(f.Path()))
	if f.Binary {
		return ""
	}
	if attrs.Why(f.Path()) != "" {
		return "marked generated in .gitattributes"
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

// attributesOf is the repository's own .gitattributes, at the top of root:
// the paths it marks generated or vendored fold as the action skips them.
// Without one, or unreadable, nothing is marked. It is read through
// os.Root, so a link cannot make it a file outside the repository.
func attributesOf(root string) actionreview.Exclusions {
	text := ""
	if r, err := os.OpenRoot(root); err == nil {
		defer r.Close()
		if f, err := r.Open(".gitattributes"); err == nil {
			defer f.Close()
			b, _ := io.ReadAll(io.LimitReader(f, maxAttributes)) // what was read marks what it marks
			text = string(b)
		}
	}
	return actionreview.NewExclusions(nil, actionreview.Generated{Attributes: text})
}
