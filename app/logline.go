package app

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// How the runner reads the log (actions/runner: ProcessInvoker and
// ActionCommand): it splits the step's output into lines at LF, CR and CRLF
// (.NET's StreamReader.ReadLine), and runs a line as a workflow command when
//
//   - after String.TrimStart (Unicode white space: NEL, NBSP and the line and
//     paragraph separators included) it starts with "::" and names a known
//     command, or
//   - it holds "##[" anywhere (the older syntax), when the first test failed.
//
// Both tests compare with the current culture, which under ICU skips
// characters that weigh nothing (zero-width and other format characters,
// most control characters), so ":\u200b:" can pass for "::".
//
// logText turns untrusted text into one line that is none of these: it
// escapes the way GitHub's toolkit escapes command data (% → %25, CR → %0D,
// LF → %0A) and, in the same percent notation so the line still reads back
// by percent-decoding, every other control or format character, NEL and the
// line and paragraph separators (as their UTF-8 bytes), the "[" after a "#",
// and the first character of a line whose first visible character is a
// colon. Invalid UTF-8 is kept as it is: the runner reads it as U+FFFD.
func logText(s string) string {
	var b strings.Builder
	b.Grow(len(s) + len(s)/8)
	lead := true    // nothing visible written yet
	prev := rune(0) // the last character that is not a combining mark
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		raw := s[i : i+n]
		i += n
		escaped := true
		switch {
		case r == utf8.RuneError && n == 1:
			b.WriteString(raw)
			escaped = false
		case r == '%' || r == '\r' || r == '\n' || unsafeRune(r):
			for j := 0; j < len(raw); j++ {
				fmt.Fprintf(&b, "%%%02X", raw[j])
			}
		case r == '[' && prev == '#':
			b.WriteString("%5B")
		case r == ':' && lead:
			b.WriteString("%3A")
		default:
			b.WriteString(raw)
			escaped = false
		}
		if escaped || !invisible(r) {
			lead = false
		}
		if !unicode.In(r, unicode.Mn, unicode.Me) {
			prev = r
		}
	}
	return b.String()
}

// unsafeRune reports a character logText escapes besides %, CR and LF:
// control characters other than tab (NEL among them), format characters
// (zero-width, bidi, BOM, soft hyphen, tags), the line and paragraph
// separators, and the other default-ignorable code points (variation
// selectors, fillers), which a culture-aware comparison skips.
func unsafeRune(r rune) bool {
	if r == '\t' {
		return false
	}
	return unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp,
		unicode.Other_Default_Ignorable_Code_Point, unicode.Variation_Selector)
}

// invisible reports a character that may come before a command's "::" on
// its line: white space, and combining marks, which have no glyph of their
// own. Escaped characters never do: their escape starts with a visible "%".
func invisible(r rune) bool {
	return unicode.IsSpace(r) || unicode.In(r, unicode.Mn, unicode.Me)
}
