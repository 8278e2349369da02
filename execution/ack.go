package execution

import (
	"context"

	"github.com/review-my-code-bot/rmc/detector"
	"github.com/review-my-code-bot/rmc/snapshot"
)

// ackGitHub is what acknowledging a mention writes.
type ackGitHub interface {
	React(ctx context.Context, repo snapshot.Repo, id int64, review bool, content string) error
}

// ackRunner acknowledges a mention with a reaction.
type ackRunner struct {
	env
	GitHub ackGitHub
}

func (x *ackRunner) Run(ctx context.Context, t detector.Task) Outcome {
	o := Outcome{Task: t}
	if err := x.GitHub.React(ctx, x.repo(), t.Mention.Ref.ID, t.Mention.Thread != nil, "+1"); err != nil {
		o.Err = err
	}
	o.Note = "acknowledged"
	return o
}
