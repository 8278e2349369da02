package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"github.com/review-my-code-bot/rmc/internal/version"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/review-my-code-bot/rmc/inbox"
	"github.com/review-my-code-bot/rmc/inbox/inboxmcp"
	"github.com/review-my-code-bot/rmc/reviewsforagent"
)

// mcp serves the inbox to an agent over MCP on stdin and stdout, until the
// agent closes the connection.
func (c *cli) mcp(ctx context.Context, args []string) int {
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	port := fs.Int("port", reviewsforagent.DefaultInboxPort, "the review server's port (the next free one from here is used)")
	idle := fs.Duration("idle-exit", time.Hour, "how long a server this starts keeps running once no review is open and no request comes")
	handle := fs.String("handle", inbox.DefaultHandle, "how a pull request comment addresses the review bot")
	var sf storeFlags
	var gf githubFlags
	sf.register(fs)
	gf.register(fs)
	fs.Usage = func() {
		fmt.Fprintln(c.stderr, "Usage: reviews-for-agent mcp [--store PATH] [--port N]\n\nServes the tools review_request and review_inbox over stdio.")
		fs.PrintDefaults()
	}
	pos, code, ok := c.parseFlags(fs, args)
	if !ok {
		return code
	}
	if len(pos) > 0 {
		fmt.Fprintf(c.stderr, "reviews-for-agent mcp: unexpected argument %q\n", pos[0])
		return exitUsage
	}
	store, err := c.openStore(sf)
	if err != nil {
		return c.fail(err, false)
	}
	svc := c.service(store, gf)
	svc.Handle = *handle
	svc.Local = c.requester(store, *port, *idle)
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	// Stdout belongs to the protocol: nothing else may write there.
	err = inboxmcp.NewServer(svc, version.String()).Run(ctx, &mcp.StdioTransport{})
	if err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintln(c.stderr, "reviews-for-agent mcp:", err)
		return exitFailure
	}
	return exitOK
}
