package app

import (
	"context"
	"slices"
	"sync"

	"github.com/review-my-code-bot/rmc/snapshot"
)

// runReader is the run's one reader of the PR's changed files and of
// comparisons: the system prompt, the review and the agent notification all
// ask for the file list, and each is read from GitHub once per run. The run
// works on the head commit its snapshot read, so a list read earlier in the
// run is the list every later task wants. A failed read is not kept: the
// next task that asks reads again.
//
// It also notes the conversation comments the run posts and edits, so the
// end of the run knows the conversation without reading it again (see
// conversation). Other calls go to the client.
type runReader struct {
	GitHub
	mu       sync.Mutex
	files    map[filesKey][]snapshot.ChangedFile
	compares map[compareKey]snapshot.Comparison
	writes   []commentWrite // in the order they succeeded
}

// commentWrite is a conversation comment the run posted (created) or edited.
type commentWrite struct {
	number  int
	created *snapshot.Comment
	id      int64
	body    string
}

type filesKey struct {
	repo   snapshot.Repo
	number int
}

type compareKey struct {
	repo       snapshot.Repo
	base, head string
}

func newRunReader(gh GitHub) *runReader {
	return &runReader{GitHub: gh, files: map[filesKey][]snapshot.ChangedFile{}, compares: map[compareKey]snapshot.Comparison{}}
}

// Files lists the PR's changed files, from GitHub the first time.
func (r *runReader) Files(ctx context.Context, repo snapshot.Repo, number int) ([]snapshot.ChangedFile, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	k := filesKey{repo, number}
	if fs, ok := r.files[k]; ok {
		return fs, nil
	}
	fs, err := r.GitHub.Files(ctx, repo, number)
	if err == nil {
		r.files[k] = fs
	}
	return fs, err
}

// Compare compares two commits, from GitHub the first time.
func (r *runReader) Compare(ctx context.Context, repo snapshot.Repo, base, head string) (snapshot.Comparison, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	k := compareKey{repo, base, head}
	if c, ok := r.compares[k]; ok {
		return c, nil
	}
	c, err := r.GitHub.Compare(ctx, repo, base, head)
	if err == nil {
		r.compares[k] = c
	}
	return c, err
}

// CreateComment posts a conversation comment and notes it.
func (r *runReader) CreateComment(ctx context.Context, repo snapshot.Repo, number int, body string) (snapshot.Comment, error) {
	c, err := r.GitHub.CreateComment(ctx, repo, number, body)
	if err == nil {
		r.mu.Lock()
		r.writes = append(r.writes, commentWrite{number: number, created: &c})
		r.mu.Unlock()
	}
	return c, err
}

// EditComment edits a conversation comment and notes it.
func (r *runReader) EditComment(ctx context.Context, repo snapshot.Repo, id int64, body string) error {
	err := r.GitHub.EditComment(ctx, repo, id, body)
	if err == nil {
		r.mu.Lock()
		r.writes = append(r.writes, commentWrite{id: id, body: body})
		r.mu.Unlock()
	}
	return err
}

// conversation is the PR's conversation after the run: the comments read at
// the start with the run's own posts and edits applied. editor is who the
// token is: GitHub names the last editor, and the run's edits are the
// token's. Comments people posted during the run are not in it; they are
// mentions for the next run (their own event starts it) and never count
// for the findings, which only the bot's blocks change.
func (r *runReader) conversation(start snapshot.Snapshot) []snapshot.Comment {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := slices.Clone(start.IssueComments)
	editor := start.Viewer
	for _, w := range r.writes {
		switch {
		case w.created != nil && w.number == start.PR.Number:
			out = append(out, *w.created)
		case w.created == nil:
			for i := range out {
				if out[i].ID == w.id {
					out[i].Body, out[i].Editor = w.body, &editor
				}
			}
		}
	}
	return out
}
