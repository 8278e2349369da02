package github

import (
	"context"

	"github.com/review-my-code-bot/rmc/snapshot"
)

// SnapshotSince reads the PR again after the run's own writes, as far as
// they can change its review threads and reviews: the PR with its commits,
// every review thread with its comments (a resolution or a reply may land
// anywhere), and the reviews posted since start, read from the newest back
// to the first start holds; the older ones are start's. The conversation is
// not read: IssueComments is nil, for the caller to fill in.
//
// Config, the files start read at the base commit (the config file, the
// rules, the git attributes), is start's while the base is the same commit;
// its HeadStatuses are nil, since the run may have set statuses since. The
// learnings issue is not read.
func (c *Client) SnapshotSince(ctx context.Context, start snapshot.Snapshot) (snapshot.Snapshot, error) {
	snap, err := c.snapshot(ctx, start.Repo, start.PR.Number, snapshotRead{since: &start})
	if err == nil && start.Config.Read && snap.PR.BaseSHA == start.PR.BaseSHA {
		snap.Config = start.Config
		snap.Config.HeadStatuses = nil
	}
	return snap, err
}
