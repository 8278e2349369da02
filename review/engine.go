package review

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/review-my-code-bot/rmc/diff"
	"github.com/review-my-code-bot/rmc/glob"
	"github.com/review-my-code-bot/rmc/llm"
	"github.com/review-my-code-bot/rmc/prompts"
)

// Asker is the run's model session.
type Asker = llm.JSONAsker

// Options tune a review.
type Options struct {
	ProblemThreshold  int      // findings scoring below are dropped
	BlockingThreshold int      // findings scoring at or above block
	IgnorePaths       []string // ignore_paths: globs with .gitignore's rules (package glob)
	// ChunkChars bounds the diff text sent in one request (~4 chars a
	// token); a larger diff is reviewed in several chunks per pass.
	ChunkChars int
	MaxInline  int // inline comments per review; the rest go in the body
	// Retries is how often a failed pass request is repeated
	// (max_review_retries) before the review fails.
	Retries int
	// Passes names the passes that run (config passes); empty = all.
	Passes []string
	// Learnings drop the findings they match (see Learned).
	Learnings []Learned
	// Ceiling stops the review between requests at max_run_tokens.
	Ceiling Ceiling
	// Task is the plan task's key the review works for: it labels the
	// model calls, so their usage is the task's.
	Task string
}

// Input is what a review reads.
type Input struct {
	// Anchor is the whole diff comments may sit on (the PR's diff).
	Anchor []diff.File
	// Review is the part to review: the same diff, or for an incremental
	// review what changed since the last one. Nil means Anchor.
	Review []diff.File
}

func (o Options) withDefaults() Options {
	if o.ProblemThreshold == 0 {
		o.ProblemThreshold = 5
	}
	if o.BlockingThreshold == 0 {
		o.BlockingThreshold = o.ProblemThreshold
	}
	if o.ChunkChars == 0 {
		o.ChunkChars = 120_000
	}
	if o.MaxInline == 0 {
		o.MaxInline = 30
	}
	return o
}

// Skip says why a file was not reviewed.
type Skip struct{ Path, Why string }

// Result is what a review found.
type Result struct {
	Findings []Finding // kept, anchored or not, most severe first
	Dropped  int       // below the problem threshold, thinking aloud, or duplicates
	Skipped  []Skip
	Reviewed []string // paths reviewed
	Chunks   int
	// Suppressed are findings a learning kept from being reported.
	Suppressed []Suppressed
	// Partial is set when the ceiling stopped the review early.
	Partial *Partial
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
var Passes = []Pass{
	{1, "atomic", "Defects visible in the changed lines themselves: bugs, wrong conditions, off-by-one errors, nil/null dereferences, unchecked errors, resource leaks, races, wrong API use."},
	{2, "structure", "Structure and contracts: broken interfaces and callers, changed behaviour that callers or tests rely on, missing tests for new behaviour, error handling across boundaries, duplication, names that mislead."},
	{3, "security", "Security and compliance: injection, path traversal, secrets in code, unsafe deserialization, authn/authz gaps, SSRF, insecure defaults, logging of sensitive data, licence or policy violations named in the project rules."},
}

// Run reviews files in three passes. known holds fingerprints of findings
// already posted on the PR: those are not reported again.
func Run(ctx context.Context, s Asker, in Input, opt Options, known map[string]bool) (Result, error) {
	opt = opt.withDefaults()
	if in.Review == nil {
		in.Review = in.Anchor
	}
	var res Result
	ignore, err := glob.CompileAll(opt.IgnorePaths)
	if err != nil {
		return res, fmt.Errorf("ignore_paths: %w", err)
	}
	byPath := map[string]*diff.File{}
	for i := range in.Anchor {
		byPath[in.Anchor[i].Path()] = &in.Anchor[i]
	}
	focus := map[string]bool{}
	var review []diff.File
	for _, f := range in.Review {
		if why := skipReason(f, ignore); why != "" {
			res.Skipped = append(res.Skipped, Skip{f.Path(), why})
			continue
		}
		focus[f.Path()] = true
		review = append(review, f)
		res.Reviewed = append(res.Reviewed, f.Path())
	}
	if len(review) == 0 {
		return res, nil
	}
	chunks, paths := chunkPaths(review, opt.ChunkChars)
	res.Chunks = len(chunks)
	seen := map[string]bool{}
	learned := compileLearnings(opt.Learnings)
	passes, last := opt.passes(), 0
run:
	for n, p := range passes {
		for i, c := range chunks {
			in := prompts.ReviewPassData{Pass: prompts.Pass{N: p.N, Name: p.Name, Focus: p.Focus}, Chunk: i + 1, Chunks: len(chunks), Diff: c, Problem: opt.ProblemThreshold, Blocking: opt.BlockingThreshold}
			if n > 0 && len(chunks) == 1 {
				// The session already holds the diff from pass 1: sending it
				// again would pay for the same tokens twice.
				in.Diff, in.SameDiff = "", true
			}
			prompt, err := prompts.ReviewPass(in)
			if err != nil {
				return res, err
			}
			var out passAnswer
			spent, over := opt.Ceiling.over(prompt, last)
			if over {
				res.Partial = partial(opt.Ceiling, spent, passes, n, i, paths)
				break run
			}
			label := llm.Label{Task: opt.Task, Step: fmt.Sprintf("pass %d", p.N)}
			for try := 0; try <= opt.Retries; try++ {
				if out, _, err = llm.AskJSON[passAnswer](ctx, s, label, prompt); err == nil || ctx.Err() != nil {
					break
				}
			}
			if err != nil {
				return res, fmt.Errorf("review pass %d (%s), chunk %d of %d: %w", p.N, p.Name, i+1, len(chunks), err)
			}
			if opt.Ceiling.Spent != nil {
				last = tokens(opt.Ceiling.Spent()) - spent
			}
			for _, a := range out.Findings {
				f := a.finding()
				f.Pass = p.N
				if !keep(&f, opt, byPath, focus, known, seen) {
					res.Dropped++
				} else if l, ok := suppressedBy(f, learned); ok {
					res.Suppressed = append(res.Suppressed, Suppressed{f, l})
				} else {
					res.Findings = append(res.Findings, f)
				}
			}
		}
	}
	sort.SliceStable(res.Findings, func(i, j int) bool { return res.Findings[i].Score > res.Findings[j].Score })
	anchor(res.Findings, byPath, opt.MaxInline)
	return res, nil
}

// passes are the passes the options ask for, in their fixed order.
func (o Options) passes() []Pass {
	if len(o.Passes) == 0 {
		return Passes
	}
	var out []Pass
	for _, p := range Passes {
		if slices.Contains(o.Passes, p.Name) {
			out = append(out, p)
		}
	}
	return out
}

// keep filters and completes one finding.
func keep(f *Finding, opt Options, files map[string]*diff.File, focus, known, seen map[string]bool) bool {
	f.Path = strings.TrimPrefix(strings.TrimSpace(f.Path), "/")
	f.Title = strings.TrimSpace(f.Title)
	if f.Side != diff.Left {
		f.Side = diff.Right
	}
	if f.Score < opt.ProblemThreshold || f.Score > 10 || f.Title == "" || f.Thinking() {
		return false
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

// generated lists paths that are generated or vendored: reviewing them wastes
// tokens on code nobody wrote by hand.
var generated = glob.MustCompile("vendor/", "node_modules/", "third_party/", "dist/", "*.pb.go", "*_generated.go", "*.gen.go", "zz_generated*", "*.min.js", "*.min.css", "*.map",
	"go.sum", "package-lock.json", "yarn.lock", "pnpm-lock.yaml", "Cargo.lock", "poetry.lock", "Gemfile.lock", "composer.lock")

func skipReason(f diff.File, ignore glob.Set) string {
	p := f.Path()
	switch {
	case f.Binary:
		return "binary file"
	case f.Status == diff.Deleted:
		return "deleted"
	case ignore.Match(p):
		return "matches ignore_paths"
	case generated.Match(p):
		return "generated, vendored or a lock file"
	case len(f.Hunks) == 0:
		return "no textual changes (rename or mode change)"
	}
	return ""
}
