// Command demo shows what review-my-code-bot does on a pull request, offline.
//
// It starts the project's fake GitHub and scripted model in-process, seeds a
// sample pull request with a planted bug, and runs the action's real
// pipeline (app.Run, with the environment a runner gives it) three times, as
// GitHub would trigger it: the PR is opened (a review), a developer asks the
// bot a question (an answer), and the developer disputes a finding (a
// reply). After each run it prints what GitHub would show, read back from
// the fake: the review and its inline findings, the answer, the dispute
// reply, the rmc/merge-gate status and the job summary, formatted for a
// terminal.
//
//	go run ./cmd/demo [--color=auto|always|never] [--brief] [--log]
//
// The action's binary (cmd/action) does not contain the demo, so the fakes
// stay out of it.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"github.com/review-my-code-bot/rmc/internal/version"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/review-my-code-bot/rmc/llm/fakellm"
	"golang.org/x/term"
)

const usage = `Usage: go run ./cmd/demo [--color=auto|always|never] [--brief] [--log]

Runs review-my-code-bot's real pipeline against a fake GitHub and a scripted
model on this machine, on a sample pull request, and prints what GitHub would
show: the review with its findings, an answer, a dispute reply, the merge gate
and the job summary. Nothing real is read, written or sent.

Flags:
  --color=WHEN   colour the output: auto (on a terminal, unless NO_COLOR is
                 set), always, or never (default auto)
  --brief        leave out small print and the job summaries of the later runs
  --log          also print the action's own log of each run, as plain text
  --version      print the version (also: demo version)
  -h, --help     show this help (also: demo help)
`

// options are the command line's choices.
type options struct {
	color bool
	brief bool
	log   bool
	width int
	// script teaches the model its answers; nil means the sample's.
	script func(*fakellm.Server)
}

// parseArgs reads the command line. A usage error is reported on stderr and
// gives exit status 2.
func parseArgs(args []string, stdout, stderr io.Writer, tty bool, getenv func(string) string) (options, int, bool) {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	color := fs.String("color", "auto", "")
	brief := fs.Bool("brief", false, "")
	showLog := fs.Bool("log", false, "")
	showVersion := fs.Bool("version", false, "")
	fail := func(format string, a ...any) (options, int, bool) {
		fmt.Fprintf(stderr, "demo: "+format+"\n\n%s", append(a, usage)...)
		return options{}, 2, false
	}
	if err := fs.Parse(version.Words(args)); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, usage)
			return options{}, 0, false
		}
		return fail("%v", err)
	}
	if fs.NArg() > 0 {
		return fail("unexpected argument %q: the demo takes only flags", clean(fs.Arg(0)))
	}
	if *showVersion {
		fmt.Fprintln(stdout, version.Line("demo"))
		return options{}, 0, false
	}
	opts := options{brief: *brief, log: *showLog, width: 80}
	switch *color {
	case "auto":
		opts.color = tty && getenv("NO_COLOR") == "" && getenv("TERM") != "dumb"
	case "always":
		opts.color = true
	case "never":
	default:
		return fail("--color must be auto, always or never, not %q", clean(*color))
	}
	return opts, 0, true
}

func main() { os.Exit(run()) }

// run is the demo, its exit code returned so that its deferred stop runs
// before main exits.
func run() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	fd := int(os.Stdout.Fd())
	tty := term.IsTerminal(fd)
	opts, code, ok := parseArgs(os.Args[1:], os.Stdout, os.Stderr, tty, os.Getenv)
	if !ok {
		return code
	}
	if w, _, err := term.GetSize(fd); tty && err == nil && w >= 60 {
		opts.width = min(w, 100)
	}
	if err := demo(ctx, os.Stdout, opts); err != nil {
		fmt.Fprintf(os.Stderr, "demo: %s\n", strings.TrimSpace(clean(err.Error())))
		return 1
	}
	return 0
}
