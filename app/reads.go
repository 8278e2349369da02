package app

import (
	"context"
	"sync"

	"github.com/review-my-code-bot/rmc/github"
	"github.com/review-my-code-bot/rmc/snapshot"
)

// runReader is the run's one reader of the PR's changed files and of
// comparisons: the system prompt, the review and the agent notification all
// ask for the file list, and each is read from GitHub once per run. The run
// works on the head commit its snapshot read, so a list read earlier in the
// run is the list every later task wants. A failed read is not kept: the
// next task that asks reads again. Writes and other reads go to the client.
type runReader struct {
	*github.Client
	mu       sync.Mutex
	files    map[filesKey][]snapshot.ChangedFile
	compares map[compareKey]snapshot.Comparison
}

type filesKey struct {
	repo   snapshot.Repo
	number int
}

type compareKey struct {
	repo       snapshot.Repo
	base, head string
}

func newRunReader(gh *github.Client) *runReader {
	return &runReader{Client: gh, files: map[filesKey][]snapshot.ChangedFile{}, compares: map[compareKey]snapshot.Comparison{}}
}

// Files lists the PR's changed files, from GitHub the first time.
func (r *runReader) Files(ctx context.Context, repo snapshot.Repo, number int) ([]snapshot.ChangedFile, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	k := filesKey{repo, number}
	if fs, ok := r.files[k]; ok {
		return fs, nil
	}
	fs, err := r.Client.Files(ctx, repo, number)
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
	c, err := r.Client.Compare(ctx, repo, base, head)
	if err == nil {
		r.compares[k] = c
	}
	return c, err
}
