package workspace

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// git runs the real git binary in dir with a configuration isolated from
// the machine's, and returns its trimmed output.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir,
		"-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false",
		"-c", "protocol.file.allow=always", "-c", "core.autocrlf=false"}, args...)...)
	cmd.Env = append(os.Environ(),
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull, "HOME="+dir,
		"GIT_AUTHOR_NAME=Test", "GIT_AUTHOR_EMAIL=test@example.com",
		"GIT_COMMITTER_NAME=Test", "GIT_COMMITTER_EMAIL=test@example.com")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// newRepo makes a repository with two commits on main.
func newRepo(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "init", "-q")
	for _, msg := range []string{"one", "two"} {
		writeTree(t, dir, map[string]string{"f.txt": msg})
		git(t, dir, "add", "f.txt")
		git(t, dir, "commit", "-q", "-m", msg)
	}
}

func TestHead(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	tests := map[string]struct {
		// setup builds a checkout under tmp and returns its root.
		setup func(t *testing.T, tmp string) string
	}{
		"branch": {setup: func(t *testing.T, tmp string) string {
			newRepo(t, tmp)
			return tmp
		}},
		"detached": {setup: func(t *testing.T, tmp string) string {
			newRepo(t, tmp)
			git(t, tmp, "checkout", "-q", "--detach", "HEAD~1")
			return tmp
		}},
		"packed refs": {setup: func(t *testing.T, tmp string) string {
			newRepo(t, tmp)
			git(t, tmp, "tag", "-a", "-m", "annotated", "v1", "HEAD~1") // gives packed-refs a ^ line
			git(t, tmp, "pack-refs", "--all")
			if _, err := os.Stat(filepath.Join(tmp, ".git", "refs", "heads", "main")); err == nil {
				t.Fatal("pack-refs left the loose ref behind")
			}
			return tmp
		}},
		"branch with a slash, packed": {setup: func(t *testing.T, tmp string) string {
			newRepo(t, tmp)
			git(t, tmp, "checkout", "-q", "-b", "feature/x")
			git(t, tmp, "pack-refs", "--all")
			return tmp
		}},
		"worktree": {setup: func(t *testing.T, tmp string) string {
			main := filepath.Join(tmp, "main")
			newRepo(t, main)
			wt := filepath.Join(tmp, "wt")
			git(t, main, "worktree", "add", "-q", "-b", "side", wt, "HEAD~1")
			writeTree(t, wt, map[string]string{"g.txt": "side"})
			git(t, wt, "add", "g.txt")
			git(t, wt, "commit", "-q", "-m", "side")
			return wt
		}},
		"worktree with packed refs": {setup: func(t *testing.T, tmp string) string {
			main := filepath.Join(tmp, "main")
			newRepo(t, main)
			wt := filepath.Join(tmp, "wt")
			git(t, main, "worktree", "add", "-q", "-b", "side", wt, "HEAD~1")
			git(t, main, "pack-refs", "--all")
			return wt
		}},
		"detached worktree": {setup: func(t *testing.T, tmp string) string {
			main := filepath.Join(tmp, "main")
			newRepo(t, main)
			wt := filepath.Join(tmp, "wt")
			git(t, main, "worktree", "add", "-q", "--detach", wt, "HEAD~1")
			return wt
		}},
		"submodule": {setup: func(t *testing.T, tmp string) string {
			lib := filepath.Join(tmp, "lib")
			newRepo(t, lib)
			super := filepath.Join(tmp, "super")
			newRepo(t, super)
			git(t, super, "submodule", "add", "-q", lib, "vendor/lib")
			return filepath.Join(super, "vendor", "lib")
		}},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			root := tt.setup(t, t.TempDir())
			want := git(t, root, "rev-parse", "HEAD")
			w, err := Open(root)
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			got, err := w.Head()
			if err != nil || got != want {
				t.Fatalf("Head() = %q, %v; git rev-parse HEAD = %q", got, err, want)
			}
		})
	}
}

func TestHeadHandWritten(t *testing.T) {
	t.Parallel()
	const (
		sha1   = "0123456789abcdef0123456789abcdef01234567"
		sha2   = "89abcdef0123456789abcdef0123456789abcdef"
		sha256 = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	)
	tests := map[string]struct {
		files   map[string]string
		want    string
		wantErr string
	}{
		"loose ref wins over packed": {files: map[string]string{
			".git/HEAD": "ref: refs/heads/main\n", ".git/refs/heads/main": sha1 + "\n",
			".git/packed-refs": "# pack-refs with: peeled fully-peeled sorted\n" + sha2 + " refs/heads/main\n",
		}, want: sha1},
		"packed with peeled lines": {files: map[string]string{
			".git/HEAD":        "ref: refs/heads/main\n",
			".git/packed-refs": sha2 + " refs/tags/v1\n^" + sha1 + "\n" + sha1 + " refs/heads/main\n",
		}, want: sha1},
		"symbolic chain": {files: map[string]string{
			".git/HEAD": "ref: refs/heads/alias\n", ".git/refs/heads/alias": "ref: refs/heads/main\n",
			".git/refs/heads/main": sha1 + "\n",
		}, want: sha1},
		"sha256": {files: map[string]string{".git/HEAD": sha256 + "\n"}, want: sha256},
		"gitdir file, relative": {files: map[string]string{
			".git": "gitdir: ../store\n", "../store/HEAD": sha2 + "\n",
		}, want: sha2},
		"no .git":          {files: map[string]string{"a.txt": "x"}, wantErr: "not a git checkout"},
		"unborn branch":    {files: map[string]string{".git/HEAD": "ref: refs/heads/main\n"}, wantErr: "has no commit"},
		"garbage HEAD":     {files: map[string]string{".git/HEAD": "hello\n"}, wantErr: "neither a commit id nor a ref"},
		"short sha":        {files: map[string]string{".git/HEAD": "0123456\n"}, wantErr: "neither a commit id nor a ref"},
		"ref escaping":     {files: map[string]string{".git/HEAD": "ref: refs/../../../etc/passwd\n"}, wantErr: "not a valid ref name"},
		"ref not in refs/": {files: map[string]string{".git/HEAD": "ref: config\n"}, wantErr: "not a valid ref name"},
		"bad gitdir file":  {files: map[string]string{".git": "hello\n"}, wantErr: "does not start with \"gitdir:\""},
		"gitdir missing":   {files: map[string]string{".git": "gitdir: nowhere\n"}, wantErr: "HEAD"},
		"reftable": {files: map[string]string{
			".git/HEAD": "ref: refs/heads/.invalid\n", ".git/reftable/tables.list": "",
		}, wantErr: "reftable"},
		"ref loop": {files: map[string]string{
			".git/HEAD": "ref: refs/heads/a\n", ".git/refs/heads/a": "ref: refs/heads/a\n",
		}, wantErr: "nest deeper"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			root := filepath.Join(t.TempDir(), "repo")
			if err := os.MkdirAll(root, 0o755); err != nil {
				t.Fatal(err)
			}
			writeTree(t, root, tt.files)
			w, err := Open(root)
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			got, err := w.Head()
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Head() = %q, %v; want an error containing %q", got, err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("Head() = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}
