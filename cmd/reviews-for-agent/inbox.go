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
	sub := args[0]
	fs := flag.NewFlagSet("inbox "+sub, flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print the result as JSON")
	var sf storeFlags
	var gf githubFlags
	sf.register(fs)
	gf.register(fs)
	fs.Usage = func() { fmt.Fprint(c.stderr, inboxUsage); fs.PrintDefaults() }
	var (
		status, claimedBy, by, note string
		force                       bool
		prs                         prList
	)
	wantID := true
	switch sub {
	case "-h", "--help", "help":
		fmt.Fprint(c.stdout, inboxUsage)
		return exitOK
	case "list":
		fs.StringVar(&status, "status", "", "open, submitted, claimed, resolved, cancelled or all (default submitted; claimed with --claimed-by)")
		fs.StringVar(&claimedBy, "claimed-by", "", "only reviews this agent claimed")
		fs.Var(&prs, "pr", "also list the review bot's findings on this pull request (owner/repo#N; repeatable)")
		wantID = false
	case "get", "cancel":
	case "claim":
		fs.StringVar(&by, "by", "", "who claims it, such as the agent's name (required)")
		fs.BoolVar(&force, "force", false, "take over a claim another agent holds")
	case "resolve":
		fs.StringVar(&note, "note", "", "what was done about the comments")
		fs.StringVar(&by, "by", "", "who resolves it; a claimed review only by its claimant")
		fs.BoolVar(&force, "force", false, "resolve a review another agent claimed")
	case "compact":
		wantID = false
	default:
		fmt.Fprintf(c.stderr, "reviews-for-agent inbox: unknown command %q\n\n%s", sub, inboxUsage)
		return exitUsage
	}
	pos, code, ok := c.parseFlags(fs, args[1:])
	if !ok {
		return code
	}
	switch {
	case wantID && len(pos) != 1:
		fmt.Fprintf(c.stderr, "reviews-for-agent inbox %s: give one review id\n", sub)
		return exitUsage
	case !wantID && len(pos) > 0:
		fmt.Fprintf(c.stderr, "reviews-for-agent inbox %s: unexpected argument %q\n", sub, pos[0])
		return exitUsage
	}
	store, err := c.openStore(sf)
	if err != nil {
		return c.fail(err, *asJSON)
	}
	svc := c.service(store, gf)
	// inbox get restarts the page server of an open review when it is gone.
	svc.Local = c.requester(store, reviewsforagent.DefaultInboxPort, time.Hour)
	var out any
	switch sub {
	case "list":
		o := inbox.ListOptions{Status: status, ClaimedBy: claimedBy, PRs: prs}
		if o.Status == "" && o.ClaimedBy != "" {
			o.Status = string(inbox.StatusClaimed)
		}
		res, err := svc.List(ctx, o)
		if err != nil {
			return c.fail(err, *asJSON)
		}
		out = res
		if !*asJSON {
			inbox.WriteList(c.stdout, res, o.Status)
		}
	case "get":
		d, err := svc.Get(ctx, pos[0])
		if err != nil {
			return c.fail(err, *asJSON)
		}
		out = d
		if !*asJSON {
			inbox.WriteDetail(c.stdout, d)
		}
	case "claim", "resolve", "cancel":
		var it inbox.Item
		var err error
		verb := map[string]string{"claim": "Claimed", "resolve": "Resolved", "cancel": "Cancelled"}[sub]
		switch sub {
		case "claim":
			it, err = svc.Claim(ctx, pos[0], by, force)
		case "resolve":
			it, err = svc.Resolve(ctx, pos[0], inbox.ResolveOptions{By: by, Note: note, Force: force})
		default:
			it, err = svc.Cancel(ctx, pos[0])
		}
		if err != nil {
			return c.fail(err, *asJSON)
		}
		out = it
		if !*asJSON {
			inbox.WriteItem(c.stdout, verb, it)
		}
	case "compact":
		res, err := store.Compact(ctx)
		if err != nil {
			return c.fail(err, *asJSON)
		}
		out = res
		if !*asJSON {
			inbox.WriteCompact(c.stdout, store.Path(), res)
		}
	}
	if *asJSON {
		writeJSON(c.stdout, out)
	}
	return exitOK
}
