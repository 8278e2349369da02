package main

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/mattn/go-runewidth"
)

// style colours text for a terminal, or leaves it plain. Each style ends
// with its own "off" code rather than a full reset, so a code span inside
// bold text keeps the bold after it.
type style struct{ on bool }

func (s style) sgr(on, off, text string) string {
	if !s.on || text == "" {
		return text
	}
	return "\x1b[" + on + "m" + text + "\x1b[" + off + "m"
}

func (s style) bold(t string) string   { return s.sgr("1", "22", t) }
func (s style) dim(t string) string    { return s.sgr("2", "22", t) }
func (s style) italic(t string) string { return s.sgr("3", "23", t) }
func (s style) red(t string) string    { return s.sgr("31", "39", t) }
func (s style) green(t string) string  { return s.sgr("32", "39", t) }
func (s style) yellow(t string) string { return s.sgr("33", "39", t) }
func (s style) cyan(t string) string   { return s.sgr("36", "39", t) }

// clean makes text someone else wrote safe to print on a terminal: control
// characters (escape sequences above all: they could move the cursor,
// rewrite the screen or set the window title) and bidirectional overrides
// (which make text read differently from what it is) are dropped; tabs
// become spaces. Every piece of text the demo prints that came from a
// person, the model or the fake GitHub passes through here, and the
// demo's own colours are added afterwards.
func clean(s string) string {
	if !strings.ContainsFunc(s, unsafeRune) && !strings.Contains(s, "\t") {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\t':
			b.WriteString("    ")
		case unsafeRune(r):
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func unsafeRune(r rune) bool {
	switch {
	case r == '\n', r == '\t':
		return false
	case unicode.IsControl(r): // C0, DEL and C1
		return true
	case r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069, r == 0x200E, r == 0x200F, r == 0x061C:
		return true
	}
	return false
}

var sgrRe = regexp.MustCompile(`\x1b\[[0-9;]*m`)

// width is the number of terminal columns text takes, colours aside.
func width(text string) int { return runewidth.StringWidth(sgrRe.ReplaceAllString(text, "")) }

// pad fills text with spaces to n columns.
func pad(text string, n int) string {
	if w := width(text); w < n {
		return text + strings.Repeat(" ", n-w)
	}
	return text
}

// wrap breaks text into lines of at most max columns at spaces; a word
// longer than a line stays whole. Newlines in text are kept.
func wrap(text string, max int) []string {
	var out []string
	for _, para := range strings.Split(text, "\n") {
		line, lineW := "", 0
		for _, word := range strings.Fields(para) {
			w := width(word)
			if lineW > 0 && lineW+1+w > max {
				out = append(out, line)
				line, lineW = "", 0
			}
			if lineW > 0 {
				line += " "
				lineW++
			}
			line += word
			lineW += w
		}
		out = append(out, line)
	}
	return out
}

// indent prefixes every line; empty lines get the prefix without its
// trailing spaces, so the output has no trailing blanks.
func indent(lines []string, prefix string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		if l == "" {
			out[i] = strings.TrimRight(prefix, " ")
			continue
		}
		out[i] = prefix + l
	}
	return out
}
