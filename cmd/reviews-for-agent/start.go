package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"syscall"

	"github.com/review-my-code-bot/rmc/reviewsforagent"
)

// start is the interactive round: serve the diff, let the person submit,
// until Ctrl+C. The review is recorded in the inbox too, unless the store
// cannot be opened, which is reported and otherwise ignored: the page and
// the files work without it.
func (c *cli) start(ctx context.Context, args []string) int {
	fs := flag.NewFlagSet("start", flag.ContinueOnError)
	port := fs.Int("port", reviewsforagent.DefaultPort, "port to listen on at 127.0.0.1; when not given, the next free port from 4000 is used")
	noOpen := fs.Bool("no-open", false, "do not open the browser")
	dir := fs.String("dir", ".", "a directory inside the git repository to review")
	var sf storeFlags
	sf.register(fs)
	df := newSourceFlags(fs)
	fs.Usage = func() {
		fmt.Fprintln(c.stderr, "Usage: reviews-for-agent start [--port N] [--no-open] [--dir DIR] [--store PATH]\n"+sourceUsage)
		fs.PrintDefaults()
	}
	pos, code, ok := c.parseFlags(fs, args)
	if !ok {
		return code
	}
	if len(pos) > 0 {
		fmt.Fprintf(c.stderr, "reviews-for-agent start: unexpected argument %q\n", pos[0])
		fs.Usage()
		return exitUsage
	}
	if *port < 0 || *port > 65535 {
		fmt.Fprintf(c.stderr, "reviews-for-agent start: --port %d is not a port number\n", *port)
		return exitUsage
	}
	src, ok := c.sourceOf("start", df)
	if !ok {
		return exitUsage
	}
	// A port the person asked for is the one they will type: do not move
	// to another one behind their back.
	strict := false
	fs.Visit(func(f *flag.Flag) { strict = strict || f.Name == "port" })

	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	opts := reviewsforagent.RunOptions{Dir: *dir, Source: src, Port: *port, StrictPort: strict, Out: c.stdout}
	if store, err := c.openStore(sf); err != nil {
		fmt.Fprintf(c.stderr, "reviews-for-agent: the review will not be in the inbox: %v\n", err)
	} else {
		opts.Store = store
	}
	if !*noOpen {
		opts.Open = openBrowser
	}
	if err := reviewsforagent.Run(ctx, opts); err != nil {
		fmt.Fprintln(c.stderr, "reviews-for-agent:", err)
		switch {
		case errors.Is(err, reviewsforagent.ErrNotARepo):
			fmt.Fprintln(c.stderr, "Run it inside a git work tree, or pass --dir.")
		case errors.Is(err, reviewsforagent.ErrNowhereToWrite):
			fmt.Fprintln(c.stderr, "Comments you submitted would be lost, so no review page was started. Make the repository writable, or pass --store with a file you can write.")
		}
		if ctx.Err() != nil {
			return exitInterrupted
		}
		return exitFailure
	}
	return exitOK
}

// openBrowser asks the desktop to open url. It does not wait for the
// browser, which may run for as long as the person likes.
func openBrowser(url string) error {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		cmd = exec.Command("open", url)
	case "windows":
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", url)
	default:
		cmd = exec.Command("xdg-open", url)
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	go cmd.Wait() // reap it; its exit status says nothing useful
	return nil
}
