package reviewsforagent

import (
	"context"
	"errors"
	"fmt"
	"github.com/review-my-code-bot/rmc/diff"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/review-my-code-bot/rmc/inbox"
)

// DefaultInboxPort is the first port the inbox server tries. It sits above
// the start command's range (4000-4099), so the two never compete.
const DefaultInboxPort = 4100

// Requester starts local reviews for the inbox: it captures the diff,
// records an open review, and makes sure an inbox server serves it, all
// without waiting for the person.
type Requester struct {
	Store *inbox.Store
	Port  int // the inbox server's port; DefaultInboxPort when 0
	// Spawn starts a detached inbox server for Store on port and returns
	// once it is started, not once it listens. The command line re-runs
	// itself with "serve".
	Spawn func(port int) error
	// ReadyWait is how long RequestLocal waits for a server it started to
	// answer; 500ms when 0. The URL is known either way.
	ReadyWait time.Duration
}

var _ inbox.LocalRequester = (*Requester)(nil)

// RequestLocal records a review of the uncommitted changes under r.Dir (of
// r.Files only, when given) and returns its id and page URL at once.
func (q *Requester) RequestLocal(ctx context.Context, r inbox.LocalRequest) (inbox.RequestResult, error) {
	dir := r.Dir
	if dir == "" {
		dir = "."
	}
	changes, err := LoadSource(ctx, dir, Source{Kind: r.Diff, Rev: r.Rev, Stdin: r.Stdin})
	if errors.Is(err, ErrNotARepo) {
		return inbox.RequestResult{}, &inbox.Error{Op: "request", Kind: inbox.ErrInvalidInput, Reason: err.Error() + ": run it inside a git work tree, or pass a dir"}
	}
	if err != nil {
		return inbox.RequestResult{}, err
	}
	selected, warnings := SelectFiles(changes, dir, r.Files)
	if len(selected.Files) == 0 {
		reason := "no changes in " + changes.Root + " (" + changes.Reviewed.Phrase() + "): nothing to review"
		if len(r.Files) > 0 {
			reason = "none of the given files has uncommitted changes: nothing to review"
		}
		return inbox.RequestResult{}, &inbox.Error{Op: "request", Kind: inbox.ErrInvalidInput, Reason: reason}
	}
	token, err := StoreToken(q.Store)
	if err != nil {
		return inbox.RequestResult{}, err
	}
	base, running, err := q.findServer(ctx, token)
	if err != nil {
		return inbox.RequestResult{}, err
	}
	req := requestOf(ctx, selected, dir, warnings, r.Message, base)
	rec, err := q.Store.Create(ctx, req, selected.Diff)
	if err != nil {
		return inbox.RequestResult{}, err
	}
	res := inbox.RequestResult{ID: rec.ID, Source: inbox.SourceLocal, Status: rec.Status,
		Files: req.Files, Warnings: req.Warnings, Hint: inbox.Hint(rec.ID)}
	if !running {
		if token, err = q.start(ctx, base); err != nil {
			token = ""
			res.Warnings = append(res.Warnings, fmt.Sprintf("could not start the review server (%v): run `reviews-for-agent serve --port %s` to serve the review", err, portOf(base)))
		}
	}
	res.URL = inbox.PageURL(base, rec.ID, token)
	return res, nil
}

var _ inbox.PageServer = (*Requester)(nil)

// EnsurePage returns the URL of the open review r's page: on the server it
// was requested on while that still answers as a server of this store,
// else on an inbox server it finds or starts.
func (q *Requester) EnsurePage(ctx context.Context, r inbox.Record) (string, error) {
	token, err := StoreToken(q.Store)
	if err != nil {
		return "", err
	}
	if req := r.Request; req != nil && req.Server != "" {
		tok := req.Token
		if tok == "" {
			tok = token
		}
		if p, err := strconv.Atoi(portOf(req.Server)); err == nil {
			if h, err := Probe(ctx, p, tok); err == nil && h.App == AppName && h.Store == q.Store.Path() {
				return inbox.PageURL(req.Server, r.ID, tok), nil
			}
		}
	}
	base, running, err := q.findServer(ctx, token)
	if err != nil {
		return "", err
	}
	if !running {
		if token, err = q.start(ctx, base); err != nil {
			return "", fmt.Errorf("start a review server: %w", err)
		}
	}
	return inbox.PageURL(base, r.ID, token), nil
}

// requestOf describes a request of c for the store.
func requestOf(ctx context.Context, c Changes, dir string, warnings []string, message, server string) inbox.Request {
	cwd, err := filepath.Abs(dir)
	if err != nil {
		cwd = dir
	}
	files := make([]string, 0, len(c.Files))
	for _, f := range c.Files {
		files = append(files, f.Path())
	}
	branch, commit := repoHead(ctx, c.Root)
	req := inbox.Request{Files: files, Warnings: warnings, Message: strings.TrimSpace(message), Cwd: cwd, Root: c.Root,
		Branch: branch, Commit: commit, Base: c.Base, Server: server}
	if c.Reviewed.Source != "" {
		r := c.Reviewed
		req.Reviewed = &r
	}
	return req
}

// repoHead names the checked-out branch and commit; either is "" when
// there is none (a detached head, a repository without commits).
func repoHead(ctx context.Context, root string) (branch, commit string) {
	if out, err := git(ctx, root, "symbolic-ref", "--quiet", "--short", "HEAD"); err == nil {
		branch = strings.TrimSpace(out)
	}
	if out, err := git(ctx, root, "rev-parse", "--verify", "--quiet", "HEAD^{commit}"); err == nil {
		commit = strings.TrimSpace(out)
	}
	return branch, commit
}

// SelectFiles keeps the files of c that paths name: a changed file's path,
// or a directory holding changed files, relative to dir (as a shell would
// read it) or else to the repository root, or absolute. No paths keeps
// every file. Paths that match nothing come back as warnings.
func SelectFiles(c Changes, dir string, paths []string) (Changes, []string) {
	if len(paths) == 0 {
		return c, nil
	}
	root, sub := whereIn(c.Root, dir)
	keep := make([]bool, len(c.Files))
	var warnings []string
	for _, p := range paths {
		p = strings.TrimSpace(p)
		if !markFiles(c.Files, readings(p, root, sub), keep) {
			warnings = append(warnings, fmt.Sprintf("%s has no uncommitted changes; it is not in the review", p))
		}
	}
	sections := diff.SectionTexts(c.Diff)
	out := Changes{Root: c.Root, Base: c.Base, Reviewed: c.Reviewed}
	out.Reviewed.Files = nil
	var text strings.Builder
	for i, f := range c.Files {
		if keep[i] {
			out.Files = append(out.Files, f)
			text.WriteString(sections[i])
			if i < len(c.Reviewed.Files) {
				out.Reviewed.Files = append(out.Reviewed.Files, c.Reviewed.Files[i])
			}
		}
	}
	out.Diff = text.String()
	return out, warnings
}

// whereIn resolves the repository root's symlinks, and says where dir sits
// inside it ("" when dir is the root or outside it).
func whereIn(top, dir string) (root, sub string) {
	root = top
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return root, ""
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	if rel, err := filepath.Rel(root, abs); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
		sub = rel
	}
	return root, sub
}

// readings are what a path given on the command line may mean, relative to
// the repository root, in the order to try them: an absolute path inside
// the root; a relative one from the working directory sub, then from the
// root.
func readings(p, root, sub string) []string {
	switch {
	case filepath.IsAbs(p):
		if rel, err := filepath.Rel(root, p); err == nil {
			return []string{rel}
		}
		return nil
	case sub != "":
		return []string{filepath.Join(sub, p), p}
	}
	return []string{p}
}

// markFiles marks in keep the files the first matching reading covers (a
// file's path, new or old, or a directory above it), and reports whether
// one matched.
func markFiles(files []diff.File, tries []string, keep []bool) bool {
	covers := func(prefix, path string) bool {
		return prefix == "." || path == prefix || strings.HasPrefix(path, prefix+"/")
	}
	matched := false
	for _, t := range tries {
		t = filepath.ToSlash(filepath.Clean(t))
		for i, f := range files {
			if covers(t, f.Path()) || (f.OldPath != "" && covers(t, f.OldPath)) {
				keep[i], matched = true, true
			}
		}
		if matched {
			return true
		}
	}
	return false
}
