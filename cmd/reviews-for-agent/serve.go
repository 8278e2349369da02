package main

import (
	"context"
	"flag"
	"fmt"
	"github.com/review-my-code-bot/rmc/internal/version"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/review-my-code-bot/rmc/reviewsforagent"
)

// serve runs the inbox server in the foreground: request starts it in the
// background when none runs, and it stops by itself once idle.
func (c *cli) serve(ctx context.Context, args []string) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	port := fs.Int("port", reviewsforagent.DefaultInboxPort, "port to listen on at 127.0.0.1; when not given, the next free port from 4100 is used")
	idle := fs.Duration("idle", 0, "stop after this long without a request while no review is open (0: run until stopped)")
	var sf storeFlags
	sf.register(fs)
	fs.Usage = func() {
		fmt.Fprintln(c.stderr, "Usage: reviews-for-agent serve [--port N] [--idle DURATION] [--store PATH]")
		fs.PrintDefaults()
	}
	pos, code, ok := c.parseFlags(fs, args)
	if !ok {
		return code
	}
	if len(pos) > 0 {
		fmt.Fprintf(c.stderr, "reviews-for-agent serve: unexpected argument %q\n", pos[0])
		return exitUsage
	}
	if *port < 0 || *port > 65535 {
		fmt.Fprintf(c.stderr, "reviews-for-agent serve: --port %d is not a port number\n", *port)
		return exitUsage
	}
	strict := false
	fs.Visit(func(f *flag.Flag) { strict = strict || f.Name == "port" })
	store, err := c.openStore(sf)
	if err != nil {
		return c.fail(err, false)
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	fmt.Fprintf(c.stdout, "%s reviews-for-agent %s serve (pid %d)\n", time.Now().Format(time.RFC3339), version.String(), os.Getpid())
	err = reviewsforagent.Serve(ctx, reviewsforagent.ServeOptions{Store: store, Port: *port, StrictPort: strict, Idle: *idle, Out: c.stdout})
	if err != nil {
		fmt.Fprintln(c.stderr, "reviews-for-agent:", err)
		return exitFailure
	}
	return exitOK
}
