package review

import (
	"context"
	"fmt"
	"strings"

	"github.com/review-my-code-bot/rmc/diff"
	"github.com/review-my-code-bot/rmc/glob"
	"github.com/review-my-code-bot/rmc/llm"
)

// Asker is the run's model session as a review uses it: an *llm.Session,
// or a fake. Sub starts the asks that share one chunk of the diff, so the
// passes over a chunk carry it once, as a prefix the provider can cache.
type Asker interface {
	llm.JSONAsker
	Sub(block string) llm.JSONAsker
}

// Options are one review's: the repository's Settings, and what this run
// knows that no setting says.
type Options struct {
	Settings Settings
	// PrefixChars is the size of what every request carries before the
	// chunk (the system prompt and tool definitions): it leaves less of the
	// model's window to the chunk (ChunkBudget), and the ceiling counts it.
	PrefixChars int
	// Generated decides which files are generated or vendored (see
	// Generated); the zero value knows lock files and binaries only.
	Generated Generated
	// Learnings drop the findings they match (see Learned).
	Learnings []Learned
	// Spent is the run's token usage so far, for the ceiling at
	// Settings.MaxRunTokens; nil = no ceiling.
	Spent func() llm.Usage
	// Task is the plan task's key the review works for: it labels the
	// model calls, so their usage is the task's.
	Task string
	// clock paces the pauses after a rate limit; nil = the real one.
	clock clock
	// Notes asks the first pass over each chunk for a line per file it
	// reads (Result.Notes), from which the walkthrough is written.
	Notes bool
}

// Input is what a review reads.
type Input struct {
	// Anchor is the whole diff comments may sit on (the PR's diff).
	Anchor []diff.File
	// Review is the part to review: the same diff, or for an incremental
	// review what changed since the last one. Nil means Anchor.
	Review []diff.File
}

// ChunkBudget is the chunk size (characters) for a model with a window of
// contextTokens, when every request also carries prefixChars: half the
// window at a conservative three characters a token, the other half left
// for the pass prompt, the tool transcript and the answer; at most the
// default of 120,000 characters.
func ChunkBudget(contextTokens, prefixChars int) int {
	if contextTokens <= 0 {
		return defaultChunkChars
	}
	return min(defaultChunkChars, max(minChunkChars, contextTokens*3/2-prefixChars))
}

const (
	defaultChunkChars = 120_000
	minChunkChars     = 2_000
)

// Skip says why a file was not reviewed. Unreadable is set when it was
// left out for want of a diff to read (GitHub sends none for a change that
// large), not by a rule: it is not covered, and no later run can cover it.
type Skip struct {
	Path, Why  string
	Unreadable bool
}

// Result is what a review found.
type Result struct {
	Findings []Finding // kept, anchored or not, most severe first
	Dropped  int       // below the problem threshold, thinking aloud, or duplicates
	// Skipped are the files left out by configuration or by their content,
	// each with its reason: they do not count against coverage.
	Skipped []Skip
	// Reviewed are the files every enabled pass saw whole: the review's
	// coverage.
	Reviewed []string
	// Unreviewed are the files to review that some pass did not see whole
	// (the run's token ceiling stopped the review): not covered.
	Unreviewed []string
	Chunks     int // requests' chunks, after any split
	// Suppressed are findings a learning kept from being reported.
	Suppressed []Suppressed
	// Partial is set when the ceiling stopped the review early.
	Partial *Partial
	// Checks are the repository's checks as the review evaluated them.
	Checks []CheckResult
	// Notes are, with Options.Notes, a line per reviewed file on what
	// changed in it, in the order the chunks were read: model text.
	Notes []FileNote
}

// Blocking counts blocking findings.
func (r Result) Blocking() int {
	n := 0
	for _, f := range r.Findings {
		if f.Blocking {
			n++
		}
	}
	return n
}

// Pass is one of the three review passes.
type Pass struct {
	N     int
	Name  string
	Focus string
}

// Passes are the review's three passes, in order.
func Passes() []Pass {
	return []Pass{
		{1, "atomic", "Defects visible in the changed lines themselves: bugs, wrong conditions, off-by-one errors, nil/null dereferences, unchecked errors, resource leaks, races, wrong API use."},
		{2, "structure", "Structure and contracts: broken interfaces and callers, changed behaviour that callers or tests rely on, missing tests for new behaviour, error handling across boundaries, duplication, names that mislead."},
		{3, "security", "Security and compliance: injection, path traversal, secrets in code, unsafe deserialization, authn/authz gaps, SSRF, insecure defaults, logging of sensitive data, licence or policy violations named in the project rules."},
	}
}

// Run reviews files: every chunk of the diff (ChunkBudget of the model's
// window) through each enabled pass, the passes over one chunk in order so
// they share it as a cached prefix, and up to Settings.Concurrency chunks
// at once. Each request carries the stable prefix, one chunk, and the
// titles and places of what the earlier passes over that chunk found;
// never their diffs. The result does not depend on which request finished
// first. known holds
// fingerprints of findings already posted on the PR: those are not
// reported again.
func Run(ctx context.Context, s Asker, in Input, opt Options, known map[string]bool) (Result, error) {
	if err := opt.Settings.Check(); err != nil {
		return Result{}, err
	}
	if in.Review == nil {
		in.Review = in.Anchor
	}
	if _, err := glob.CompileAll(opt.Settings.IgnorePaths); err != nil {
		return Result{}, fmt.Errorf("ignore_paths: %w", err)
	}
	if _, err := glob.CompileAll(opt.Settings.PrivatePaths); err != nil {
		return Result{}, fmt.Errorf("private_paths: %w", err)
	}
	r := newReviewer(s, opt, in.Anchor, known)
	scope := NewScope(opt.Settings, opt.Generated)
	var review []diff.File
	for _, f := range in.Review {
		if why := scope.Why(f); why != "" {
			r.res.Skipped = append(r.res.Skipped, Skip{Path: f.Path(), Why: why})
			continue
		}
		r.focus[f.Path()] = true
		review = append(review, f)
	}
	if len(review) == 0 {
		return r.res, nil
	}
	size := ChunkBudget(opt.Settings.ContextTokens, opt.PrefixChars)
	r.units = units(review, size)
	ids := make([]int, len(r.units))
	for i := range ids {
		ids[i] = i
	}
	for _, c := range pack(r.units, ids, size) {
		r.queue = append(r.queue, job{chunk: c})
	}
	if err := r.run(ctx); err != nil {
		return r.res, err
	}
	return r.finish(review), nil
}

// keep filters and completes one finding.
func keep(f *Finding, opt Settings, files map[string]*diff.File, focus, known, seen map[string]bool) bool {
	f.Path = strings.TrimPrefix(strings.TrimSpace(f.Path), "/")
	f.Title = strings.TrimSpace(f.Title)
	if f.Side != diff.Left {
		f.Side = diff.Right
	}
	if f.Score < opt.ProblemThreshold || f.Score > 10 || f.Title == "" || f.Thinking() {
		return false
	}
	if t, ok := opt.CategoryThresholds[f.Category]; ok && f.Score < t && f.Score < opt.BlockingThreshold {
		return false // calibrated: never a finding that blocks
	}
	file := files[f.Path]
	if !focus[f.Path] && file != nil {
		return false // incremental: only the changed part is reviewed
	}
	f.Blocking = f.Score >= opt.BlockingThreshold
	f.Fingerprint = fingerprint(*f, file)
	if known[f.Fingerprint] || seen[f.Fingerprint] {
		return false
	}
	seen[f.Fingerprint] = true
	return true
}
