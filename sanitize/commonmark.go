package sanitize

import (
	"slices"
	"strings"

	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/util"
)

// How the bot reads Markdown someone else wrote, in time linear in its size:
// the mention detector and Relay share it.

// Parser returns a CommonMark parser without emphasis. Emphasis binds
// looser than code spans, links and HTML, so it never decides whether text
// is prose, and goldmark resolves unmatched mixed delimiters ("_a*_a*…") in
// quadratic time.
func Parser() parser.Parser {
	var inlines []util.PrioritizedValue
	for _, p := range parser.DefaultInlineParsers() {
		if !slices.Contains(p.Value.(parser.InlineParser).Trigger(), '*') {
			inlines = append(inlines, p)
		}
	}
	return parser.NewParser(
		parser.WithBlockParsers(parser.DefaultBlockParsers()...),
		parser.WithInlineParsers(inlines...),
		parser.WithParagraphTransformers(parser.DefaultParagraphTransformers()...),
	)
}

// Limits on the shapes goldmark reads in time quadratic in their count (a
// 64 KiB comment of them takes seconds): container markers opened on one
// line ("> > > …", "- - - …") and link destinations ("](").
const (
	maxNestingOnALine = 32
	maxLinkOpeners    = 1024
)

// TooComplex reports a body beyond those limits. No comment written by hand
// comes near them: such a body is read as not addressed to the bot, and
// relayed as plain text.
func TooComplex(s string) bool {
	if strings.Count(s, "](") > maxLinkOpeners {
		return true
	}
	for ls := 0; ls < len(s); {
		depth := 0
		i := ls
		for i < len(s) {
			for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
				i++
			}
			if n := containerMarker(s[i:]); n > 0 {
				depth++
				i += n
				continue
			}
			break
		}
		if depth > maxNestingOnALine {
			return true
		}
		k := strings.IndexByte(s[i:], '\n')
		if k < 0 {
			break
		}
		ls = i + k + 1
	}
	return false
}

// containerMarker returns the length of a block quote or list item marker
// at the start of t ("> ", ">", "- ", "12. "), or 0.
func containerMarker(t string) int {
	if t == "" {
		return 0
	}
	if t[0] == '>' {
		return 1
	}
	n := 0
	for n < len(t) && n < 9 && t[n] >= '0' && t[n] <= '9' {
		n++
	}
	switch {
	case n == 0 && strings.IndexByte("-*+", t[0]) >= 0:
		n = 1
	case n > 0 && n < len(t) && (t[n] == '.' || t[n] == ')'):
		n++
	default:
		return 0
	}
	if n < len(t) && t[n] != ' ' && t[n] != '\t' && t[n] != '\n' {
		return 0
	}
	return n
}
