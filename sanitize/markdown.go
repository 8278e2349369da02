package sanitize

import (
	"strings"
	"unicode/utf8"
)

// mdState is what is still open at some point of a Markdown body: a fenced
// code block or an HTML comment. A part that ends with either open would
// swallow whatever GitHub shows after it (our truncation note, the next
// part's label), so Fit and Split close it and Split reopens it.
type mdState struct {
	fence   string // the open fence's opening line, "" when none
	char    byte   // its character, '`' or '~'
	n       int    // its length
	comment bool   // inside <!-- … -->
	// start is the byte offset, in the text last scanned, of the line or
	// "<!--" that opened what is open; -1 when it was open before the scan.
	start int
}

func (st mdState) open() bool { return st.fence != "" || st.comment }

// closer returns what closes the open construct.
func (st mdState) closer() string {
	switch {
	case st.fence != "":
		return "\n" + strings.Repeat(string(st.char), st.n)
	case st.comment:
		return " -->"
	}
	return ""
}

// reopener returns what reopens the construct at the top of the next part.
func (st mdState) reopener() string {
	switch {
	case st.fence != "":
		return st.fence + "\n"
	case st.comment:
		return "<!--\n"
	}
	return ""
}

// after returns the state at the end of s, given st at its start. Fences
// follow CommonMark (opener indented at most three spaces, three or more
// backticks or tildes, no backtick in a backtick fence's info string; the
// closer uses the same character, is at least as long and has nothing after
// it). HTML comments are tracked outside fences; code spans are not, so a
// "<!--" in inline code counts, which at worst adds a harmless " -->".
func (st mdState) after(s string) mdState {
	if st.open() {
		st.start = -1
	}
	for ls := 0; ls <= len(s); {
		le := strings.IndexByte(s[ls:], '\n')
		if le < 0 {
			le = len(s)
		} else {
			le += ls
		}
		line := s[ls:le]
		switch {
		case st.fence != "":
			if closesFence(line, st.char, st.n) {
				st.fence = ""
			}
		case !st.comment && opensFence(line) > 0:
			n := opensFence(line)
			st.fence, st.char, st.n, st.start = line, strings.TrimLeft(line, " \t")[0], n, ls
		default:
			for rest, off := line, ls; ; {
				if st.comment {
					i := strings.Index(rest, "-->")
					if i < 0 {
						break
					}
					st.comment = false
					rest, off = rest[i+3:], off+i+3
					continue
				}
				i := strings.Index(rest, "<!--")
				if i < 0 {
					break
				}
				st.comment, st.start = true, off+i
				rest, off = rest[i+4:], off+i+4
			}
		}
		ls = le + 1
	}
	return st
}

// opensFence returns the length of the fence line opens, or 0.
func opensFence(line string) int {
	if indent(line) > 3 {
		return 0
	}
	t := strings.TrimLeft(line, " \t")
	if len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return 0
	}
	n := 0
	for n < len(t) && t[n] == t[0] {
		n++
	}
	if n < 3 || t[0] == '`' && strings.IndexByte(t[n:], '`') >= 0 {
		return 0
	}
	return n
}

func closesFence(line string, c byte, n int) bool {
	if indent(line) > 3 {
		return false
	}
	t := strings.TrimLeft(line, " \t")
	k := 0
	for k < len(t) && t[k] == c {
		k++
	}
	return k >= n && strings.TrimRight(t[k:], " \t\r") == "" // CRLF bodies too
}

// indent counts leading spaces, a tab as four.
func indent(line string) int {
	n := 0
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case ' ':
			n++
		case '\t':
			n += 4
		default:
			return n
		}
	}
	return n
}

// runes counts characters the way GitHub does; an invalid byte counts as one.
func runes(s string) int { return utf8.RuneCountInString(s) }

// advance returns the byte offset n runes after from, or len(s).
func advance(s string, from, n int) int {
	i := from
	for ; n > 0 && i < len(s); n-- {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return i
}
