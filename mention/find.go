package mention

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/review-my-code-bot/rmc/sanitize"
)

// Mention is the first prose mention of the bot in a comment.
type Mention struct {
	// Handle is the configured handle that matched, spelled as configured
	// and always with its leading '@' (not as the comment spelled it).
	Handle string
	// Text is the request addressed to the bot; see Find.
	Text string
}

// Find reports the first mention of one of handles in the prose of body.
//
// Handles are matched case-insensitively; a missing leading '@' is added and
// blank handles are ignored. When two handles match at the same place the
// longer wins. A mention counts only in prose — never in code, block
// quotes, HTML or links (see the package documentation) — and only as a
// whole word outside a URL:
//
//   - before it: the start of the body, whitespace, one of ( [ { " ' < > , ; : ! ? |,
//     or non-ASCII punctuation; emphasis markers * _ ~ in between are skipped.
//     So "foo@rmc-bot" (an email), "@@rmc-bot", "/@rmc-bot" and "\@rmc-bot" do
//     not count.
//   - after it: the end, whitespace, one of , : . ! ? ) ] } ; " ' < > |, or
//     non-ASCII punctuation, again skipping emphasis markers; a '.' must not
//     be followed by a letter or digit ("@rmc-bot.io" is a domain). So
//     "@rmc-bot2", "@rmc-bot-x", "@rmc-bot_x" and "@rmc-bot/team" do not count.
//   - its whitespace-delimited word must not contain "://" before it.
//
// Text is derived from body with CRLF and CR turned into LF and HTML comments
// cut out: they are invisible on GitHub, so they are not part of what the
// developer asked (and a classic hiding place for prompt injection). It is
// the text after the mention — with the handle, emphasis around it, further
// handles and leading separators (spaces and , : ; . ! ? ) ] } - – —)
// removed — trimmed. If nothing is left, Text is the text before the
// mention, trimmed of trailing separators (spaces and , ; : ( [ { - – —),
// with a '?' that followed the handle carried over: "why is this slow,
// @rmc-bot?" gives "why is this slow?". If that is empty too, Text is "".
// Code blocks, code spans and quotes stay in Text: a developer may ask
// about a snippet; only detection ignores them.
func Find(body string, handles []string) (m Mention, ok bool) {
	hs := normalizeHandles(handles)
	if len(hs) == 0 {
		return Mention{}, false
	}
	s := normalize(body)
	if !mayMention(s, hs) || sanitize.TooComplex(s) {
		return Mention{}, false // most comments: no parse needed
	}
	lay := scan(s)
	start, end, h, ok := locate(s, lay.prose, hs)
	if !ok {
		return Mention{}, false
	}
	return Mention{Handle: h, Text: requestText(s, lay.comments, start, end, hs)}, true
}

// normalizeHandles returns usable handles, longest first, each with '@'.
func normalizeHandles(handles []string) []string {
	var hs []string
	for _, h := range handles {
		h = strings.TrimSpace(h)
		if !strings.HasPrefix(h, "@") {
			h = "@" + h
		}
		if len(h) > 1 {
			hs = append(hs, h)
		}
	}
	sort.SliceStable(hs, func(i, j int) bool { return len(hs[i]) > len(hs[j]) })
	return hs
}

// mayMention reports whether a handle occurs anywhere in s.
func mayMention(s string, hs []string) bool {
	for p := 0; p < len(s); p++ {
		k := strings.IndexByte(s[p:], '@')
		if k < 0 {
			return false
		}
		p += k
		for _, h := range hs {
			if p+len(h) <= len(s) && strings.EqualFold(s[p:p+len(h)], h) {
				return true
			}
		}
	}
	return false
}

// locate finds the first mention in the prose spans of s. It returns the
// byte range the mention occupies, emphasis markers around the handle
// included, and the handle that matched.
func locate(s string, prose []span, hs []string) (start, end int, handle string, ok bool) {
	urlUntil := -1 // offsets below this are inside a word known to hold a URL
	for _, sp := range prose {
		for p := sp.start; p < sp.end; p++ {
			k := strings.IndexByte(s[p:sp.end], '@')
			if k < 0 {
				break
			}
			p += k
			if p < urlUntil {
				continue
			}
			for _, h := range hs {
				if p+len(h) > sp.end || !strings.EqualFold(s[p:p+len(h)], h) {
					continue
				}
				b, okBefore := boundaryBefore(s, p)
				e, okAfter := boundaryAfter(s, p+len(h))
				if !okBefore || !okAfter {
					continue
				}
				ws, we := word(s, p)
				if strings.Contains(s[ws:p], "://") {
					urlUntil = we
					break
				}
				return b, e, h, true
			}
		}
	}
	return 0, 0, "", false
}

// boundaryBefore checks what precedes a handle at p and returns where the
// mention starts (before any emphasis markers).
func boundaryBefore(s string, p int) (int, bool) {
	b := p
	for b > 0 && isEmphasis(s[b-1]) {
		b--
	}
	if b == 0 {
		return b, true
	}
	r, _ := utf8.DecodeLastRuneInString(s[:b])
	if r < utf8.RuneSelf {
		return b, isSpace(byte(r)) || strings.ContainsRune(`([{"'<>,;:!?|`, r)
	}
	return b, !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsMark(r) && r != utf8.RuneError
}

// boundaryAfter checks what follows a handle ending at e and returns where
// the mention ends (after any emphasis markers).
func boundaryAfter(s string, e int) (int, bool) {
	for e < len(s) && isEmphasis(s[e]) {
		e++
	}
	if e == len(s) {
		return e, true
	}
	r, _ := utf8.DecodeRuneInString(s[e:])
	if r < utf8.RuneSelf {
		c := byte(r)
		if c == '.' && e+1 < len(s) && isAlnum(s[e+1]) {
			return e, false
		}
		return e, isSpace(c) || strings.IndexByte(`,:.!?)]};"'<>|`, c) >= 0
	}
	return e, !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsMark(r) && r != utf8.RuneError
}

// word returns the bounds of the whitespace-delimited word around p.
func word(s string, p int) (int, int) {
	ws := p
	for ws > 0 && !isSpace(s[ws-1]) {
		ws--
	}
	we := p
	for we < len(s) && !isSpace(s[we]) {
		we++
	}
	return ws, we
}

// Separators cut between the handle and the request: "@rmc-bot: why?",
// "(@rmc-bot) why?", "why, @rmc-bot?".
const (
	afterCut  = ",:;.!)]}-–— \t"
	beforeCut = ",;:([{-–— \t"
)

// requestText builds Mention.Text; see Find.
func requestText(s string, comments []span, start, end int, hs []string) string {
	after := strings.TrimLeft(without(s, comments, end, len(s)), " \t")
	carryQuestion := strings.HasPrefix(strings.TrimLeft(after, afterCut), "?")
	for {
		after = strings.TrimLeft(after, afterCut+"?")
		h, ok := leadingHandle(after, hs)
		if !ok {
			break
		}
		after = after[len(h):]
	}
	if t := strings.TrimSpace(after); t != "" {
		return t
	}
	before := strings.TrimSpace(without(s, comments, 0, start))
	before = strings.TrimRight(before, beforeCut)
	if carryQuestion && before != "" && !strings.HasSuffix(before, "?") {
		before += "?"
	}
	return strings.TrimSpace(before)
}

// leadingHandle reports a handle (with its emphasis) at the start of s.
func leadingHandle(s string, hs []string) (string, bool) {
	b := 0
	for b < len(s) && isEmphasis(s[b]) {
		b++
	}
	for _, h := range hs {
		if b+len(h) <= len(s) && strings.EqualFold(s[b:b+len(h)], h) {
			if e, ok := boundaryAfter(s, b+len(h)); ok {
				return s[:e], true
			}
		}
	}
	return "", false
}

// without returns s[from:to] with the comment spans cut out.
func without(s string, comments []span, from, to int) string {
	var b strings.Builder
	for _, c := range comments {
		if c.end <= from || c.start >= to {
			continue
		}
		if c.start > from {
			b.WriteString(s[from:c.start])
		}
		from = max(from, c.end)
	}
	if from < to {
		b.WriteString(s[from:to])
	}
	return b.String()
}

func isEmphasis(c byte) bool { return c == '*' || c == '_' || c == '~' }

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
