package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"
)

var (
	refusedExact = map[string]string{
		".npmrc":           "package registry credential files are not available",
		".pypirc":          "package registry credential files are not available",
		".netrc":           "credential files are not available",
		"_netrc":           "credential files are not available",
		".git-credentials": "credential files are not available",
		".pgpass":          "credential files are not available",
		".htpasswd":        "credential files are not available",
		"credentials":      "credential files are not available",
	}
	refusedSuffixes = []string{".pem", ".key", ".p12", ".pfx", ".jks", ".keystore", ".ppk"}
	refusedPrefixes = []string{"id_rsa", "id_dsa", "id_ecdsa", "id_ed25519"}
)

// refusedFile says why a file named name may not be read, or "" when it may.
// The rules (case-insensitive, on the last path component) are listed in the
// package documentation.
func refusedFile(name string) string {
	n := strings.ToLower(name)
	switch {
	case n == ".git":
		return ".git is not available"
	case strings.HasSuffix(n, ".env") || strings.HasPrefix(n, ".env.") || n == ".envrc" || strings.HasPrefix(n, ".envrc."):
		return "environment files (.env, .env.*, *.env, .envrc) may hold secrets and are not available"
	case strings.HasPrefix(n, "credentials."):
		return "credential files are not available"
	}
	if why, ok := refusedExact[n]; ok {
		return why
	}
	for _, s := range refusedSuffixes {
		if strings.HasSuffix(n, s) {
			return "key and certificate files (" + s + ") are not available"
		}
	}
	for _, p := range refusedPrefixes {
		if strings.HasPrefix(n, p) {
			return "SSH key files (" + p + "*) are not available"
		}
	}
	return ""
}

func isGitDir(name string) bool { return strings.EqualFold(name, ".git") }

// cleanPath turns a caller's path into a clean, slash-separated path relative
// to the root, "." for the root itself ("" means the root too). It refuses
// what can be refused without touching the disk: NUL bytes, backslashes,
// absolute paths, ".." components and .git components. Refusing every ".."
// (not only ones that climb out) keeps symlink semantics simple: "link/.."
// would otherwise mean different things lexically and on disk.
func cleanPath(p string) (string, error) {
	if strings.IndexByte(p, 0) >= 0 {
		return "", refused("the path contains a NUL byte")
	}
	if strings.HasPrefix(p, "/") || filepath.IsAbs(p) || filepath.VolumeName(p) != "" {
		return "", refused("absolute paths are not allowed; give a path relative to the repository root, like \"src/main.go\"")
	}
	// A backslash is a legal file name byte here, but in a model's path it
	// almost always means a Windows separator ("..\\x"); refusing it keeps
	// that from being read as one odd name.
	if strings.Contains(p, `\`) {
		return "", refused("backslashes are not allowed; separate directories with \"/\"")
	}
	parts := strings.Split(p, "/")
	kept := parts[:0]
	for _, c := range parts {
		switch {
		case c == "" || c == ".":
			continue
		case c == "..":
			return "", refused("\"..\" is not allowed; give a path relative to the repository root, like \"src/main.go\"")
		case isGitDir(c):
			return "", refused(".git is not available; the checked-out files are")
		}
		kept = append(kept, c)
	}
	if len(kept) == 0 {
		return ".", nil
	}
	return strings.Join(kept, "/"), nil
}

// notExistError is a missing path, matched by errors.Is(err,
// fs.ErrNotExist), with a message that says so once.
type notExistError struct{ msg string }

func (e *notExistError) Error() string        { return e.msg }
func (e *notExistError) Is(target error) bool { return target == fs.ErrNotExist }

func notExist(format string, args ...any) error {
	return &notExistError{msg: fmt.Sprintf(format, args...)}
}

// maxLinkHops bounds symlink resolution, like the kernel's ELOOP limit.
const maxLinkHops = 40

// resolve follows every symlink in clean (a cleanPath result) inside the root
// and returns the real path, which has no symlink in it, and its Lstat info.
// It refuses links that are absolute, climb out of the root, or pass through
// .git. Opening the real path through os.Root afterwards is then only a
// second line of defence.
func (w *FS) resolve(clean string) (string, fs.FileInfo, error) {
	r := resolver{root: w.root, todo: strings.Split(clean, "/")}
	for len(r.todo) > 0 {
		real, fi, err := r.step()
		if err != nil || fi != nil {
			return real, fi, err
		}
	}
	// The path ended on "." or ".." after a link's expansion ("dir/here"
	// with here -> "."): it names the last real directory reached, or the
	// root when there is none.
	if len(r.done) > 0 {
		dir := path.Join(r.done...)
		fi, err := w.root.Lstat(filepath.FromSlash(dir))
		if err != nil {
			return "", nil, fmt.Errorf("%q is unreadable: %w", dir, unwrapPath(err))
		}
		return dir, fi, nil
	}
	fi, err := w.root.Lstat(".")
	if err != nil {
		return "", nil, fmt.Errorf("the repository root is unreadable: %w", err)
	}
	return ".", fi, nil
}

// resolver walks a path one component at a time: done holds the real
// directories passed so far, todo what is left, with a link's target spliced
// in front of the rest when a link is met.
type resolver struct {
	root *os.Root
	done []string
	todo []string
	hops int
}

// step takes the next component. It returns the real path and its info once
// the last one is reached, an error when the path is refused or missing, and
// neither while there is more to walk.
func (r *resolver) step() (string, fs.FileInfo, error) {
	c := r.todo[0]
	r.todo = r.todo[1:]
	switch {
	case c == "" || c == ".":
		return "", nil, nil
	case c == "..":
		// Only reachable through a link target: done holds real
		// directories, so popping one is what the kernel would do.
		if len(r.done) == 0 {
			return "", nil, refused("a symlink on this path points outside the repository")
		}
		r.done = r.done[:len(r.done)-1]
		return "", nil, nil
	case isGitDir(c):
		return "", nil, refused("a symlink on this path points into .git, which is not available")
	}
	cand := path.Join(append(r.done, c)...)
	fi, err := r.root.Lstat(filepath.FromSlash(cand))
	if err != nil {
		if os.IsNotExist(err) || isNotDir(err) {
			return "", nil, notExist("%q does not exist", cand)
		}
		return "", nil, fmt.Errorf("%q is unreadable: %w", cand, unwrapPath(err))
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return "", nil, r.follow(cand)
	}
	if len(r.todo) > 0 && !fi.IsDir() {
		return "", nil, notExist("%q is a file, not a directory", cand)
	}
	r.done = append(r.done, c)
	if len(r.todo) == 0 {
		return cand, fi, nil
	}
	return "", nil, nil
}

// follow puts the target of the link at cand in front of what is left to
// walk, refusing an absolute target and a loop.
func (r *resolver) follow(cand string) error {
	if r.hops++; r.hops > maxLinkHops {
		return refused("too many levels of symlinks")
	}
	target, err := r.root.Readlink(filepath.FromSlash(cand))
	if err != nil {
		return fmt.Errorf("symlink %q is unreadable: %w", cand, unwrapPath(err))
	}
	target = filepath.ToSlash(target)
	if strings.HasPrefix(target, "/") || filepath.IsAbs(target) || filepath.VolumeName(target) != "" {
		return refused("symlink %q has an absolute target; only links inside the repository are followed", cand)
	}
	r.todo = append(strings.Split(target, "/"), r.todo...)
	return nil
}

// isNotDir reports ENOTDIR, which Lstat returns for "file/child".
func isNotDir(err error) bool {
	var errno syscall.Errno
	return errors.As(err, &errno) && errno == syscall.ENOTDIR
}

// unwrapPath drops an *fs.PathError's operation and path so that messages
// shown to the model carry the path once, in the caller's form.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// check cleans p and resolves it, refusing refused file names both as given
// and after symlinks. Directories are exempt from the name rules (only .git
// is refused as a directory, by cleanPath and resolve). A refused name is
// reported as refused even when it does not exist, so that refusals do not
// tell whether a secret file is there.
func (w *FS) check(p string) (clean, real string, fi fs.FileInfo, err error) {
	clean, err = cleanPath(p)
	if err != nil {
		return "", "", nil, err
	}
	asGiven := ""
	if clean != "." {
		asGiven = refusedFile(path.Base(clean))
	}
	real, fi, err = w.resolve(clean)
	if err != nil {
		if asGiven != "" {
			return "", "", nil, refused("%s", asGiven)
		}
		return "", "", nil, err
	}
	if fi.IsDir() {
		return clean, real, fi, nil
	}
	if asGiven != "" {
		return "", "", nil, refused("%s", asGiven)
	}
	if why := refusedFile(path.Base(real)); why != "" {
		return "", "", nil, refused("it is a symlink to %q: %s", real, why)
	}
	return clean, real, fi, nil
}

// openRegular opens real (a resolve result) for reading, refusing anything
// but a regular file. O_NONBLOCK keeps a FIFO swapped in after the check
// from hanging the open; it has no effect on regular files.
func (w *FS) openRegular(real string) (*os.File, fs.FileInfo, error) {
	f, err := w.root.OpenFile(filepath.FromSlash(real), os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("%q cannot be opened: %w", real, unwrapPath(err))
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("%q cannot be examined: %w", real, unwrapPath(err))
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, fmt.Errorf("%q is not a regular file", real)
	}
	return f, fi, nil
}
