package workspace

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	pathglob "github.com/review-my-code-bot/rmc/glob"
)

// privateTree is a checkout with private files, reached directly and
// through symlinks, beside ordinary ones; every private file holds "ROW".
func privateTree(t *testing.T) Reader {
	t.Helper()
	root := filepath.Join(t.TempDir(), "repo")
	writeTree(t, root, map[string]string{
		"src/main.go":               "package main // ROWS are counted elsewhere\n",
		"fixtures/customers/a.csv":  "ROW acme-corp,4111\n",
		"data/eu.pii.csv":           "ROW jane,doe\n",
		"docs/sample.csv":           "->../fixtures/customers/a.csv",
		"docs/all":                  "->../fixtures/customers",
		"fixtures/customers.go":     "package fixtures\n",
		"fixtures/customers/README": "ROW format\n",
	})
	fs, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	set := pathglob.MustCompile("fixtures/customers/**", "*.pii.csv")
	return Private(fs, set.Match)
}

func TestPrivateReads(t *testing.T) {
	t.Parallel()
	r := privateTree(t)
	tests := map[string]struct {
		path    string
		refused bool
	}{
		"by its path":              {path: "fixtures/customers/a.csv", refused: true},
		"by a file-name glob":      {path: "data/eu.pii.csv", refused: true},
		"spelled with ./":          {path: "./fixtures//customers/a.csv", refused: true},
		"through a file symlink":   {path: "docs/sample.csv", refused: true},
		"through a dir symlink":    {path: "docs/all/README", refused: true},
		"a missing private file":   {path: "fixtures/customers/none.csv", refused: true},
		"a file beside the folder": {path: "fixtures/customers.go"},
		"ordinary code":            {path: "src/main.go"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			text, err := r.Read(context.Background(), tc.path, 0, 0)
			if !tc.refused {
				if err != nil {
					t.Fatalf("read %s: %v", tc.path, err)
				}
				return
			}
			if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "private_paths") || !strings.Contains(err.Error(), "never leaves the runner") {
				t.Fatalf("read %s = %v, %v; want a refusal that says why", tc.path, text.Lines, err)
			}
		})
	}
}

// Listings and searches leave private files out, by path and by link.
func TestPrivateListAndSearch(t *testing.T) {
	t.Parallel()
	r := privateTree(t)
	ctx := context.Background()
	l, err := r.List(ctx, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range l.Entries {
		names = append(names, e.Path)
	}
	got := strings.Join(names, ",")
	for _, hidden := range []string{"a.csv", "eu.pii.csv", "docs/sample.csv", "customers/README"} {
		if strings.Contains(got, hidden) {
			t.Errorf("the listing shows %s: %s", hidden, got)
		}
	}
	if !strings.Contains(got, "src/main.go") || !strings.Contains(got, "fixtures/customers.go") {
		t.Errorf("the listing lost an ordinary file: %s", got)
	}
	res, err := r.Search(ctx, "ROW", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Matches) != 1 || res.Matches[0].Path != "src/main.go" {
		t.Errorf("search = %+v, want only src/main.go", res.Matches)
	}
}
