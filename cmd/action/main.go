// Command rmc is the review-my-code-bot GitHub Action.
//
//	rmc                          run as the action (reads the runner's environment)
//	rmc plan --repo o/r --pr N   print what a run would do on a real PR (needs GITHUB_TOKEN); writes nothing
//
// The offline demo is its own command, cmd/demo.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/review-my-code-bot/rmc/app"
)

func main() {
	// A cancelled job gets SIGTERM; stop promptly and let the pipeline end
	// between writes.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(app.Main(ctx, app.OSEnv(), os.Args[1:]))
}
