package workspace

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"regexp"
	"strings"
	"unicode/utf8"
)

// Search caps.
const (
	DefaultSearchMax  = 100
	MaxSearchResults  = 1000
	MaxSearchFileSize = 1 << 20 // larger files are skipped, not searched
	maxMatchText      = 300     // bytes of a matching line that are kept
	maxPatternLen     = 1000
	maxGlobLen        = 500
	maxGlobStars      = 4
)

// errStop ends a walk early once enough matches are found.
var errStop = errors.New("stop")

// Search finds the lines matching pattern, a Go regexp (RE2 syntax;
// case-sensitive unless it starts with "(?i)"), in the files whose path
// matches pathGlob. Without a "/", pathGlob matches file names at any depth
// ("*.go", "go.mod"); with one, it matches the whole path from the root,
// where "**" stands for any number of directories ("cmd/**/*.go"); a
// trailing "/" means everything below ("internal/"). Files are searched in
// path order, so results, and which ones a cap keeps, are deterministic.
// Binary files, refused files, symlinks and files over MaxSearchFileSize are
// not searched.
func (w *FS) Search(ctx context.Context, pattern, pathGlob string, max int) (SearchResult, error) {
	r, err := w.search(ctx, pattern, pathGlob, max)
	if err != nil {
		return SearchResult{}, fmt.Errorf("search %q in %q: %w", pattern, pathGlob, err)
	}
	return r, nil
}

func (w *FS) search(ctx context.Context, pattern, pathGlob string, max int) (SearchResult, error) {
	if pattern == "" {
		return SearchResult{}, errors.New("the pattern is empty")
	}
	if len(pattern) > maxPatternLen {
		return SearchResult{}, fmt.Errorf("the pattern is longer than %d bytes", maxPatternLen)
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return SearchResult{}, fmt.Errorf("invalid Go regexp: %w", err)
	}
	g, err := compileGlob(pathGlob)
	if err != nil {
		return SearchResult{}, err
	}
	if max <= 0 {
		max = DefaultSearchMax
	}
	max = min(max, MaxSearchResults)
	var res SearchResult
	err = w.walkFiles(ctx, ".", func(p string, size int64) error {
		if !g.match(p) {
			return nil
		}
		if size > MaxSearchFileSize {
			res.Skipped++
			return nil
		}
		data, err := w.readSmall(p)
		if err != nil || looksBinary(data[:min(len(data), sniffLen)], len(data) < sniffLen) {
			res.Skipped++
			return nil
		}
		res.Searched++
		return searchFile(p, data, re, max, &res)
	})
	if err != nil && !errors.Is(err, errStop) {
		return SearchResult{}, err
	}
	return res, nil
}

// searchFile appends data's matching lines to res. Lines are matched one by
// one (without their line ending), so "^" and "$" anchor at line bounds and
// no match spans lines, returning errStop once
// res holds max matches and one more was found.
func searchFile(p string, data []byte, re *regexp.Regexp, max int, res *SearchResult) error {
	for n := 1; len(data) > 0; n++ {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		if !re.Match(line) {
			continue
		}
		if len(res.Matches) == max {
			res.Truncated = true
			return errStop
		}
		res.Matches = append(res.Matches, Match{Path: p, Line: n, Text: shorten(line)})
	}
	return nil
}

// shorten cuts a matching line to maxMatchText bytes on a rune boundary.
func shorten(line []byte) string {
	if len(line) <= maxMatchText {
		return printable(line)
	}
	cut := maxMatchText
	for cut > 0 && !utf8.RuneStart(line[cut]) {
		cut--
	}
	return printable(line[:cut]) + "…"
}

// readSmall reads a file found by walkFiles, which checked its size; the
// limit guards against the file growing since.
func (w *FS) readSmall(real string) ([]byte, error) {
	f, _, err := w.openRegular(real)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, MaxSearchFileSize+1))
}

// walkFiles calls fn for every regular, not refused file under the real
// directory dir, depth first in path order, skipping .git and symlinks (a
// linked file inside the root is found at its real path anyway).
func (w *FS) walkFiles(ctx context.Context, dir string, fn func(p string, size int64) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	ents, err := w.readDir(dir)
	if err != nil {
		return err
	}
	for _, de := range ents {
		name := de.Name()
		if isGitDir(name) {
			continue
		}
		p := path.Join(dir, name)
		switch t := de.Type(); {
		case t.IsDir():
			if err := w.walkFiles(ctx, p, fn); err != nil {
				return err
			}
		case t.IsRegular() && refusedFile(name) == "":
			fi, err := de.Info()
			if err != nil {
				continue // removed since the directory was read
			}
			if err := fn(p, fi.Size()); err != nil {
				return err
			}
		}
	}
	return nil
}

// glob is a compiled path glob; see Search.
type glob struct {
	segs     []string // nil: match everything
	baseOnly bool     // match the file name only
}

func compileGlob(s string) (glob, error) {
	if strings.IndexByte(s, 0) >= 0 {
		return glob{}, errors.New("the path glob contains a NUL byte")
	}
	if len(s) > maxGlobLen || strings.Count(s, "**") > maxGlobStars {
		// Each "**" multiplies the ways a path can match; a few are plenty.
		return glob{}, fmt.Errorf("the path glob is too complex: at most %d bytes and %d \"**\"", maxGlobLen, maxGlobStars)
	}
	s = strings.TrimPrefix(strings.TrimPrefix(s, "./"), "/")
	if s == "" || s == "*" || s == "**" {
		return glob{}, nil
	}
	if strings.HasSuffix(s, "/") {
		s += "**"
	}
	g := glob{baseOnly: !strings.Contains(s, "/")}
	for _, seg := range strings.Split(s, "/") {
		if seg == "**" && len(g.segs) > 0 && g.segs[len(g.segs)-1] == "**" {
			continue // "**/**" is "**"; collapsing keeps matching linear-ish
		}
		if _, err := path.Match(seg, ""); err != nil {
			return glob{}, fmt.Errorf("invalid path glob %q: %w", s, err)
		}
		g.segs = append(g.segs, seg)
	}
	return g, nil
}

func (g glob) match(p string) bool {
	switch {
	case g.segs == nil:
		return true
	case g.baseOnly:
		ok, _ := path.Match(g.segs[0], path.Base(p))
		return ok
	}
	return matchSegs(g.segs, strings.Split(p, "/"))
}

func matchSegs(pat, name []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for i := 0; i <= len(name); i++ {
				if matchSegs(pat[1:], name[i:]) {
					return true
				}
			}
			return false
		}
		if len(name) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], name[0]); !ok {
			return false
		}
		pat, name = pat[1:], name[1:]
	}
	return len(name) == 0
}
