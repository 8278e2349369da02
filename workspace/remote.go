package workspace

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"
	"sync"
)

// Source is a repository at one commit, reached over an API rather than a
// checkout: the action reads through it when the workspace does not hold the
// pull request's head.
type Source interface {
	// Tree lists every file (not directory) with its size.
	Tree(ctx context.Context) ([]Entry, error)
	// File returns a file's content; an error wrapping fs.ErrNotExist when
	// there is none.
	File(ctx context.Context, path string) ([]byte, error)
}

// MaxRemoteSearchFiles bounds how many files one remote search fetches: each
// is a request, and the API's budget is the run's.
const MaxRemoteSearchFiles = 150

// Remote is a Reader over a Source, with the same refusals as FS.
type Remote struct {
	src     Source
	once    sync.Once
	tree    []Entry
	treeErr error
}

var _ Reader = (*Remote)(nil)

// NewRemote reads through src.
func NewRemote(src Source) *Remote { return &Remote{src: src} }

func (r *Remote) files(ctx context.Context) ([]Entry, error) {
	r.once.Do(func() {
		tree, err := r.src.Tree(ctx)
		for _, e := range tree {
			if remoteRefusal(e.Path) == "" {
				r.tree = append(r.tree, e)
			}
		}
		sort.Slice(r.tree, func(i, j int) bool { return r.tree[i].Path < r.tree[j].Path })
		r.treeErr = err
	})
	return r.tree, r.treeErr
}

// remoteRefusal applies FS's rules to a path from the API: .git anywhere and
// secret-looking files are never served.
func remoteRefusal(p string) string {
	for _, seg := range strings.Split(p, "/") {
		if isGitDir(seg) {
			return ".git is not available"
		}
	}
	return refusedFile(path.Base(p))
}

// List lists the files under dir.
func (r *Remote) List(ctx context.Context, dir string, max int) (Listing, error) {
	clean, err := cleanPath(dir)
	if err != nil {
		return Listing{}, fmt.Errorf("list %q: %w", dir, err)
	}
	tree, err := r.files(ctx)
	if err != nil {
		return Listing{}, fmt.Errorf("list %q: %w", dir, err)
	}
	if max <= 0 {
		max = DefaultListMax
	}
	max = min(max, MaxListEntries)
	l := Listing{Dir: clean}
	for _, e := range tree {
		if clean != "." && !strings.HasPrefix(e.Path, clean+"/") {
			continue
		}
		if len(l.Entries) == max {
			l.Truncated = true
			break
		}
		l.Entries = append(l.Entries, e)
	}
	return l, nil
}

// Read returns lines from..to of a file.
func (r *Remote) Read(ctx context.Context, p string, from, to int) (Text, error) {
	t, err := r.read(ctx, p, from, to)
	if err != nil {
		return Text{}, fmt.Errorf("read %q: %w", p, err)
	}
	return t, nil
}

func (r *Remote) read(ctx context.Context, p string, from, to int) (Text, error) {
	if from < 0 || to < 0 || (to != 0 && to < max(from, 1)) {
		return Text{}, fmt.Errorf("invalid line range %d-%d", from, to)
	}
	from = max(from, 1)
	clean, err := cleanPath(p)
	if err != nil {
		return Text{}, err
	}
	if why := refusedFile(path.Base(clean)); why != "" {
		return Text{}, refused("%s", why)
	}
	data, err := r.src.File(ctx, clean)
	if err != nil {
		return Text{}, err
	}
	if looksBinary(data[:min(len(data), sniffLen)], len(data) < sniffLen) {
		return Text{}, fmt.Errorf("%w (%d bytes): only text files can be read", ErrBinary, len(data))
	}
	t := Text{Path: clean, From: from}
	if err := scanLines(ctx, bufio.NewReader(bytes.NewReader(data)), from, to, &t); err != nil {
		return Text{}, err
	}
	if from > t.TotalLines && !(from == 1 && t.TotalLines == 0) {
		return Text{}, fmt.Errorf("the file has %d lines; line %d is past the end", t.TotalLines, from)
	}
	return t, nil
}

// Search searches the files matching pathGlob, fetching at most
// MaxRemoteSearchFiles of them (a note in the result says when it stopped).
func (r *Remote) Search(ctx context.Context, pattern, pathGlob string, max int) (SearchResult, error) {
	if pattern == "" || len(pattern) > maxPatternLen {
		return SearchResult{}, fmt.Errorf("search %q: the pattern must have 1 to %d bytes", pattern, maxPatternLen)
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return SearchResult{}, fmt.Errorf("search %q: invalid Go regexp: %w", pattern, err)
	}
	g, err := compileGlob(pathGlob)
	if err != nil {
		return SearchResult{}, err
	}
	tree, err := r.files(ctx)
	if err != nil {
		return SearchResult{}, err
	}
	if max <= 0 {
		max = DefaultSearchMax
	}
	max = min(max, MaxSearchResults)
	var res SearchResult
	for _, e := range tree {
		if !g.match(e.Path) {
			continue
		}
		if e.Size > MaxSearchFileSize || res.Searched == MaxRemoteSearchFiles {
			res.Skipped++
			continue
		}
		data, err := r.src.File(ctx, e.Path)
		if err != nil || looksBinary(data[:min(len(data), sniffLen)], len(data) < sniffLen) {
			res.Skipped++
			continue
		}
		res.Searched++
		if err := searchFile(e.Path, data, re, max, &res); errors.Is(err, errStop) {
			break
		}
	}
	return res, nil
}
