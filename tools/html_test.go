package tools

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestHTMLToText(t *testing.T) {
	t.Parallel()
	tests := map[string]struct{ in, want string }{
		"plain":                  {"hello", "hello\n"},
		"paragraphs":             {"<p>one</p><p>two</p>", "one\ntwo\n"},
		"inline tags":            {"a <b>bold</b> <i>word</i>.", "a bold word.\n"},
		"no space invented":      {"un<b>broken</b>", "unbroken\n"},
		"entities":               {"&lt;tag&gt; &amp; &quot;q&quot; &#x2713;", "<tag> & \"q\" ✓\n"},
		"script and style":       {"<script>var a = '<p>';</script><STYLE>p{}</STYLE>text", "text\n"},
		"script with attrs":      {`<script type="x">a</script ><p>b`, "b\n"},
		"comment":                {"a<!-- <p>hidden</p> -->b", "ab\n"},
		"doctype":                {"<!DOCTYPE html><html>x</html>", "x\n"},
		"quoted >":               {`<a title="a > b" href='x>y'>link</a>`, "link\n"},
		"whitespace":             {"  a \n\t b  ", "a b\n"},
		"pre keeps layout":       {"<pre>  x\n    y</pre>after", "  x\n    y\nafter\n"},
		"list":                   {"<ul><li>a</li><li>b</li></ul>", "- a\n- b\n"},
		"table":                  {"<table><tr><td>a</td><td>b</td></tr></table>", "a b\n"},
		"br":                     {"a<br>b<br/>c", "a\nb\nc\n"},
		"lone <":                 {"a < b", "a < b\n"},
		"unterminated tag":       {"a <b", "a\n"},
		"unclosed script":        {"a<script>b", "a\n"},
		"one blank line at most": {"<p>a</p>\n\n\n<div></div><div></div><p>b</p>", "a\n\nb\n"},
		"empty":                  {"", ""},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if got := htmlToText(tt.in); got != tt.want {
				t.Fatalf("htmlToText(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// FuzzHTMLToText checks that any page converts without panicking, to valid
// UTF-8 when the page was, and never to longer than the page plus its line
// breaks.
func FuzzHTMLToText(f *testing.F) {
	for _, s := range []string{"<p>a</p>", "<script>x", "<!--", "<a b='>'>", "<pre>\n</pre>", "&amp;<"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := htmlToText(s)
		if utf8.ValidString(s) && !utf8.ValidString(got) {
			t.Fatalf("htmlToText(%q) = %q, invalid UTF-8", s, got)
		}
		if strings.Contains(got, "\n\n\n") {
			t.Fatalf("htmlToText(%q) = %q, more than one blank line in a row", s, got)
		}
	})
}
