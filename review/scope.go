package review

import (
	"path"

	"github.com/review-my-code-bot/rmc/diff"
	"github.com/review-my-code-bot/rmc/glob"
)

// Scope is the one rule for what of a pull request the model may be sent.
// Every prompt the action builds from the diff goes through it: the
// review's passes, the walkthrough, the checks, and the get_pr_diff tool.
//
//   - Out of scope (Why): what the review skips. ignore_paths, files the
//     base's .gitattributes marks generated or vendored, lock files,
//     minified assets, binaries, deletions. No automatic task sends their
//     content; a person may still ask about them.
//   - Private (Private): private_paths. Their content is never sent at all:
//     not by any task, not through any tool, not when a person asks.
type Scope struct {
	ex      Exclusions
	private glob.Set
}

// PrivateReason is what the model and people are told about a private
// file: why its content is withheld.
const PrivateReason = "matches private_paths in the base branch's configuration: its content never leaves the runner"

// NewScope compiles the settings' globs once, with the base branch's
// .gitattributes; a pattern that does not compile matches nothing (the
// configuration reported it and stopped the run).
func NewScope(s Settings, g Generated) Scope {
	private, _ := glob.CompileAll(s.PrivatePaths)
	return Scope{ex: NewExclusions(s.IgnorePaths, g), private: private}
}

// Private reports whether path's content must never be sent.
func (s Scope) Private(path string) bool { return s.private.Match(path) }

// Why says why no automatic task sends f's content, "" when it may be
// sent. A renamed file is private when either of its names is.
func (s Scope) Why(f diff.File) string {
	if s.Private(f.NewPath) || s.Private(f.OldPath) {
		return PrivateReason
	}
	return skipReason(f, s.ex)
}

// WhyPath is Why for a file known by its path alone (GitHub sent no diff
// for it), and the rule the merge gate excludes paths by: the configured
// exclusions, private_paths and a lock file's name. What it leaves out is
// left out by its path, never by its content, so its blob covers nothing
// under another path.
func (s Scope) WhyPath(p string) string {
	switch {
	case s.Private(p):
		return PrivateReason
	case s.ex.Why(p) != "":
		return s.ex.Why(p)
	case lockFiles[path.Base(p)]:
		return LockFileReason
	}
	return ""
}

// Split keeps the files the model may be sent, in order, and says why each
// other one is left out.
func (s Scope) Split(files []diff.File) (in []diff.File, out []Skip) {
	for _, f := range files {
		if why := s.Why(f); why != "" {
			out = append(out, Skip{Path: f.Path(), Why: why})
			continue
		}
		in = append(in, f)
	}
	return in, out
}
