package app

import (
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
// by percent-decoding, the other control characters, NEL, the line and
// paragraph separators and bidi controls (as their UTF-8 bytes), the "[" of
// a "#[", and the colon that a line's first visible character would be.
// Characters a comparison may skip count as invisible there, so neither
// "\u200b::" nor "#\u200b#[" gets through. Invalid UTF-8 is kept as it is: the
// runner reads it as U+FFFD.
func logText(s string) string {
	var b strings.Builder
	b.Grow(len(s) + len(s)/8)
	lead := true    // nothing visible written yet
	prev := rune(0) // the last character a comparison would not skip
	for i := 0; i < len(s); {
		r, n := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRuneInString(s[i:])
		}
		raw := s[i : i+n]
		i += n
		escaped := true
		switch {
		case r == utf8.RuneError && n == 1:
			b.WriteString(raw)
			escaped = false
		case r == '%' || r == '\r' || r == '\n' || unsafeRune(r):
			for j := 0; j < len(raw); j++ {
				b.WriteByte('%')
				b.WriteByte(upperhex[raw[j]>>4])
				b.WriteByte(upperhex[raw[j]&15])
			}
		case r == '[' && prev == '#':
			b.WriteString("%5B")
		case r == ':' && lead:
			b.WriteString("%3A")
		default:
			b.WriteString(raw)
			escaped = false
		}
		if escaped || !(unicode.IsSpace(r) || skippable(r)) {
			lead = false
		}
		if escaped || !skippable(r) {
			prev = r
		}
	}
	return b.String()
}

const upperhex = "0123456789ABCDEF"

// unsafeRune reports a character logText escapes besides %, CR and LF:
// control characters other than tab (NEL among them), the line and
// paragraph separators, and bidi controls, which make a line read otherwise
// than it is.
func unsafeRune(r rune) bool {
	if r < utf8.RuneSelf {
		return (r < 0x20 && r != '\t') || r == 0x7f
	}
	return unicode.IsControl(r) || unicode.In(r, unicode.Zl, unicode.Zp, unicode.Bidi_Control)
}

// skippable reports a character without a glyph of its own that a
// culture-aware comparison may pass over: combining marks, format
// characters (zero-width, BOM, soft hyphen, joiners), variation selectors
// and the other default-ignorable code points. They stay in the line (an
// emoji needs its joiners) but cannot hide a "::" or a "#[".
func skippable(r rune) bool {
	return r >= utf8.RuneSelf && unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Variation_Selector, unicode.Other_Default_Ignorable_Code_Point)
}
