package workspace

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"testing"
)

// memSource is a repository at one commit, in memory.
type memSource struct {
	files map[string]string
	reads int
}

func (m *memSource) Tree(context.Context) ([]Entry, error) {
	var out []Entry
	for p, c := range m.files {
		out = append(out, Entry{Path: p, Size: int64(len(c))})
	}
	return out, nil
}

func (m *memSource) File(_ context.Context, p string) ([]byte, error) {
	m.reads++
	c, ok := m.files[p]
	if !ok {
		return nil, fmt.Errorf("%s: %w", p, fs.ErrNotExist)
	}
	return []byte(c), nil
}

func TestRemote(t *testing.T) {
	t.Parallel()
	src := &memSource{files: map[string]string{
		"main.go": "package main\n\nfunc main() {\n\tprintln(\"hi\")\n}\n", "lib/util.go": "package lib\n// TODO: more\n",
		".env": "TOKEN=x", "certs/server.key": "-----BEGIN", "bin/tool": "\x00\x01\x02", ".git/config": "[core]",
	}}
	r := NewRemote(src)
	ctx := context.Background()

	l, err := r.List(ctx, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range l.Entries {
		names = append(names, e.Path)
	}
	if got := strings.Join(names, ","); got != "bin/tool,lib/util.go,main.go" {
		t.Errorf("listing = %s (refused files must not be listed)", got)
	}
	text, err := r.Read(ctx, "main.go", 3, 4)
	if err != nil || strings.Join(text.Lines, "|") != "func main() {|\tprintln(\"hi\")" || text.TotalLines != 5 {
		t.Errorf("read = %+v, %v", text, err)
	}
	for p, want := range map[string]string{"../../etc/passwd": "not allowed", "/etc/passwd": "absolute", ".env": "refused", ".git/config": ".git",
		"certs/server.key": "refused", "bin/tool": "only text files", "nope.go": "not exist"} {
		if _, err := r.Read(ctx, p, 0, 0); err == nil || !strings.Contains(strings.ToLower(err.Error()), strings.ToLower(want)) {
			if !(want == "not exist" && errors.Is(err, fs.ErrNotExist)) {
				t.Errorf("read %s: err = %v, want %q", p, err, want)
			}
		}
	}
	res, err := r.Search(ctx, "TODO", "**/*.go", 0)
	if err != nil || len(res.Matches) != 1 || res.Matches[0].Path != "lib/util.go" || res.Matches[0].Line != 2 {
		t.Errorf("search = %+v, %v", res, err)
	}
}
