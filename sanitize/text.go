// Package sanitize is the one sanitizer every text the action posts to GitHub
// passes through: comment bodies, review bodies, inline comments and
// replies. Text (or Redact, with the action's own secrets) strips characters
// that hide or disguise text and redacts anything that looks like a
// credential; Fit and Split make a body fit GitHub's size limit without
// breaking its Markdown.
//
// Everything here takes untrusted input (model output, quoted comments, diff
// hunks), never panics, and runs in time linear in the input.
package sanitize

import (
	"sort"
	"strings"
	"unicode/utf8"
)

// Redacted replaces every secret.
const Redacted = "[REDACTED]"

// minSecretLen is the shortest known secret Redact replaces: shorter values
// would match ordinary words, and no real API key is that short.
const minSecretLen = 8

// Text makes s safe to post: it is Redact with no known secrets.
func Text(s string) string { return Redact(s) }

// Redact cleans s and replaces secrets with Redacted. In order:
//
//  1. Invalid UTF-8 becomes U+FFFD (one per run of bad bytes).
//  2. CRLF and lone CR become LF.
//  3. Removed: C0 controls except LF and tab, DEL, C1 controls; bidi
//     embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069),
//     marks U+200E, U+200F, U+061C; invisible characters used to spoof or
//     smuggle text (U+200B, U+2060–U+2064, U+206A–U+206F, U+FEFF,
//     U+FFF9–U+FFFB); Unicode tag characters (U+E0000–U+E007F) except in a
//     well-formed flag sequence after U+1F3F4. U+200D (ZWJ) and U+200C stay:
//     emoji and several scripts need them.
//  4. Each of secrets (trimmed; values shorter than 8 bytes are ignored) is
//     replaced wherever it occurs, longest first.
//  5. Text that looks like a credential is replaced; see the rules in
//     secrets.go. Only the secret is replaced, so "Bearer xyz…" becomes
//     "Bearer [REDACTED]".
//
// Cleaning comes first so that a token split by an invisible character is
// still recognized. Redact is idempotent.
func Redact(s string, secrets ...string) string {
	s = clean(s)
	s = redactKnown(s, secrets)
	s = redactPEM(s)
	for _, r := range rules {
		s = r.apply(s)
	}
	return s
}

// clean does steps 1–3 of Redact. Plain ASCII text without controls is
// returned as is, without allocating; elsewhere runs of such text are copied
// in one go.
func clean(s string) string {
	i := plainRun(s, 0)
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	badRun := false
	for i < len(s) {
		if j := plainRun(s, i); j > i {
			b.WriteString(s[i:j])
			i, badRun = j, false
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			if !badRun {
				b.WriteRune(utf8.RuneError)
			}
			badRun = true
			i++
			continue
		}
		badRun = false
		switch {
		case r == '\r':
			b.WriteByte('\n')
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
		case r == 0x1F3F4: // black flag: keep a tag sequence that follows it
			n := flagTags(s[i+size:])
			b.WriteString(s[i : i+size+n])
			i += n
		case removed(r):
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// plainRun returns the end of the run of printable ASCII, LF and tab at i.
func plainRun(s string, i int) int {
	for i < len(s) && (s[i] >= 0x20 && s[i] < 0x7f || s[i] == '\n' || s[i] == '\t') {
		i++
	}
	return i
}

// removed reports the runes clean drops.
func removed(r rune) bool {
	switch {
	case r < 0x20:
		return r != '\n' && r != '\t'
	case r < 0x7f:
		return false
	case r <= 0x9f: // DEL and C1
		return true
	case r == 0x061c, r == 0x200b, r == 0x200e, r == 0x200f, r == 0xfeff:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2060 && r <= 0x2064,
		r >= 0x2066 && r <= 0x206f, r >= 0xfff9 && r <= 0xfffb:
		return true
	case r >= 0xe0000 && r <= 0xe007f: // tags, unless flagTags kept them
		return true
	}
	return false
}

// flagTags returns the byte length of a well-formed emoji tag sequence at
// the start of s (tag letters or digits, then CANCEL TAG), or 0. Subdivision
// flags such as England's are built this way; any other use of tag
// characters is invisible text and is dropped.
func flagTags(s string) int {
	const maxTags = 8
	n := 0
	for k := 0; k <= maxTags; k++ {
		r, size := utf8.DecodeRuneInString(s[n:])
		switch {
		case r == 0xe007f && k > 0:
			return n + size
		case r >= 0xe0030 && r <= 0xe0039, r >= 0xe0061 && r <= 0xe007a:
			n += size
		default:
			return 0
		}
	}
	return 0
}

// redactKnown replaces exact secret values, longest first so that a secret
// containing another is replaced whole.
func redactKnown(s string, secrets []string) string {
	var olds []string
	seen := map[string]bool{}
	for _, v := range secrets {
		v = clean(strings.TrimSpace(v))
		if len(v) < minSecretLen || seen[v] || !strings.Contains(s, v) {
			continue
		}
		seen[v] = true
		olds = append(olds, v)
	}
	if len(olds) == 0 {
		return s
	}
	sort.Slice(olds, func(i, j int) bool { return len(olds[i]) > len(olds[j]) })
	pairs := make([]string, 0, 2*len(olds))
	for _, v := range olds {
		pairs = append(pairs, v, Redacted)
	}
	return strings.NewReplacer(pairs...).Replace(s)
}
