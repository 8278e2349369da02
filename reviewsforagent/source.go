package reviewsforagent

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/review-my-code-bot/rmc/diff"
	"github.com/review-my-code-bot/rmc/inbox"
)

// Source says which changes to review. The zero value is the uncommitted
// changes against HEAD.
type Source struct {
	Kind inbox.DiffSource
	// Rev is the commit (DiffCommit), "A..B" or "A...B" (DiffRange),
	// or the branch whose merge base is the old side (DiffBase).
	Rev string
	// Stdin is where a DiffStdin diff is read from.
	Stdin io.Reader
}

// MaxStdinDiff caps a diff read from standard input.
const MaxStdinDiff = 256 << 20

// LoadSource reads the changes src names in the repository that holds
// dir. A diff on standard input may come from outside a repository: its
// root is then dir.
func LoadSource(ctx context.Context, dir string, src Source) (Changes, error) {
	kind := src.Kind
	if kind == "" {
		kind = inbox.DiffUncommitted
	}
	if !kind.Valid() {
		return Changes{}, fmt.Errorf("load changes: no source %q", kind)
	}
	if _, err := exec.LookPath("git"); err != nil {
		return Changes{}, fmt.Errorf("find git: %w (install git and try again)", err)
	}
	if kind == inbox.DiffStdin {
		return loadStdin(ctx, dir, src.Stdin)
	}
	root, err := repoRoot(ctx, dir)
	if err != nil {
		return Changes{}, err
	}
	p, err := plan(ctx, root, kind, src.Rev)
	if err != nil {
		return Changes{}, err
	}
	unified, err := p.run(ctx, root)
	if err != nil {
		return Changes{}, fmt.Errorf("diff %s against %s: %w", root, p.desc, err)
	}
	c, err := sortedChanges(root, p.desc, unified)
	if err != nil {
		return Changes{}, err
	}
	c.Reviewed = reviewedOf(c, inbox.Reviewed{Source: kind, Against: p.desc, From: p.from, To: p.to})
	return c, nil
}

// diffPlan is one git diff: its arguments, whether untracked files are
// added to a temporary index first, and what its sides are.
type diffPlan struct {
	args      []string // after "diff" and the flags: revisions, --cached
	untracked bool
	desc      string
	from, to  *inbox.Ref
}

func (p diffPlan) run(ctx context.Context, root string) (string, error) {
	var env []string
	if p.untracked {
		index, cleanup, err := untrackedIndex(ctx, root)
		if err != nil {
			return "", err
		}
		defer cleanup()
		env = []string{"GIT_INDEX_FILE=" + index}
	}
	args := append(append([]string{"-c", "core.quotePath=false", "diff"}, diffFlags...), p.args...)
	return gitEnv(ctx, root, env, append(args, pathspec...)...)
}

// plan works out the git diff of a source.
func plan(ctx context.Context, root string, kind inbox.DiffSource, rev string) (diffPlan, error) {
	switch kind {
	case inbox.DiffUncommitted, inbox.DiffStaged, inbox.DiffUnstaged:
		return planWorkTree(ctx, root, kind)
	case inbox.DiffCommit:
		return planCommit(ctx, root, rev)
	case inbox.DiffRange:
		return planRange(ctx, root, rev)
	case inbox.DiffBase:
		return planBase(ctx, root, rev)
	case inbox.DiffStdin:
	}
	return diffPlan{}, fmt.Errorf("load changes: no git diff for source %q", kind)
}

// planWorkTree is the uncommitted changes, all or the staged or unstaged
// ones only.
func planWorkTree(ctx context.Context, root string, kind inbox.DiffSource) (diffPlan, error) {
	base, desc, err := diffBase(ctx, root)
	if err != nil {
		return diffPlan{}, err
	}
	var from *inbox.Ref
	if base == "HEAD" {
		if id, err := resolve(ctx, root, "HEAD"); err == nil {
			from = &inbox.Ref{Name: "HEAD", Commit: id}
		}
	}
	switch kind {
	case inbox.DiffStaged:
		return diffPlan{args: []string{"--cached", base}, desc: desc, from: from}, nil
	case inbox.DiffUnstaged:
		// Against the index: what is not staged yet, new files included.
		return diffPlan{untracked: true, desc: "the index (what is staged)"}, nil
	case inbox.DiffUncommitted, inbox.DiffCommit, inbox.DiffRange, inbox.DiffBase, inbox.DiffStdin:
	}
	return diffPlan{args: []string{base}, untracked: true, desc: desc, from: from}, nil
}

// planCommit is one commit against its first parent, or against the empty
// tree when it has none.
func planCommit(ctx context.Context, root, rev string) (diffPlan, error) {
	id, err := resolve(ctx, root, rev)
	if err != nil {
		return diffPlan{}, err
	}
	to := &inbox.Ref{Name: rev, Commit: id}
	parent, err := resolve(ctx, root, id+"^1")
	if err != nil {
		empty, desc, err := emptyTree(ctx, root)
		if err != nil {
			return diffPlan{}, err
		}
		return diffPlan{args: []string{empty, id}, desc: desc, to: to}, nil
	}
	desc := fmt.Sprintf("the parent of %s (%s)", oneLine(rev), parent[:min(12, len(parent))])
	return diffPlan{args: []string{parent, id}, desc: desc, from: &inbox.Ref{Name: rev + "^", Commit: parent}, to: to}, nil
}

// planRange is "A..B", B against A, or "A...B", B against the merge base
// of A and B, as git diff reads them.
func planRange(ctx context.Context, root, rng string) (diffPlan, error) {
	a, b, three := strings.Cut(rng, "...")
	if !three {
		var ok bool
		if a, b, ok = strings.Cut(rng, ".."); !ok {
			return diffPlan{}, fmt.Errorf("read the range %q: write it FROM..TO or FROM...TO", rng)
		}
	}
	if a == "" || b == "" {
		return diffPlan{}, fmt.Errorf("read the range %q: name both ends", rng)
	}
	from, err := resolve(ctx, root, a)
	if err != nil {
		return diffPlan{}, err
	}
	to, err := resolve(ctx, root, b)
	if err != nil {
		return diffPlan{}, err
	}
	desc := fmt.Sprintf("%s (%s)", oneLine(a), from[:min(12, len(from))])
	fromRef := &inbox.Ref{Name: a, Commit: from}
	if three {
		mb, err := mergeBase(ctx, root, from, to)
		if err != nil {
			return diffPlan{}, err
		}
		fromRef = &inbox.Ref{Name: "merge base of " + a + " and " + b, Commit: mb}
		desc = fmt.Sprintf("the merge base of %s and %s (%s)", oneLine(a), oneLine(b), mb[:min(12, len(mb))])
		from = mb
	}
	return diffPlan{args: []string{from, to}, desc: desc, from: fromRef, to: &inbox.Ref{Name: b, Commit: to}}, nil
}

// planBase is the work tree, untracked files included, against its merge
// base with branch: everything done since the branch was left.
func planBase(ctx context.Context, root, branch string) (diffPlan, error) {
	target, err := resolve(ctx, root, branch)
	if err != nil {
		return diffPlan{}, err
	}
	head, err := resolve(ctx, root, "HEAD")
	if err != nil {
		return diffPlan{}, err
	}
	mb, err := mergeBase(ctx, root, target, head)
	if err != nil {
		return diffPlan{}, err
	}
	desc := fmt.Sprintf("the merge base of %s and HEAD (%s)", oneLine(branch), mb[:min(12, len(mb))])
	return diffPlan{args: []string{mb}, untracked: true, desc: desc, from: &inbox.Ref{Name: "merge base of " + branch + " and HEAD", Commit: mb}}, nil
}

// resolve is the full commit id rev names. A rev that looks like an option
// is refused before git sees it.
func resolve(ctx context.Context, root, rev string) (string, error) {
	if rev == "" || strings.HasPrefix(rev, "-") || strings.ContainsAny(rev, "\x00\n") {
		return "", fmt.Errorf("%q is not a revision", rev)
	}
	out, err := git(ctx, root, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	if err != nil {
		return "", fmt.Errorf("%q names no commit in %s", rev, root)
	}
	return strings.TrimSpace(out), nil
}

func mergeBase(ctx context.Context, root, a, b string) (string, error) {
	out, err := git(ctx, root, "merge-base", a, b)
	if err != nil {
		return "", fmt.Errorf("find the merge base of %s and %s: %w", a, b, err)
	}
	return strings.TrimSpace(out), nil
}

// loadStdin reads a unified diff from r: git's format, or a plain one
// (diff -u), whose files get git's headers.
func loadStdin(ctx context.Context, dir string, r io.Reader) (Changes, error) {
	if r == nil {
		return Changes{}, errors.New("read the diff: no standard input")
	}
	data, err := io.ReadAll(io.LimitReader(r, MaxStdinDiff+1))
	if err != nil {
		return Changes{}, fmt.Errorf("read the diff from standard input: %w", err)
	}
	if len(data) > MaxStdinDiff {
		return Changes{}, fmt.Errorf("read the diff from standard input: larger than %d MiB", MaxStdinDiff>>20)
	}
	root, err := repoRoot(ctx, dir)
	if errors.Is(err, ErrNotARepo) {
		if root, err = filepath.Abs(dir); err == nil {
			_, err = os.Stat(root)
		}
	}
	if err != nil {
		return Changes{}, err
	}
	const desc = "a diff read from standard input"
	c, err := sortedChanges(root, desc, withGitHeaders(strings.ReplaceAll(string(data), "\r\n", "\n")))
	if err != nil {
		return Changes{}, err
	}
	c.Reviewed = reviewedOf(c, inbox.Reviewed{Source: inbox.DiffStdin, Against: desc})
	return c, nil
}

// indexLine is a section's "index <old>..<new>[ <mode>]" line.
var indexLine = regexp.MustCompile(`(?m)^index ([0-9a-f]+)\.\.([0-9a-f]+)(?: [0-7]+)?$`)

// blobIDs are a section's blob ids, old and new, from its index line: ""
// for a side without the file (git writes zeros) or with no index line.
func blobIDs(section string) (old, new string) {
	head := section
	if i := strings.Index(section, "\n@@ "); i >= 0 {
		head = section[:i]
	}
	m := indexLine.FindStringSubmatch(head)
	if m == nil {
		return "", ""
	}
	zero := func(s string) string {
		if strings.Trim(s, "0") == "" {
			return ""
		}
		return s
	}
	return zero(m[1]), zero(m[2])
}

// reviewedOf fills in r's files from c.
func reviewedOf(c Changes, r inbox.Reviewed) inbox.Reviewed {
	sections := diff.SectionTexts(c.Diff)
	r.Files = make([]inbox.ReviewedFile, 0, len(c.Files))
	for i, f := range c.Files {
		rf := inbox.ReviewedFile{Path: f.Path()}
		if f.OldPath != "" && f.OldPath != f.Path() {
			rf.OldPath = f.OldPath
		}
		if i < len(sections) {
			rf.OldBlob, rf.NewBlob = blobIDs(sections[i])
		}
		r.Files = append(r.Files, rf)
	}
	return r
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// withGitHeaders gives each file of a plain unified diff (diff -u, no
// "diff --git" lines) git's header line, so that it is cut and parsed as
// git's own; a git diff comes back as it is. Hunk lines are counted, so a
// deleted line that reads "--- x" is not taken for a file's start.
func withGitHeaders(text string) string {
	if strings.HasPrefix(text, "diff --git ") || strings.Contains(text, "\ndiff --git ") {
		return text
	}
	lines := strings.SplitAfter(text, "\n")
	var out strings.Builder
	oldLeft, newLeft := 0, 0
	for i, l := range lines {
		if oldLeft > 0 || newLeft > 0 {
			oldLeft, newLeft = countHunkLine(l, oldLeft, newLeft)
			out.WriteString(l)
			continue
		}
		if strings.HasPrefix(l, "--- ") && i+1 < len(lines) && strings.HasPrefix(lines[i+1], "+++ ") {
			a, b := plainPath(l[4:], "a/"), plainPath(lines[i+1][4:], "b/")
			if a == "" {
				a = b
			}
			if b == "" {
				b = a
			}
			out.WriteString("diff --git a/" + a + " b/" + b + "\n")
		}
		if h, ok := hunkCounts(l); ok {
			oldLeft, newLeft = h[0], h[1]
		}
		out.WriteString(l)
	}
	return out.String()
}

// plainPath is a path of a "---" or "+++" line without its time stamp
// and prefix; "" for /dev/null.
func plainPath(s, prefix string) string {
	s = strings.TrimRight(s, "\n")
	if i := strings.IndexByte(s, '\t'); i >= 0 {
		s = s[:i]
	}
	if s == "/dev/null" {
		return ""
	}
	return strings.TrimPrefix(s, prefix)
}

var hunkHead = regexp.MustCompile(`^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@`)

// hunkCounts reads a hunk header's line counts (1 when left out).
func hunkCounts(l string) ([2]int, bool) {
	m := hunkHead.FindStringSubmatch(l)
	if m == nil {
		return [2]int{}, false
	}
	var n [2]int
	for k := range 2 {
		n[k] = 1
		if m[k+1] != "" {
			fmt.Sscan(m[k+1], &n[k])
		}
	}
	return n, true
}

// countHunkLine takes one hunk line off the counts left.
func countHunkLine(l string, oldLeft, newLeft int) (int, int) {
	switch {
	case strings.HasPrefix(l, "-"):
		return oldLeft - 1, newLeft
	case strings.HasPrefix(l, "+"):
		return oldLeft, newLeft - 1
	case strings.HasPrefix(l, "\\"):
		return oldLeft, newLeft
	}
	return oldLeft - 1, newLeft - 1 // context, or an empty line a mailer trimmed
}
