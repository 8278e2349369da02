package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"github.com/review-my-code-bot/rmc/internal/version"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/review-my-code-bot/rmc/github"
	"github.com/review-my-code-bot/rmc/inbox"
	"github.com/review-my-code-bot/rmc/reviewsforagent"
)

// parseArgs parses flags and positional arguments in any order, so that
// "inbox claim ID --by NAME" reads as it is written. After "--" everything
// is positional.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	before, after := args, []string(nil)
	if i := slices.Index(args, "--"); i >= 0 {
		before, after = args[:i], args[i+1:]
	}
	var pos []string
	for {
		if err := fs.Parse(before); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return append(pos, after...), nil
		}
		pos = append(pos, fs.Arg(0))
		before = fs.Args()[1:]
	}
}

// parseFlags parses a subcommand's flags and arguments and reports a
// usage error; ok is false when the command should stop with code. Help
// that was asked for (-h, --help) goes to stdout; a usage error, with the
// usage, to stderr.
func (c *cli) parseFlags(fs *flag.FlagSet, args []string) (pos []string, code int, ok bool) {
	// flag prints the usage while it parses, through the subcommand's
	// Usage function, which writes to c.stderr or fs.Output(): hold both
	// until it is known whether this is help or an error.
	var printed strings.Builder
	stderr := c.stderr
	c.stderr = &printed
	fs.SetOutput(&printed)
	pos, err := parseArgs(fs, args)
	c.stderr = stderr
	fs.SetOutput(stderr)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(c.stdout, printed.String())
		return nil, exitOK, false
	}
	fmt.Fprint(c.stderr, printed.String())
	if err != nil {
		return nil, exitUsage, false
	}
	return pos, exitOK, true
}

// storeFlags choose the store and its retention.
type storeFlags struct {
	path      string
	retention retention
	lease     time.Duration
}

func (f *storeFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.path, "store", "", "the inbox file (default $"+inbox.StoreEnv+", else reviews-for-agent/reviews.jsonl in the user's configuration directory)")
	f.retention = retention(inbox.DefaultRetention)
	fs.Var(&f.retention, "retention", "how long resolved and cancelled reviews are kept, e.g. 30d or 72h")
	fs.DurationVar(&f.lease, "lease", inbox.DefaultClaimLease, "how long a claim holds unless its agent claims again")
}

func (c *cli) openStore(f storeFlags) (*inbox.Store, error) {
	path := f.path
	if path == "" {
		var err error
		if path, err = inbox.DefaultPath(c.getenv); err != nil {
			return nil, err
		}
	}
	if f.lease <= 0 {
		return nil, &inbox.Error{Op: "open store", Kind: inbox.ErrInvalidInput, Reason: "--lease must be a positive duration"}
	}
	return inbox.Open(path, inbox.Options{Retention: time.Duration(f.retention), ClaimLease: f.lease})
}

// retention is a duration that also takes days: "30d".
type retention time.Duration

var _ flag.Value = (*retention)(nil)

func (r *retention) String() string {
	d := time.Duration(*r)
	if d > 0 && d%(24*time.Hour) == 0 {
		return strconv.Itoa(int(d/(24*time.Hour))) + "d"
	}
	return d.String()
}

func (r *retention) Set(s string) error {
	var d time.Duration
	if days, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.Atoi(days)
		if err != nil {
			return fmt.Errorf("%q is not a number of days", s)
		}
		d = time.Duration(n) * 24 * time.Hour
	} else {
		var err error
		if d, err = time.ParseDuration(s); err != nil {
			return err
		}
	}
	if d <= 0 {
		return fmt.Errorf("%q is not a positive duration", s)
	}
	*r = retention(d)
	return nil
}

// githubFlags configure the GitHub source.
type githubFlags struct {
	botLogin string
}

func (f *githubFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.botLogin, "bot-login", "", "the review bot's login (default: the token's owner when it is a bot or app, else github-actions[bot])")
}

var _ inbox.GitHub = (*github.Client)(nil)

// service builds the inbox over store. GitHub is connected on first use,
// with GITHUB_TOKEN (or GH_TOKEN) at GITHUB_API_URL and GITHUB_GRAPHQL_URL.
func (c *cli) service(store *inbox.Store, gf githubFlags) *inbox.Service {
	svc := &inbox.Service{Store: store, BotLogin: gf.botLogin, Warn: func(msg string) { fmt.Fprintln(c.stderr, "reviews-for-agent: warning:", msg) }}
	token := c.getenv("GITHUB_TOKEN")
	if token == "" {
		token = c.getenv("GH_TOKEN")
	}
	if token != "" {
		connect := sync.OnceValues(func() (*github.Client, error) {
			return github.New(github.Options{Token: token, APIURL: c.getenv("GITHUB_API_URL"), GraphQLURL: c.getenv("GITHUB_GRAPHQL_URL"),
				UserAgent: "reviews-for-agent/" + version.String()})
		})
		svc.GitHub = func() (inbox.GitHub, error) { return connect() }
	}
	return svc
}

// requester makes local requests against store, starting a server on port
// when none serves it.
func (c *cli) requester(store *inbox.Store, port int, idle time.Duration) *reviewsforagent.Requester {
	spawn := c.spawn
	if spawn == nil {
		spawn = spawnServer
	}
	// The server takes this store's claim lease, so its inbox page and API
	// see claims lapse when the command line does.
	return &reviewsforagent.Requester{Store: store, Port: port, Spawn: func(p int) error { return spawn(store.Path(), p, idle, store.ClaimLease()) }}
}

func writeJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	enc.Encode(v) // stdout: a failed write has no one to tell
}
