package state

import (
	"context"
	"strings"

	"github.com/review-my-code-bot/rmc/snapshot"
)

// PermissionReader reads a user's role on a repository.
type PermissionReader interface {
	Permission(ctx context.Context, repo snapshot.Repo, login string) (snapshot.Role, error)
}

// Permissions derives a run's state, asking GitHub once per login per run
// for the permission of whoever resolved a blocking finding's thread or
// gave a maintainers' command: whether that counts depends on it (see
// Options.Writers). The same lookup serves the rest of the run, so a login
// is asked about once per run whoever needs it.
type Permissions struct {
	gh    PermissionReader
	opts  Options
	warn  func(format string, args ...any)
	roles map[string]permission // by lower-cased login
}

// permission is one login's answer: its role, or why it could not be read.
type permission struct {
	role snapshot.Role
	err  error
}

// NewPermissions derives states with opts, reading permissions through gh;
// warn says when one cannot be read.
func NewPermissions(gh PermissionReader, opts Options, warn func(format string, args ...any)) *Permissions {
	opts.Writers = map[string]bool{}
	return &Permissions{gh: gh, opts: opts, warn: warn, roles: map[string]permission{}}
}

// Permission is the run's one permission lookup: GitHub is asked once per
// login per run, and a failure is remembered too (the resolution it would
// have judged stays unjudged for the run, and is not asked about again).
func (p *Permissions) Permission(ctx context.Context, repo snapshot.Repo, login string) (snapshot.Role, error) {
	key := strings.ToLower(login)
	if r, known := p.roles[key]; known {
		return r.role, r.err
	}
	role, err := p.gh.Permission(ctx, repo, login)
	p.roles[key] = permission{role: role, err: err}
	return role, err
}

// Derive computes the state of snap: derived once, and again when it named
// logins whose permission decides (Resolvers, Waivers), with their roles.
// A permission that cannot be read leaves its resolution unjudged: the
// finding keeps blocking, and its thread is not reopened on a guess.
func (p *Permissions) Derive(ctx context.Context, snap snapshot.Snapshot) State {
	st := Derive(snap, p.opts)
	asked := false
	for _, login := range append(st.Resolvers(), st.Waivers()...) {
		key := strings.ToLower(login)
		if _, known := p.opts.Writers[key]; known {
			continue
		}
		role, err := p.Permission(ctx, snap.Repo, login)
		if err != nil {
			p.warn("could not read the permission of @%s, who resolved a blocking finding's thread or gave a maintainers' command; it does not count: %v", login, err)
			continue
		}
		p.opts.Writers[key] = role.Writes()
		asked = true
	}
	if !asked {
		return st
	}
	return Derive(snap, p.opts)
}
