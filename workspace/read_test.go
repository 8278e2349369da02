package workspace

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadRefusals(t *testing.T) {
	t.Parallel()
	w := fixture(t, false)
	tests := map[string]struct {
		path string
		want error
	}{
		"absolute":                       {"/etc/passwd", ErrRefused},
		"climbing out":                   {"../../etc/passwd", ErrRefused},
		"git config":                     {".git/config", ErrRefused},
		"git file of a submodule":        {"vendor/mod/.git", ErrRefused},
		"env":                            {".env", ErrRefused},
		"env local":                      {".env.local", ErrRefused},
		"nested env":                     {"config/.env.production", ErrRefused},
		"direnv":                         {".envrc", ErrRefused},
		"named env file":                 {"config/prod.env", ErrRefused},
		"named env file, upper case":     {"config/PROD.ENV", ErrRefused},
		"pem":                            {"certs/server.pem", ErrRefused},
		"key, upper case":                {"deploy.KEY", ErrRefused},
		"ssh key":                        {"id_rsa", ErrRefused},
		"ssh public key":                 {"id_ed25519.pub", ErrRefused},
		"p12":                            {"store.p12", ErrRefused},
		"pfx":                            {"store.pfx", ErrRefused},
		"npmrc":                          {".npmrc", ErrRefused},
		"netrc":                          {".netrc", ErrRefused},
		"pypirc":                         {".pypirc", ErrRefused},
		"aws credentials":                {"aws/credentials", ErrRefused},
		"credentials json":               {"credentials.json", ErrRefused},
		"missing secret is refused too":  {"nope/.env", ErrRefused},
		"symlinked dir out of the root":  {"link-out/secret.txt", ErrRefused},
		"symlink to a file outside":      {"link-out-file", ErrRefused},
		"absolute symlink":               {"link-abs", ErrRefused},
		"symlink to env":                 {"link-env", ErrRefused},
		"through a symlink to .git":      {"link-git/config", ErrRefused},
		"symlink to .git/config":         {"link-git-config", ErrRefused},
		"symlink loop":                   {"link-loop", ErrRefused},
		"nested symlink escaping":        {"src/util/link-escape", ErrRefused},
		"symlink to an escaping symlink": {"src/util/link-parent-chain/secret.txt", ErrRefused},
		"binary with NUL":                {"bin.dat", ErrBinary},
		"binary without NUL":             {"noise.bin", ErrBinary},
		"missing":                        {"nope.go", fs.ErrNotExist},
		"under a file":                   {"README.md/x", fs.ErrNotExist},
		"broken symlink":                 {"link-broken", fs.ErrNotExist},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got, err := w.Read(t.Context(), tt.path, 0, 0)
			if !errors.Is(err, tt.want) {
				t.Fatalf("Read(%q) = %+v, %v; want %v", tt.path, got, err, tt.want)
			}
			if !strings.Contains(err.Error(), tt.path) {
				t.Errorf("error %q does not name the path %q", err, tt.path)
			}
			if strings.Contains(err.Error(), filepath.Dir(w.dir)) {
				t.Errorf("error %q reveals where the root is", err)
			}
		})
	}
}

func TestRead(t *testing.T) {
	t.Parallel()
	w := fixture(t, false)
	tests := map[string]struct {
		path     string
		from, to int
		want     []string
		wantFrom int
		total    int
		wantErr  string
	}{
		"whole file":            {path: "src/main.go", want: []string{"package main", "", "func main() {", "\tprintln(\"Hello\")", "}"}, wantFrom: 1, total: 5},
		"a range":               {path: "src/main.go", from: 3, to: 4, want: []string{"func main() {", "\tprintln(\"Hello\")"}, wantFrom: 3, total: 5},
		"one line":              {path: "src/main.go", from: 5, to: 5, want: []string{"}"}, wantFrom: 5, total: 5},
		"to past the end":       {path: "src/main.go", from: 4, to: 99, want: []string{"\tprintln(\"Hello\")", "}"}, wantFrom: 4, total: 5},
		"from only":             {path: "README.md", from: 2, want: []string{"hello world"}, wantFrom: 2, total: 2},
		"CRLF":                  {path: "crlf.txt", want: []string{"one", "two"}, wantFrom: 1, total: 2},
		"empty file":            {path: "empty.txt", wantFrom: 1, total: 0},
		"latin-1 is readable":   {path: "latin1.txt", want: []string{"caf\uFFFD au lait, cr\uFFFDme br\uFFFDl\uFFFDe and plenty of plain ascii text around it"}, wantFrom: 1, total: 1},
		"symlink inside":        {path: "link-main", from: 1, to: 1, want: []string{"package main"}, wantFrom: 1, total: 5},
		"through a dir symlink": {path: "link-src/util/helper.go", from: 1, to: 1, want: []string{"package util"}, wantFrom: 1, total: 4},
		"symlink climbing back": {path: "src/util/link-up", from: 1, to: 1, want: []string{"# Demo"}, wantFrom: 1, total: 2},
		"dot prefix":            {path: "./README.md", from: 1, to: 1, want: []string{"# Demo"}, wantFrom: 1, total: 2},
		"from past the end":     {path: "README.md", from: 3, wantErr: "the file has 2 lines"},
		"end before start":      {path: "README.md", from: 2, to: 1, wantErr: "end line is before the start"},
		"negative":              {path: "README.md", from: -1, wantErr: "line numbers start at 1"},
		"directory":             {path: "src", wantErr: "is a directory"},
		"root":                  {path: "", wantErr: "is a directory"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got, err := w.Read(t.Context(), tt.path, tt.from, tt.to)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Read(%q, %d, %d) error = %v, want %q", tt.path, tt.from, tt.to, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Read(%q, %d, %d): %v", tt.path, tt.from, tt.to, err)
			}
			if strings.Join(got.Lines, "\n") != strings.Join(tt.want, "\n") || len(got.Lines) != len(tt.want) {
				t.Errorf("Lines = %q, want %q", got.Lines, tt.want)
			}
			if got.From != tt.wantFrom || got.TotalLines != tt.total || got.Truncated {
				t.Errorf("From=%d TotalLines=%d Truncated=%v, want %d %d false", got.From, got.TotalLines, got.Truncated, tt.wantFrom, tt.total)
			}
		})
	}
}

func TestReadCaps(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	longLine := strings.Repeat("y", MaxReadBytes+100) + "\nafter\n"
	exact := strings.Repeat(strings.Repeat("z", 1023)+"\n", MaxReadBytes/1024)
	writeTree(t, dir, map[string]string{
		"big.txt":   strings.Repeat(strings.Repeat("x", 99)+"\n", bigSize/100),
		"long.txt":  longLine,
		"tail.txt":  "before\n" + longLine[:MaxReadBytes+100],
		"exact.txt": exact + "one more\n",
	})
	w, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	tests := map[string]struct {
		path      string
		from, to  int
		wantLines int
		wantFrom  int
		total     int
		truncated bool
		note      string
	}{
		"10 MB file is capped": {path: "big.txt", wantLines: MaxReadBytes / 100, wantFrom: 1, total: bigSize / 100, truncated: true,
			note: "continue from line 2622"},
		"continuing from the note": {path: "big.txt", from: 2622, wantLines: MaxReadBytes / 100, wantFrom: 2622, total: bigSize / 100, truncated: true,
			note: "continue from line 5243"},
		"last lines of a 10 MB file": {path: "big.txt", from: bigSize/100 - 1, wantLines: 2, wantFrom: bigSize/100 - 1, total: bigSize / 100},
		"a line over the cap is cut": {path: "long.txt", wantLines: 1, wantFrom: 1, total: 2, truncated: true, note: "line 1 is longer than 256 KiB and was cut; continue from line 2"},
		"a last line over the cap":   {path: "tail.txt", from: 2, wantLines: 1, wantFrom: 2, total: 2, truncated: true, note: "line 2 is longer than 256 KiB and was cut"},
		"exactly the cap fits":       {path: "exact.txt", to: MaxReadBytes / 1024, wantLines: MaxReadBytes / 1024, wantFrom: 1, total: MaxReadBytes/1024 + 1},
		"one byte over the cap":      {path: "exact.txt", wantLines: MaxReadBytes / 1024, wantFrom: 1, total: MaxReadBytes/1024 + 1, truncated: true, note: "continue from line 257"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got, err := w.Read(t.Context(), tt.path, tt.from, tt.to)
			if err != nil {
				t.Fatalf("Read(%q): %v", tt.path, err)
			}
			size := 0
			for _, l := range got.Lines {
				size += len(l) + 1
			}
			if size > MaxReadBytes+1 {
				t.Errorf("returned %d bytes, over the cap", size)
			}
			if len(got.Lines) != tt.wantLines || got.From != tt.wantFrom || got.TotalLines != tt.total || got.Truncated != tt.truncated {
				t.Errorf("got %d lines from %d of %d, truncated=%v; want %d from %d of %d, truncated=%v",
					len(got.Lines), got.From, got.TotalLines, got.Truncated, tt.wantLines, tt.wantFrom, tt.total, tt.truncated)
			}
			if !strings.Contains(got.Note, tt.note) || (tt.to == 0 && got.To() == got.TotalLines && strings.Contains(got.Note, "continue")) {
				t.Errorf("Note = %q, want it to contain %q", got.Note, tt.note)
			}
		})
	}
}

func TestReadCancelled(t *testing.T) {
	t.Parallel()
	w := fixture(t, false)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := w.Read(ctx, "README.md", 0, 0); !errors.Is(err, context.Canceled) {
		t.Fatalf("Read with a cancelled context: %v, want context.Canceled", err)
	}
}

func TestLooksBinary(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		in       string
		complete bool
		want     bool
	}{
		"ascii":                    {in: "hello\n", complete: true},
		"utf-8":                    {in: "héllo wörld ✓\n", complete: true},
		"NUL":                      {in: "ab\x00cd", complete: true, want: true},
		"mostly invalid":           {in: "\xff\xfe\xfd\xfc", complete: true, want: true},
		"a little latin-1":         {in: "caf\xe9 and a long enough sentence", complete: true},
		"rune cut by the sniff":    {in: strings.Repeat("a", 8) + "\xe2\x9c", complete: false},
		"control characters":       {in: "\x01\x02\x03\x04ab", complete: true, want: true},
		"escape codes are allowed": {in: "\x1b[31mred\x1b[0m\n", complete: true},
		"empty":                    {in: "", complete: true},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if got := looksBinary([]byte(tt.in), tt.complete); got != tt.want {
				t.Fatalf("looksBinary(%q) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}

// FuzzRead checks the sandbox end to end: whatever path a model sends,
// nothing from a refused file or from outside the root comes back.
func FuzzRead(f *testing.F) {
	w := fixture(f, false)
	for _, s := range []string{"README.md", "link-out/secret.txt", "link-src/../.env", "src/util/link-up", ".git/config", "link-git/HEAD"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		if got, err := w.Read(t.Context(), p, 0, 0); err == nil {
			if text := strings.Join(got.Lines, "\n"); strings.Contains(text, "SECRET") {
				t.Fatalf("Read(%q) served a secret: %q", p, text)
			}
		}
		if l, err := w.List(t.Context(), p, 0); err == nil {
			for _, e := range l.Entries {
				if refusedFile(e.Path[strings.LastIndexByte(e.Path, '/')+1:]) != "" && !e.Dir {
					t.Fatalf("List(%q) listed refused %q", p, e.Path)
				}
			}
		}
	})
}
