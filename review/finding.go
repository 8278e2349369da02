// Package review is the review engine: three passes over a diff through the
// run's model session, findings filtered, fingerprinted and anchored to lines
// a review comment may sit on. It knows diffs, not GitHub: the action posts
// its result, and reviews-for-agent writes it to files.
package review

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"strings"

	"github.com/review-my-code-bot/rmc/diff"
)

// Finding is one problem the model reported.
type Finding struct {
	Path        string    `json:"path"`
	Line        int       `json:"line"`
	StartLine   int       `json:"start_line,omitempty"`
	Side        diff.Side `json:"side"`
	Title       string    `json:"title"`
	Explanation string    `json:"explanation"`
	Score       int       `json:"score"`
	Category    string    `json:"category"`
	Suggestion  string    `json:"suggestion,omitempty"` // replacement code for the anchored lines

	Pass        int    `json:"-"`
	Blocking    bool   `json:"-"`
	Fingerprint string `json:"-"`
	// Inline is false when the finding could not be anchored to a diff line
	// (or overflowed the inline cap) and goes in the review's body.
	Inline bool `json:"-"`
	// Demoted is set on a blocking finding that could not go inline: it is
	// reported, but does not block, since nobody can answer it in a thread.
	Demoted bool `json:"-"`
	// Moved is set when the anchor was moved to the nearest line GitHub
	// accepts; the original line is kept in the text.
	Moved int `json:"-"`
}

var spaces = regexp.MustCompile(`\s+`)

func normalize(s string) string {
	return strings.ToLower(strings.TrimSpace(spaces.ReplaceAllString(s, " ")))
}

// fingerprint identifies a finding across runs, robust to line shifts: the
// file, the normalized title, and the anchored code itself (not its line
// number), so the same problem on moved code is still recognized.
func fingerprint(f Finding, file *diff.File) string {
	h := sha256.New()
	h.Write([]byte(f.Path + "\x00" + normalize(f.Title) + "\x00"))
	if file != nil {
		start := f.StartLine
		if start == 0 {
			start = f.Line
		}
		for _, l := range file.Snippet(f.Side, start, f.Line) {
			h.Write([]byte(normalize(l.Text) + "\n"))
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// thinkingAloud matches findings that are the model reasoning rather than a
// conclusion ("wait, let me check…"): they are never posted.
var thinkingAloud = regexp.MustCompile(`(?i)^\s*(wait|hmm+|actually|let me|let's see|on second thought|i think i|i need to|i'll check|checking|looking at)\b|\b(let me (check|look|verify|re-?read|see)|wait,|on second thought|never mind|nevermind|false alarm|this is (actually )?fine|not actually (a|an) (bug|issue|problem))\b`)

// Thinking reports whether a finding merely thinks aloud.
func (f Finding) Thinking() bool {
	return thinkingAloud.MatchString(f.Title) || thinkingAloud.MatchString(firstSentence(f.Explanation))
}

func firstSentence(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, ".\n"); i > 0 {
		return s[:i]
	}
	return s
}
