package app

import (
	"context"
	"strings"

	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/state"
)

// permissionReader reads a user's role on a repository.
type permissionReader interface {
	Permission(ctx context.Context, repo snapshot.Repo, login string) (snapshot.Role, error)
}

// deriver derives a run's state, asking GitHub once per login per run for
// the permission of whoever resolved a blocking finding's thread: whether
// that resolution counts depends on it (see state.Options.Writers). The
// same lookup serves the rest of the run (the Learner's), so a login is
// asked about once per run whoever needs it.
type deriver struct {
	gh    permissionReader
	opts  state.Options
	log   *Log
	roles map[string]permission // by lower-cased login
}

// permission is one login's answer: its role, or why it could not be read.
type permission struct {
	role snapshot.Role
	err  error
}

func newDeriver(gh permissionReader, opts state.Options, log *Log) *deriver {
	opts.Writers = map[string]bool{}
	return &deriver{gh: gh, opts: opts, log: log, roles: map[string]permission{}}
}

// Permission is the run's one permission lookup: GitHub is asked once per
// login per run, and a failure is remembered too (the resolution it would
// have judged stays unjudged for the run, and is not asked about again).
func (d *deriver) Permission(ctx context.Context, repo snapshot.Repo, login string) (snapshot.Role, error) {
	key := strings.ToLower(login)
	if p, known := d.roles[key]; known {
		return p.role, p.err
	}
	role, err := d.gh.Permission(ctx, repo, login)
	d.roles[key] = permission{role: role, err: err}
	return role, err
}

// derive computes the state of snap. A permission that cannot be read
// leaves its resolution unjudged: the finding keeps blocking, and its thread
// is not reopened on a guess.
func (d *deriver) derive(ctx context.Context, snap snapshot.Snapshot) state.State {
	st := state.Derive(snap, d.opts)
	asked := false
	for _, login := range append(st.Resolvers(), st.Waivers()...) {
		key := strings.ToLower(login)
		if _, known := d.opts.Writers[key]; known {
			continue
		}
		role, err := d.Permission(ctx, snap.Repo, login)
		if err != nil {
			d.log.Warningf("could not read the permission of @%s, who resolved a blocking finding's thread or waived one; the finding keeps blocking: %v", login, err)
			continue
		}
		d.opts.Writers[key] = role.Writes()
		asked = true
	}
	if !asked {
		return st
	}
	return state.Derive(snap, d.opts)
}

// learningsGitHub is the Learner's GitHub: the run's client, with
// permissions read through the deriver's lookup.
type learningsGitHub struct {
	GitHub
	perms *deriver
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
