package diff

import (
	"strings"

	"github.com/pmezard/go-difflib/difflib"
)

// MaxUnifiedLines bounds each side Unified compares: past it the diff is
// not computed (its matcher grows with the product of the two sides on
// text with few unique lines) and the file stays unread.
const MaxUnifiedLines = 20000

// Unified is the patch between two contents of one file in the form
// GitHub's files list carries (hunks only, three lines of context, no
// file headers), for a file GitHub sent no patch for: ParsePatch reads it.
// ok is false when either side is past MaxUnifiedLines; the patch is ""
// when the contents are equal.
func Unified(old, new string) (patch string, ok bool) {
	a, b := difflib.SplitLines(old), difflib.SplitLines(new)
	if old == "" {
		a = nil
	}
	if new == "" {
		b = nil
	}
	a, b = trimLast(a), trimLast(b)
	if len(a) > MaxUnifiedLines || len(b) > MaxUnifiedLines {
		return "", false
	}
	out, err := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{A: a, B: b, Context: 3})
	if err != nil {
		return "", false
	}
	return strings.TrimSuffix(out, "\n"), true
}

// trimLast drops the empty line difflib.SplitLines adds after a final
// newline: it is no line of the file (SplitLines also gives a last line
// without one its newline, so every line ends in one).
func trimLast(lines []string) []string {
	if n := len(lines); n > 0 && lines[n-1] == "\n" {
		return lines[:n-1]
	}
	return lines
}
