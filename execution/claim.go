package execution

import (
	"context"
	"fmt"
	"time"

	"github.com/review-my-code-bot/rmc/snapshot"
)

// claimer claims work on a comment (see snapshot.Claim).
type claimer interface {
	Claim(ctx context.Context, repo snapshot.Repo, s snapshot.Subject) (snapshot.Claim, error)
}

// defaultLease is how long a claim holds when the options name none.
const defaultLease = 30 * time.Minute

// claim is the run's claim on s, so that two runs on one PR at once (a
// workflow without concurrency:) never do its work twice. held reports a
// claim another run made less than lease ago: its run may still be at
// work (no run outlives its timeout, so an older claim is a dead run's). A
// claim that cannot be written does not lose the work: held is false, as
// before claims.
func (e env) claim(ctx context.Context, gh claimer, lease time.Duration, s snapshot.Subject) (held bool, why string) {
	c, err := gh.Claim(ctx, e.repo(), s)
	if err != nil {
		e.Log.Warningf("could not claim comment %d before working on it: %v", s.ID, err)
		return false, ""
	}
	if lease <= 0 {
		lease = defaultLease
	}
	if c.Won || c.Age >= lease {
		return false, ""
	}
	return true, fmt.Sprintf("another run claimed it %s ago (lease %s): left to that run, so it is not answered twice", c.Age.Round(time.Second), lease)
}
