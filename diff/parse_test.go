package diff

import (
	"fmt"
	"github.com/review-my-code-bot/rmc/internal/golden"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// dump renders files in a compact, reviewable text form for golden files:
// one line per file and hunk, and per line its kind, old and new numbers.
func dump(files []File) string {
	var b strings.Builder
	for _, f := range files {
		fmt.Fprintf(&b, "file %q -> %q %s binary=%v path=%q\n", f.OldPath, f.NewPath, f.Status, f.Binary, f.Path())
		for _, h := range f.Hunks {
			fmt.Fprintf(&b, "  hunk -%d,%d +%d,%d section=%q\n", h.OldStart, h.OldLines, h.NewStart, h.NewLines, h.Section)
			for _, l := range h.Lines {
				eol := ""
				if l.NoNewline {
					eol = " (no newline)"
				}
				fmt.Fprintf(&b, "    %c %4s %4s |%s%s\n", l.Kind.Marker(), num(l.OldLine), num(l.NewLine), l.Text, eol)
			}
		}
	}
	return b.String()
}

func num(n int) string {
	if n == 0 {
		return "-"
	}
	return fmt.Sprint(n)
}

func readTestdata(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatalf("read testdata %s: %v", name, err)
	}
	return string(b)
}

// The inputs are real git output: see testdata/README.md for how they were
// made.
func TestParseGolden(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		input string
	}{
		"mixed":         {input: "mixed.diff"},
		"diff_of_diffs": {input: "diff_of_diffs.diff"},
		"binary_patch":  {input: "binary_patch.diff"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			files, err := Parse(readTestdata(t, tc.input))
			if err != nil {
				t.Fatalf("Parse(%s): %v", tc.input, err)
			}
			golden.Assert(t, name+".golden", dump(files))
		})
	}
}

func TestParsePatchGolden(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		input, path string
		status      Status
	}{
		"handler":    {input: "handler.patch", path: "server/handler.go", status: Modified},
		"added":      {input: "added.patch", path: "util/new.go", status: Added},
		"deleted":    {input: "deleted.patch", path: "obsolete.txt", status: Deleted},
		"no_newline": {input: "no_newline.patch", path: "util/new.go", status: Modified},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f, err := ParsePatch(tc.path, readTestdata(t, tc.input))
			if err != nil {
				t.Fatalf("ParsePatch(%s): %v", tc.input, err)
			}
			if f.Status != tc.status || f.Path() != tc.path {
				t.Errorf("status, path = %s, %q; want %s, %q", f.Status, f.Path(), tc.status, tc.path)
			}
			golden.Assert(t, "patch_"+name+".golden", dump([]File{f}))
		})
	}
}

// A GitHub patch field is the hunks of the same file's git diff: both
// parsers must agree on them.
func TestParsePatchMatchesParse(t *testing.T) {
	t.Parallel()
	files, err := Parse(readTestdata(t, "mixed.diff"))
	if err != nil {
		t.Fatal(err)
	}
	var fromDiff File
	for _, f := range files {
		if f.Path() == "server/handler.go" {
			fromDiff = f
		}
	}
	fromPatch, err := ParsePatch("server/handler.go", readTestdata(t, "handler.patch"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := dump([]File{fromPatch}), dump([]File{fromDiff}); got != want {
		t.Errorf("patch and diff disagree\n--- patch ---\n%s--- diff ---\n%s", got, want)
	}
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		input   string
		wantErr string
	}{
		"hunk without header": {input: "@@ -1 +1 @@\n-a\n+b\n", wantErr: "without file header"},
		"miscounted hunk":     {input: "--- a/x\n+++ b/x\n@@ -1,3 +1,2 @@\n a\n-b\n", wantErr: "miscounts lines"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse(tc.input)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("Parse error = %v, want one containing %q", err, tc.wantErr)
			}
		})
	}
}

func TestParseEmptyAndPreamble(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		input     string
		wantFiles int
	}{
		"empty":            {input: "", wantFiles: 0},
		"only preamble":    {input: "commit abc\nAuthor: x\n\n    message\n", wantFiles: 0},
		"preamble first":   {input: "commit abc\n\n    msg\n\ndiff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n", wantFiles: 1},
		"no final newline": {input: "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b", wantFiles: 1},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			files, err := Parse(tc.input)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if len(files) != tc.wantFiles {
				t.Fatalf("got %d files, want %d", len(files), tc.wantFiles)
			}
			for _, f := range files {
				for _, h := range f.Hunks {
					for _, l := range h.Lines {
						if l.NoNewline {
							t.Errorf("line %q marked as missing its newline; only a '\\' line may say so", l.Text)
						}
					}
				}
			}
		})
	}
}

func TestParsePatchErrors(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		path, patch string
		wantErr     string
	}{
		"full diff":  {path: "x", patch: "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n", wantErr: "does not start with a hunk header"},
		"no path":    {path: "", patch: "@@ -1 +1 @@\n-a\n+b", wantErr: "empty path"},
		"miscounted": {path: "src/x.go", patch: "@@ -1,2 +1,2 @@\n-a\n+b", wantErr: "src/x.go"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			_, err := ParsePatch(tc.path, tc.patch)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("ParsePatch error = %v, want one containing %q", err, tc.wantErr)
			}
		})
	}
}

func TestParsePatchEmpty(t *testing.T) {
	t.Parallel()
	f, err := ParsePatch("img/logo.png", "")
	if err != nil {
		t.Fatal(err)
	}
	if f.Status != Modified || len(f.Hunks) != 0 || f.Path() != "img/logo.png" {
		t.Errorf("got %+v, want a modified file without hunks", f)
	}
}
