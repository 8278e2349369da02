package review

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/review-my-code-bot/rmc/llm"
)

// Settings are what a repository chooses about its reviews: the action's
// inputs and .github/rmc.yml give them (package config), and they reach the
// engine whole. DefaultSettings holds every default. A zero Settings is not
// a valid one: start from DefaultSettings.
type Settings struct {
	// ProblemThreshold (problem_score_threshold, 1-10): findings scoring
	// below are dropped.
	ProblemThreshold int
	// BlockingThreshold (blocking_score_threshold, ProblemThreshold-10):
	// findings scoring at or above block the merge.
	BlockingThreshold int
	// CategoryThresholds are problem thresholds calibration raised, by
	// category (calibrate: apply): a finding of the category scoring under
	// its threshold is dropped unless it blocks. nil = none raised.
	CategoryThresholds map[string]int
	// IgnorePaths (ignore_paths) are globs the review skips, with
	// .gitignore's rules (package glob).
	IgnorePaths []string
	// PrivatePaths (private_paths, from the base branch's file only) are
	// globs, with the same rules, of files whose content must never leave
	// the runner: no prompt, no tool result, no reply carries it (Scope).
	PrivatePaths []string
	// Passes (passes) names the passes that run; see PassNames.
	Passes []string
	// MaxInline (max_inline_comments) is how many findings a review posts
	// as inline comments; the rest go in its body.
	MaxInline int
	// Retries (max_review_retries) is how often a failed pass request is
	// repeated before the review fails.
	Retries int
	// ContextTokens (model_context_tokens) is the model's window: it sizes
	// the diff's chunks (ChunkBudget).
	ContextTokens int
	// MaxRunTokens (max_run_tokens) is the prompt + completion tokens the
	// whole run may spend (see Ceiling); 0 = no ceiling.
	MaxRunTokens int
	// Concurrency (review_concurrency, 1 to MaxConcurrency) is how many
	// chunks are reviewed at once; the passes over one chunk always go in
	// order.
	Concurrency int
}

// DefaultConcurrency and MaxConcurrency bound review_concurrency: four
// requests at once sit well inside the rate limits of a paid tier at every
// provider we know, and a 429 lowers it for the run (see throttle).
const (
	DefaultConcurrency = 4
	MaxConcurrency     = 16
)

// DefaultSettings are the defaults of every setting: problem threshold 5,
// blocking at the problem threshold, every pass, 30 inline comments, one
// retry, the model client's default window, no ceiling, nothing ignored,
// DefaultConcurrency chunks at once.
func DefaultSettings() Settings {
	return Settings{ProblemThreshold: 5, BlockingThreshold: 5, Passes: PassNames(), MaxInline: 30, Retries: 1,
		ContextTokens: llm.DefaultContextTokens, Concurrency: DefaultConcurrency}
}

// PassNames are the passes' names, in their fixed order: what
// Settings.Passes and the passes setting name.
func PassNames() []string {
	var out []string
	for _, p := range Passes() {
		out = append(out, p.Name)
	}
	return out
}

// EnabledPasses are the passes Passes names, in their fixed order.
func (s Settings) EnabledPasses() []Pass {
	var out []Pass
	for _, p := range Passes() {
		if slices.Contains(s.Passes, p.Name) {
			out = append(out, p)
		}
	}
	return out
}

// Ceiling is the run's token ceiling (MaxRunTokens) over spent, the run's
// usage so far: none when MaxRunTokens is 0 or nothing counts the usage.
// The review stops at it, and so does the run's other model work.
func (s Settings) Ceiling(spent func() llm.Usage) Ceiling {
	if s.MaxRunTokens <= 0 || spent == nil {
		return Ceiling{}
	}
	return Ceiling{Max: s.MaxRunTokens, Spent: spent}
}

// Check refuses settings the engine cannot review with, a zero Settings
// first among them: the configuration reports bad values to the user
// before they get here, so this is a caller's mistake.
func (s Settings) Check() error {
	var errs []string
	if s.ProblemThreshold < 1 || s.ProblemThreshold > 10 {
		errs = append(errs, fmt.Sprintf("problem threshold %d is not a score from 1 to 10", s.ProblemThreshold))
	}
	if s.BlockingThreshold < s.ProblemThreshold || s.BlockingThreshold > 10 {
		errs = append(errs, fmt.Sprintf("blocking threshold %d is not a score from the problem threshold to 10", s.BlockingThreshold))
	}
	if s.MaxInline < 0 || s.Retries < 0 || s.ContextTokens < 0 || s.MaxRunTokens < 0 {
		errs = append(errs, "a count is negative")
	}
	if s.Concurrency < 1 || s.Concurrency > MaxConcurrency {
		errs = append(errs, fmt.Sprintf("concurrency %d is not from 1 to %d", s.Concurrency, MaxConcurrency))
	}
	if len(s.EnabledPasses()) == 0 {
		errs = append(errs, fmt.Sprintf("no pass is enabled (passes %q; use %s)", s.Passes, strings.Join(PassNames(), ", ")))
	}
	for _, p := range s.Passes {
		if !slices.Contains(PassNames(), p) {
			errs = append(errs, fmt.Sprintf("%q is not a pass", p))
		}
	}
	if len(errs) > 0 {
		return errors.New("review: invalid settings: " + strings.Join(errs, "; "))
	}
	return nil
}
