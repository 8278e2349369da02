package workspace

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestSearch(t *testing.T) {
	t.Parallel()
	w := fixture(t, true)
	tests := map[string]struct {
		pattern, glob string
		max           int
		want          []string // "path:line: text"
		truncated     bool
		skipped       int
		wantErr       string
	}{
		"case-sensitive": {skipped: 3, pattern: "Hello", want: []string{
			"src/main.go:4: \tprintln(\"Hello\")", "src/util/helper.go:3: // Hello says hello.", "src/util/helper.go:4: func Hello() string { return \"hello\" }"}},
		"case-insensitive": {skipped: 3, pattern: "(?i)^hello", want: []string{"README.md:2: hello world"}},
		"glob by name":     {pattern: "^package", glob: "*.go", want: []string{"pkg/credentials/store.go:1: package credentials", "src/main.go:1: package main", "src/util/helper.go:1: package util"}},
		"glob by path":     {pattern: "^package", glob: "src/**/*.go", want: []string{"src/main.go:1: package main", "src/util/helper.go:1: package util"}},
		"glob by dir":      {pattern: "^package", glob: "src/util/", want: []string{"src/util/helper.go:1: package util"}},
		"capped":           {skipped: 3, pattern: "Hello", max: 2, truncated: true, want: []string{"src/main.go:4: \tprintln(\"Hello\")", "src/util/helper.go:3: // Hello says hello."}},
		"exactly the cap":  {skipped: 3, pattern: "Hello", max: 3, want: []string{"src/main.go:4: \tprintln(\"Hello\")", "src/util/helper.go:3: // Hello says hello.", "src/util/helper.go:4: func Hello() string { return \"hello\" }"}},
		"secrets, .git and outside files are not searched": {skipped: 3, pattern: "SECRET"},
		"binaries are skipped":                             {pattern: "IHDR", glob: "*.dat", skipped: 1},
		"10 MB file is skipped":                            {pattern: "x", glob: "big.txt", skipped: 1},
		"CRLF is trimmed":                                  {skipped: 3, pattern: "^two$", want: []string{"crlf.txt:2: two"}},
		"invalid regexp":                                   {pattern: "(", wantErr: "invalid Go regexp"},
		"empty pattern":                                    {pattern: "", wantErr: "pattern is empty"},
		"invalid glob":                                     {pattern: "x", glob: "[", wantErr: "invalid path glob"},
		"glob too complex":                                 {pattern: "x", glob: "**/a/**/b/**/c/**/d/**", wantErr: "too complex"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			res, err := w.Search(t.Context(), tt.pattern, tt.glob, tt.max)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Search(%q, %q) error = %v, want %q", tt.pattern, tt.glob, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Search(%q, %q): %v", tt.pattern, tt.glob, err)
			}
			var got []string
			for _, m := range res.Matches {
				got = append(got, fmt.Sprintf("%s:%d: %s", m.Path, m.Line, m.Text))
			}
			if !slices.Equal(got, tt.want) || res.Truncated != tt.truncated || res.Skipped != tt.skipped {
				t.Errorf("Search(%q, %q, %d) = %q truncated=%v skipped=%d\nwant %q truncated=%v skipped=%d",
					tt.pattern, tt.glob, tt.max, got, res.Truncated, res.Skipped, tt.want, tt.truncated, tt.skipped)
			}
		})
	}
}

func TestSearchLongLine(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"min.js": strings.Repeat("é", 1000) + "needle\n"})
	w, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	res, err := w.Search(t.Context(), "needle", "", 0)
	if err != nil || len(res.Matches) != 1 {
		t.Fatalf("Search: %+v, %v", res, err)
	}
	if m := res.Matches[0].Text; len(m) > maxMatchText+len("…") || !strings.HasSuffix(m, "é…") {
		t.Errorf("long line shortened to %d bytes %q, want at most %d ending in a whole rune", len(m), m[len(m)-8:], maxMatchText)
	}
}

func TestSearchCancelled(t *testing.T) {
	t.Parallel()
	w := fixture(t, false)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := w.Search(ctx, "x", "", 0); !errors.Is(err, context.Canceled) {
		t.Fatalf("Search with a cancelled context: %v, want context.Canceled", err)
	}
}

func TestGlob(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		glob, path string
		want       bool
	}{
		"empty matches all":        {"", "a/b/c.go", true},
		"star matches all":         {"*", "a/b/c.go", true},
		"name at any depth":        {"*.go", "a/b/c.go", true},
		"name mismatch":            {"*.go", "a/b/c.md", false},
		"exact name":               {"go.mod", "x/go.mod", true},
		"anchored path":            {"a/*.go", "a/c.go", true},
		"anchored is not deep":     {"a/*.go", "a/b/c.go", false},
		"double star":              {"a/**/*.go", "a/b/c/d.go", true},
		"double star matches none": {"a/**/*.go", "a/d.go", true},
		"leading double star":      {"**/test/*.go", "x/y/test/z.go", true},
		"trailing slash":           {"cmd/", "cmd/rmc/main.go", true},
		"trailing slash elsewhere": {"cmd/", "internal/cmd/x.go", false},
		"leading dot slash":        {"./cmd/*.go", "cmd/x.go", true},
		"leading slash":            {"/cmd/*.go", "cmd/x.go", true},
		"repeated double stars":    {"**/**/**/x", "a/b/x", true},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			g, err := compileGlob(tt.glob)
			if err != nil {
				t.Fatalf("compileGlob(%q): %v", tt.glob, err)
			}
			if got := g.match(tt.path); got != tt.want {
				t.Fatalf("glob %q on %q = %v, want %v", tt.glob, tt.path, got, tt.want)
			}
		})
	}
}
