package app

import (
	"context"

	"github.com/review-my-code-bot/rmc/gate"
	"github.com/review-my-code-bot/rmc/review"
	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/state"
)

// GateContext is the commit status that carries the merge gate. Make it a
// required check to block merging until the head is reviewed and nothing
// blocking stands.
const GateContext = gate.Context

// gatePublisher reads and sets a commit status.
type gatePublisher interface {
	Status(ctx context.Context, repo snapshot.Repo, sha, statusContext string) (s snapshot.Status, found bool, err error)
	SetStatus(ctx context.Context, repo snapshot.Repo, sha string, s snapshot.Status) error
}

// verdict is the gate for the snapshot's head: what the PR's reviews
// covered of it (against its current base) and what blocking findings
// stand, fixes the head no longer contains and deleted threads included.
//
// Files no review could read count against coverage until the base
// branch's configuration excludes them (ignore_paths, .gitattributes): the
// invariant's exclusions are the base's, as they stand now.
func verdict(snap snapshot.Snapshot, st state.State, ignorePaths []string) (gate.Verdict, int) {
	cov := st.Coverage(snap.PR.HeadSHA, snap.PR.BaseRef)
	if cov.Coverage == gate.Unreadable {
		cov.Unreviewed = 0
		ex := review.NewExclusions(ignorePaths, review.Generated{Attributes: snap.Config.Attributes})
		for _, p := range cov.Run.Unreadable {
			if ex.Why(p) == "" {
				cov.Unreviewed++
			}
		}
		if cov.Unreviewed == 0 {
			cov.Coverage = gate.Covered
		}
	}
	in := gate.Input{Head: snap.PR.HeadSHA, Coverage: cov.Coverage, Why: cov.Why, Unreviewed: cov.Unreviewed}
	switch {
	case cov.Coverage == gate.Covered:
	case st.Pause != nil:
		// A pause or an ignore never lets an unreviewed head through.
		in.Coverage, in.Why = gate.Paused, st.Pause.Why()
	case snap.PR.Draft:
		in.Coverage, in.Why = gate.Paused, "a draft is reviewed when marked ready for review"
	}
	in.Missing = len(st.Missing())
	in.Blocking = len(st.OpenBlocking()) + in.Missing
	return gate.Derive(in), in.Blocking
}

// statusOf is the commit status a verdict sets.
func statusOf(v gate.Verdict, url string) snapshot.Status {
	return snapshot.Status{Context: GateContext, State: string(v.State), Description: v.Description, TargetURL: url}
}

// startStatus is the gate's status on the head as the run's first read
// saw it, when that read asked for it and the head is the same.
func startStatus(start, snap snapshot.Snapshot) (s snapshot.Status, found, known bool) {
	if !start.Config.Read || start.PR.HeadSHA != snap.PR.HeadSHA {
		return snapshot.Status{}, false, false
	}
	for _, s := range start.Config.HeadStatuses {
		if s.Context == GateContext {
			return s, true, true
		}
	}
	return snapshot.Status{}, false, true
}

func same(a snapshot.Status, found bool, b snapshot.Status) bool {
	return found && a.State == b.State && a.Description == b.Description
}

// contentsReader reads a file of a repository at a commit.
type contentsReader interface {
	Contents(ctx context.Context, repo snapshot.Repo, ref, path string) (content string, found bool, err error)
}

// rules are the project's rules for reviewers from the base branch, so a
// pull request cannot rewrite the rules it is judged by. The snapshot read
// them with the config file; a snapshot that did not is completed through
// the contents API.
func rules(ctx context.Context, gh contentsReader, snap snapshot.Snapshot) (source, text string) {
	files := snap.Config.Rules
	if !snap.Config.Read {
		for _, path := range snapshot.RulesPaths {
			content, found, err := gh.Contents(ctx, snap.Repo, snap.PR.BaseSHA, path)
			if err == nil && found && content != "" {
				files = append(files, snapshot.RulesFile{Path: path, Text: content})
			}
		}
	}
	for _, f := range files {
		if source != "" {
			source += ", "
		}
		source += f.Path
		text += "\n\n# " + f.Path + "\n\n" + f.Text
	}
	return source, text
}
