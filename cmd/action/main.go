// Command rmc is the review-my-code-bot GitHub Action.
//
//	rmc                          run as the action (reads the runner's environment)
//	rmc plan --repo o/r --pr N   print what a run would do on a real PR (needs GITHUB_TOKEN); writes nothing
//
// The offline demo is its own command, cmd/demo. This is the one place that
// builds the real GitHub client: package app declares what it needs.
package main

import (
	"context"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"github.com/review-my-code-bot/rmc/app"
	"github.com/review-my-code-bot/rmc/github"
)

func main() { os.Exit(run()) }

// run is the action, its exit code returned so that its deferred stop runs
// before main exits.
func run() int {
	// A huge pull request's diff is most of the heap for the whole run, so
	// the default GOGC of 100 would let the heap grow to twice it between
	// collections. Half that headroom keeps the peak (and the runner's
	// memory) well below it for a few percent more CPU; GOGC still wins.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(50)
	}
	// A cancelled job gets SIGTERM; stop promptly and let the pipeline end
	// between writes.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return app.Main(ctx, app.OSEnv(), gitHub, os.Args[1:])
}

// gitHub is the real GitHub: package github's webhook parser and client.
var gitHub = app.Connector{ParseEvent: github.ParseEvent, Connect: connect}

var _ app.GitHub = (*github.Client)(nil)

// connect builds the GitHub client from the runner's variables.
func connect(c app.Connection) (app.GitHub, error) {
	opts, err := github.RunnerOptions(c.Token, c.Getenv, c.Warn)
	if err != nil {
		return nil, err
	}
	client, err := github.New(opts)
	if err != nil {
		return nil, err
	}
	return client, nil
}
