// Command reviews-for-agent lets a person review a coding agent's
// uncommitted changes in the browser, line by line as on a pull request,
// and hands the comments to the agent: as a Markdown file, and through a
// review inbox the agent checks when it likes, so it never blocks on a
// person and nobody pastes anything into its chat.
//
//	reviews-for-agent start [--port N] [--no-open] [--dir DIR]
//	reviews-for-agent request [FILE...] [--message TEXT] [--pr OWNER/REPO#N]
//	reviews-for-agent inbox list|get|claim|resolve|cancel|compact
//	reviews-for-agent serve [--port N]
//	reviews-for-agent mcp
//	reviews-for-agent review [--model M]
//	reviews-for-agent version
package main

import (
	"context"
	"fmt"
	"github.com/review-my-code-bot/rmc/internal/version"
	"io"
	"os"
	"time"

	"github.com/review-my-code-bot/rmc/inbox"
)

// Exit codes. A refused inbox operation exits with its kind's code:
// 2 invalid input, 3 not found, 4 conflict, 5 invalid state.
const (
	exitOK          = 0
	exitFailure     = 1
	exitUsage       = 2 // bad arguments, or a command this build lacks
	exitInterrupted = 130
)

func main() {
	c := &cli{stdout: os.Stdout, stderr: os.Stderr, stdin: os.Stdin, getenv: os.Getenv}
	os.Exit(c.run(context.Background(), os.Args[1:]))
}

// cli is one invocation: where it writes, and what it reads of its
// environment, so tests run commands in parallel without touching the
// process's own.
type cli struct {
	stdout, stderr io.Writer
	stdin          io.Reader
	getenv         func(string) string
	// spawn starts a detached inbox server; spawnServer when nil.
	spawn func(store string, port int, idle, lease time.Duration) error
}

const usage = `reviews-for-agent: review your coding agent's uncommitted changes in the
browser, and hand the comments to the agent without it waiting or you pasting.

Usage:
  reviews-for-agent start [--port N] [--no-open] [--dir DIR] [SOURCE]
  reviews-for-agent request [FILE...] [--message TEXT] [--dir DIR] [--json] [SOURCE]
  reviews-for-agent request --pr OWNER/REPO#N [--message TEXT] [--json]
  reviews-for-agent inbox list [--status S] [--claimed-by NAME] [--pr OWNER/REPO#N] [--json]
  reviews-for-agent inbox get ID [--json]
  reviews-for-agent inbox claim ID --by NAME [--force] [--json]
  reviews-for-agent inbox resolve ID [--by NAME] [--note TEXT] [--force] [--json]
  reviews-for-agent inbox cancel ID [--json]
  reviews-for-agent inbox compact [--retention 30d] [--json]
  reviews-for-agent serve [--port N] [--idle DURATION]
  reviews-for-agent mcp
  reviews-for-agent review [--dir DIR] [--model M] [--base-url URL]
  reviews-for-agent version
  reviews-for-agent --help

start serves the diff of the repository's uncommitted changes (staged,
unstaged and untracked files, against HEAD) on http://127.0.0.1:4000/review
and opens it in the browser. Click a line number to comment on a line,
shift-click another to comment on a range, and submit: the comments are
written to rfa/comments_<hash>.json and rfa/comments_<hash>.md in the
repository root, and recorded in the inbox. Ctrl+C stops the server. The
URL it prints carries a token: without it the server answers nobody, so
other users of the machine cannot read the diff. Comments are saved as you
write them; a reload restores them.

SOURCE picks other changes than the uncommitted ones: --commit REV (one
commit), --range A..B or A...B, --base BRANCH (the work tree against its
merge base with BRANCH), --staged, --unstaged, or --stdin (a unified diff).
The written comments name what was reviewed, to the commit and blob.

request is for agents: it records a review of the uncommitted changes (or of
the given files) and returns at once with its id and page URL, starting a
background server (serve) when none runs. With --pr it asks the review bot
on a GitHub pull request instead. The agent keeps working and later reads
the comments with inbox list and inbox get, claims a review before working
on it and resolves it when done. mcp offers the same to agents as MCP tools.

The inbox is kept in reviews.jsonl in the user's configuration directory;
--store or RFA_STORE choose another file. GitHub needs GITHUB_TOKEN (or
GH_TOKEN). Refused inbox operations exit with 2 (invalid input), 3 (not
found), 4 (conflict) or 5 (invalid state).
`

func (c *cli) run(ctx context.Context, args []string) int {
	if len(args) == 0 {
		fmt.Fprint(c.stderr, usage)
		return exitUsage
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		fmt.Fprint(c.stdout, usage)
		return exitOK
	case "version", "--version", "-version":
		fmt.Fprintln(c.stdout, version.Line("reviews-for-agent"))
		return exitOK
	case "start":
		return c.start(ctx, args[1:])
	case "serve":
		return c.serve(ctx, args[1:])
	case "request":
		return c.request(ctx, args[1:])
	case "inbox":
		return c.inbox(ctx, args[1:])
	case "mcp":
		return c.mcp(ctx, args[1:])
	case "review":
		return c.review(ctx, args[1:])
	default:
		fmt.Fprintf(c.stderr, "reviews-for-agent: unknown command %q\n\n%s", args[0], usage)
		return exitUsage
	}
}

// fail reports err and returns its exit code; with asJSON it also writes
// {"error", "kind"} to stdout for a program to read.
func (c *cli) fail(err error, asJSON bool) int {
	fmt.Fprintln(c.stderr, "reviews-for-agent:", err)
	code := inbox.ExitCode(err)
	if asJSON {
		writeJSON(c.stdout, struct {
			Error string `json:"error"`
			Kind  string `json:"kind"`
		}{err.Error(), inbox.KindName(err)})
	}
	return code
}
