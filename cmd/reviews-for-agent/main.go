// Command reviews-for-agent lets a person review their uncommitted changes
// in the browser, line by line as on a pull request, and hands the comments
// to their coding agent as a Markdown file.
//
//	reviews-for-agent start [--port N] [--no-open] [--dir DIR]
//	reviews-for-agent version
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"runtime/debug"
	"syscall"

	"github.com/review-my-code-bot/rmc/localreview"
)

// version is set at build time with -ldflags "-X main.version=v1.2.3";
// otherwise the module version from the build info is used.
var version = ""

// Exit codes.
const (
	exitOK          = 0
	exitFailure     = 1
	exitUsage       = 2 // bad arguments, or a command this build lacks
	exitInterrupted = 130
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
}

const usage = `reviews-for-agent: review your uncommitted changes in the browser and hand
the comments to your coding agent.

Usage:
  reviews-for-agent start [--port N] [--no-open] [--dir DIR]
  reviews-for-agent review        (not available in this build)
  reviews-for-agent version
  reviews-for-agent --help

start serves the diff of the repository's uncommitted changes (staged,
unstaged and untracked files, against HEAD) on http://localhost:4000/review
and opens it in the browser. Click a line number to comment on a line,
shift-click another to comment on a range, and submit: the comments are
written to rfa/comments_<hash>.json and rfa/comments_<hash>.md in the
repository root. Give the .md file to your agent. Ctrl+C stops the server.
`

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, usage)
		return exitOK
	case "version", "--version":
		fmt.Fprintln(stdout, "reviews-for-agent", buildVersion())
		return exitOK
	case "start":
		return start(ctx, args[1:], stdout, stderr)
	case "review":
		return review(args[1:], stderr)
	default:
		fmt.Fprintf(stderr, "reviews-for-agent: unknown command %q\n\n%s", args[0], usage)
		return exitUsage
	}
}

// review is the place for the "review" subcommand: it will run the
// action's review engine on the local diff and write its findings with
// package agentmd, so the agent gets them in the same format as a person's
// comments. That engine is not part of this build; until it is wired in
// here, the command says so and fails rather than pretend to review.
func review(args []string, stderr io.Writer) int {
	_ = args
	fmt.Fprintln(stderr, "reviews-for-agent: the review command is not available in this build.")
	fmt.Fprintln(stderr, "Use 'reviews-for-agent start' to review the changes yourself.")
	return exitUsage
}

func start(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("start", flag.ContinueOnError)
	fs.SetOutput(stderr)
	port := fs.Int("port", localreview.DefaultPort, "port to listen on at 127.0.0.1; when not given, the next free port from 4000 is used")
	noOpen := fs.Bool("no-open", false, "do not open the browser")
	dir := fs.String("dir", ".", "a directory inside the git repository to review")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: reviews-for-agent start [--port N] [--no-open] [--dir DIR]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "reviews-for-agent start: unexpected argument %q\n", fs.Arg(0))
		fs.Usage()
		return exitUsage
	}
	if *port < 0 || *port > 65535 {
		fmt.Fprintf(stderr, "reviews-for-agent start: --port %d is not a port number\n", *port)
		return exitUsage
	}
	// A port the person asked for is the one they will type: do not move
	// to another one behind their back.
	strict := false
	fs.Visit(func(f *flag.Flag) { strict = strict || f.Name == "port" })

	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	opts := localreview.RunOptions{Dir: *dir, Port: *port, StrictPort: strict, Out: stdout}
	if !*noOpen {
		opts.Open = openBrowser
	}
	if err := localreview.Run(ctx, opts); err != nil {
		fmt.Fprintln(stderr, "reviews-for-agent:", err)
		if errors.Is(err, localreview.ErrNotARepo) {
			fmt.Fprintln(stderr, "Run it inside a git work tree, or pass --dir.")
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

func buildVersion() string {
	if version != "" {
		return version
	}
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" {
		return info.Main.Version
	}
	return "(devel)"
}
