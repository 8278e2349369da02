package workspace

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// List caps: DefaultListMax when the caller gives none, MaxListEntries at
// most whatever the caller gives.
const (
	DefaultListMax = 1000
	MaxListEntries = 10000
)

// List lists the tree under dir ("" or "." for the root) recursively, sorted
// by path. It skips .git and refused files, and does not descend into
// symlinked directories. When the tree has more than max entries, the
// listing is breadth-first (all of the top levels before any deeper one), so
// a truncated listing still shows the overall layout.
func (w *FS) List(ctx context.Context, dir string, max int) (Listing, error) {
	l, err := w.list(ctx, dir, max)
	if err != nil {
		return Listing{}, fmt.Errorf("list %q: %w", dir, err)
	}
	return l, nil
}

func (w *FS) list(ctx context.Context, dir string, max int) (Listing, error) {
	if max <= 0 {
		max = DefaultListMax
	}
	max = min(max, MaxListEntries)
	clean, real, fi, err := w.check(dir)
	if err != nil {
		return Listing{}, err
	}
	if !fi.IsDir() {
		return Listing{}, errors.New("it is a file, not a directory; read it instead")
	}
	l := Listing{Dir: clean}
	type pending struct{ shown, real string }
	queue := []pending{{clean, real}}
	for len(queue) > 0 && !l.Truncated {
		if err := ctx.Err(); err != nil {
			return Listing{}, err
		}
		d := queue[0]
		queue = queue[1:]
		ents, err := w.readDir(d.real)
		if err != nil {
			return Listing{}, err
		}
		for _, de := range ents {
			e, descend, ok := w.entry(d.shown, d.real, de)
			if !ok {
				continue
			}
			if len(l.Entries) == max {
				l.Truncated = true
				break
			}
			l.Entries = append(l.Entries, e)
			if descend {
				queue = append(queue, pending{e.Path, path.Join(d.real, de.Name())})
			}
		}
	}
	slices.SortFunc(l.Entries, func(a, b Entry) int { return strings.Compare(a.Path, b.Path) })
	return l, nil
}

// entry describes one directory entry for a listing, or says (ok=false) that
// it is not listed: .git, refused names, broken or escaping symlinks, and
// special files. descend is set for real (not symlinked) directories.
func (w *FS) entry(shownDir, realDir string, de fs.DirEntry) (e Entry, descend, ok bool) {
	name := de.Name()
	if isGitDir(name) {
		return Entry{}, false, false
	}
	shown := path.Join(shownDir, name)
	realPath := path.Join(realDir, name)
	switch t := de.Type(); {
	case t.IsDir():
		return Entry{Path: shown, Dir: true}, true, true
	case t&fs.ModeSymlink != 0:
		target, fi, err := w.resolve(realPath)
		if err != nil {
			return Entry{}, false, false
		}
		if !fi.IsDir() && (refusedFile(name) != "" || refusedFile(path.Base(target)) != "" || !fi.Mode().IsRegular()) {
			return Entry{}, false, false
		}
		e := Entry{Path: shown, Dir: fi.IsDir(), Link: target}
		if !e.Dir {
			e.Size = fi.Size()
		}
		return e, false, true
	case t.IsRegular():
		if refusedFile(name) != "" {
			return Entry{}, false, false
		}
		fi, err := de.Info()
		if err != nil {
			return Entry{}, false, false // removed since the directory was read
		}
		return Entry{Path: shown, Size: fi.Size()}, false, true
	default:
		return Entry{}, false, false
	}
}

// readDir lists the directory real, sorted by name: File.ReadDir returns
// directory order, which differs between file systems and runs.
func (w *FS) readDir(real string) ([]fs.DirEntry, error) {
	f, err := w.root.Open(filepath.FromSlash(real))
	if err != nil {
		return nil, fmt.Errorf("directory %q cannot be opened: %w", real, unwrapPath(err))
	}
	defer f.Close()
	ents, err := f.ReadDir(-1)
	if err != nil {
		return nil, fmt.Errorf("directory %q cannot be read: %w", real, unwrapPath(err))
	}
	slices.SortFunc(ents, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return ents, nil
}
