package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/review-my-code-bot/rmc/inbox"
	"github.com/review-my-code-bot/rmc/reviewsforagent"
)

// sourceFlags choose the changes to review; without any, the uncommitted
// ones against HEAD.
type sourceFlags struct {
	commit, rng, base       string
	staged, unstaged, stdin bool
}

// newSourceFlags registers the flags on fs.
func newSourceFlags(fs *flag.FlagSet) *sourceFlags {
	f := &sourceFlags{}
	f.register(fs)
	return f
}

func (f *sourceFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.commit, "commit", "", "review one commit against its parent (a hash, a branch, HEAD~2)")
	fs.StringVar(&f.rng, "range", "", "review FROM..TO (TO against FROM) or FROM...TO (TO against their merge base)")
	fs.StringVar(&f.base, "base", "", "review the work tree, new files too, against its merge base with this branch")
	fs.BoolVar(&f.staged, "staged", false, "review the staged changes only")
	fs.BoolVar(&f.unstaged, "unstaged", false, "review the changes not staged yet, new files too")
	fs.BoolVar(&f.stdin, "stdin", false, "review a unified diff read from standard input (git diff, diff -u)")
}

// source is the Source the flags name; more than one is an error.
func (f *sourceFlags) source(stdin io.Reader) (reviewsforagent.Source, error) {
	var chosen []string
	var src reviewsforagent.Source
	pick := func(set bool, name string, s reviewsforagent.Source) {
		if set {
			chosen = append(chosen, "--"+name)
			src = s
		}
	}
	pick(f.commit != "", "commit", reviewsforagent.Source{Kind: inbox.DiffCommit, Rev: f.commit})
	pick(f.rng != "", "range", reviewsforagent.Source{Kind: inbox.DiffRange, Rev: f.rng})
	pick(f.base != "", "base", reviewsforagent.Source{Kind: inbox.DiffBase, Rev: f.base})
	pick(f.staged, "staged", reviewsforagent.Source{Kind: inbox.DiffStaged})
	pick(f.unstaged, "unstaged", reviewsforagent.Source{Kind: inbox.DiffUnstaged})
	pick(f.stdin, "stdin", reviewsforagent.Source{Kind: inbox.DiffStdin, Stdin: stdin})
	if len(chosen) > 1 {
		return reviewsforagent.Source{}, errors.New(strings.Join(chosen, " and ") + " each name the changes to review: give one")
	}
	return src, nil
}

// sourceOf is the Source the flags of command cmd name; a clash is
// reported as a usage error.
func (c *cli) sourceOf(cmd string, f *sourceFlags) (reviewsforagent.Source, bool) {
	src, err := f.source(c.stdin)
	if err != nil {
		fmt.Fprintf(c.stderr, "reviews-for-agent %s: %v\n", cmd, err)
		return src, false
	}
	return src, true
}

// sourceUsage is the flags' line of a command's usage.
const sourceUsage = "       [--commit REV | --range FROM..TO | --base BRANCH | --staged | --unstaged | --stdin]"
