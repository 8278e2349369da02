package main

import (
	"regexp"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/util"
)

// The HTML GitHub accepts in comments, reduced to what it shows.

func (m md) html(h *ast.HTMLBlock) []byte {
	var b []byte
	for _, l := range m.lines(h) {
		b = append(b, l...)
		b = append(b, '\n')
	}
	if h.HasClosure() {
		b = append(b, h.ClosureLine.Value(m.src)...)
	}
	return b
}

var (
	openDetailsRe  = regexp.MustCompile(`(?i)<details[\s>]`)
	closeDetailsRe = regexp.MustCompile(`(?i)</details\s*>`)
	summaryRe      = regexp.MustCompile(`(?is)<summary[^>]*>(.*?)</summary\s*>`)
	tagRe          = regexp.MustCompile(`(?s)<!--.*?-->|</?[A-Za-z][^>]*>`)
)

// details renders a <details> section from its opening HTML block to the
// block that closes it, and returns the last node it used. GitHub shows its
// summary with the content collapsed under it; the terminal shows both,
// except the bot's state ("rmc state", or nothing but ```rmcoc blocks).
func (m md) details(open *ast.HTMLBlock, w int) ([]string, ast.Node) {
	raw := string(m.html(open))
	summary := ""
	if s := summaryRe.FindStringSubmatch(raw); s != nil {
		summary = strings.TrimSpace(stripTags(s[1]))
	}
	head := func(inner []string) []string {
		if summary == "rmc state" {
			return nil
		}
		if summary == "" {
			return inner
		}
		return append([]string{m.st.bold("▸ " + summary)}, indent(inner, "  ")...)
	}
	if loc := openDetailsRe.FindStringIndex(raw); closeDetailsRe.MatchString(raw[loc[1]:]) {
		// Opened and closed in one block.
		rest := summaryRe.ReplaceAllString(raw, "")
		return head(wrap(stripTags(rest), w-2)), open
	}
	var inner []ast.Node
	depth, last := 1, ast.Node(open)
	for n := open.NextSibling(); n != nil; n = n.NextSibling() {
		last = n
		if h, ok := n.(*ast.HTMLBlock); ok {
			html := m.html(h)
			depth += len(openDetailsRe.FindAll(html, -1)) - len(closeDetailsRe.FindAll(html, -1))
			if depth <= 0 {
				break
			}
		}
		inner = append(inner, n)
	}
	state := true
	for _, n := range inner {
		if f, ok := n.(*ast.FencedCodeBlock); !ok || string(f.Language(m.src)) != "rmcoc" {
			state = false
		}
	}
	if state {
		return nil, last
	}
	var lines []string
	for _, n := range inner {
		if ls := m.block(n, w-2); len(ls) > 0 {
			if len(lines) > 0 {
				lines = append(lines, "")
			}
			lines = append(lines, ls...)
		}
	}
	return head(lines), last
}

// stripTags removes HTML tags and comments, keeping the text between them.
func stripTags(s string) string {
	s = tagRe.ReplaceAllString(s, "")
	return strings.TrimSpace(string(util.ResolveEntityNames(util.ResolveNumericReferences([]byte(s)))))
}
