package reviewsforagent

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/review-my-code-bot/rmc/diff"
)

// summary lists files as "status path" lines, "(binary)" marked.
func summary(files []diff.File) string {
	var lines []string
	for _, f := range files {
		s := fmt.Sprintf("%s %s", f.Status, f.Path())
		if f.Binary {
			s += " (binary)"
		}
		lines = append(lines, s)
	}
	return strings.Join(lines, "\n")
}

func TestLoadChanges(t *testing.T) {
	t.Parallel()
	base := map[string]string{
		"a.txt":       "one\ntwo\n",
		"gone.txt":    "bye\n",
		"sub/b.txt":   "b\n",
		".gitignore":  "*.log\n",
		"staged.txt":  "s\n",
		"renamed.txt": numbered(20),
	}
	tests := map[string]struct {
		setup    func(t *testing.T, dir string)
		subdir   string
		want     string
		wantBase string
	}{
		"staged, unstaged and untracked": {
			setup: func(t *testing.T, dir string) {
				writeFile(t, dir, "a.txt", "one\n2\n")      // unstaged
				writeFile(t, dir, "staged.txt", "staged\n") // staged, then edited again
				runGit(t, dir, "add", "staged.txt")
				writeFile(t, dir, "staged.txt", "staged twice\n")
				runGit(t, dir, "rm", "-q", "gone.txt")
				runGit(t, dir, "mv", "renamed.txt", "moved.txt")
				writeFile(t, dir, "new/untracked.txt", "fresh\n")
				writeFile(t, dir, "debug.log", "ignored\n")
				writeFile(t, dir, "img.bin", "\x00\x01\x02binary")
				writeFile(t, dir, "empty.txt", "")
			},
			want: "modified a.txt\nadded empty.txt\ndeleted gone.txt\nadded img.bin (binary)\n" +
				"renamed moved.txt\nadded new/untracked.txt\nmodified staged.txt",
			wantBase: "HEAD (",
		},
		"run from a subdirectory": {
			setup:    func(t *testing.T, dir string) { writeFile(t, dir, "a.txt", "changed\n") },
			subdir:   "sub",
			want:     "modified a.txt",
			wantBase: "HEAD (",
		},
		// Earlier rounds' comment files must not turn up as changes; the
		// user's own files in a folder of that name are reviewed.
		"only the tool's files left out": {
			setup: func(t *testing.T, dir string) {
				writeFile(t, dir, "rfa/comments_00000000.md", "# old round\n")
				writeFile(t, dir, "rfa/comments_0a1b2c3d.json", "{}\n")
				writeFile(t, dir, "rfa/.comments-123.tmp", "half\n")
				writeFile(t, dir, "rfa/notes.md", "mine\n")
				writeFile(t, dir, "rfa/comments_draft.md", "mine too\n")
				writeFile(t, dir, "sub/rfa/keep.txt", "mine\n")
			},
			want:     "added rfa/comments_draft.md\nadded rfa/notes.md\nadded sub/rfa/keep.txt",
			wantBase: "HEAD (",
		},
		// Untracked names that are pathspec magic or globs to git are
		// taken literally.
		"odd untracked names": {
			setup: func(t *testing.T, dir string) {
				writeFile(t, dir, ":(exclude)a", "x\n")
				writeFile(t, dir, "star*.txt", "x\n")
				writeFile(t, dir, "with space.txt", "x\n")
				writeFile(t, dir, "ünï.txt", "x\n")
			},
			want:     "added :(exclude)a\nadded star*.txt\nadded with space.txt\nadded ünï.txt",
			wantBase: "HEAD (",
		},
		"no changes": {
			setup:    func(t *testing.T, dir string) {},
			want:     "",
			wantBase: "HEAD (",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := newRepo(t, base)
			tc.setup(t, dir)
			status := runGit(t, dir, "status", "--porcelain", "--untracked-files=all")
			c, err := LoadChanges(context.Background(), filepath.Join(dir, tc.subdir))
			if err != nil {
				t.Fatalf("LoadChanges: %v", err)
			}
			// Reading the changes leaves the repository's index alone.
			if after := runGit(t, dir, "status", "--porcelain", "--untracked-files=all"); after != status {
				t.Errorf("git status changed:\n%s\nwas:\n%s", after, status)
			}
			if got := summary(c.Files); got != tc.want {
				t.Errorf("files:\n%s\nwant:\n%s", got, tc.want)
			}
			if !strings.HasPrefix(c.Base, tc.wantBase) {
				t.Errorf("Base = %q, want prefix %q", c.Base, tc.wantBase)
			}
			wantRoot, _ := filepath.EvalSymlinks(dir)
			if gotRoot, _ := filepath.EvalSymlinks(c.Root); gotRoot != wantRoot {
				t.Errorf("Root = %q, want %q", c.Root, dir)
			}
			// The page pairs sections of the text with Files by position.
			if n := len(diff.SectionTexts(c.Diff)); n != len(c.Files) {
				t.Errorf("diff has %d sections for %d files", n, len(c.Files))
			}
		})
	}
}

func TestLoadChangesWithoutCommits(t *testing.T) {
	t.Parallel()
	dir := newRepo(t, nil)
	writeFile(t, dir, "staged.txt", "s\n")
	runGit(t, dir, "add", "staged.txt")
	writeFile(t, dir, "loose.txt", "l\n")
	c, err := LoadChanges(context.Background(), dir)
	if err != nil {
		t.Fatalf("LoadChanges: %v", err)
	}
	if got, want := summary(c.Files), "added loose.txt\nadded staged.txt"; got != want {
		t.Errorf("files:\n%s\nwant:\n%s", got, want)
	}
	if !strings.Contains(c.Base, "empty tree") {
		t.Errorf("Base = %q, want the empty tree", c.Base)
	}
}

func TestLoadChangesErrors(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "file.txt")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := map[string]struct {
		dir     string
		wantIs  error
		wantMsg string
	}{
		"not a repository": {dir: t.TempDir(), wantIs: ErrNotARepo, wantMsg: "not a git repository: "},
		"missing dir":      {dir: filepath.Join(t.TempDir(), "nope"), wantMsg: "open directory"},
		"a file":           {dir: file, wantMsg: "not a directory"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			_, err := LoadChanges(context.Background(), tc.dir)
			if err == nil || !strings.Contains(err.Error(), tc.wantMsg) {
				t.Fatalf("err = %v, want one containing %q", err, tc.wantMsg)
			}
			if tc.wantIs != nil && !errors.Is(err, tc.wantIs) {
				t.Fatalf("err = %v, want errors.Is %v", err, tc.wantIs)
			}
		})
	}
}

func TestNewChanges(t *testing.T) {
	t.Parallel()
	text, err := os.ReadFile(filepath.Join("testdata", "changes.diff"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewChanges("/repo", "HEAD (abc)", string(text))
	if err != nil {
		t.Fatal(err)
	}
	want := "modified assets/logo.png (binary)\nmodified src/api/handler.ts\ndeleted src/legacy.ts\nmodified src/utils/parse.ts"
	if got := summary(c.Files); got != want {
		t.Errorf("files:\n%s\nwant:\n%s", got, want)
	}
	if _, err := NewChanges("/repo", "", "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,2 +1 @@\n-a\n"); err == nil {
		t.Error("NewChanges accepted a miscounted hunk")
	}
}

// A file changed in the same second as the index was written, to the same
// size, is told apart only by its content ("racy git"): git checks the
// content of entries not older than the index. The temporary index must
// keep the index's time, or such a change looks like none.
func TestLoadChangesRacyIndex(t *testing.T) {
	t.Parallel()
	dir := newRepo(t, map[string]string{"keep.txt": "k\n"})
	// The test cannot set a file's ctime; with ctime not trusted (a
	// setting of git's), the mtime is all the stat data that differs.
	runGit(t, dir, "config", "core.trustctime", "false")
	then := time.Now().Add(-time.Hour).Truncate(time.Second)
	a := filepath.Join(dir, "a.txt")
	writeFile(t, dir, "a.txt", "a\n")
	if err := os.Chtimes(a, then, then); err != nil {
		t.Fatal(err)
	}
	runGit(t, dir, "add", "a.txt")
	runGit(t, dir, "commit", "-q", "-m", "a")
	// Same size, same mtime, and the index as old as the file.
	writeFile(t, dir, "a.txt", "A\n")
	for _, p := range []string{a, filepath.Join(dir, ".git", "index")} {
		if err := os.Chtimes(p, then, then); err != nil {
			t.Fatal(err)
		}
	}
	c, err := LoadChanges(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := summary(c.Files); got != "modified a.txt" {
		t.Errorf("files: %q, want the change to a.txt", got)
	}
}
