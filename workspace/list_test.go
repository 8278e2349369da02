package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"testing"
)

func TestList(t *testing.T) {
	t.Parallel()
	w := fixture(t, false)
	tests := map[string]struct {
		dir       string
		max       int
		want      []string // Path, "/" for directories, " -> Link" for links
		truncated bool
	}{
		"subtree": {dir: "src", want: []string{"src/main.go", "src/util/", "src/util/helper.go", "src/util/link-up -> README.md"}},
		"through a dir symlink": {dir: "link-src/util", want: []string{
			"link-src/util/helper.go", "link-src/util/link-up -> README.md"}},
		"capped breadth first":            {dir: "src", max: 2, want: []string{"src/main.go", "src/util/"}, truncated: true},
		"a credentials package is listed": {dir: "pkg", want: []string{"pkg/credentials/", "pkg/credentials/store.go"}},
		"the whole tree": {dir: "", want: []string{
			"README.md", "aws/", "bin.dat", "certs/", "config/", "crlf.txt", "empty.txt", "latin1.txt",
			"link-main -> src/main.go", "link-src/ -> src", "noise.bin",
			"pkg/", "pkg/credentials/", "pkg/credentials/store.go",
			"src/", "src/main.go", "src/util/", "src/util/helper.go", "src/util/link-up -> README.md",
			"vendor/", "vendor/mod/",
		}},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			l, err := w.List(t.Context(), tt.dir, tt.max)
			if err != nil {
				t.Fatalf("List(%q): %v", tt.dir, err)
			}
			var got []string
			for _, e := range l.Entries {
				s := e.Path
				if e.Dir {
					s += "/"
				}
				if e.Link != "" {
					s += " -> " + e.Link
				}
				got = append(got, s)
			}
			if !slices.Equal(got, tt.want) || l.Truncated != tt.truncated {
				t.Errorf("List(%q, %d) = %q truncated=%v\nwant %q truncated=%v", tt.dir, tt.max, got, l.Truncated, tt.want, tt.truncated)
			}
		})
	}
}

func TestListSizes(t *testing.T) {
	t.Parallel()
	w := fixture(t, false)
	l, err := w.List(t.Context(), ".", 0)
	if err != nil {
		t.Fatal(err)
	}
	sizes := map[string]int64{}
	for _, e := range l.Entries {
		sizes[e.Path] = e.Size
	}
	for p, want := range map[string]int64{"README.md": 19, "link-main": 48, "empty.txt": 0, "src": 0} {
		if sizes[p] != want {
			t.Errorf("size of %s = %d, want %d", p, sizes[p], want)
		}
	}
}

func TestListRefusals(t *testing.T) {
	t.Parallel()
	w := fixture(t, false)
	tests := map[string]struct {
		dir  string
		want error
	}{
		"git dir":               {".git", ErrRefused},
		"inside git":            {".git/refs", ErrRefused},
		"symlink to git":        {"link-git", ErrRefused},
		"climbing out":          {"../", ErrRefused},
		"absolute":              {"/etc", ErrRefused},
		"symlink out":           {"link-out", ErrRefused},
		"missing":               {"nope", fs.ErrNotExist},
		"a file":                {"README.md", nil},
		"symlink to a file":     {"link-main", nil},
		"symlink loop as a dir": {"link-loop", ErrRefused},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			_, err := w.List(t.Context(), tt.dir, 0)
			if err == nil || (tt.want != nil && !errors.Is(err, tt.want)) {
				t.Fatalf("List(%q) error = %v, want %v", tt.dir, err, tt.want)
			}
		})
	}
}

func TestListCap(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := map[string]string{}
	for i := range 30 {
		files[fmt.Sprintf("d%02d/f.txt", i)] = "x"
	}
	writeTree(t, dir, files)
	w, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	tests := map[string]struct {
		max       int
		wantLen   int
		truncated bool
		deepest   int // levels below the root in the result
	}{
		"all fits":             {max: 60, wantLen: 60, deepest: 2},
		"top level first":      {max: 30, wantLen: 30, truncated: true, deepest: 1},
		"default when unset":   {max: 0, wantLen: 60, deepest: 2},
		"partial second level": {max: 35, wantLen: 35, truncated: true, deepest: 2},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			l, err := w.List(t.Context(), "", tt.max)
			if err != nil {
				t.Fatal(err)
			}
			deepest := 0
			for _, e := range l.Entries {
				deepest = max(deepest, strings.Count(e.Path, "/")+1)
			}
			if len(l.Entries) != tt.wantLen || l.Truncated != tt.truncated || deepest != tt.deepest {
				t.Errorf("got %d entries truncated=%v deepest=%d, want %d %v %d", len(l.Entries), l.Truncated, deepest, tt.wantLen, tt.truncated, tt.deepest)
			}
		})
	}
}
