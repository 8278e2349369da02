// Package injection flags text that looks like a prompt-injection attempt.
// Flags are reported, never acted on: the text stays fenced as data either
// way, and a second model may confirm or dismiss a flag.
package injection

import (
	"regexp"
	"strings"
)

// patterns are phrasings injection attempts use to address the model.
var patterns = []struct {
	name string
	re   *regexp.Regexp
}{
	{"override", regexp.MustCompile(`(?i)\b(ignore|disregard|forget|override)\b[^.\n]{0,40}\b(previous|prior|above|earlier|all|your|the)\b[^.\n]{0,20}\b(instructions?|rules|prompts?|guidelines|directives)`)},
	{"role", regexp.MustCompile(`(?i)\b(you are now|act as|pretend (to be|you are)|from now on,? you)\b`)},
	{"system", regexp.MustCompile(`(?i)(^|\n)\s*(system|assistant|developer)\s*:|<\|?(im_start|im_end|system)\|?>|\[/?INST\]|</?untrusted`)},
	{"exfiltrate", regexp.MustCompile(`(?i)\b(reveal|print|show|repeat|output|leak)\b[^.\n]{0,40}\b(system prompt|instructions|secrets?|api[ _-]?keys?|tokens?|environment)`)},
	{"verdict", regexp.MustCompile(`(?i)\b(approve (this|the) (pr|pull request)|report no (findings|issues)|mark (it|this|everything) (as )?resolved|say (it|this) is safe)\b`)},
	{"state", regexp.MustCompile("(?i)```\\s*rmcoc")},
}

// Flag returns the names of the patterns text matches, or nil.
func Flag(text string) []string {
	var out []string
	for _, p := range patterns {
		if p.re.MatchString(text) {
			out = append(out, p.name)
		}
	}
	return out
}

// Echoes reports whether text repeats a stretch of at least window
// characters of instructions (whitespace-insensitive): a model that was
// talked into reciting its instructions.
func Echoes(text, instructions string, window int) bool {
	norm := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	t, in := norm(text), norm(instructions)
	if len(in) < window || len(t) < window {
		return false
	}
	for i := 0; i+window <= len(in); i += window / 4 {
		if strings.Contains(t, in[i:i+window]) {
			return true
		}
	}
	return false
}
