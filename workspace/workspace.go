// Package workspace is a read-only sandbox over the checked-out repository
// (GITHUB_WORKSPACE). The reviewing model reads code through it; nothing is
// ever executed or written.
//
// Every path is relative to the root and slash-separated. The sandbox
// refuses:
//
//   - absolute paths, ".." components, backslashes and NUL bytes;
//   - symlinks, at any component, that are absolute, lead out of the root,
//     or lead to anything refused here;
//   - .git, as a directory or a file, at any depth, and all inside it;
//   - files whose names (the last component, compared case-insensitively,
//     as given and after symlinks) are the usual homes of secrets that a
//     workflow may have written into the checkout or someone committed:
//     .env, .env.* (.env.local, .env.production), *.env (prod.env) and
//     .envrc, .envrc.* (direnv); keys and certificate
//     stores *.pem, *.key, *.p12, *.pfx, *.jks, *.keystore, *.ppk; SSH keys
//     id_rsa*, id_dsa*, id_ecdsa*, id_ed25519*; credential files .npmrc,
//     .pypirc, .netrc, _netrc, .git-credentials, .pgpass, .htpasswd,
//     credentials and credentials.* (AWS and gcloud, credentials.json).
//
// Directories are refused by name only for .git: a directory called
// "credentials" is a common package name and stays readable. Listings and
// searches leave refused files out. A refused name is refused whether or not
// it exists, so a refusal does not tell whether a secret is there.
//
// Paths are opened through [os.Root], which refuses escapes natively, so a
// symlink swapped in between the check and the open still cannot leave the
// root.
//
// The errors of List, Read and Search are written to be shown to the model as
// they are: they name the path as the caller gave it, say why, and never
// mention where the root lives. Head's errors are for the action's log and do.
package workspace

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Reader is what the review tools need from a copy of the repository. [*FS]
// reads the local checkout; a reader backed by the GitHub contents API can
// stand in when the checkout does not hold the PR's head.
type Reader interface {
	// List lists dir ("" or "." for the root) recursively, at most max
	// entries.
	List(ctx context.Context, dir string, max int) (Listing, error)
	// Read returns lines from..to (1-based, inclusive; to=0 means to the end).
	Read(ctx context.Context, path string, from, to int) (Text, error)
	// Search finds lines matching the Go regexp pattern in files whose path
	// matches pathGlob ("" for all), at most max matches.
	Search(ctx context.Context, pattern, pathGlob string, max int) (SearchResult, error)
}

// Entry is one listed file, directory or symlink.
type Entry struct {
	Path string // relative to the root, slash-separated
	Size int64  // bytes; 0 for directories
	Dir  bool
	// Link is the symlink's target relative to the root, when the entry is a
	// symlink. Size and Dir then describe the target. Symlinked directories
	// are not descended into, so a link cycle cannot make a listing endless.
	Link string
}

// Listing is the result of [FS.List].
type Listing struct {
	Dir       string // the listed directory, cleaned ("." for the root)
	Entries   []Entry
	Truncated bool // more entries exist than were returned
}

// Text is a range of lines of one file.
type Text struct {
	Path  string   // cleaned, relative to the root
	From  int      // number of the first line in Lines
	Lines []string // without line endings; invalid UTF-8 replaced by U+FFFD
	// TotalLines is the number of lines in the whole file.
	TotalLines int
	// Truncated is set when fewer lines than asked for were returned because
	// of the size cap; Note then says where to continue.
	Truncated bool
	Note      string
}

// To is the number of the last line returned, or From-1 when none were.
func (t Text) To() int { return t.From + len(t.Lines) - 1 }

// Match is one line matching a search.
type Match struct {
	Path string
	Line int    // 1-based
	Text string // the line, cut to a readable length
}

// SearchResult is the result of [FS.Search].
type SearchResult struct {
	Matches   []Match
	Truncated bool // more matches exist than were returned
	Searched  int  // files searched
	// Skipped counts files matching pathGlob that were not searched: binary,
	// larger than MaxSearchFileSize, or unreadable.
	Skipped int
}

// ErrRefused is matched (errors.Is) by every refusal of a path.
var ErrRefused = errors.New("refused")

// ErrBinary is matched by the error for reading a binary file.
var ErrBinary = errors.New("binary file")

// RefusedError says why a path is refused.
type RefusedError struct{ Reason string }

func (e *RefusedError) Error() string        { return "refused: " + e.Reason }
func (e *RefusedError) Is(target error) bool { return target == ErrRefused }

func refused(format string, args ...any) error {
	return &RefusedError{Reason: fmt.Sprintf(format, args...)}
}

// FS is a read-only view of one directory tree. It is safe for concurrent use.
type FS struct {
	root *os.Root
	dir  string // absolute path of the root; never shown to the model
}

var _ Reader = (*FS)(nil)

// Open opens the tree at root, which must be an existing directory.
func Open(root string) (*FS, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("workspace: resolve root %q: %w", root, err)
	}
	r, err := os.OpenRoot(abs)
	if err != nil {
		return nil, fmt.Errorf("workspace: open root %q: %w", abs, err)
	}
	return &FS{root: r, dir: abs}, nil
}

// Close releases the root directory.
func (w *FS) Close() error {
	if err := w.root.Close(); err != nil {
		return fmt.Errorf("workspace: close root %q: %w", w.dir, err)
	}
	return nil
}
