package sanitize

import (
	"strings"
	"testing"
)

func TestInlineMarkdown(t *testing.T) {
	t.Parallel()
	tests := map[string]struct{ in, want string }{
		"plain":               {"Unsynchronized map write", "Unsynchronized map write"},
		"link":                {"[click](https://evil.example)", `\[click\](https://evil.example)`},
		"image":               {"![x](https://evil.example/t.png)", `\!\[x\](https://evil.example/t.png)`},
		"html":                {"<img src=x onerror=alert(1)>", `\<img src=x onerror=alert(1)\>`},
		"details breakout":    {"</details><h1>pwned", `\</details\>\<h1\>pwned`},
		"code span":           {"use `rm -rf`", "use \\`rm -rf\\`"},
		"emphasis":            {"*bold* _it_ ~~gone~~", `\*bold\* \_it\_ \~\~gone\~\~`},
		"table cell":          {"a | b", `a \| b`},
		"line breaks":         {"one\n## two\r\nthree", "one ## two three"},
		"heading at start":    {"# title", `\# title`},
		"list at start":       {"- item", `\- item`},
		"ordered list":        {"1. first", `1\. first`},
		"ordered paren":       {"12) x", `12\) x`},
		"number in text":      {"v1. and 2. ok", "v1. and 2. ok"},
		"quote at start":      {"> quoted", `\> quoted`},
		"entity":              {"&lt;script&gt;", `\&lt;script\&gt;`},
		"backslash":           {`a\*b`, `a\\\*b`},
		"path with dots":      {"src/a_b.go:12", `src/a\_b.go:12`},
		"controls and bidi":   {"a\u202eb\x00c", "abc"},
		"leading space block": {"  # x", `  \# x`},
		"mention stays text":  {"@rmc-bot", "@rmc-bot"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if got := InlineMarkdown(tc.in); got != tc.want {
				t.Errorf("InlineMarkdown(%q) = %q, want %q", tc.in, got, tc.want)
			}
			if strings.Contains(InlineMarkdown(tc.in), "\n") {
				t.Error("a line break survived")
			}
		})
	}
}
