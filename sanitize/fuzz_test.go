package sanitize

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// forbidden reports runes that must never survive Text, written out again
// here rather than calling the package's own predicate.
func forbidden(r rune) bool {
	switch {
	case r == '\n' || r == '\t':
		return false
	case r < 0x20 || r >= 0x7f && r <= 0x9f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069,
		r == 0x200e, r == 0x200f, r == 0x061c,
		r == 0x200b, r == 0x2060, r == 0xfeff:
		return true
	}
	return false
}

func FuzzText(f *testing.F) {
	f.Add("plain text", "")
	f.Add("a\r\nb\u202e\u200bc\xff", "s3cr3t-value")
	f.Fuzz(func(t *testing.T, s, secret string) {
		out := Text(s)
		if !utf8.ValidString(out) {
			t.Fatalf("Text(%q) = %q is not valid UTF-8", s, out)
		}
		for i, r := range out {
			if forbidden(r) {
				t.Fatalf("Text(%q) kept %U at %d: %q", s, r, i, out)
			}
			// Tag characters survive only inside a flag sequence.
			if r >= 0xe0000 && r <= 0xe007f {
				before := strings.TrimRightFunc(out[:i], func(r rune) bool { return r >= 0xe0000 && r < 0xe007f })
				if !strings.HasSuffix(before, "\U0001F3F4") {
					t.Fatalf("Text(%q) kept a stray tag %U at %d", s, r, i)
				}
			}
		}
		// Windowed matching must find exactly what the regexps find on the
		// whole text.
		x := clean(s)
		if got, want := redactPEM(x), pemWhole(x); got != want {
			t.Fatalf("redactPEM on %q:\n got %q\nwant %q", x, got, want)
		}
		x = redactPEM(x)
		for _, r := range rules {
			if got, want := r.apply(x), applyWhole(r, x); got != want {
				t.Fatalf("rule %s on %q:\nwindowed %q\n   whole %q", r.name, x, got, want)
			}
			x = r.apply(x)
		}
		if again := Text(out); again != out {
			t.Fatalf("Text is not idempotent on %q:\n once %q\ntwice %q", s, out, again)
		}
		red := Redact(s, secret)
		if !utf8.ValidString(red) {
			t.Fatalf("Redact(%q, %q) = %q is not valid UTF-8", s, secret, red)
		}
		// A secret without brackets cannot be rebuilt around "[REDACTED]".
		want := clean(strings.TrimSpace(secret))
		if len(want) >= minSecretLen && !strings.ContainsAny(want, "[]") && strings.Contains(red, want) {
			t.Fatalf("Redact(%q, %q) = %q still holds the secret", s, secret, red)
		}
	})
}

// pemWhole is redactPEM as the one regexp it would naturally be, which is
// quadratic when END lines are missing but obviously right.
var pemOracle = regexp.MustCompile(`(?m)-----BEGIN[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]*?-----END[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----|(?:\n(?:[ \t]*\n)?[ \t]*(?:[A-Za-z0-9+/]+=*|[A-Za-z][A-Za-z-]*:[^\n]*)[ \t]*$)*)`)

func pemWhole(s string) string { return pemOracle.ReplaceAllLiteralString(s, Redacted) }

// applyWhole is secretRule.apply without windows.
func applyWhole(r secretRule, s string) string {
	var b strings.Builder
	last := 0
	for _, m := range r.re.FindAllStringSubmatchIndex(s, -1) {
		start, end := m[2*r.group], m[2*r.group+1]
		if start < 0 || start == end || r.valid != nil && !r.valid(s[start:end]) {
			continue
		}
		b.WriteString(s[last:start] + Redacted)
		last = end
	}
	return b.String() + s[last:]
}

// fuzzMax maps a fuzzed int onto sizes that force cuts on fuzz-sized bodies.
func fuzzMax(m int) int {
	if m < 0 {
		m = -(m + 1)
	}
	return m % 2048
}

func FuzzFit(f *testing.F) {
	f.Add("Intro\n\n```go\nx := 1\nx := 2\n```\nend", 30)
	f.Add("<!-- hidden\nabc\nabc\nabc", 12)
	f.Fuzz(func(t *testing.T, body string, m int) {
		max := fuzzMax(m)
		out := Fit(body, max)
		if n := utf8.RuneCountInString(out); n > max {
			t.Fatalf("Fit(%q, %d) has %d characters: %q", body, max, n, out)
		}
		if utf8.ValidString(body) && !utf8.ValidString(out) {
			t.Fatalf("Fit(%q, %d) = %q is not valid UTF-8", body, max, out)
		}
		if max < 1 {
			return
		}
		if utf8.RuneCountInString(body) <= max {
			if out != body {
				t.Fatalf("Fit(%q, %d) changed a body that fits: %q", body, max, out)
			}
			return
		}
		prefix, closing, _ := fit(body, max)
		if !strings.HasPrefix(body, prefix) {
			t.Fatalf("Fit(%q, %d) kept %q, not a prefix of the body", body, max, prefix)
		}
		if (mdState{}).after(prefix + closing).open() {
			t.Fatalf("Fit(%q, %d) = %q leaves a fence or comment open", body, max, out)
		}
	})
}

func FuzzSplit(f *testing.F) {
	f.Add("Intro\n\n```go\nx := 1\nx := 2\n```\nend", 30)
	f.Add("p one\n\np two\n\np three", 9)
	f.Fuzz(func(t *testing.T, body string, m int) {
		max := fuzzMax(m)
		parts := Split(body, max)
		if utf8.RuneCountInString(body) <= max {
			if len(parts) != 1 || parts[0] != body {
				t.Fatalf("Split(%q, %d) = %q, want the body unchanged", body, max, parts)
			}
			return
		}
		if max < 1 {
			if parts != nil {
				t.Fatalf("Split(%q, %d) = %q, want nil", body, max, parts)
			}
			return
		}
		for i, p := range parts {
			if n := utf8.RuneCountInString(p); n > max {
				t.Fatalf("Split(%q, %d): part %d has %d characters: %q", body, max, i+1, n, p)
			}
			if utf8.ValidString(body) && !utf8.ValidString(p) {
				t.Fatalf("Split(%q, %d): part %d is not valid UTF-8: %q", body, max, i+1, p)
			}
		}
		ps, _ := pieces(body, max)
		if len(ps) != len(parts) {
			t.Fatalf("Split gave %d parts, pieces %d", len(parts), len(ps))
		}
		var chunks strings.Builder
		for i, p := range ps {
			chunks.WriteString(p.chunk)
			if !p.plain && (mdState{}).after(p.text()).open() {
				t.Fatalf("Split(%q, %d): part %d leaves a fence or comment open: %q", body, max, i+1, p.text())
			}
		}
		// Nothing is lost or invented: only line breaks at cuts go.
		noBreaks := strings.NewReplacer("\n", "", "\r", "")
		if got, want := noBreaks.Replace(chunks.String()), noBreaks.Replace(body); got != want {
			t.Fatalf("Split(%q, %d) lost content:\n got %q\nwant %q", body, max, got, want)
		}
	})
}
