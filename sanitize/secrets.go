package sanitize

import (
	"regexp"
	"sort"
	"strings"
)

// secretRule redacts one kind of credential.
type secretRule struct {
	name string
	// hints are literals one of which every match contains. The regexp only
	// runs on windows around them: the whitespace-delimited word holding a
	// hint plus the following `words` words (for matches with spaces in
	// them, like "Bearer xyz"). A Go regexp that reports submatches steps
	// through every byte it is given, so windows keep a long comment cheap;
	// they start and end at whitespace, so \b still means what it says.
	hints []string
	words int
	// fold matches the (lower-case) hints ignoring ASCII case.
	fold bool
	re   *regexp.Regexp
	// group is the submatch replaced (0: the whole match), so context such
	// as "Bearer " or a URL's user name survives.
	group int
	// valid, when set, must accept the replaced text: prefixes like "sk-"
	// also start ordinary identifiers, so those rules demand a random-looking
	// body.
	valid func(string) bool
}

// rules run in order, after redactPEM: structural forms first, so a JWT in
// an Authorization header is one redaction, not two.
//
// Go's regexp is RE2: matching is linear in the input whatever the pattern.
var rules = []secretRule{
	{
		name:  "jwt",
		hints: []string{"eyJ"},
		re:    regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]*`),
	},
	{
		name:  "url credentials",
		hints: []string{"://"},
		re:    regexp.MustCompile(`\b[A-Za-z][A-Za-z0-9+.-]*://[^\s/:@]+:([^\s/@]+)@`),
		group: 1,
		// Placeholders ("$TOKEN", "${{ secrets.X }}", "<token>") are not secrets.
		valid: func(s string) bool { return !strings.ContainsAny(s[:1], "$<{%[") },
	},
	{
		name:  "authorization header",
		hints: []string{"authorization"},
		fold:  true,
		words: 4, // authorization : basic value
		re:    regexp.MustCompile(ci("authorization") + `["']?[ \t]*[:=][ \t]*["']?(?:` + ci("basic") + `|` + ci("token") + `|` + ci("bearer") + `)[ \t]+([A-Za-z0-9._~+/-]{8,}=*)`),
		group: 1,
	},
	{
		name:  "bearer token",
		hints: []string{"bearer"},
		fold:  true,
		words: 1,
		re:    regexp.MustCompile(`\b` + ci("bearer") + `[ \t]+([A-Za-z0-9._~+/-]{20,}=*)`),
		group: 1,
		valid: hasLetterAndDigit,
	},
	{
		name:  "github token",
		hints: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"},
		re:    regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})`),
	},
	{
		name: "openai-style key",
		// sk-…, sk-proj-…, sk-or-v1-… (OpenRouter), sk-ant-… (Anthropic).
		hints: []string{"sk-"},
		re:    regexp.MustCompile(`\bsk-[A-Za-z0-9_-]{20,}`),
		valid: looksRandom,
	},
	{
		name:  "stripe key",
		hints: []string{"_live_", "_test_"},
		re:    regexp.MustCompile(`\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{20,}`),
	},
	{
		name:  "aws access key id",
		hints: []string{"AKIA", "ASIA"},
		re:    regexp.MustCompile(`\b(?:AKIA|ASIA)[A-Z0-9]{16}\b`),
	},
	{
		name:  "aws secret access key",
		hints: []string{"secret"},
		fold:  true,
		words: 3, // secret_access_key = value
		re:    regexp.MustCompile(ci("secret") + `_?` + ci("access") + `_?` + ci("key") + `["']?[ \t]*[:=][ \t]*["']?([A-Za-z0-9/+]{40})`),
		group: 1,
	},
	{
		name:  "slack token",
		hints: []string{"xox"},
		re:    regexp.MustCompile(`\bxox[abposr]-[A-Za-z0-9-]{10,}`),
	},
	{
		name:  "google api key",
		hints: []string{"AIza"},
		re:    regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{35}`),
	},
	{
		name:  "hugging face token",
		hints: []string{"hf_"},
		re:    regexp.MustCompile(`\bhf_[A-Za-z0-9]{30,}`),
	},
	{
		name:  "npm token",
		hints: []string{"npm_"},
		re:    regexp.MustCompile(`\bnpm_[A-Za-z0-9]{36}`),
	},
	{
		name:  "gitlab token",
		hints: []string{"glpat-"},
		re:    regexp.MustCompile(`\bglpat-[A-Za-z0-9_-]{20,}`),
	},
}

// Private keys: a PEM block from its BEGIN line to the first END line after
// it; without an END line (a truncated paste), the BEGIN line and the whole
// lines of base64 or "Header: value" after it, across at most one blank line
// at a time.
var (
	pemBegin = regexp.MustCompile(`-----BEGIN[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----`)
	pemEnd   = regexp.MustCompile(`-----END[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----`)
	pemBody  = regexp.MustCompile(`(?m)\A(?:\n(?:[ \t]*\n)?[ \t]*(?:[A-Za-z0-9+/]+=*|[A-Za-z][A-Za-z-]*:[^\n]*)[ \t]*$)*`)
)

// redactPEM replaces private key blocks. It is not one regexp because "up to
// the next END line, if any" would rescan the rest of the text for every
// BEGIN line; here a missing END is looked for once.
func redactPEM(s string) string {
	if !strings.Contains(s, "PRIVATE KEY") {
		return s
	}
	var b strings.Builder
	last, noEnd := 0, false
	for {
		loc := pemBegin.FindStringIndex(s[last:])
		if loc == nil {
			break
		}
		start, end := last+loc[0], last+loc[1]
		var e []int
		if !noEnd {
			e = pemEnd.FindStringIndex(s[end:])
		}
		if e != nil {
			end += e[1]
		} else {
			noEnd = true
			end += len(pemBody.FindString(s[end:]))
		}
		b.WriteString(s[last:start])
		b.WriteString(Redacted)
		last = end
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

func (r secretRule) apply(s string) string {
	var b strings.Builder
	last := 0
	for _, w := range r.windows(s) {
		for _, m := range r.re.FindAllStringSubmatchIndex(s[w.start:w.end], -1) {
			start, end := m[2*r.group], m[2*r.group+1]
			if start < 0 || start == end || r.valid != nil && !r.valid(s[w.start+start:w.start+end]) {
				continue
			}
			b.WriteString(s[last : w.start+start])
			b.WriteString(Redacted)
			last = w.start + end
		}
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

type span struct{ start, end int }

// windows returns the sorted, disjoint ranges of s the rule's regexp runs on.
func (r secretRule) windows(s string) []span {
	var ws []span
	for _, h := range r.hints {
		f := newFinder(s, h, r.fold)
		for from := 0; ; {
			i := f.next(from)
			if i < 0 {
				break
			}
			start := i
			for start > 0 && !isSpace(s[start-1]) {
				start--
			}
			word := wordEnd(s, i)
			end := word
			for range r.words {
				next := end
				for next < len(s) && (s[next] == ' ' || s[next] == '\t') {
					next++
				}
				end = wordEnd(s, next)
			}
			ws = append(ws, span{start, end})
			// Later hits in the same word have the same window. Each word
			// is then scanned at most words+1 times: the scan is linear.
			from = word
		}
	}
	sort.Slice(ws, func(i, j int) bool { return ws[i].start < ws[j].start })
	merged := ws[:0]
	for _, w := range ws {
		if n := len(merged); n > 0 && w.start <= merged[n-1].end {
			merged[n-1].end = max(merged[n-1].end, w.end)
			continue
		}
		merged = append(merged, w)
	}
	return merged
}

// finder yields the occurrences of a hint in s in increasing order. With
// fold, ASCII letters match either case (the hint is lower case); it then
// remembers where the next lower- and upper-case first letter are, so a
// frequent letter in one case and a rare one in the other cost one pass each.
type finder struct {
	s, hint string
	fold    bool
	lo, up  int // next offsets of the hint's first letter; -1 none left, -2 unknown
}

func newFinder(s, hint string, fold bool) *finder {
	return &finder{s: s, hint: hint, fold: fold, lo: -2, up: -2}
}

// next returns the first occurrence at or after from, or -1.
func (f *finder) next(from int) int {
	if !f.fold {
		if k := strings.Index(f.s[from:], f.hint); k >= 0 {
			return from + k
		}
		return -1
	}
	for {
		f.lo = seek(f.s, f.hint[0], from, f.lo)
		f.up = seek(f.s, f.hint[0]-'a'+'A', from, f.up)
		i := f.lo
		if i < 0 || f.up >= 0 && f.up < i {
			i = f.up
		}
		if i < 0 || i+len(f.hint) > len(f.s) {
			return -1
		}
		if equalFoldASCII(f.s[i:i+len(f.hint)], f.hint) {
			return i
		}
		from = i + 1
	}
}

// seek returns the next offset of c at or after from, given the cached
// offset at (-1: none left, -2 or before from: look again).
func seek(s string, c byte, from, at int) int {
	if at == -1 || at >= from {
		return at
	}
	if k := strings.IndexByte(s[from:], c); k >= 0 {
		return from + k
	}
	return -1
}

func equalFoldASCII(s, lower string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

// ci spells an ASCII word as a case-insensitive pattern. (?i) would also
// fold in U+017F for s and U+212A for k, which the hint search does not.
func ci(word string) string {
	var b strings.Builder
	for _, c := range []byte(word) {
		if 'a' <= c && c <= 'z' {
			b.WriteString("[" + string(c-'a'+'A') + string(c) + "]")
		} else {
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	return b.String()
}

func wordEnd(s string, i int) int {
	for i < len(s) && !isSpace(s[i]) {
		i++
	}
	return i
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' }

func hasLetterAndDigit(s string) bool {
	letter, digit := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		letter = letter || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		digit = digit || c >= '0' && c <= '9'
	}
	return letter && digit
}

// looksRandom tells a key ("sk-proj-4fQ…") from an identifier that happens
// to start with "sk-" ("sk-circle-2-bounce-animation"): a key mixes letters
// and digits and is rarely broken by separators.
func looksRandom(s string) bool {
	seps := strings.Count(s, "-") + strings.Count(s, "_")
	return hasLetterAndDigit(s) && seps*8 <= len(s)
}
