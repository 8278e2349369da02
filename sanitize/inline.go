package sanitize

import "strings"

// InlineMarkdown makes untrusted text (a finding's title, a file path, a
// login) safe to place inside one line of Markdown, such as a list item or a
// table cell: it is cleaned like Text, line breaks become spaces, and
// everything that could start markup is backslash-escaped, so the text shows
// literally and cannot open a link, an image, HTML, code, emphasis, a table
// cell or a new block. Secrets are not redacted here; use Redact first when
// the text may hold one.
func InlineMarkdown(s string) string {
	s = clean(s)
	var b strings.Builder
	b.Grow(len(s) + len(s)/8)
	start := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\n' || c == '\t':
			b.WriteByte(' ')
			continue
		case strings.IndexByte("\\`*_[]<>|~!&{}", c) >= 0:
			b.WriteByte('\\')
		case start && strings.IndexByte("#-+>", c) >= 0:
			b.WriteByte('\\') // a block marker at the start of the item
		case start && c >= '0' && c <= '9':
			// "1. x" or "1) x" would start an ordered list.
			j := i
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			if j < len(s) && (s[j] == '.' || s[j] == ')') {
				b.WriteString(s[i:j])
				b.WriteByte('\\')
				i = j - 1
				start = false
				continue
			}
		}
		if c != ' ' {
			start = false
		}
		b.WriteByte(c)
	}
	return b.String()
}
