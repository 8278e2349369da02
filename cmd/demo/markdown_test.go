package main

import (
	"strings"
	"testing"
)

func TestMarkdown(t *testing.T) {
	t.Parallel()
	state := "<details><summary>rmc state</summary>\n\n```rmcoc\n{\"v\": 1, \"type\": \"review-finding\"}\n```\n\n</details>"
	for name, tc := range map[string]struct {
		md   string
		want string
	}{
		"heading and emphasis":                         {md: "## 🔴 Title\n\nsome **bold** and _it_ text", want: "🔴 Title\n\nsome bold and it text"},
		"code span keeps its backticks without colour": {md: "use `x >= 0`", want: "use `x >= 0`"},
		"the bot's state is hidden":                    {md: "Answer.\n\n" + state, want: "Answer."},
		"several state blocks":                         {md: "A\n\n" + state + "\n\n" + state + "\n\nB", want: "A\n\nB"},
		"state blocks without details are hidden too":  {md: "A\n\n```rmcoc\n{}\n```", want: "A"},
		"other details show their summary and content": {md: "<details><summary>Skipped</summary>\n\n- **a.go**: binary\n\n</details>",
			want: "▸ Skipped\n  • a.go: binary"},
		"details in one block": {md: "<details><summary>Why</summary>Because.</details>", want: "▸ Why\n  Because."},
		"links show their text": {md: "see [acme/gateway#1](http://127.0.0.1:1234/acme/gateway/pull/1) and <https://example.com/x>",
			want: "see acme/gateway#1 and https://example.com/x"},
		"small print":          {md: "Text.\n\n<sub>Answered by the bot.</sub>", want: "Text.\n\nAnswered by the bot."},
		"entities and escapes": {md: `a \| b &lt;tag&gt; &amp; &#x41;`, want: "a | b <tag> & A"},
		"quote":                {md: "> asked this\n\nanswer", want: "│ asked this\n\nanswer"},
		"tight list":           {md: "- one\n- two\n  - nested", want: "• one\n• two\n  • nested"},
		"ordered list":         {md: "3. c\n4. d", want: "3. c\n4. d"},
		"code block":           {md: "```go\nx := 1\n\tif x {\n```", want: "    x := 1\n        if x {"},
		"suggestion":           {md: "```suggestion\nfixed()\n```", want: "Suggested change:\n+ fixed()"},
		"table that fits":      {md: "| Severity | Count |\n|---|---|\n| 🔴 blocking | 1 |\n| 🟡 should fix | 10 |", want: "Severity       Count\n🔴 blocking    1\n🟡 should fix  10"},
		"table too wide is shown by row": {md: "| # | Task | Why |\n|---|---|---|\n| 1 | review | " + strings.Repeat("long ", 12) + "|\n| | run | one session |",
			want: "1. review\n   Why: long long long long long long long long long long\n   long long\n• run\n  Why: one session"},
		"task list":      {md: "- [x] done\n- [ ] not yet", want: "• [x] done\n• [ ] not yet"},
		"html is text":   {md: "<p align=\"center\">Hello <b>you</b></p><!-- hidden -->", want: "Hello you"},
		"hard break":     {md: "one<br>two", want: "one\ntwo"},
		"wrapping":       {md: strings.Repeat("word ", 14), want: "word word word word word word word word word word word word\nword word"},
		"a long word":    {md: strings.Repeat("x", 70), want: strings.Repeat("x", 70)},
		"thematic break": {md: "a\n\n---\n\nb", want: "a\n\n" + strings.Repeat("─", 40) + "\n\nb"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got := strings.Join(md{width: 60}.render(tc.md), "\n")
			if got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

// Text from a person or the model cannot drive the terminal: escape
// sequences (clear the screen, set the title, hyperlinks, the one-byte CSI)
// and bidirectional overrides are removed wherever they hide: in text,
// code, tables, links and HTML.
func TestMarkdownDropsTerminalControls(t *testing.T) {
	t.Parallel()
	attacks := []string{"\x1b[2J\x1b[H", "\x1b]0;pwned\x07", "\x1b]8;;http://evil\x1b\\", "\u009b31m", "\u202e", "\u2066", "\x07", "\r", "\x7f"}
	for _, a := range attacks {
		for _, doc := range []string{
			"text " + a + "here",
			"`code" + a + "`",
			"```\ncode" + a + "\n```",
			"| h |\n|---|\n| c" + a + " |",
			"[link" + a + "](http://x" + a + ")",
			"<b>bold" + a + "</b>",
			"<details><summary>s" + a + "</summary>\n\ninside" + a + "\n\n</details>",
		} {
			for _, colour := range []bool{false, true} {
				got := strings.Join(md{width: 60, st: style{on: colour}}.render(doc), "\n")
				if plain := sgrRe.ReplaceAllString(got, ""); strings.ContainsFunc(plain, unsafeRune) {
					t.Errorf("%q (colour %v) rendered as %q", doc, colour, got)
				}
				if !colour && strings.Contains(got, "\x1b") {
					t.Errorf("%q rendered with an escape without colour: %q", doc, got)
				}
			}
		}
	}
}

func TestClean(t *testing.T) {
	t.Parallel()
	if got := clean("a\tb\x1b[31mc\u202ed\ne"); got != "a    b[31mcd\ne" {
		t.Errorf("clean = %q", got)
	}
}
