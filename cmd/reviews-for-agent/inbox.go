package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/review-my-code-bot/rmc/inbox"
	"github.com/review-my-code-bot/rmc/reviewsforagent"
)

const inboxUsage = `Usage:
  reviews-for-agent inbox list [--status S] [--claimed-by NAME] [--pr OWNER/REPO#N] [--json]
  reviews-for-agent inbox get ID [--json]
  reviews-for-agent inbox claim ID --by NAME [--force] [--json]
  reviews-for-agent inbox resolve ID [--by NAME] [--note TEXT] [--force] [--json]
  reviews-for-agent inbox cancel ID [--json]
  reviews-for-agent inbox compact [--retention 30d] [--json]

Local reviews have ids like k3x9p2ma; the review bot's findings on a pull
request gh:owner/repo#12:f-abc. Claims of GitHub findings are kept in the
local inbox: they keep agents on this machine apart, not agents elsewhere.
A claim lapses after --lease (default 30m) unless its agent claims again;
a claimed review is resolved only by its claimant (--by), or with --force.
`

// prList collects repeated --pr flags.
type prList []string

var _ flag.Value = (*prList)(nil)

func (p *prList) String() string     { return strings.Join(*p, ",") }
func (p *prList) Set(s string) error { *p = append(*p, s); return nil }

func (c *cli) inbox(ctx context.Context, args []string) int {
	if len(args) == 0 {
		fmt.Fprint(c.stderr, inboxUsage)
		return exitUsage
	}
	if sub := args[0]; sub == "-h" || sub == "--help" || sub == "help" {
		fmt.Fprint(c.stdout, inboxUsage)
		return exitOK
	}
	a, code, ok := c.inboxArgs(args[0], args[1:])
	if !ok {
		return code
	}
	store, err := c.openStore(a.store)
	if err != nil {
		return c.fail(err, a.asJSON)
	}
	svc := c.service(store, a.github)
	// inbox get restarts the page server of an open review when it is gone.
	svc.Local = c.requester(store, reviewsforagent.DefaultInboxPort, time.Hour)
	res, err := a.run(ctx, store, svc)
	if err != nil {
		return c.fail(err, a.asJSON)
	}
	if a.asJSON {
		writeJSON(c.stdout, res.value)
	} else {
		res.write(c.stdout)
	}
	return exitOK
}

// inboxCmd is one inbox subcommand with its flags and arguments read.
type inboxCmd struct {
	sub                         string
	id                          string // the review or finding, for the commands that take one
	asJSON                      bool
	status, claimedBy, by, note string
	force                       bool
	prs                         prList
	store                       storeFlags
	github                      githubFlags
}

// inboxArgs reads the flags of subcommand sub and its arguments: one id,
// or none for list and compact.
func (c *cli) inboxArgs(sub string, args []string) (inboxCmd, int, bool) {
	a := inboxCmd{sub: sub}
	fs := flag.NewFlagSet("inbox "+sub, flag.ContinueOnError)
	fs.BoolVar(&a.asJSON, "json", false, "print the result as JSON")
	a.store.register(fs)
	a.github.register(fs)
	fs.Usage = func() { fmt.Fprint(c.stderr, inboxUsage); fs.PrintDefaults() }
	wantID := true
	switch sub {
	case "list":
		fs.StringVar(&a.status, "status", "", "open, submitted, claimed, resolved, cancelled or all (default submitted; claimed with --claimed-by)")
		fs.StringVar(&a.claimedBy, "claimed-by", "", "only reviews this agent claimed")
		fs.Var(&a.prs, "pr", "also list the review bot's findings on this pull request (owner/repo#N; repeatable)")
		wantID = false
	case "get", "cancel":
	case "claim":
		fs.StringVar(&a.by, "by", "", "who claims it, such as the agent's name (required)")
		fs.BoolVar(&a.force, "force", false, "take over a claim another agent holds")
	case "resolve":
		fs.StringVar(&a.note, "note", "", "what was done about the comments")
		fs.StringVar(&a.by, "by", "", "who resolves it; a claimed review only by its claimant")
		fs.BoolVar(&a.force, "force", false, "resolve a review another agent claimed")
	case "compact":
		wantID = false
	default:
		fmt.Fprintf(c.stderr, "reviews-for-agent inbox: unknown command %q\n\n%s", sub, inboxUsage)
		return a, exitUsage, false
	}
	pos, code, ok := c.parseFlags(fs, args)
	switch {
	case !ok:
		return a, code, false
	case wantID && len(pos) != 1:
		fmt.Fprintf(c.stderr, "reviews-for-agent inbox %s: give one review id\n", sub)
		return a, exitUsage, false
	case !wantID && len(pos) > 0:
		fmt.Fprintf(c.stderr, "reviews-for-agent inbox %s: unexpected argument %q\n", sub, pos[0])
		return a, exitUsage, false
	}
	if wantID {
		a.id = pos[0]
	}
	return a, exitOK, true
}

// inboxResult is a subcommand's answer: the value --json prints, and how it
// reads for a person.
type inboxResult struct {
	value any
	write func(w io.Writer)
}

// run does the subcommand.
func (a inboxCmd) run(ctx context.Context, store *inbox.Store, svc *inbox.Service) (inboxResult, error) {
	switch a.sub {
	case "list":
		o := inbox.ListOptions{Status: a.status, ClaimedBy: a.claimedBy, PRs: a.prs}
		if o.Status == "" && o.ClaimedBy != "" {
			o.Status = string(inbox.StatusClaimed)
		}
		res, err := svc.List(ctx, o)
		return inboxResult{res, func(w io.Writer) { inbox.WriteList(w, res, o.Status) }}, err
	case "get":
		d, err := svc.Get(ctx, a.id)
		return inboxResult{d, func(w io.Writer) { inbox.WriteDetail(w, d) }}, err
	case "claim":
		it, err := svc.Claim(ctx, a.id, a.by, a.force)
		return itemResult("Claimed", it), err
	case "resolve":
		it, err := svc.Resolve(ctx, a.id, inbox.ResolveOptions{By: a.by, Note: a.note, Force: a.force})
		return itemResult("Resolved", it), err
	case "cancel":
		it, err := svc.Cancel(ctx, a.id)
		return itemResult("Cancelled", it), err
	case "compact":
		res, err := store.Compact(ctx)
		return inboxResult{res, func(w io.Writer) { inbox.WriteCompact(w, store.Path(), res) }}, err
	}
	return inboxResult{}, fmt.Errorf("inbox: no command %q", a.sub)
}

// itemResult answers a change to one item, saying what was done to it.
func itemResult(verb string, it inbox.Item) inboxResult {
	return inboxResult{it, func(w io.Writer) { inbox.WriteItem(w, verb, it) }}
}
