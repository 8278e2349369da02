package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/review-my-code-bot/rmc/llm"
	"github.com/review-my-code-bot/rmc/review"
	"github.com/review-my-code-bot/rmc/reviewsforagent"
	"github.com/review-my-code-bot/rmc/reviewsforagent/modelreview"
)

// defaultModel is the action's default model (its "model" input).
const defaultModel = "anthropic/claude-sonnet-4.5"

// review runs the action's review engine on the local diff and writes its
// findings as a round of comment files, in the format a person's take.
func (c *cli) review(ctx context.Context, args []string) int {
	fs := flag.NewFlagSet("review", flag.ContinueOnError)
	dir := fs.String("dir", ".", "a directory inside the git repository to review")
	baseURL := fs.String("base-url", llm.DefaultBaseURL, "the OpenAI-compatible endpoint")
	model := fs.String("model", defaultModel, "the model's name at the endpoint")
	problem := fs.Int("problem-threshold", review.DefaultSettings().ProblemThreshold, "findings scoring below this (1-10) are dropped")
	blocking := fs.Int("blocking-threshold", 0, "findings scoring at or above this (1-10) are blocking (default: the problem threshold)")
	fs.Usage = func() {
		fmt.Fprintln(c.stderr, "Usage: reviews-for-agent review [--dir DIR] [--base-url URL] [--model M] [--problem-threshold N] [--blocking-threshold N]\n\nThe API key is read from LLM_API_KEY, else OPENROUTER_API_KEY.")
		fs.PrintDefaults()
	}
	pos, code, ok := c.parseFlags(fs, args)
	if !ok {
		return code
	}
	if len(pos) > 0 {
		fmt.Fprintf(c.stderr, "reviews-for-agent review: unexpected argument %q\n", pos[0])
		return exitUsage
	}
	if *problem < 1 || *problem > 10 || *blocking < 0 || *blocking > 10 {
		fmt.Fprintln(c.stderr, "reviews-for-agent review: thresholds are scores from 1 to 10")
		return exitUsage
	}
	if *blocking == 0 {
		*blocking = *problem
	}
	if *blocking < *problem {
		fmt.Fprintf(c.stderr, "reviews-for-agent review: --blocking-threshold %d is below --problem-threshold %d: a finding too weak to report cannot block\n", *blocking, *problem)
		return exitUsage
	}
	key := c.getenv("LLM_API_KEY")
	if key == "" {
		key = c.getenv("OPENROUTER_API_KEY")
	}
	if key == "" {
		fmt.Fprintln(c.stderr, "reviews-for-agent review: set LLM_API_KEY (or OPENROUTER_API_KEY) to the endpoint's API key")
		return exitUsage
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	settings := review.DefaultSettings()
	// Each pass is asked once: the command has no --max-review-retries.
	settings.ProblemThreshold, settings.BlockingThreshold, settings.Retries = *problem, *blocking, 0
	_, err := modelreview.Run(ctx, modelreview.Options{Dir: *dir, BaseURL: *baseURL, APIKey: key, Model: *model, Review: settings, Out: c.stdout})
	switch {
	case errors.Is(err, modelreview.ErrNoChanges):
		fmt.Fprintln(c.stdout, "No uncommitted changes: nothing to review.")
		return exitOK
	case err != nil:
		fmt.Fprintln(c.stderr, "reviews-for-agent:", err)
		if errors.Is(err, reviewsforagent.ErrNotARepo) {
			fmt.Fprintln(c.stderr, "Run it inside a git work tree, or pass --dir.")
		}
		if ctx.Err() != nil {
			return exitInterrupted
		}
		return exitFailure
	}
	return exitOK
}
