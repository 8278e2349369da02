package app

import (
	"context"
	"fmt"

	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/state"
)

// GateContext is the commit status that carries the merge gate. Make it a
// required check to block merging on open blocking findings.
const GateContext = "rmc/merge-gate"

// gatePublisher reads and sets a commit status.
type gatePublisher interface {
	Status(ctx context.Context, repo snapshot.Repo, sha, statusContext string) (s snapshot.Status, found bool, err error)
	SetStatus(ctx context.Context, repo snapshot.Repo, sha string, s snapshot.Status) error
}

// publishGate sets the gate on the head commit from the PR's state after
// the run: red while a blocking finding is open (disputed and escalated ones
// included), green otherwise. It runs on every run, so a dispute won or a fix
// verified in a comment-triggered run turns it green without a new push.
//
// The status on the head is known from the run's first read when it asked
// for it (start.Config.Read), so an unchanged gate costs no request. Only
// this function writes GateContext, at the end of a run, so what the first
// read saw is what this run left; a concurrent run's status is overwritten
// as it would be by a later write.
func publishGate(ctx context.Context, gh gatePublisher, start, snap snapshot.Snapshot, st state.State) (int, error) {
	blocking := st.OpenBlocking()
	s := snapshot.Status{Context: GateContext, State: "success", Description: "No open blocking findings", TargetURL: snap.PR.URL}
	if n := len(blocking); n > 0 {
		s.State = "failure"
		s.Description = fmt.Sprintf("%d open blocking finding(s): fix, or reply in the thread to dispute", n)
	}
	if cur, found, err := headStatus(ctx, gh, start, snap); err == nil && found && cur.State == s.State && cur.Description == s.Description {
		return len(blocking), nil // unchanged: a run that changes nothing writes nothing
	}
	return len(blocking), gh.SetStatus(ctx, snap.Repo, snap.PR.HeadSHA, s)
}

// headStatus is the gate's status on the head commit: from the run's first
// read when it holds it for this head, else read now.
func headStatus(ctx context.Context, gh gatePublisher, start, snap snapshot.Snapshot) (snapshot.Status, bool, error) {
	if !start.Config.Read || start.PR.HeadSHA != snap.PR.HeadSHA {
		return gh.Status(ctx, snap.Repo, snap.PR.HeadSHA, GateContext)
	}
	for _, s := range start.Config.HeadStatuses {
		if s.Context == GateContext {
			return s, true, nil
		}
	}
	return snapshot.Status{}, false, nil
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
