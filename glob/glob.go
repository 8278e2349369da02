// Package glob matches repository paths against the patterns people write in
// ignore_paths, with the rules they know from .gitignore, on top of
// doublestar's glob syntax (*, ?, [abc], {a,b}, ** across directories):
//
//   - A pattern with no slash except a trailing one matches a name at any
//     depth: "*.snap" matches "c.snap" and "a/b/c.snap"; "docs" matches
//     "docs/x.md" and "pkg/docs/x.md".
//   - A pattern with a slash at the start or in the middle is matched from
//     the repository root: "docs/**" matches "docs/x.md" but not
//     "pkg/docs/x.md"; "/gen.go" matches only the root's gen.go.
//   - A trailing slash matches directories only, that is everything under
//     them: "vendor/" matches "vendor/a.go" and "x/vendor/a.go".
//   - A pattern that matches a directory matches everything under it:
//     "src/*" matches "src/a/b.go".
//
// Negation ("!pattern") is not supported and is rejected, as is any pattern
// doublestar cannot parse.
package glob

import (
	"errors"
	"fmt"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// Pattern is one compiled pattern.
type Pattern struct {
	text    string // as written
	glob    string // the doublestar pattern
	dirOnly bool
	// name is set for a pattern with no slash: it matches a path when it
	// matches one of its names, which is "**/"+name and several times faster.
	name string
}

// Compile checks and translates one pattern.
func Compile(text string) (Pattern, error) {
	p := strings.TrimSpace(text)
	switch {
	case p == "":
		return Pattern{}, errors.New("empty pattern")
	case strings.HasPrefix(p, "!"):
		return Pattern{}, fmt.Errorf("%q: negation (!) is not supported; list only the paths to skip", text)
	}
	dirOnly := strings.HasSuffix(p, "/")
	p = strings.TrimRight(p, "/")
	anchored := strings.HasPrefix(p, "/") || strings.HasPrefix(p, "./")
	p = strings.TrimPrefix(strings.TrimLeft(p, "/"), "./")
	if p == "" || p == "." {
		return Pattern{}, fmt.Errorf("%q matches the whole repository", text)
	}
	var name string
	if !anchored && !strings.Contains(p, "/") {
		name, p = p, "**/"+p
	}
	if !doublestar.ValidatePattern(p) {
		return Pattern{}, fmt.Errorf("%q is not a valid glob (check for an unclosed [ or {, or a trailing \\)", text)
	}
	return Pattern{text: text, glob: p, dirOnly: dirOnly, name: name}, nil
}

// String returns the pattern as written.
func (p Pattern) String() string { return p.text }

// Match reports whether the slash-separated path relative to the repository
// root matches: the path itself (unless the pattern names directories only)
// or any directory it is in.
func (p Pattern) Match(path string) bool {
	path = strings.TrimPrefix(path, "/")
	if p.name != "" {
		for path != "" {
			elem, rest, dir := strings.Cut(path, "/")
			if (dir || !p.dirOnly) && match(p.name, elem) {
				return true
			}
			path = rest
		}
		return false
	}
	if !p.dirOnly && match(p.glob, path) {
		return true
	}
	for i := 0; i < len(path); i++ {
		if path[i] == '/' && match(p.glob, path[:i]) {
			return true
		}
	}
	return false
}

func match(glob, path string) bool {
	ok, err := doublestar.Match(glob, path)
	return ok && err == nil
}

// Set is a list of patterns.
type Set []Pattern

// CompileAll compiles every pattern and reports every bad one at once.
func CompileAll(texts []string) (Set, error) {
	var set Set
	var errs []error
	for _, t := range texts {
		p, err := Compile(t)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		set = append(set, p)
	}
	return set, errors.Join(errs...)
}

// MustCompile compiles patterns known to be valid (a package's own lists).
func MustCompile(texts ...string) Set {
	set, err := CompileAll(texts)
	if err != nil {
		panic(err)
	}
	return set
}

// Match reports whether any pattern matches path.
func (s Set) Match(path string) bool {
	for _, p := range s {
		if p.Match(path) {
			return true
		}
	}
	return false
}
