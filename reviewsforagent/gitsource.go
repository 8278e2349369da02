package reviewsforagent

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/review-my-code-bot/rmc/diff"
	"github.com/review-my-code-bot/rmc/inbox"
)

// OutputDir is where submissions are written, relative to the repository
// root. The files this tool writes there are left out of the diff, so that
// one round's comment files do not show up as changes in the next; a
// person's own files in a folder of that name are reviewed as any other.
const OutputDir = "rfa"

// Changes is one snapshot of a repository's uncommitted work: what the page
// shows and what comments are checked against. It does not change while
// the server runs; a new round of review is a new run.
type Changes struct {
	Root string // the repository's top-level directory
	// Base describes what the diff is against, for people: "HEAD (1a2b3c4)",
	// or the empty tree in a repository without commits.
	Base string
	// Diff is the unified diff: one "diff --git" section per file, sorted by
	// path, untracked files shown as added.
	Diff  string
	Files []diff.File // Files[i] is the i-th "diff --git" section of Diff
	// Reviewed is what the diff is of, for the export; its Source is ""
	// for changes not read by LoadSource.
	Reviewed inbox.Reviewed
}

// NewChanges splits unified into its "diff --git" sections, parses each,
// and keeps them in the given order: the page pairs sections with Files by
// position.
func NewChanges(root, base, unified string) (Changes, error) {
	c := Changes{Root: root, Base: base, Diff: unified}
	sections, err := diff.Sections(unified)
	if err != nil {
		return Changes{}, err
	}
	for _, s := range sections {
		c.Files = append(c.Files, s.File)
	}
	return c, nil
}

// ErrNotARepo is returned by LoadChanges for a directory outside any git
// work tree.
var ErrNotARepo = errors.New("not a git repository")

// diffFlags make git's output the plain format the parsers and the page
// expect, whatever the user's git config says about colour, external diff
// drivers, text conversion, path prefixes and relative paths.
var diffFlags = []string{
	"--no-color", "--no-ext-diff", "--no-textconv",
	"--src-prefix=a/", "--dst-prefix=b/", "--no-relative", "--find-renames",
	// Whole blob ids in the index lines: the export names what was
	// reviewed by them, and "expand context" reads the old blob by its id.
	"--full-index",
}

// hex8 matches the 8 hex characters of a submission's name.
var hex8 = strings.Repeat("[0-9a-f]", 8)

// pathspec is the whole work tree but the files writeFiles writes (and
// its temporary files) in OutputDir at its top.
var pathspec = []string{"--", ":(top)",
	":(top,exclude,glob)" + OutputDir + "/comments_" + hex8 + ".json",
	":(top,exclude,glob)" + OutputDir + "/comments_" + hex8 + ".md",
	":(top,exclude,glob)" + OutputDir + "/.comments-*.tmp",
}

// LoadChanges reads the uncommitted changes of the repository that holds
// dir: staged and unstaged changes to tracked files against HEAD (or the
// empty tree before the first commit), and untracked files not ignored by
// .gitignore, shown as added files.
func LoadChanges(ctx context.Context, dir string) (Changes, error) {
	return LoadSource(ctx, dir, Source{})
}

// repoRoot is the top-level directory of the work tree that holds dir.
func repoRoot(ctx context.Context, dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("resolve directory %s: %w", dir, err)
	}
	if st, err := os.Stat(abs); err != nil {
		return "", fmt.Errorf("open directory: %w", err)
	} else if !st.IsDir() {
		return "", fmt.Errorf("open directory %s: not a directory", abs)
	}
	out, err := git(ctx, abs, "rev-parse", "--show-toplevel")
	if err != nil {
		// Other failures, such as git refusing a repository owned by
		// someone else, must reach the user in git's own words.
		if strings.Contains(err.Error(), "not a git repository") {
			return "", fmt.Errorf("%w: %s", ErrNotARepo, abs)
		}
		if strings.Contains(err.Error(), "detected dubious ownership") {
			return "", fmt.Errorf("%s belongs to another user, and git will not work in another user's repository "+
				"(its safe.directory setting): run reviews-for-agent as the repository's owner, or, if you trust it, "+
				"git config --global --add safe.directory %s", abs, abs)
		}
		return "", fmt.Errorf("find the repository of %s: %w", abs, err)
	}
	return strings.TrimSuffix(out, "\n"), nil
}

// sortedChanges parses git's diff of root section by section and sorts
// tracked and untracked files together by path, so that new files sit
// beside their neighbours as in a pull request.
func sortedChanges(root, desc, unified string) (Changes, error) {
	type keyed struct {
		text string
		file diff.File
	}
	sections := diff.SectionTexts(unified)
	ks := make([]keyed, 0, len(sections))
	for _, s := range sections {
		files, err := diff.Parse(s)
		if err != nil {
			return Changes{}, fmt.Errorf("read git diff output of %s: %w", root, err)
		}
		if len(files) != 1 {
			return Changes{}, fmt.Errorf("read git diff output of %s: section %.60q holds %d files, want 1", root, s, len(files))
		}
		ks = append(ks, keyed{s, files[0]})
	}
	slices.SortStableFunc(ks, func(a, b keyed) int { return strings.Compare(a.file.Path(), b.file.Path()) })
	c := Changes{Root: root, Base: desc, Files: make([]diff.File, 0, len(ks))}
	var all strings.Builder
	for _, k := range ks {
		all.WriteString(k.text)
		c.Files = append(c.Files, k.file)
	}
	c.Diff = all.String()
	return c, nil
}

// diffBase returns the tree-ish to diff against and its description: HEAD,
// or the empty tree when the repository has no commit yet.
func diffBase(ctx context.Context, root string) (rev, desc string, err error) {
	if out, err := git(ctx, root, "rev-parse", "--verify", "--quiet", "--short", "HEAD^{commit}"); err == nil {
		return "HEAD", "HEAD (" + strings.TrimSpace(out) + ")", nil
	}
	return emptyTree(ctx, root)
}

// emptyTree is the id of the empty tree and its description.
func emptyTree(ctx context.Context, root string) (rev, desc string, err error) {
	// Asking git for the empty tree's id, rather than hard-coding SHA-1's,
	// keeps SHA-256 repositories working. Without -w nothing is written.
	out, err := gitStdin(ctx, root, "", "hash-object", "-t", "tree", "--stdin")
	if err != nil {
		return "", "", fmt.Errorf("find the empty tree of %s: %w", root, err)
	}
	return strings.TrimSpace(out), "the empty tree (no commits yet)", nil
}

// untrackedIndex returns a copy of the repository's index in which every
// untracked file that is not ignored is marked "intent to add", so that one
// git diff shows tracked changes and untracked files (as added) alike: one
// git process for any number of new files, where a diff per file took
// seconds for thousands. The repository's own index is never written.
func untrackedIndex(ctx context.Context, root string) (path string, cleanup func(), err error) {
	dir, err := os.MkdirTemp("", "rfa-index-")
	if err != nil {
		return "", nil, fmt.Errorf("make a temporary index: %w", err)
	}
	cleanup = func() { os.RemoveAll(dir) }
	path = filepath.Join(dir, "index")
	real, err := git(ctx, root, "rev-parse", "--path-format=absolute", "--git-path", "index")
	if err != nil {
		cleanup()
		return "", nil, fmt.Errorf("find the index of %s: %w", root, err)
	}
	real = strings.TrimSpace(real)
	if data, err := os.ReadFile(real); err == nil {
		err := os.WriteFile(path, data, 0o600)
		// The copy keeps the index's time: git trusts an entry's cached
		// file times only when they are older than the index, and checks
		// the content otherwise ("racy git"). A copy made later would make
		// a file changed in the same second as the index look unchanged.
		if st, serr := os.Stat(real); err == nil && serr == nil {
			err = os.Chtimes(path, st.ModTime(), st.ModTime())
		}
		if err != nil {
			cleanup()
			return "", nil, fmt.Errorf("copy the index of %s: %w", root, err)
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		cleanup()
		return "", nil, fmt.Errorf("read the index of %s: %w", root, err)
	}
	env := []string{"GIT_INDEX_FILE=" + path}
	untracked, err := gitEnv(ctx, root, env, append([]string{"ls-files", "-z", "--others", "--exclude-standard"}, pathspec...)...)
	if err != nil {
		cleanup()
		return "", nil, fmt.Errorf("list untracked files in %s: %w", root, err)
	}
	var list strings.Builder
	for _, p := range strings.Split(untracked, "\x00") {
		// A trailing slash marks a nested repository, which git shows as
		// a directory it will not look into.
		if p != "" && !strings.HasSuffix(p, "/") {
			list.WriteString(":(top,literal)" + p + "\x00")
		}
	}
	if list.Len() > 0 {
		if _, err := gitIO(ctx, root, env, list.String(), "add", "--intent-to-add", "--pathspec-from-file=-", "--pathspec-file-nul"); err != nil {
			cleanup()
			return "", nil, fmt.Errorf("add the untracked files of %s to a temporary index: %w", root, err)
		}
	}
	return path, cleanup, nil
}

func git(ctx context.Context, dir string, args ...string) (string, error) {
	return gitIO(ctx, dir, nil, "", args...)
}

func gitEnv(ctx context.Context, dir string, env []string, args ...string) (string, error) {
	return gitIO(ctx, dir, env, "", args...)
}

func gitStdin(ctx context.Context, dir, stdin string, args ...string) (string, error) {
	return gitIO(ctx, dir, nil, stdin, args...)
}

// gitIO runs git in dir with env added; its error carries git's own
// message.
func gitIO(ctx context.Context, dir string, env []string, stdin string, args ...string) (string, error) {
	cmd := gitCommand(ctx, dir, args...)
	cmd.Env = append(cmd.Env, env...)
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return stdout.String(), nil
}

// gitCommand prepares git to run in dir. Messages are asked for in English
// because LoadChanges reads one of them; optional locks are off because a
// read-only look at the repository should not refresh its index behind the
// user's back (and so race their own git commands).
func gitCommand(ctx context.Context, dir string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "LC_ALL=C", "GIT_OPTIONAL_LOCKS=0")
	return cmd
}
