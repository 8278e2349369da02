package mention

import (
	"regexp"
	"strings"
	"testing"
)

// FuzzFind checks that Find never panics and never reports a mention that
// sits in code or a quote. The oracles are computed independently of the
// scanner: a regexp-based fence tracker, and inputs rewritten so that all of
// the body is code or quoted, where no mention may survive.
func FuzzFind(f *testing.F) {
	for _, s := range []string{
		"@rmc-bot review",
		"```\n@rmc-bot\n```\n@rmc-bot why?",
		"> @rmc-bot\n`@rmc-bot` <!-- @rmc-bot --> @rmc-bot hi",
		"- a\n\n  ```\n@rmc-bot x",
		"<div>\n```\n\n@rmc-bot x",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		m, ok := Find(body, botHandles)
		Classify(body)
		Classify(m.Text)
		s := normalize(body)

		if ok {
			p, h := handleAt(t, s)
			lineStart := strings.LastIndexByte(s[:p], '\n') + 1
			if isQuote(s[lineStart:p]) {
				t.Fatalf("mention at %d is on a quoted line in %q", p, s)
			}
			if flat(s) && inOracleFence(s, p) {
				t.Fatalf("mention at %d is in a fenced block in %q", p, s)
			}
			if h != m.Handle {
				t.Fatalf("reported handle %q, located %q", m.Handle, h)
			}
		}

		// A fence longer than any backtick run in the body never closes.
		fence := strings.Repeat("`", longestRun(s, '`')+3)
		if m, ok := Find(fence+"\n"+body, botHandles); ok {
			t.Fatalf("mention %+v inside an unterminated ``` fence", m)
		}
		tilde := strings.Repeat("~", longestRun(s, '~')+3)
		if m, ok := Find(tilde+"go\n"+body, botHandles); ok {
			t.Fatalf("mention %+v inside an unterminated ~~~ fence", m)
		}
		// Every line quoted.
		quoted := "> " + strings.ReplaceAll(s, "\n", "\n> ")
		if m, ok := Find(quoted, botHandles); ok {
			t.Fatalf("mention %+v in a fully quoted body %q", m, quoted)
		}
		// A one-line body inside a code span longer than any run in it.
		if !strings.Contains(s, "\n") {
			ticks := strings.Repeat("`", longestRun(s, '`')+1)
			span := "x " + ticks + " " + s + " " + ticks
			if m, ok := Find(span, botHandles); ok {
				t.Fatalf("mention %+v inside code span %q", m, span)
			}
		}
	})
}

// handleAt locates the reported mention with the package's own locator and
// checks that the bytes there really are the handle.
func handleAt(t *testing.T, s string) (int, string) {
	t.Helper()
	start, end, h, ok := locate(s, scan(s).prose, normalizeHandles(botHandles))
	if !ok {
		t.Fatalf("Find reported a mention that locate does not find in %q", s)
	}
	p := start
	for p < end && isEmphasis(s[p]) {
		p++
	}
	if p+len(h) > len(s) || !strings.EqualFold(s[p:p+len(h)], h) {
		t.Fatalf("mention at %d of %q is not %q", p, s, h)
	}
	return p, h
}

func longestRun(s string, c byte) int {
	best, n := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			n++
			best = max(best, n)
		} else {
			n = 0
		}
	}
	return best
}

// flat reports a body without HTML and list items: there a fence's extent
// depends only on fence lines, so the line-based oracle applies. (An HTML
// block swallows fence lines up to a blank line, and a fence in a list item
// ends with the item.)
func flat(s string) bool {
	return !strings.Contains(s, "<") && !oracleList.MatchString(s)
}

var (
	oracleList  = regexp.MustCompile(`(?m)^[ \t]*([-*+]|[0-9]{1,9}[.)])([ \t]|$)`)
	oracleOpen  = regexp.MustCompile("^ {0,3}(`{3,}|~{3,})(.*)$")
	oracleClose = regexp.MustCompile("^ {0,3}(`{3,}|~{3,})[ \t]*$")
	oracleQuote = regexp.MustCompile(`^[ \t]*>`)
)

// inOracleFence reports whether offset p of s lies on a line of a fenced
// block (opener and closer included), tracking fences line by line with
// regular expressions.
func inOracleFence(s string, p int) bool {
	open := ""
	offset := 0
	for _, line := range strings.Split(s, "\n") {
		end := offset + len(line)
		inside := open != ""
		switch {
		case open != "":
			if m := oracleClose.FindStringSubmatch(line); m != nil && m[1][0] == open[0] && len(m[1]) >= len(open) {
				open = ""
			}
		case oracleQuote.MatchString(line):
		default:
			if m := oracleOpen.FindStringSubmatch(line); m != nil && !(m[1][0] == '`' && strings.Contains(m[2], "`")) {
				open, inside = m[1], true
			}
		}
		if p >= offset && p <= end {
			return inside
		}
		offset = end + 1
	}
	return false
}
