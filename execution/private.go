package execution

import (
	"strings"

	"github.com/review-my-code-bot/rmc/review"
	"github.com/review-my-code-bot/rmc/snapshot"
)

// Bounds on the lines PrivateLines keeps. A shorter line ("}", "return
// nil, err") is common to any code and would redact the bot's own words;
// the model never reads a private file, so this is a second line of
// defence, against a reply that quotes what a person pasted.
const (
	minWithheldLine  = 16
	maxWithheldLines = 2000
)

// PrivateLines are the lines of content the pull request's diff shows for
// its private files (private_paths), trimmed, each once: every body the bot
// posts has them redacted.
func PrivateLines(s review.Scope, files []snapshot.ChangedFile) []string {
	var out []string
	seen := map[string]bool{}
	for _, f := range files {
		if !s.Private(f.Path) && (f.PreviousPath == "" || !s.Private(f.PreviousPath)) {
			continue
		}
		for _, l := range strings.Split(f.Patch, "\n") {
			if strings.HasPrefix(l, "@@") || l == "" {
				continue
			}
			t := strings.TrimSpace(l[1:])
			if len(t) < minWithheldLine || seen[t] {
				continue
			}
			if len(out) == maxWithheldLines {
				return out
			}
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}
