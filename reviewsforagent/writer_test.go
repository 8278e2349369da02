package reviewsforagent

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestWriteSubmission(t *testing.T) {
	t.Parallel()
	at := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	tests := map[string]struct {
		prepare func(t *testing.T, root string, w writtenFiles)
		wantErr string
		// files expected in rfa/ afterwards, besides what prepare made
		wantNew int
	}{
		"fresh": {prepare: func(*testing.T, string, writtenFiles) {}, wantNew: 2},
		"existing output dir": {prepare: func(t *testing.T, root string, _ writtenFiles) {
			writeFile(t, root, "rfa/comments_older.md", "# earlier round\n")
		}, wantNew: 2},
		// Never overwrite: a name clash means something is off.
		"markdown name taken": {prepare: func(t *testing.T, root string, w writtenFiles) {
			writeFile(t, root, w.MD, "someone else's\n")
		}, wantErr: "already exists", wantNew: 0},
		"output path is a file": {prepare: func(t *testing.T, root string, _ writtenFiles) {
			writeFile(t, root, "rfa", "in the way\n")
		}, wantErr: "create output directory", wantNew: 0},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			root := t.TempDir()
			hash := submissionHash("diff", []byte("{}"), at)
			want := writtenFiles{Hash: hash, JSON: "rfa/comments_" + hash + ".json", MD: "rfa/comments_" + hash + ".md"}
			tc.prepare(t, root, want)
			before := countEntries(t, root)
			w, err := writeSubmission(root, "diff", []byte("{}"), []byte("# md\n"), at)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tc.wantErr)
				}
			} else if err != nil {
				t.Fatalf("writeSubmission: %v", err)
			} else if w != want {
				t.Fatalf("written = %+v, want %+v", w, want)
			}
			if got := countEntries(t, root) - before; got != tc.wantNew {
				t.Errorf("%d new entries in rfa/, want %d (no temporary files either)", got, tc.wantNew)
			}
			if tc.wantErr == "" {
				for rel, content := range map[string]string{w.JSON: "{}", w.MD: "# md\n"} {
					b, err := os.ReadFile(filepath.Join(root, rel))
					if err != nil || string(b) != content {
						t.Errorf("%s = %q, %v; want %q", rel, b, err, content)
					}
					if st, err := os.Stat(filepath.Join(root, rel)); err != nil || st.Mode().Perm() != 0o644 {
						t.Errorf("%s mode = %v, %v; want 0644", rel, st.Mode(), err)
					}
				}
			}
		})
	}
}

func countEntries(t *testing.T, root string) int {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(root, OutputDir))
	if errors.Is(err, fs.ErrNotExist) || (err != nil && strings.Contains(err.Error(), "not a directory")) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	return len(entries)
}

func TestSubmissionHash(t *testing.T) {
	t.Parallel()
	at := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	base := submissionHash("d", []byte("s"), at)
	tests := map[string]string{
		"other diff":       submissionHash("d2", []byte("s"), at),
		"other submission": submissionHash("d", []byte("s2"), at),
		"other time":       submissionHash("d", []byte("s"), at.Add(time.Nanosecond)),
		// The separator keeps "ab"+"c" apart from "a"+"bc".
		"shifted boundary": submissionHash("", []byte("ds"), at),
	}
	if len(base) != 8 {
		t.Fatalf("hash %q is not 8 characters", base)
	}
	for name, h := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if h == base {
				t.Errorf("hash unchanged: %s", h)
			}
		})
	}
}

// rfa/ is kept out of git through the clone's own .git/info/exclude, once,
// and the user's .gitignore is not touched.
func TestExcludeOutput(t *testing.T) {
	t.Parallel()
	dir := newRepo(t, map[string]string{".gitignore": "*.log\n", "a.txt": "a\n"})
	exclude := filepath.Join(dir, ".git", "info", "exclude")
	if err := os.WriteFile(exclude, []byte("# mine\n*.tmp"), 0o644); err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, "rfa/comments_x.md", "x\n")
	if out := runGit(t, dir, "status", "--porcelain"); !strings.Contains(out, "rfa/") {
		t.Fatalf("before: git status = %q, want rfa/ untracked", out)
	}
	for range 2 {
		if err := excludeOutput(context.Background(), dir); err != nil {
			t.Fatal(err)
		}
	}
	if out := runGit(t, dir, "status", "--porcelain"); strings.Contains(out, "rfa/") {
		t.Errorf("after: git status = %q, want rfa/ ignored", out)
	}
	got, _ := os.ReadFile(exclude)
	if want := "# mine\n*.tmp\n# review comments for coding agents (reviews-for-agent)\n/rfa/\n"; string(got) != want {
		t.Errorf("exclude = %q, want %q", got, want)
	}
	if gi, _ := os.ReadFile(filepath.Join(dir, ".gitignore")); string(gi) != "*.log\n" {
		t.Errorf(".gitignore = %q, changed", gi)
	}
}
