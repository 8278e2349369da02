package workspace

import (
	"context"
	"fmt"
)

// privateWhy is what the model is told about a private file.
const privateWhy = "it matches private_paths in the base branch's configuration: its content never leaves the runner, so do not ask for it again"

// Private is a Reader over r that never serves a file isPrivate matches
// (private_paths): reading one is refused, saying why, whether it is named
// directly or through a symlink; listings and searches leave such files
// out. Like every refusal, a private path is refused whether or not it
// exists.
func Private(r Reader, isPrivate func(path string) bool) Reader {
	return &private{r: r, is: isPrivate}
}

type private struct {
	r  Reader
	is func(path string) bool
}

var _ Reader = (*private)(nil)

// realPather is a Reader that can say where a path leads after symlinks.
type realPather interface {
	realPath(p string) (string, error)
}

func (p *private) refuses(given string) bool {
	clean, err := cleanPath(given)
	if err != nil {
		return false // the reader refuses it with its own reason
	}
	if p.is(clean) {
		return true
	}
	if rp, ok := p.r.(realPather); ok {
		if real, err := rp.realPath(clean); err == nil && p.is(real) {
			return true
		}
	}
	return false
}

func (p *private) Read(ctx context.Context, path string, from, to int) (Text, error) {
	if p.refuses(path) {
		return Text{}, fmt.Errorf("read %q: %w", path, refused("%s", privateWhy))
	}
	return p.r.Read(ctx, path, from, to)
}

func (p *private) List(ctx context.Context, dir string, max int) (Listing, error) {
	l, err := p.r.List(ctx, dir, max)
	if err != nil {
		return l, err
	}
	kept := l.Entries[:0]
	for _, e := range l.Entries {
		if e.Dir || !p.is(e.Path) && (e.Link == "" || !p.is(e.Link)) {
			kept = append(kept, e)
		}
	}
	l.Entries = kept
	return l, nil
}

func (p *private) Search(ctx context.Context, pattern, pathGlob string, max int) (SearchResult, error) {
	res, err := p.r.Search(ctx, pattern, pathGlob, max)
	if err != nil {
		return res, err
	}
	kept := res.Matches[:0]
	for _, m := range res.Matches {
		if !p.is(m.Path) {
			kept = append(kept, m)
		}
	}
	res.Matches = kept
	return res, nil
}

// realPath is where p (a cleanPath result) leads after symlinks.
func (w *FS) realPath(p string) (string, error) {
	_, real, _, err := w.check(p)
	return real, err
}
