package app

import (
	"context"

	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/state"
)

// learningsGitHub is the Learner's GitHub: the run's client, with
// permissions read through the run's one lookup (state.Permissions).
type learningsGitHub struct {
	GitHub
	perms *state.Permissions
	pr    int
}

// ReadLearnings reads the learnings issue again (it comes with the PR's
// snapshot): the Learner settles its claims on commands with it.
func (g learningsGitHub) ReadLearnings(ctx context.Context, repo snapshot.Repo) (snapshot.LearningsIssue, error) {
	snap, err := g.SnapshotWithConfig(ctx, repo, g.pr, "", "")
	if err != nil {
		return snapshot.LearningsIssue{}, err
	}
	return snap.Learnings, nil
}

func (g learningsGitHub) Permission(ctx context.Context, repo snapshot.Repo, login string) (snapshot.Role, error) {
	return g.perms.Permission(ctx, repo, login)
}
