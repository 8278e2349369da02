package main

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/review-my-code-bot/rmc/inbox"
	"github.com/review-my-code-bot/rmc/reviewsforagent"
)

// request asks for a review and returns at once; see the usage.
func (c *cli) request(ctx context.Context, args []string) int {
	fs := flag.NewFlagSet("request", flag.ContinueOnError)
	message := fs.String("message", "", "a note for the reviewer: what to look at")
	dir := fs.String("dir", ".", "a directory inside the git repository")
	files := fs.String("files", "", "comma-separated files or directories to review (also as arguments); default: every uncommitted change")
	pr := fs.String("pr", "", "ask the review bot on this GitHub pull request instead (owner/repo#N)")
	handle := fs.String("handle", inbox.DefaultHandle, "how a pull request comment addresses the review bot")
	port := fs.Int("port", reviewsforagent.DefaultInboxPort, "the review server's port (the next free one from here is used)")
	idle := fs.Duration("idle-exit", time.Hour, "how long a server this starts keeps running once no review is open and no request comes")
	open := fs.Bool("open", false, "also open the page in the browser")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	var sf storeFlags
	var gf githubFlags
	sf.register(fs)
	gf.register(fs)
	df := newSourceFlags(fs)
	fs.Usage = func() {
		fmt.Fprintln(c.stderr, "Usage: reviews-for-agent request [FILE...] [--message TEXT] [--dir DIR] [--json]\n"+sourceUsage+
			"\n       reviews-for-agent request --pr OWNER/REPO#N [--message TEXT] [--json]")
		fs.PrintDefaults()
	}
	pos, code, ok := c.parseFlags(fs, args)
	if !ok {
		return code
	}
	if *port <= 0 || *port > 65535 {
		fmt.Fprintf(c.stderr, "reviews-for-agent request: --port %d is not a port number\n", *port)
		return exitUsage
	}
	src, ok := c.sourceOf("request", df)
	if !ok {
		return exitUsage
	}
	paths := append(pos, splitList(*files)...)
	store, err := c.openStore(sf)
	if err != nil {
		return c.fail(err, *asJSON)
	}
	svc := c.service(store, gf)
	svc.Handle = *handle
	svc.Local = c.requester(store, *port, *idle)
	res, err := svc.Request(ctx, inbox.RequestOptions{LocalRequest: inbox.LocalRequest{Dir: *dir, Files: paths, Message: *message,
		Diff: src.Kind, Rev: src.Rev, Stdin: src.Stdin}, PR: *pr})
	if err != nil {
		return c.fail(err, *asJSON)
	}
	if *open && res.Source == inbox.SourceLocal {
		if err := openBrowser(res.URL); err != nil {
			res.Warnings = append(res.Warnings, fmt.Sprintf("could not open a browser: %v", err))
		}
	}
	if *asJSON {
		writeJSON(c.stdout, res)
	} else {
		inbox.WriteRequest(c.stdout, res)
	}
	return exitOK
}

// splitList is the items of a comma-separated list, trimmed, empty ones
// left out.
func splitList(list string) []string {
	var out []string
	for _, f := range strings.Split(list, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}
