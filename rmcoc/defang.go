package rmcoc

import (
	"html"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Defang rewrites every line of text the bot did not compose (a model's
// answer, a quoted comment, a file name) that a reader could open as an
// rmcoc fence, so the bot's own comment never carries state it did not
// write. It is the last step before a body is posted: it runs after every
// normalization, since removing a character can complete a fence.
//
// It is deliberately more lenient than Parse. A line is defanged when, after
// any indentation, blockquote or list markers and invisible characters, it
// holds three or more backticks or tildes (or their full-width and look-alike
// forms) followed by an info string that reads "rmcoc" once HTML entities
// are decoded, invisible and combining characters removed, full-width and
// look-alike letters mapped to ASCII and case folded. Lines end at LF, CR and
// every other character some reader breaks lines at (VT, FF, FS–RS, NEL,
// U+2028, U+2029); a line is checked both whole and split at the exotic
// breaks. The info string of a matching line becomes "text", which never
// makes the text longer, so a body cut to fit stays within its limit.
// Defang is idempotent.
func Defang(text string) string {
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		lines[i] = defangLine(line)
	}
	return strings.Join(lines, "\n")
}

// defangLine defangs one LF-delimited line: first as a whole (with exotic
// breaks read as spaces, as strings.TrimSpace does), then each of its
// segments between exotic breaks.
func defangLine(line string) string {
	if at, ok := fenceInfo(line, true); ok {
		return line[:at] + "text"
	}
	if !strings.ContainsFunc(line, isBreak) {
		return line
	}
	var b strings.Builder
	for len(line) > 0 {
		n := strings.IndexFunc(line, isBreak)
		if n < 0 {
			n = len(line)
		}
		seg := line[:n]
		if at, ok := fenceInfo(seg, false); ok {
			seg = seg[:at] + "text"
		}
		b.WriteString(seg)
		if n < len(line) {
			_, size := utf8.DecodeRuneInString(line[n:])
			b.WriteString(line[n : n+size])
			n += size
		}
		line = line[n:]
	}
	return b.String()
}

// isBreak reports the characters other than LF that some reader ends a
// line at.
func isBreak(r rune) bool {
	switch r {
	case '\r', '\v', '\f', 0x1c, 0x1d, 0x1e, 0x85, 0x2028, 0x2029:
		return true
	}
	return false
}

// fenceInfo reports whether s opens a fence whose info string reads
// "rmcoc", and the byte offset where that info string starts.
func fenceInfo(s string, breaksAreSpace bool) (int, bool) {
	i := 0
	// Indentation, container markers and invisible characters.
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if !(unicode.IsSpace(r) || invisible(r) || strings.ContainsRune(">-+*.)0123456789", r) || breaksAreSpace && isBreak(r)) {
			break
		}
		i += size
	}
	n := 0
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if !fenceRune(r) && !invisible(r) {
			break // the fence ends; the info string starts here
		}
		if fenceRune(r) {
			n++
		}
		i += size
	}
	if n < 3 {
		return 0, false
	}
	return i, infoIsRmcoc(s[i:])
}

// fenceRune reports backticks, tildes and characters that look like them.
func fenceRune(r rune) bool {
	switch r {
	case '`', '~',
		0xff40, // fullwidth grave accent
		0xff5e, // fullwidth tilde
		0x02cb, // modifier letter grave accent
		0x02dc, // small tilde
		0x1fef, // greek varia
		0x2035, // reversed prime
		0x223c, // tilde operator
		0x301c, // wave dash
		0x02f4: // modifier letter middle grave accent
		return true
	}
	return false
}

// invisible reports characters that render as nothing: format characters
// (zero-width, bidi controls, BOM, tags), controls, combining marks and
// variation selectors.
func invisible(r rune) bool {
	return unicode.Is(unicode.Cf, r) || unicode.IsControl(r) && r != '\n' || unicode.Is(unicode.Mn, r) ||
		unicode.Is(unicode.Me, r) || unicode.Is(unicode.Variation_Selector, r) || r == utf8.RuneError
}

// infoIsRmcoc reports whether an info string reads "rmcoc" to a lenient
// reader (its first word, or all of it with spaces and look-alikes removed).
func infoIsRmcoc(info string) bool {
	if !strings.ContainsRune(info, '&') && len(info) < 5 {
		return false
	}
	info = html.UnescapeString(info)
	var b strings.Builder
	for _, r := range info {
		if invisible(r) || unicode.IsSpace(r) || isBreak(r) {
			continue
		}
		b.WriteRune(fold(r))
		if b.Len() >= 5 {
			break
		}
	}
	return b.String() == "rmcoc"
}

// fold maps full-width forms and letters that look like r, m, c, o to
// ASCII, and lowercases.
func fold(r rune) rune {
	if r >= 0xff01 && r <= 0xff5e {
		r -= 0xfee0
	}
	switch r {
	case 'о', 'О', 'ο', 'Ο', 'ᴏ', 'ℴ', '○', '٥', '۵', 'ｏ', '0':
		return 'o'
	case 'с', 'С', 'ϲ', 'Ϲ', 'ᴄ', 'ⅽ', 'Ⅽ', 'ℂ':
		return 'c'
	case 'м', 'М', 'ṃ', 'ⅿ', 'Ⅿ', 'ᴍ', 'ɱ':
		return 'm'
	case 'г', 'ᴦ', 'ʀ', 'ɾ', 'ꭇ', 'ꭈ', 'ᚱ', 'ℛ', 'ℜ', 'ℝ':
		return 'r'
	}
	return unicode.ToLower(r)
}
