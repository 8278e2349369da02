package app

import (
	"context"
	"fmt"

	"github.com/review-my-code-bot/rmc/execution"
	"github.com/review-my-code-bot/rmc/gate"
	"github.com/review-my-code-bot/rmc/review"
	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/state"
)

// treeReader reads git trees and the merge base: what a head's change set
// is derived from.
type treeReader interface {
	Tree(ctx context.Context, repo snapshot.Repo, sha string, recursive bool) (gate.Tree, error)
	MergeBase(ctx context.Context, repo snapshot.Repo, base, head string) (string, error)
}

// changeSet reads the change set of head: every path whose object differs
// between the merge base of base and head, and head. Only subtrees whose
// ids differ are read, so it costs two reads per directory the PR touched
// (one for a directory it added), whatever the size of the repository. A
// read that fails or comes back truncated past every fallback leaves the
// change set unknown; gate.Compare says which.
func changeSet(ctx context.Context, gh treeReader, repo snapshot.Repo, base, head string) gate.ChangeSet {
	mb, err := gh.MergeBase(ctx, repo, base, head)
	if err != nil {
		return gate.ChangeSet{Unknown: err.Error()}
	}
	var out []gate.Change
	queue := []gate.Descent{{Base: mb, Head: head}}
	for len(queue) > 0 {
		d := queue[0]
		queue = queue[1:]
		if d.Base == "" {
			// A directory the head added: all of it is changed, in one
			// read unless GitHub truncates it.
			t, err := gh.Tree(ctx, repo, d.Head, true)
			if err != nil {
				return gate.ChangeSet{Unknown: err.Error()}
			}
			if !t.Truncated {
				out = append(out, gate.Added(d.Dir, t)...)
				continue
			}
		}
		changes, next, unknown := compareLevel(ctx, gh, repo, d)
		if unknown != "" {
			return gate.ChangeSet{Unknown: unknown}
		}
		if len(next) > wideLevel && d.Base != "" {
			// Many subdirectories changed: both sides read whole are two
			// reads, where level by level would be two a subdirectory.
			if whole, ok := compareWhole(ctx, gh, repo, d); ok {
				out = append(out, whole...)
				continue
			}
		}
		out = append(out, changes...)
		queue = append(queue, next...)
	}
	return gate.ChangeSet{Changes: gate.Sorted(out)}
}

// wideLevel is how many changed subdirectories of one directory make the
// walk read it whole rather than one subdirectory at a time.
const wideLevel = 8

// compareWhole compares the subdirectories of a directory from recursive
// reads of both sides; ok is false when either was truncated or failed,
// and the walk goes on level by level.
func compareWhole(ctx context.Context, gh treeReader, repo snapshot.Repo, d gate.Descent) ([]gate.Change, bool) {
	base, err := gh.Tree(ctx, repo, d.Base, true)
	if err != nil || base.Truncated {
		return nil, false
	}
	head, err := gh.Tree(ctx, repo, d.Head, true)
	if err != nil || head.Truncated {
		return nil, false
	}
	changes, unknown := gate.CompareWhole(d.Dir, base, head)
	return changes, unknown == ""
}

// compareLevel reads one level of both sides of a descent and compares it.
func compareLevel(ctx context.Context, gh treeReader, repo snapshot.Repo, d gate.Descent) ([]gate.Change, []gate.Descent, string) {
	var base gate.Tree
	if d.Base != "" {
		t, err := gh.Tree(ctx, repo, d.Base, false)
		if err != nil {
			return nil, nil, err.Error()
		}
		base = t
	}
	head, err := gh.Tree(ctx, repo, d.Head, false)
	if err != nil {
		return nil, nil, err.Error()
	}
	return gate.Compare(d.Dir, base, head)
}

// baseScope is what the base branch's configuration leaves out of every
// review, as the one scope rule says it (review.Scope: ignore_paths,
// private_paths, generated and vendored files by .gitattributes): the gate
// owes those paths nothing. It is the one place the gate asks.
func baseScope(s review.Settings, attributes string) gate.Scope {
	key := fmt.Sprintf("ignore %q\nprivate %q\nattributes %q", s.IgnorePaths, s.PrivatePaths, attributes)
	return scopeOf{s: review.NewScope(s, review.Generated{Attributes: attributes}), key: key}
}

// scopeOf is the review's scope as the gate asks it; key is what it was
// built from (review.NewScope reads nothing else).
type scopeOf struct {
	s   review.Scope
	key string
}

func (s scopeOf) Excluded(path string) bool { return s.s.WhyPath(path) != "" }
func (s scopeOf) Key() string               { return s.key }

// owedChanges is the head's change set for the plan, which says from it
// what the head owes (gate.Owed): the PR's files as GitHub lists them,
// each with its head blob id (the run's one read of the list, which the
// review and the session read too), or, when the list was cut
// (execution.ListCut), the trees' change set, which the review and the
// gate then reuse. A list
// that cannot be read leaves it nil: unknown.
func owedChanges(ctx context.Context, r *runRecord, gh treeReader) *gate.ChangeSet {
	files, err := r.reads.Files(ctx, r.snap.Repo, r.snap.PR.Number)
	if err != nil {
		return nil
	}
	if execution.ListCut(len(files), r.snap.PR) {
		cs := r.changeSet(gh)(ctx)
		return &cs
	}
	var cs gate.ChangeSet
	for _, f := range files {
		switch {
		case f.Status == "removed":
		case f.Blob == "":
			return &gate.ChangeSet{Unknown: fmt.Sprintf("GitHub listed %q without its blob id", f.Path)}
		default:
			cs.Changes = append(cs.Changes, gate.Change{Path: f.Path, Blob: f.Blob, Kind: gate.KindBlob})
		}
	}
	cs.Changes = gate.Sorted(cs.Changes)
	return &cs
}

// greenStands reports whether the gate's status on the head is success,
// judged on the facts the run holds (gate.Stands): the head owes no
// review, and the plan needs no change set to know it.
func greenStands(snap snapshot.Snapshot, st state.State, scope review.Settings) bool {
	was, found, _ := startStatus(snap, snap)
	return found && gate.State(was.State) == gate.Success && stands(snap, snap, st, scope)
}
