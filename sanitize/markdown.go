package sanitize

import (
	"strings"
	"unicode/utf8"

	"github.com/review-my-code-bot/rmc/internal/mdfence"
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
// follow CommonMark (mdfence.Strict). HTML comments are tracked outside fences; code spans are not, so a
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
			if (mdfence.Fence{Char: st.char, Len: st.n}).Closes(line, mdfence.Strict) {
				st.fence = ""
			}
		case !st.comment && opens(line):
			f, _ := mdfence.Open(line, mdfence.Strict)
			st.fence, st.char, st.n, st.start = line, f.Char, f.Len, ls
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

func opens(line string) bool {
	_, ok := mdfence.Open(line, mdfence.Strict)
	return ok
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
