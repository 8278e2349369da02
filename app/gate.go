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
	StatusesSince(ctx context.Context, repo snapshot.Repo, sha, statusContext string, after int64) (since []snapshot.Status, complete bool, err error)
}

// verdict is the gate for the snapshot's head (package gate has the
// rule): its change set against the ledger of what the PR's automatic
// reviews read, and the blocking findings that stand; with the blocking
// findings it counted and the basis it was judged on (gate.Basis). What
// the state says of the head's review (running, failed, paused, a draft)
// only words a pending gate.
func verdict(snap snapshot.Snapshot, st state.State, changes gate.ChangeSet, scope review.Settings) (gate.Verdict, int, string) {
	f := facts(snap, st, changes, scope)
	j := gate.Evaluate(f)
	return j.Verdict, f.Blocking + j.Lapsed, gate.Basis(f, snap.PR.Number, snap.PR.BaseSHA)
}

// facts are what the gate of the snapshot's head is judged on.
func facts(snap snapshot.Snapshot, st state.State, changes gate.ChangeSet, scope review.Settings) gate.Facts {
	f := gate.Facts{Head: snap.PR.HeadSHA, Changes: changes, Ledger: st.Ledger(), Scope: baseScope(scope, snap.Config.Attributes),
		Missing: len(st.Missing()), Integrity: integrity(st), Decisions: st.Decisions()}
	f.Blocking = len(st.OpenBlocking()) + f.Missing
	switch cov := st.Coverage(snap.PR.HeadSHA, snap.PR.BaseRef); {
	case st.Pause != nil:
		f.Review, f.Why = gate.Paused, st.Pause.Why()
	case snap.PR.Draft:
		f.Review, f.Why = gate.Paused, "a draft is reviewed when marked ready for review"
	case cov.Coverage == gate.Failed || cov.Coverage == gate.Running || cov.Coverage == gate.Partial:
		f.Review, f.Why = cov.Coverage, cov.Why
	}
	return f
}

// stands reports whether a run whose work changed neither the ledger nor
// the findings leaves the head's gate as the run found it (gate.Stands):
// no change set is read and no status written. The start's read must have
// asked for the head's statuses.
func stands(start, snap snapshot.Snapshot, st state.State, scope review.Settings) bool {
	was, found, known := startStatus(start, snap)
	if !known {
		return false
	}
	f := facts(snap, st, gate.ChangeSet{Unread: true}, scope)
	p := gate.Published{Found: found, State: gate.State(was.State), URL: was.TargetURL}
	return gate.Stands(p, f, gate.Basis(f, snap.PR.Number, snap.PR.BaseSHA))
}

// integrity is what the state's ledger check says, for the gate: the cuts
// no maintainer cleared and the findings they touch that do not block on
// their own.
func integrity(st state.State) gate.Integrity {
	cuts := st.OpenCuts()
	if len(cuts) == 0 {
		return gate.Integrity{}
	}
	in := gate.Integrity{Cuts: len(cuts), Cut: cuts[0].Why}
	for _, f := range st.Findings {
		if !f.Blocks() && st.Touched(f.Block.ID) {
			in.Touched++
		}
	}
	return in
}

// changeKey is a change set and the commits it was read for.
type changeKey struct {
	base, head string
	set        gate.ChangeSet
}

// of reports whether the change set is the snapshot's.
func (k changeKey) of(snap snapshot.Snapshot) bool {
	return k.head == snap.PR.HeadSHA && k.base == snap.PR.BaseSHA
}

// readChanges reads the change set of the snapshot's head, unless it
// cannot change the gate (gate.Worth): then it is marked unread, and the
// key stays empty so a later state reads it.
func readChanges(ctx context.Context, gh treeReader, snap snapshot.Snapshot, st state.State) changeKey {
	if !gate.Worth(len(st.OpenBlocking()) + len(st.Missing()) + len(st.OpenCuts())) {
		return changeKey{set: gate.ChangeSet{Unread: true}}
	}
	return changeKey{base: snap.PR.BaseSHA, head: snap.PR.HeadSHA, set: changeSet(ctx, gh, snap.Repo, snap.PR.BaseSHA, snap.PR.HeadSHA)}
}

// standingVerdict is the gate as the run's first read saw it on the head,
// for the outputs and the summary of a run that leaves it standing.
func standingVerdict(snap snapshot.Snapshot) gate.Verdict {
	if was, found, _ := startStatus(snap, snap); found {
		return gate.Verdict{State: gate.State(was.State), Description: was.Description}
	}
	return gate.Verdict{State: gate.Pending, Description: "no status on the head yet: its automatic review sets it"}
}

// changeSet reads the head's change set for a review that needs the files
// past GitHub's list, once: the gate at the end of the run reuses it.
func (r *runRecord) changeSet(gh treeReader) func(ctx context.Context) gate.ChangeSet {
	return func(ctx context.Context) gate.ChangeSet {
		if !r.changes.of(r.snap) {
			r.changes = changeKey{base: r.snap.PR.BaseSHA, head: r.snap.PR.HeadSHA, set: changeSet(ctx, gh, r.snap.Repo, r.snap.PR.BaseSHA, r.snap.PR.HeadSHA)}
		}
		return r.changes.set
	}
}

// statusOf is the commit status a verdict sets; its target URL carries the
// basis the verdict was judged on (gate.Stamp).
func statusOf(v gate.Verdict, url, basis string) snapshot.Status {
	return snapshot.Status{Context: GateContext, State: string(v.State), Description: v.Description, TargetURL: gate.Stamp(url, basis)}
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
	return found && a.State == b.State && a.Description == b.Description && a.TargetURL == b.TargetURL
}

// overtaken reports whether another run's status landed between this
// run's read of the gate's status and its write of ours: since lists the
// statuses written after that read, newest first. When a later write than
// ours leads, its run owns the gate (and checks it the same way); a status
// equal to ours changes nothing.
func overtaken(since []snapshot.Status, ours snapshot.Status) bool {
	if len(since) == 0 || !same(since[0], true, ours) {
		return false
	}
	for _, s := range since[1:] {
		if !same(s, true, ours) {
			return true
		}
	}
	return false
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
