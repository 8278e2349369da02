package execution

import (
	"context"

	"github.com/review-my-code-bot/rmc/detector"
)

// testRig is a Config a test edits before it runs: each call builds from
// it what a run would.
type testRig struct {
	Config
}

func (c *testRig) executor() *Executor {
	x, err := New(c.Config)
	if err != nil {
		panic(err)
	}
	return x
}

func (c *testRig) Run(ctx context.Context, plan detector.Plan) Result {
	return c.executor().Run(ctx, plan)
}

func (c *testRig) run() *run             { return c.executor().start() }
func (c *testRig) poster() poster        { return c.run().poster }
func (c *testRig) review() *reviewRunner { return newReviewRunner(c.run()) }
