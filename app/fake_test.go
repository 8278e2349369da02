package app

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"io/fs"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/review-my-code-bot/rmc/gate"
	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/workspace"
)

// memGitHub is GitHub in memory, behind the interface app declares: one
// pull request whose comments, threads, reviews and statuses the run's
// writes change, and a log of every call in a stable format
// ("comment #7 1001"). No HTTP.
type memGitHub struct {
	mu       sync.Mutex
	pr       snapshot.Snapshot // the PR as GitHub holds it
	files    []snapshot.ChangedFile
	statuses map[string]snapshot.Status // on the PR's head, by context
	statusID int64
	writers  map[string]bool // logins with write access
	nextID   int64
	clock    time.Time
	log      []string
	reads    int64
	writes   int64
	claims   map[snapshot.Subject]time.Time
	trees    int // tree reads, kept out of the log
}

var _ GitHub = (*memGitHub)(nil)

func newMemGitHub(pr snapshot.Snapshot, files []snapshot.ChangedFile) *memGitHub {
	return &memGitHub{pr: pr, files: files, statuses: map[string]snapshot.Status{}, writers: map[string]bool{}, nextID: 1000,
		clock: pr.PR.CreatedAt}
}

// calls returns the log and empties it.
func (g *memGitHub) calls() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	out := g.log
	g.log = nil
	return out
}

func (g *memGitHub) record(write bool, format string, args ...any) {
	g.log = append(g.log, fmt.Sprintf(format, args...))
	if write {
		g.writes++
	} else {
		g.reads++
	}
}

// next is a new id and a later time.
func (g *memGitHub) next() (int64, time.Time) {
	g.nextID++
	g.clock = g.clock.Add(time.Minute)
	return g.nextID, g.clock
}

func (g *memGitHub) clone() snapshot.Snapshot {
	s := g.pr
	s.IssueComments = slices.Clone(s.IssueComments)
	s.Reviews = slices.Clone(s.Reviews)
	s.Threads = slices.Clone(s.Threads)
	for i := range s.Threads {
		s.Threads[i].Comments = slices.Clone(s.Threads[i].Comments)
	}
	return s
}

func (g *memGitHub) SnapshotWithConfig(_ context.Context, repo snapshot.Repo, number int, _, _ string) (snapshot.Snapshot, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.record(false, "read %s#%d", repo, number)
	s := g.clone()
	s.Config.Read = true
	s.Config.HeadStatuses = slices.Collect(maps.Values(g.statuses))
	return s, nil
}

func (g *memGitHub) SnapshotSince(_ context.Context, start snapshot.Snapshot) (snapshot.Snapshot, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.record(false, "re-read %s#%d", start.Repo, start.PR.Number)
	s := g.clone()
	s.IssueComments = nil // as the real client: the caller knows the conversation
	return s, nil
}

func (g *memGitHub) Counts() snapshot.Counts {
	g.mu.Lock()
	defer g.mu.Unlock()
	return snapshot.Counts{Reads: g.reads, Writes: g.writes}
}

func (g *memGitHub) Permission(_ context.Context, _ snapshot.Repo, login string) (snapshot.Role, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.record(false, "permission @%s", login)
	if g.writers[login] {
		return "write", nil
	}
	return "read", nil
}

func (g *memGitHub) Status(_ context.Context, _ snapshot.Repo, sha, name string) (snapshot.Status, bool, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.record(false, "status %.7s %s?", sha, name)
	s, ok := g.statuses[name]
	return s, ok && sha == g.pr.PR.HeadSHA, nil
}

func (g *memGitHub) SetStatus(_ context.Context, _ snapshot.Repo, sha string, s snapshot.Status) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.record(true, "status %.7s %s %s: %s", sha, s.Context, s.State, s.Description)
	if sha == g.pr.PR.HeadSHA {
		g.statusID++
		s.ID = g.statusID
		g.statuses[s.Context] = s
	}
	return nil
}

func (g *memGitHub) ReviewsSince(_ context.Context, _ snapshot.Repo, _ int, after int64) ([]snapshot.Review, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.record(false, "reviews since %d?", after)
	var out []snapshot.Review
	for _, r := range g.pr.Reviews {
		if r.ID > after {
			out = append(out, r)
		}
	}
	return out, nil
}

// StatusesSince knows only the newest status of each context.
func (g *memGitHub) StatusesSince(_ context.Context, _ snapshot.Repo, sha, name string, after int64) ([]snapshot.Status, bool, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.record(false, "statuses %.7s %s since %d?", sha, name, after)
	if s, ok := g.statuses[name]; ok && sha == g.pr.PR.HeadSHA && s.ID > after {
		return []snapshot.Status{s}, true, nil
	}
	return nil, true, nil
}

func (g *memGitHub) Contents(_ context.Context, _ snapshot.Repo, ref, path string) (string, bool, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.record(false, "contents %.7s:%s", ref, path)
	return "", false, nil
}

func (g *memGitHub) Source(_ snapshot.Repo, _ string) workspace.Source { return emptySource{} }

type emptySource struct{}

func (emptySource) Tree(context.Context) ([]workspace.Entry, error) { return nil, nil }
func (emptySource) File(_ context.Context, path string) ([]byte, error) {
	return nil, fmt.Errorf("%s: %w", path, fs.ErrNotExist)
}

func (g *memGitHub) Files(_ context.Context, _ snapshot.Repo, number int) ([]snapshot.ChangedFile, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.record(false, "files #%d", number)
	out := slices.Clone(g.files)
	for i := range out {
		out[i].Blob = memBlob(out[i])
	}
	return out, nil
}

// OpenPullsWithHead: the one PR, when sha is its head.
func (g *memGitHub) OpenPullsWithHead(_ context.Context, _ snapshot.Repo, sha string) ([]int, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.record(false, "pulls of %.7s", sha)
	if sha == g.pr.PR.HeadSHA {
		return []int{g.pr.PR.Number}, nil
	}
	return nil, nil
}

// memBlob is a changed file's blob id: its own, or one derived from its
// path and patch.
func memBlob(f snapshot.ChangedFile) string {
	if f.Blob != "" || f.Status == "removed" {
		return f.Blob
	}
	sum := sha1.Sum([]byte(f.Path + "\x00" + f.Patch))
	return hex.EncodeToString(sum[:])
}

// MergeBase and Tree serve the head's change set: the changed files, one
// flat level against an empty base. They are left out of the call log,
// which records what the run does, not how the gate reads.
func (g *memGitHub) MergeBase(_ context.Context, _ snapshot.Repo, base, _ string) (string, error) {
	return "merge-base", nil
}

func (g *memGitHub) Tree(_ context.Context, _ snapshot.Repo, sha string, _ bool) (gate.Tree, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.trees++
	t := gate.Tree{ID: sha}
	if sha == "merge-base" {
		return t, nil
	}
	for _, f := range g.files {
		if f.Status != "removed" {
			t.Entries = append(t.Entries, gate.TreeEntry{Name: f.Path, Mode: "100644", Kind: gate.KindBlob, ID: memBlob(f)})
		}
	}
	return t, nil
}

func (g *memGitHub) Compare(_ context.Context, _ snapshot.Repo, base, head string) (snapshot.Comparison, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.record(false, "compare %.7s...%.7s", base, head)
	return snapshot.Comparison{Status: "ahead", Files: slices.Clone(g.files)}, nil
}

func (g *memGitHub) Diff(_ context.Context, _ snapshot.Repo, number int) (string, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.record(false, "diff #%d", number)
	var out string
	for _, f := range g.files {
		out += fmt.Sprintf("diff --git a/%s b/%s\n%s\n", f.Path, f.Path, f.Patch)
	}
	return out, nil
}

func (g *memGitHub) CreateComment(_ context.Context, _ snapshot.Repo, number int, body string) (snapshot.Comment, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	id, at := g.next()
	g.record(true, "comment #%d %d", number, id)
	c := snapshot.Comment{ID: id, Author: g.pr.Viewer, Body: body, CreatedAt: at, UpdatedAt: at}
	g.pr.IssueComments = append(g.pr.IssueComments, c)
	return c, nil
}

func (g *memGitHub) EditComment(_ context.Context, _ snapshot.Repo, id int64, body string) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.record(true, "edit comment %d", id)
	for i, c := range g.pr.IssueComments {
		if c.ID == id {
			editor := g.pr.Viewer
			g.pr.IssueComments[i].Body, g.pr.IssueComments[i].Editor = body, &editor
			return nil
		}
	}
	return fmt.Errorf("no comment %d", id)
}

func (g *memGitHub) Reply(_ context.Context, _ snapshot.Repo, number int, inReplyTo int64, body string) (snapshot.ReviewComment, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for i, t := range g.pr.Threads {
		if root := t.Root(); root != nil && root.ID == inReplyTo {
			id, at := g.next()
			g.record(true, "reply #%d %d to %d", number, id, inReplyTo)
			c := snapshot.ReviewComment{Comment: snapshot.Comment{ID: id, Author: g.pr.Viewer, Body: body, CreatedAt: at, UpdatedAt: at},
				ReplyToID: inReplyTo, Path: t.Path, Line: t.Line}
			g.pr.Threads[i].Comments = append(g.pr.Threads[i].Comments, c)
			return c, nil
		}
	}
	return snapshot.ReviewComment{}, fmt.Errorf("no thread starts with comment %d", inReplyTo)
}

func (g *memGitHub) EditReviewComment(_ context.Context, _ snapshot.Repo, id int64, body string) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.record(true, "edit review comment %d", id)
	for i := range g.pr.Threads {
		for j, c := range g.pr.Threads[i].Comments {
			if c.ID == id {
				g.pr.Threads[i].Comments[j].Body = body
				return nil
			}
		}
	}
	return fmt.Errorf("no review comment %d", id)
}

func (g *memGitHub) React(_ context.Context, _ snapshot.Repo, s snapshot.Subject, content string) error {
	id := s.ID
	g.mu.Lock()
	defer g.mu.Unlock()
	g.record(true, "react %d %s", id, content)
	return nil
}

// Claim reacts 👀 once per comment, as GitHub does for one user: the
// first claim wins, a later one finds the reaction.
func (g *memGitHub) Claim(_ context.Context, _ snapshot.Repo, s snapshot.Subject) (snapshot.Claim, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.record(true, "react %d eyes", s.ID)
	if g.claims == nil {
		g.claims = map[snapshot.Subject]time.Time{}
	}
	if at, ok := g.claims[s]; ok {
		return snapshot.Claim{At: at, Age: g.clock.Sub(at)}, nil
	}
	g.claims[s] = g.clock
	return snapshot.Claim{Won: true, At: g.claims[s]}, nil
}

// RunActive: no other workflow run is at work in the pipeline's tests.
func (g *memGitHub) RunActive(_ context.Context, _ snapshot.Repo, id int64) (bool, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.record(false, "run %d?", id)
	return false, nil
}

func (g *memGitHub) CreateReview(_ context.Context, _ snapshot.Repo, number int, r snapshot.NewReview) (int64, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	id, at := g.next()
	g.record(true, "review #%d %d %s with %d comment(s)", number, id, r.Event, len(r.Comments))
	state := snapshot.ReviewCommented
	if r.Event == snapshot.ReviewEventRequestChanges {
		state = snapshot.ReviewChangesRequested
	}
	g.pr.Reviews = append(g.pr.Reviews, snapshot.Review{ID: id, Author: g.pr.Viewer, State: state, Body: r.Body, CommitSHA: r.CommitSHA, SubmittedAt: at})
	for _, c := range r.Comments {
		cid, _ := g.next()
		g.pr.Threads = append(g.pr.Threads, snapshot.Thread{ID: fmt.Sprintf("T%d", cid), Path: c.Path, Line: c.Line, DiffSide: c.Side,
			Comments: []snapshot.ReviewComment{{Comment: snapshot.Comment{ID: cid, Author: g.pr.Viewer, Body: c.Body, CreatedAt: at, UpdatedAt: at},
				ReviewID: id, Path: c.Path, Line: c.Line, CommitSHA: r.CommitSHA}}})
	}
	return id, nil
}

func (g *memGitHub) EditReview(_ context.Context, _ snapshot.Repo, number int, id int64, body string) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.record(true, "edit review #%d %d", number, id)
	for i, r := range g.pr.Reviews {
		if r.ID == id {
			editor := g.pr.Viewer
			g.pr.Reviews[i].Body, g.pr.Reviews[i].Editor = body, &editor
			return nil
		}
	}
	return fmt.Errorf("no review %d", id)
}

func (g *memGitHub) ResolveThread(_ context.Context, id string) error {
	return g.setResolved(id, true)
}

func (g *memGitHub) UnresolveThread(_ context.Context, id string) error {
	return g.setResolved(id, false)
}

func (g *memGitHub) setResolved(id string, resolved bool) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.record(true, "resolve %s %v", id, resolved)
	for i, t := range g.pr.Threads {
		if t.ID == id {
			g.pr.Threads[i].IsResolved = resolved
			g.pr.Threads[i].ResolvedBy = nil
			if resolved {
				v := g.pr.Viewer
				g.pr.Threads[i].ResolvedBy = &v
			}
			return nil
		}
	}
	return fmt.Errorf("no thread %s", id)
}

func (g *memGitHub) RequestReviewers(_ context.Context, _ snapshot.Repo, number int, logins []string) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.record(true, "request reviewers #%d %v", number, logins)
	return nil
}

func (g *memGitHub) CreateLearningsIssue(_ context.Context, repo snapshot.Repo, _ string) (int, string, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	id, _ := g.next()
	g.record(true, "learnings issue %d", id)
	return int(id), fmt.Sprintf("https://github.example/%s/issues/%d", repo, id), nil
}
