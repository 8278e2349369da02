package workspace

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// maxRefDepth bounds chains of symbolic refs (git itself allows 5).
const maxRefDepth = 5

// maxRefFile caps what is read of HEAD, .git files and loose refs: each is
// one short line.
const maxRefFile = 4 << 10

// Head returns the commit checked out in the root, read from .git directly:
// the action's container has no git binary. .git may be a directory or, in a
// worktree or submodule, a file "gitdir: <path>". HEAD may be detached (a
// commit id) or "ref: refs/...", resolved through loose refs (the worktree's
// own, then the shared ones) and then packed-refs. Both SHA-1 and SHA-256
// object ids are accepted.
func (w *FS) Head() (string, error) {
	gitDir, commonDir, err := gitDirs(w.dir)
	if err != nil {
		return "", fmt.Errorf("workspace: find .git of %q: %w", w.dir, err)
	}
	head, err := readRefFile(filepath.Join(gitDir, "HEAD"))
	if err != nil {
		return "", fmt.Errorf("workspace: read HEAD of %q: %w", w.dir, err)
	}
	sha, err := resolveRef(gitDir, commonDir, head, 0)
	if err != nil {
		return "", fmt.Errorf("workspace: resolve HEAD of %q: %w", w.dir, err)
	}
	return sha, nil
}

// gitDirs finds the git directory of the worktree at dir and the common
// directory that holds the shared refs (the same directory, except in linked
// worktrees).
func gitDirs(dir string) (gitDir, commonDir string, err error) {
	dotGit := filepath.Join(dir, ".git")
	fi, err := os.Stat(dotGit)
	if err != nil {
		return "", "", fmt.Errorf("not a git checkout: %w", err)
	}
	gitDir = dotGit
	if !fi.IsDir() {
		b, err := readRefFile(dotGit)
		if err != nil {
			return "", "", err
		}
		p, ok := strings.CutPrefix(b, "gitdir:")
		if !ok {
			return "", "", fmt.Errorf("%s is a file but does not start with \"gitdir:\"", dotGit)
		}
		gitDir = strings.TrimSpace(p)
		if !filepath.IsAbs(gitDir) {
			gitDir = filepath.Join(dir, gitDir)
		}
	}
	commonDir = gitDir
	switch b, err := readRefFile(filepath.Join(gitDir, "commondir")); {
	case err == nil:
		commonDir = strings.TrimSpace(b)
		if !filepath.IsAbs(commonDir) {
			commonDir = filepath.Join(gitDir, commonDir)
		}
	case !errors.Is(err, fs.ErrNotExist):
		return "", "", err
	}
	return gitDir, commonDir, nil
}

// resolveRef turns the content of HEAD or of a loose ref into a commit id.
func resolveRef(gitDir, commonDir, content string, depth int) (string, error) {
	s := strings.TrimSpace(content)
	name, isRef := strings.CutPrefix(s, "ref:")
	if !isRef {
		if !isObjectID(s) {
			return "", fmt.Errorf("%q is neither a commit id nor a ref", s)
		}
		return s, nil
	}
	name = strings.TrimSpace(name)
	if depth >= maxRefDepth {
		return "", fmt.Errorf("symbolic refs nest deeper than %d at %q", maxRefDepth, name)
	}
	if !validRefName(name) {
		return "", fmt.Errorf("%q is not a valid ref name", name)
	}
	// Per-worktree refs live in the worktree's git directory, shared ones
	// in the common directory; a name is in one or the other.
	dirs := []string{gitDir}
	if commonDir != gitDir {
		dirs = append(dirs, commonDir)
	}
	for _, d := range dirs {
		b, err := readRefFile(filepath.Join(d, filepath.FromSlash(name)))
		if err == nil {
			return resolveRef(gitDir, commonDir, b, depth+1)
		}
		if !errors.Is(err, fs.ErrNotExist) && !isDirErr(err) {
			return "", err
		}
	}
	sha, ok, err := packedRef(commonDir, name)
	if err != nil {
		return "", err
	}
	if ok {
		return sha, nil
	}
	if _, err := os.Stat(filepath.Join(commonDir, "reftable")); err == nil {
		return "", errors.New("the repository stores refs as a reftable, which is not supported")
	}
	return "", fmt.Errorf("HEAD points to %s, which has no commit (unborn branch or missing ref)", name)
}

// packedRef looks name up in packed-refs. Lines are "<id> <name>", after an
// optional "# pack-refs with:" header; "^<id>" lines give the commit a tag
// above points to and are skipped.
func packedRef(commonDir, name string) (sha string, ok bool, err error) {
	p := filepath.Join(commonDir, "packed-refs")
	f, err := os.Open(p)
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("open packed refs: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 4096), 64<<10)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' || line[0] == '^' {
			continue
		}
		id, ref, found := strings.Cut(line, " ")
		if found && ref == name {
			if !isObjectID(id) {
				return "", false, fmt.Errorf("%s: %q has a malformed id %q", p, name, id)
			}
			return id, true, nil
		}
	}
	if err := sc.Err(); err != nil {
		return "", false, fmt.Errorf("read %s: %w", p, err)
	}
	return "", false, nil
}

// readRefFile reads a small git metadata file.
func readRefFile(p string) (string, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxRefFile+1))
	if err != nil {
		return "", fmt.Errorf("read %s: %w", p, err)
	}
	if len(b) > maxRefFile {
		return "", fmt.Errorf("%s is larger than %d bytes; not a git metadata file", p, maxRefFile)
	}
	return string(b), nil
}

// isDirErr reports reading a directory as a file: a loose ref
// "refs/heads/a" is looked up while "refs/heads/a/b" exists.
func isDirErr(err error) bool { return errors.Is(err, syscall.EISDIR) }

// isObjectID accepts lowercase hex SHA-1 (40) and SHA-256 (64) ids, as git
// writes them.
func isObjectID(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for _, c := range []byte(s) {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// validRefName keeps ref lookups inside the git directory: a HEAD naming
// "refs/../../x" must not make Head read other files.
func validRefName(name string) bool {
	return strings.HasPrefix(name, "refs/") && filepath.IsLocal(name) &&
		!strings.Contains(name, "..") && !strings.ContainsAny(name, "\\\x00")
}
