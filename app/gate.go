package app

import (
	"context"
	"fmt"

	"github.com/review-my-code-bot/rmc/github"
	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/state"
)

// GateContext is the commit status that carries the merge gate. Make it a
// required check to block merging on open blocking findings.
const GateContext = "rmc/merge-gate"

// publishGate sets the gate on the head commit from the PR's state after
// the run: red while a blocking finding is open (disputed and escalated ones
// included), green otherwise. It runs on every run, so a dispute won or a fix
// verified in a comment-triggered run turns it green without a new push.
func publishGate(ctx context.Context, gh *github.Client, snap snapshot.Snapshot, st state.State) (int, error) {
	blocking := st.OpenBlocking()
	s := snapshot.Status{Context: GateContext, State: "success", Description: "No open blocking findings", TargetURL: snap.PR.URL}
	if n := len(blocking); n > 0 {
		s.State = "failure"
		s.Description = fmt.Sprintf("%d open blocking finding(s): fix, or reply in the thread to dispute", n)
	}
	if cur, found, err := gh.Status(ctx, snap.Repo, snap.PR.HeadSHA, GateContext); err == nil && found && cur.State == s.State && cur.Description == s.Description {
		return len(blocking), nil // unchanged: a run that changes nothing writes nothing
	}
	return len(blocking), gh.SetStatus(ctx, snap.Repo, snap.PR.HeadSHA, s)
}

// rules reads the project's rules for reviewers from the base branch, so a
// pull request cannot rewrite the rules it is judged by.
func rules(ctx context.Context, gh *github.Client, snap snapshot.Snapshot) (source, text string) {
	for _, path := range []string{"AGENTS.md", "CLAUDE.md", ".github/copilot-instructions.md"} {
		content, found, err := gh.Contents(ctx, snap.Repo, snap.PR.BaseSHA, path)
		if err == nil && found && content != "" {
			if source != "" {
				source += ", "
			}
			source += path
			text += "\n\n# " + path + "\n\n" + content
		}
	}
	return source, text
}
