// Package mdfence recognizes the lines that open and close a Markdown fenced
// code block. It is the one place the project reads fences line by line:
// sanitize uses it to close and reopen fences when it cuts a body, rmcoc to
// find its own state blocks.
//
// Strict mode follows CommonMark: the line is indented at most three spaces
// (a tab counts as four), the fence is three or more backticks or tildes, a
// backtick fence's info string has no backtick, and the closer uses the same
// character, is at least as long and has nothing but spaces after it.
// Lenient mode accepts any indentation and trims any Unicode white space
// around the line, for tolerant reading of text the bot wrote itself.
package mdfence

import "strings"

// Mode selects how much indentation a fence line may carry.
type Mode int

const (
	// Strict is CommonMark's rule: at most three spaces of indentation.
	Strict Mode = iota
	// Lenient accepts any leading and trailing white space.
	Lenient
)

// Fence is an open fence.
type Fence struct {
	Char byte   // '`' or '~'
	Len  int    // number of fence characters, three or more
	Info string // the info string, trimmed
}

// Open reports whether line opens a fence.
func Open(line string, m Mode) (Fence, bool) {
	t, ok := trim(line, m)
	if !ok || len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return Fence{}, false
	}
	n := run(t, t[0])
	if n < 3 {
		return Fence{}, false
	}
	// "```foo`" is inline code, not a fence.
	if t[0] == '`' && strings.IndexByte(t[n:], '`') >= 0 {
		return Fence{}, false
	}
	return Fence{Char: t[0], Len: n, Info: strings.TrimSpace(t[n:])}, true
}

// Closes reports whether line closes f.
func (f Fence) Closes(line string, m Mode) bool {
	t, ok := trim(line, m)
	if !ok || f.Len < 1 {
		return false
	}
	k := run(t, f.Char)
	if k < f.Len {
		return false
	}
	if m == Lenient {
		return k == len(t)
	}
	return strings.TrimRight(t[k:], " \t\r") == "" // CRLF bodies too
}

// Closer returns the shortest line that closes f.
func (f Fence) Closer() string { return strings.Repeat(string(f.Char), f.Len) }

// trim strips the indentation line may carry in mode m; ok is false when
// the line is indented too deeply to hold a fence.
func trim(line string, m Mode) (string, bool) {
	if m == Lenient {
		return strings.TrimSpace(line), true
	}
	if Indent(line) > 3 {
		return "", false
	}
	return strings.TrimLeft(line, " \t"), true
}

func run(t string, c byte) int {
	n := 0
	for n < len(t) && t[n] == c {
		n++
	}
	return n
}

// Indent counts leading spaces, a tab as four, as CommonMark does for
// block structure.
func Indent(line string) int {
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

// Longer is the shortest run of c (at least min) longer than any run of c
// in text: a fence or a code-span delimiter that nothing in text can close.
func Longer(text string, c byte, min int) string {
	best, n := 0, 0
	for i := 0; i < len(text); i++ {
		if text[i] == c {
			n++
			best = max(best, n)
		} else {
			n = 0
		}
	}
	return strings.Repeat(string(c), max(min, best+1))
}
