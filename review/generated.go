package review

import (
	"path"
	"strings"

	"github.com/review-my-code-bot/rmc/diff"
	"github.com/review-my-code-bot/rmc/glob"
)

// Generated recognises the files nobody writes by hand, from what the PR's
// author cannot choose: the base branch's .gitattributes, a generated-code
// marker the base version of the file already carried, a lock file's
// well-known name, or lines too long for a person to have typed. A
// directory or file name alone (vendor/, *.pb.go) is never enough: the
// author picks those, and a file skipped by its name would leave the gate
// green over code no pass read.
type Generated struct {
	// Attributes is the base branch's .gitattributes: paths marked
	// linguist-generated or linguist-vendored are skipped.
	Attributes string
}

// LockFileReason is why a lock file is left out of the review.
const LockFileReason = "lock file"

// lockFiles are the package managers' lock files, by exact base name.
var lockFiles = map[string]bool{
	"go.sum": true, "package-lock.json": true, "npm-shrinkwrap.json": true, "yarn.lock": true, "pnpm-lock.yaml": true,
	"bun.lockb": true, "Cargo.lock": true, "poetry.lock": true, "Pipfile.lock": true, "uv.lock": true, "Gemfile.lock": true,
	"composer.lock": true, "mix.lock": true, "pubspec.lock": true, "Package.resolved": true, "flake.lock": true,
	"gradle.lockfile": true, "packages.lock.json": true, "Podfile.lock": true,
}

// markers are generated-code markers: Go's "Code generated … DO NOT
// EDIT." line and the @generated tag many generators write.
var markers = []string{"DO NOT EDIT", "@generated"}

// minifiedLine is a line length no person writes: a file whose added lines
// average more, or hold one ten times longer, is minified.
const minifiedLine = 500

// attributes are the paths the base marks as generated or vendored.
func (g Generated) attributes() glob.Set {
	var pats []string
	for _, line := range strings.Split(g.Attributes, "\n") {
		fields := strings.Fields(line)
		if len(fields) < 2 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		for _, a := range fields[1:] {
			if a == "linguist-generated" || a == "linguist-generated=true" || a == "linguist-vendored" || a == "linguist-vendored=true" {
				pats = append(pats, fields[0])
				break
			}
		}
	}
	set, _ := glob.CompileAll(pats) // a pattern git would not read marks nothing
	return set
}

// skipReason says why f is not reviewed, "" when it is.
func skipReason(f diff.File, ex Exclusions) string {
	p := f.Path()
	if why := ex.Why(p); why != "" && !f.Binary && f.Status != diff.Deleted {
		return why
	}
	switch {
	case f.Binary:
		return "binary file"
	case f.Status == diff.Deleted:
		return "deleted"
	case lockFiles[path.Base(p)]:
		return LockFileReason
	case len(f.Hunks) == 0:
		return "no textual changes (rename or mode change)"
	}
	switch GeneratedByContent(f) {
	case GeneratedMarker:
		return "generated (the base version already carries a generated-code marker)"
	case GeneratedMinified:
		return "minified (lines far longer than code a person writes)"
	case NotGenerated, GeneratedLockFile:
	}
	return ""
}

// GeneratedKind is why a file counts as generated.
type GeneratedKind string

// The kinds of generated file.
const (
	NotGenerated      GeneratedKind = ""
	GeneratedLockFile GeneratedKind = "lock file"
	GeneratedMarker   GeneratedKind = "generated"
	GeneratedMinified GeneratedKind = "minified"
)

// GeneratedByContent is the action's rule for a changed text file: a lock
// file by its well-known name, a generated-code marker the base version
// already carried, or minified lines. The local review page folds what it
// finds, so a file is generated there exactly when it is here.
func GeneratedByContent(f diff.File) GeneratedKind {
	switch {
	case f.Binary || f.Status == diff.Deleted:
		return NotGenerated
	case lockFiles[path.Base(f.Path())]:
		return GeneratedLockFile
	case markedOnBase(f):
		return GeneratedMarker
	case minified(f):
		return GeneratedMinified
	}
	return NotGenerated
}

// markedOnBase reports a generated-code marker near the top of the file on
// a line both versions hold (a context line): one the PR adds is the
// author's word, not the base's, and one the PR deletes no longer marks the
// file it leaves.
func markedOnBase(f diff.File) bool {
	if f.Status == diff.Added {
		return false
	}
	for _, h := range f.Hunks {
		for _, l := range h.Lines {
			if l.Kind == diff.Context && l.OldLine > 0 && l.OldLine <= 10 && hasMarker(l.Text) {
				return true
			}
		}
	}
	return false
}

func hasMarker(s string) bool {
	for _, m := range markers {
		if strings.Contains(s, m) {
			return true
		}
	}
	return false
}

// minifiable are the kinds of file a build minifies. A long line in any
// other file (a Go or Python source) is code a person must read, however
// it was written: it is reviewed.
var minifiable = map[string]bool{".js": true, ".mjs": true, ".cjs": true, ".css": true, ".map": true, ".svg": true, ".json": true}

// minified reports a web asset whose added lines average over
// minifiedLine characters, or hold one over ten times that.
func minified(f diff.File) bool {
	if !minifiable[strings.ToLower(path.Ext(f.Path()))] {
		return false
	}
	n, total := 0, 0
	for _, h := range f.Hunks {
		for _, l := range h.Lines {
			if l.Kind != diff.Add {
				continue
			}
			if len(l.Text) > 10*minifiedLine {
				return true
			}
			n, total = n+1, total+len(l.Text)
		}
	}
	return n > 0 && total/n > minifiedLine
}

// Exclusions are the base branch's configured exclusions: ignore_paths,
// and linguist-generated or linguist-vendored in its .gitattributes.
type Exclusions struct{ ignore, attrs glob.Set }

// NewExclusions compiles them once; a pattern that does not compile
// excludes nothing (the configuration reported it).
func NewExclusions(ignorePaths []string, g Generated) Exclusions {
	ignore, _ := glob.CompileAll(ignorePaths)
	return Exclusions{ignore: ignore, attrs: g.attributes()}
}

// Why says why path is left out of every review, "" when it is not. A file
// GitHub sent no diff for is judged by this rule alone, having no content
// to read.
func (e Exclusions) Why(path string) string {
	switch {
	case e.ignore.Match(path):
		return "matches ignore_paths in the base branch's configuration"
	case e.attrs.Match(path):
		return "marked linguist-generated or linguist-vendored in the base branch's .gitattributes"
	}
	return ""
}
