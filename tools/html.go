package tools

import (
	"html"
	"strings"
)

// Elements whose content is not text a reader sees: skipped whole.
var skippedElements = map[string]bool{
	"script": true, "style": true, "noscript": true, "template": true,
	"svg": true, "iframe": true, "object": true, "canvas": true,
}

// Elements that start a new line of text.
var blockElements = map[string]bool{
	"address": true, "article": true, "aside": true, "blockquote": true, "br": true, "dd": true,
	"div": true, "dl": true, "dt": true, "fieldset": true, "figcaption": true, "figure": true,
	"footer": true, "form": true, "h1": true, "h2": true, "h3": true, "h4": true, "h5": true,
	"h6": true, "header": true, "hr": true, "li": true, "main": true, "nav": true, "ol": true,
	"p": true, "pre": true, "section": true, "summary": true, "table": true, "tr": true,
	"title": true, "ul": true, "details": true, "caption": true,
}

// htmlToText reduces an HTML page to its readable text, crudely: it drops
// comments, scripts, styles and tags, decodes entities, starts a line at
// each block element, keeps <pre> text as it is and squeezes the rest of
// the whitespace. The standard library has no HTML parser, and the model
// only needs the words, not a faithful rendering.
func htmlToText(s string) string {
	var out textWriter
	pre := 0 // depth of <pre> elements
	for len(s) > 0 {
		i := strings.IndexByte(s, '<')
		if i < 0 {
			out.text(s, pre > 0)
			break
		}
		out.text(s[:i], pre > 0)
		s = s[i:]
		switch {
		case strings.HasPrefix(s, "<!--"):
			s = after(s, "-->")
			continue
		case strings.HasPrefix(s, "<!") || strings.HasPrefix(s, "<?"):
			s = after(s, ">")
			continue
		}
		name, closing, rest, ok := readTag(s)
		if !ok {
			out.text("<", pre > 0) // a lone "<" in text
			s = s[1:]
			continue
		}
		s = rest
		switch {
		case skippedElements[name] && !closing:
			s = afterClosing(s, name)
		case name == "pre":
			if closing {
				pre = max(pre-1, 0)
			} else {
				pre++
			}
			out.raw("\n")
		case name == "li" && !closing:
			out.raw("\n- ")
		case blockElements[name]:
			out.raw("\n")
		case (name == "td" || name == "th") && !closing:
			out.text(" ", false) // a cell separates words like a space
		}
	}
	return tidy(out.b.String())
}

// readTag reads the tag at the start of s ("<a href='x'>", "</p>", "<br/>")
// and returns its lower-case name and what follows it.
func readTag(s string) (name string, closing bool, rest string, ok bool) {
	j := 1
	if j < len(s) && s[j] == '/' {
		closing = true
		j++
	}
	k := j
	for k < len(s) && isNameByte(s[k]) {
		k++
	}
	if k == j {
		return "", false, s, false
	}
	name = strings.ToLower(s[j:k])
	// Find the end of the tag, skipping quoted attribute values, which may
	// hold ">".
	var quote byte
	for ; k < len(s); k++ {
		c := s[k]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '>':
			return name, closing, s[k+1:], true
		}
	}
	return name, closing, "", true // unterminated tag: drop the rest
}

func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == ':'
}

// after returns what follows the first sep in s, or "" when there is none.
func after(s, sep string) string {
	if i := strings.Index(s, sep); i >= 0 {
		return s[i+len(sep):]
	}
	return ""
}

// afterClosing skips to past the closing tag of name, case-insensitively.
// It compares in place rather than lower-casing s, which would make a page
// of many scripts quadratic.
func afterClosing(s, name string) string {
	for {
		i := strings.Index(s, "</")
		if i < 0 {
			return ""
		}
		s = s[i+2:]
		if len(s) >= len(name) && strings.EqualFold(s[:len(name)], name) &&
			(len(s) == len(name) || !isNameByte(s[len(name)])) {
			return after(s[len(name):], ">")
		}
	}
}

// textWriter collects text, squeezing whitespace outside <pre>.
type textWriter struct {
	b    strings.Builder
	last byte // last byte written; 0 before any
}

func (w *textWriter) raw(s string) {
	if s != "" {
		w.b.WriteString(s)
		w.last = s[len(s)-1]
	}
}

func (w *textWriter) text(s string, pre bool) {
	if s == "" {
		return
	}
	s = html.UnescapeString(s)
	if pre {
		w.raw(s)
		return
	}
	// Outside <pre>, any run of whitespace (line breaks included) reads as
	// one space, and none is needed at the start of a line.
	words := strings.Fields(s)
	lead := isSpace(s[0]) && w.last != 0 && w.last != '\n' && w.last != ' '
	trail := isSpace(s[len(s)-1])
	if len(words) == 0 {
		if lead {
			w.raw(" ")
		}
		return
	}
	if lead {
		w.raw(" ")
	}
	w.raw(strings.Join(words, " "))
	if trail {
		w.raw(" ")
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' }

// tidy trims every line and keeps at most one blank line in a row.
func tidy(s string) string {
	var b strings.Builder
	blank := 0
	for _, line := range strings.Split(s, "\n") {
		line = strings.TrimRight(line, " \t\r")
		if strings.TrimSpace(line) == "" {
			blank++
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\n")
			if blank > 1 {
				b.WriteString("\n")
			}
		}
		blank = 0
		b.WriteString(line)
	}
	if b.Len() > 0 {
		b.WriteString("\n")
	}
	return b.String()
}
