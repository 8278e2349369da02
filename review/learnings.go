package review

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/review-my-code-bot/rmc/glob"
)

// Learned is a learning a review applies: a finding with its pattern on a
// path its glob matches was judged wrong in this repository before. It
// drops such a finding only once a maintainer confirmed it.
type Learned struct {
	ID          string
	Fingerprint string // PatternFingerprint of what was reported; "" = a rule for the prompt only
	Glob        string
	Title       string
	URL         string // where the learning is kept
	// ConfirmedBy is the maintainer who confirmed the learning; "" while it
	// is a hint for the prompt, which suppresses nothing.
	ConfirmedBy string
}

// Suppressed is a finding a learning kept from being reported.
type Suppressed struct {
	Finding  Finding
	Learning Learned
}

// PatternFingerprint names what a finding reports independently of where:
// its normalized title. A learning made on one file and pull request
// matches the same report on another.
func PatternFingerprint(title string) string {
	sum := sha256.Sum256([]byte(normalize(title)))
	return hex.EncodeToString(sum[:])[:16]
}

type learnedMatcher struct {
	l    Learned
	glob glob.Pattern
}

func compileLearnings(ls []Learned) []learnedMatcher {
	var out []learnedMatcher
	for _, l := range ls {
		if l.Fingerprint == "" || l.ConfirmedBy == "" {
			continue // a hint: the finding is reported
		}
		g, err := glob.Compile(l.Glob)
		if err != nil {
			continue // a bad glob in a learning suppresses nothing
		}
		out = append(out, learnedMatcher{l, g})
	}
	return out
}

// suppressedBy returns the learning that drops f, if any.
func suppressedBy(f Finding, ms []learnedMatcher) (Learned, bool) {
	fp := PatternFingerprint(f.Title)
	for _, m := range ms {
		if m.l.Fingerprint == fp && m.glob.Match(f.Path) {
			return m.l, true
		}
	}
	return Learned{}, false
}
