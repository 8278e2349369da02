package sanitize

import (
	"fmt"
	"github.com/review-my-code-bot/rmc/internal/mdfence"
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// Relay makes text the bot did not write (a model's answer, a finding's
// explanation, a quoted question, an API error) safe to embed in a body the
// bot posts, on top of what Redact does to every body:
//
//   - it is cleaned first (see Redact), so nothing below can be undone by
//     removing an invisible character later;
//   - HTML comments are dropped: hidden text is the same smuggling channel as
//     invisible characters, and it reaches the coding agent the bot notifies;
//   - other raw HTML (<img>, <details>, …) is escaped, so it shows as text
//     (and a mention inside it is neutralised like any other);
//   - mentions (@user, @org/team) are neutralised with a zero-width space
//     entity after the "@", so GitHub neither links nor notifies them;
//   - a fenced code block left open is closed, so it cannot swallow what the
//     bot writes after it.
//
// Code spans and code blocks are left as they are: GitHub shows them
// literally. Markdown is read the way CommonMark reads it (goldmark), and
// "<" before a letter is escaped in any text, so a renderer that disagrees
// with goldmark on an edge case still finds no tag. Relay is idempotent.
func Relay(s string) string {
	s = relay(clean(s), 0)
	if st := (mdState{}).after(s); st.fence != "" {
		s += "\n" + strings.Repeat(string(st.char), st.n)
	}
	return s
}

// RelayLine is Relay for text shown inline, within a line the bot writes (a
// finding's title, an error message): the text is put on one line, and read
// as the middle of a paragraph, which is where it lands. Read on its own,
// "```go @bob" would be a code block whose mention is inert, but after
// "Fixed: " it is plain text with a live mention.
func RelayLine(s string) string {
	const lead = "a " // what precedes it: the middle of a paragraph
	s = strings.Join(strings.Fields(clean(s)), " ")
	// Dropped comments leave spaces; one is enough.
	return strings.Join(strings.Fields(relay(lead+s, len(lead))[len(lead):]), " ")
}

// relay does Relay's work on clean text; bytes before from are context only
// and are never edited.
func relay(s string, from int) string {
	src := []byte(s)
	if TooComplex(s) {
		// Parsing it would take seconds: read all of it as plain text, every
		// "<" escaped and every mention neutralised. That shows too much
		// (tags and comments as text), never too little.
		edits := escapeTags(nil, src, from, len(src), true)
		return apply(s, neutralise(edits, src, from, len(src)), from)
	}
	doc := Parser().Parse(text.NewReader(src))
	var edits []edit
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.CodeSpan, *ast.CodeBlock, *ast.FencedCodeBlock, *ast.AutoLink:
			return ast.WalkSkipChildren, nil
		case *ast.HTMLBlock:
			lines := n.Lines()
			segs := make([]text.Segment, 0, lines.Len()+1)
			for i := 0; i < lines.Len(); i++ {
				segs = append(segs, lines.At(i))
			}
			if n.HasClosure() {
				segs = append(segs, n.ClosureLine)
			}
			comment := n.HTMLBlockType == ast.HTMLBlockType2
			for _, seg := range segs {
				if comment {
					edits = append(edits, edit{seg.Start, seg.Stop, ""})
				} else {
					edits = escapeTags(edits, src, seg.Start, seg.Stop, true)
					edits = neutralise(edits, src, seg.Start, seg.Stop)
				}
			}
		case *ast.RawHTML:
			for i := 0; i < n.Segments.Len(); i++ {
				seg := n.Segments.At(i)
				if i == 0 && strings.HasPrefix(string(src[seg.Start:seg.Stop]), "<!--") {
					// A space, not nothing: "@<!-- -->bob" must not become a mention.
					last := n.Segments.At(n.Segments.Len() - 1)
					edits = append(edits, edit{seg.Start, last.Stop, " "})
					break
				}
				edits = escapeTags(edits, src, seg.Start, seg.Stop, true)
				edits = neutralise(edits, src, seg.Start, seg.Stop)
			}
		case *ast.Text:
			edits = escapeTags(edits, src, n.Segment.Start, n.Segment.Stop, false)
			edits = neutralise(edits, src, n.Segment.Start, n.Segment.Stop)
		}
		return ast.WalkContinue, nil
	})
	return apply(s, edits, from)
}

type edit struct {
	start, end int
	repl       string
}

// escapeTags escapes "<" in src[start:end]: every one (all), or those that
// could open a tag, a comment or a declaration. A "<" after a backslash is
// already literal.
func escapeTags(edits []edit, src []byte, start, end int, all bool) []edit {
	for i := start; i < end; i++ {
		if src[i] != '<' || i > 0 && src[i-1] == '\\' {
			continue
		}
		if all || i+1 < len(src) && (isLetter(src[i+1]) || strings.IndexByte("/!?", src[i+1]) >= 0) {
			edits = append(edits, edit{i, i + 1, "&lt;"})
		}
	}
	return edits
}

// zwsp follows the "@" of a neutralised mention: GitHub renders it as
// nothing, and the mention filter no longer sees a login after the "@".
const zwsp = "&#8203;"

// atEntity matches the character references that render as "@".
var atEntity = regexp.MustCompile(`&(#0*64|#[xX]0*40|commat);`)

// neutralise breaks every mention in src[start:end]: an "@" (or an entity
// for one) after a non-word character or at the start, before a letter or
// digit, as GitHub's mention filter reads them (@user and @org/team).
func neutralise(edits []edit, src []byte, start, end int) []edit {
	for i := start; i < end; i++ {
		switch {
		case src[i] == '@':
			if (i == 0 || !isWord(src[i-1])) && i+1 < len(src) && (isLetter(src[i+1]) || src[i+1] >= '0' && src[i+1] <= '9') {
				edits = append(edits, edit{i, i + 1, "@" + zwsp})
			}
		case src[i] == '&':
			if m := atEntity.FindIndex(src[i:end]); m != nil && m[0] == 0 {
				edits = append(edits, edit{i, i + m[1], "@" + zwsp})
				i += m[1] - 1
			}
		}
	}
	return edits
}

// asciiPunct is what a backslash escapes in CommonMark.
const asciiPunct = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isWord(c byte) bool   { return isLetter(c) || c >= '0' && c <= '9' || c == '_' }

// apply makes the edits at or after from, which do not overlap once sorted
// (each comes from one node's own bytes).
func apply(s string, edits []edit, from int) string {
	if len(edits) == 0 {
		return s
	}
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].start < edits[j].start })
	var b strings.Builder
	at := 0
	for _, e := range edits {
		if e.start < at || e.start < from {
			continue
		}
		b.WriteString(s[at:e.start])
		b.WriteString(e.repl)
		at = e.end
	}
	b.WriteString(s[at:])
	return b.String()
}

// Name renders a file path, login or other name someone else chose for
// Markdown prose, on one line and visibly: line breaks, tabs, control and
// invisible characters (zero-width, bidi, tags) and invalid bytes become
// escapes such as \n or \u200b, and backticks (and a backslash before
// punctuation) are escaped so the name cannot open or close a code span.
func Name(s string) string { return visible(s, true) }

// Code renders a name as an inline code span that shows it exactly (with
// the escapes of Name for what is invisible): the span's delimiter is longer
// than any run of backticks in the name, so nothing in it can end the span,
// and inside a code span GitHub links no mention and reads no HTML.
func Code(s string) string {
	v := visible(s, false)
	if v == "" {
		return "` `"
	}
	delim := mdfence.Longer(v, '`', 1)
	pad := ""
	if v[0] == '`' || v[0] == ' ' || v[len(v)-1] == '`' || v[len(v)-1] == ' ' {
		pad = " "
	}
	return delim + pad + v + pad + delim
}

// CodeBlock renders content as a fenced code block with the info string
// info (for example "suggestion") and a fence longer than any run of
// backticks in content, so no line of it can close the block early.
func CodeBlock(info, content string) string {
	fence := mdfence.Longer(content, '`', 3)
	return fence + info + "\n" + content + "\n" + fence
}

// visible writes s on one line with everything that would not show (or
// would break the line) as an escape; for prose (md), with backticks and a
// backslash before ASCII punctuation escaped.
func visible(s string, md bool) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case md && r == '`':
			b.WriteString("\\`")
		case md && r == '\\' && i+1 < len(s) && strings.IndexByte(asciiPunct, s[i+1]) >= 0:
			b.WriteString(`\\`)
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == ' ':
			b.WriteByte(' ')
		case !unicode.IsGraphic(r) || removed(r) || unicode.IsSpace(r):
			if r > 0xffff {
				fmt.Fprintf(&b, `\U%08x`, r)
			} else {
				fmt.Fprintf(&b, `\u%04x`, r)
			}
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}
