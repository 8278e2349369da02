package benchmark

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"

	"github.com/review-my-code-bot/rmc/llm"
	"github.com/review-my-code-bot/rmc/review"
)

// Options configure a run.
type Options struct {
	Set    Set
	Client *llm.Client // the model under test, as the action builds it
	// Model names the model under test when there is no Client (a dry
	// run); otherwise the client's model.
	Model string
	Judge Judge
	// JudgeModel names the judge's model for the report and the cache key.
	JudgeModel string
	Method     Method
	// Engine are the action's review settings the model is scored
	// with: review.DefaultSettings, with the thresholds and retries the
	// command line chose.
	Engine review.Settings
	// Cache keeps each PR's result by PR, model and settings, so a run that
	// was stopped, or is repeated, does no model work twice; nil: none.
	Cache *ResultCache
	// Example marks a run against a scripted model: its outputs are a
	// format example, never a score.
	Example bool
	// Profile chooses the golden categories that count; "" means Core.
	Profile Profile
	// Concurrency is how many PRs are reviewed at once (at least 1). The
	// model client's retry rules (Retry-After, backoff) pace each request.
	Concurrency int
	Only        string // a repository label or a PR ("owner/name#N", its URL, or "name#N")
	Limit       int    // at most this many PRs; 0: all
	// Progress is called after each PR, one call at a time.
	Progress func(done, total int, pr *PRResult)
}

// Filter selects cases by --only and --limit.
func Filter(cases []Case, only string, limit int) ([]Case, error) {
	var out []Case
	for _, c := range cases {
		if only == "" || only == c.Repo || only == c.URL || only == c.Ref.String() || only == fmt.Sprintf("%s#%d", c.Ref.Name, c.Ref.Number) {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no PR of the set matches %q (see --list)", only)
	}
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

// prepare readies the method (prompts, judge settings) and selects the
// set's PRs a run or a dry run works on.
// total is how many PRs the set holds.
func prepare(ctx context.Context, opt *Options) (cases []Case, total int, err error) {
	if err := opt.Engine.Check(); err != nil {
		return nil, 0, err
	}
	if err := prepareMethod(ctx, opt); err != nil {
		return nil, 0, err
	}
	all, err := opt.Set.Cases(ctx)
	if err != nil {
		return nil, 0, fmt.Errorf("read the %s set: %w", opt.Set.Name(), err)
	}
	cases, err = Filter(all, opt.Only, opt.Limit)
	return cases, len(all), err
}

// Run reviews and scores every selected PR. One PR's failure is recorded in
// its result and the run goes on; only a failure every PR would share (the
// endpoint refuses the key, or has never answered) or ctx ending stops it.
// A stopped run returns its error with the results so far, the PRs it did
// not finish marked failed.
func Run(ctx context.Context, opt Options) (*Results, error) {
	if opt.Profile == "" {
		opt.Profile = Core
	}
	cases, total, err := prepare(ctx, &opt)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	r := &runner{opt: opt, total: len(cases)}
	out := make([]PRResult, len(cases))
	sem := make(chan struct{}, max(1, opt.Concurrency))
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	// PRs start in the set's order; once the run is stopped, the rest are
	// marked not run.
	for i, c := range cases {
		acquired := false
		select {
		case sem <- struct{}{}:
			acquired = true
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			if acquired {
				<-sem
			}
			out[i] = PRResult{PR: c.Ref.String(), URL: c.URL, Title: c.Title, Repo: c.Repo, Golden: c.Golden, Error: "not run: " + context.Cause(ctx).Error()}
			continue
		}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			out[i] = r.cachedCase(ctx, c)
			if err := cmp.Or(r.fatal(out[i]), r.observe(out[i])); err != nil {
				cancel(err)
			}
			mu.Lock()
			done++
			if opt.Progress != nil {
				opt.Progress(done, len(cases), &out[i])
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	// A stopped run still returns what it finished, for the caller to keep.
	return newResults(opt, total, out, time.Since(start)), context.Cause(ctx)
}

// prepareMethod reads the set's prompts when the caller gave none, checks
// them before any model call, and hands them to a ModelJudge without its
// own.
func prepareMethod(ctx context.Context, opt *Options) error {
	if opt.Method.Prompts.Source == "" {
		p, err := opt.Set.Prompts(ctx)
		if err != nil {
			return fmt.Errorf("read the %s set's prompts: %w", opt.Set.Name(), err)
		}
		opt.Method.Prompts = p
	}
	if err := opt.Method.Prompts.Check(); err != nil {
		return err
	}
	opt.Method.Rule = UpstreamRule
	if j, ok := opt.Judge.(ModelJudge); ok {
		if j.Prompts.Source == "" {
			j.Prompts = opt.Method.Prompts
			opt.Judge = j
		}
		if opt.JudgeModel == "" && j.Client != nil {
			opt.JudgeModel = j.Client.Model()
		}
	}
	return nil
}

type runner struct {
	opt      Options
	total    int
	answered atomic.Bool // the endpoint has answered at least once

	mu       sync.Mutex
	seen     int    // PRs finished with model work, up to earlyStop
	firstErr string // the endpoint error the first of them failed with
	differ   bool   // one of them succeeded or failed otherwise
}

// fatal reports a failure every later PR would share: the key refused
// (401), or an endpoint that has never answered. A 403 is not: providers
// answer it for one request their moderation refuses.
func (r *runner) fatal(res PRResult) error {
	err := res.err
	endpoint := "model"
	if res.stage == "judge" || res.stage == "extract" {
		endpoint = "judge"
	}
	var e *llm.Error
	switch {
	case err == nil:
		return nil
	case errors.Is(err, llm.ErrAuth) && !(errors.As(err, &e) && e.Status == 403):
		return fmt.Errorf("the %s endpoint refused the API key: %w", endpoint, err)
	case errors.Is(err, llm.ErrUnavailable) && endpoint == "model" && !r.answered.Load():
		return fmt.Errorf("the model endpoint cannot be reached (check --base-url): %w", err)
	}
	return nil
}

// earlyStop is how many first PRs failing with one endpoint error stop the
// run: a wrong model name or a refused request would fail every PR alike.
const earlyStop = 3

// observe stops the run once its first PRs all failed with the same
// endpoint error (kind and HTTP status).
func (r *runner) observe(res PRResult) error {
	if res.Cached {
		return nil
	}
	n := min(earlyStop, r.total)
	r.mu.Lock()
	defer r.mu.Unlock()
	if n < 2 || r.seen >= n {
		return nil
	}
	r.seen++
	key := endpointError(res.err)
	switch {
	case key == "":
		r.differ = true
	case r.firstErr == "":
		r.firstErr = key
	case key != r.firstErr:
		r.differ = true
	}
	if r.seen == n && !r.differ {
		return fmt.Errorf("the first %d PRs all failed with the same endpoint error, and so would the rest: %w", n, res.err)
	}
	return nil
}

func endpointError(err error) string {
	var e *llm.Error
	if !errors.As(err, &e) {
		return ""
	}
	return fmt.Sprintf("%v %d", e.Kind, e.Status)
}

// cachedCase returns the PR's cached result, or runs it and caches a
// result that did not fail.
func (r *runner) cachedCase(ctx context.Context, c Case) PRResult {
	key := r.cacheKey(c)
	if res, ok := r.opt.Cache.get(c, key); ok {
		return res
	}
	res := r.runCase(ctx, c)
	if res.Error == "" {
		if err := r.opt.Cache.put(c, key, res); err != nil {
			res.Error, res.err = "cache: "+err.Error(), err
		}
	}
	return res
}

func (r *runner) runCase(ctx context.Context, c Case) (res PRResult) {
	start := time.Now()
	res = PRResult{PR: c.Ref.String(), URL: c.URL, Title: c.Title, Repo: c.Repo, Golden: c.Golden}
	defer func() { res.Seconds = time.Since(start).Seconds() }()
	fail := func(stage string, err error) PRResult {
		res.Error, res.err, res.stage = fmt.Sprintf("%s: %v", stage, err), err, stage
		return res
	}
	m, err := r.opt.Set.Load(ctx, c)
	if err != nil {
		return fail("load", err)
	}
	if m.GitHubRequests != nil {
		defer func() { res.GitHubRequests = m.GitHubRequests() }()
	}
	found, usage, err := runEngine(ctx, r.opt.Client, m, r.opt.Engine)
	res.ReviewUsage = usage
	if usage.Requests > 0 {
		r.answered.Store(true)
	}
	if err != nil {
		return fail("review", err)
	}
	for _, s := range found.Skipped {
		res.Skipped = append(res.Skipped, s.Path+": "+s.Why)
	}
	for _, f := range found.Findings {
		res.Findings = append(res.Findings, candidateResult(f))
	}
	if err := r.candidates(ctx, &res); err != nil {
		return fail("extract", err)
	}
	if err := r.judge(ctx, &res); err != nil {
		return fail("judge", err)
	}
	res.Matching = Match(len(c.Golden), len(res.Candidates), res.Verdicts)
	res.Counts = Count(c.Golden, res.Matching, r.opt.Profile)
	res.Matches = matches(res)
	return res
}

// minExtractChars is upstream's floor: shorter review text is not sent to
// extraction.
const minExtractChars = 20

// candidates fills res.Candidates: the issues extraction finds in all the
// findings' text, or (extraction off, or its answer unusable, as upstream
// falls back to the raw comments) one per finding. A candidate text that
// repeats an earlier one word for word is one candidate, as upstream keys
// candidates by their text.
func (r *runner) candidates(ctx context.Context, res *PRResult) error {
	var texts []string
	for _, f := range res.Findings {
		texts = append(texts, f.Text)
	}
	joined := strings.Join(texts, "\n\n---\n\n")
	if r.opt.Method.Extract && len(strings.TrimSpace(joined)) >= minExtractChars {
		issues, u, err := r.opt.Judge.Extract(ctx, joined)
		res.JudgeUsage = res.JudgeUsage.Add(u)
		switch {
		case errors.Is(err, ErrJudgeAnswer):
			res.JudgeErrors = append(res.JudgeErrors, "extraction (the findings are judged as they are): "+err.Error())
		case err != nil:
			return err
		default:
			texts, res.Extracted = issues, true
		}
	}
	res.Candidates = uniqueTexts(texts)
	return nil
}

// uniqueTexts drops texts that repeat an earlier one word for word.
func uniqueTexts(texts []string) []string {
	out := []string{}
	seen := map[string]bool{}
	for _, t := range texts {
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}

// judgeWorkers bounds the judge calls one PR makes at once.
const judgeWorkers = 4

// judge compares every golden comment with every candidate. An answer
// that does not parse is recorded and counts as no match; any other
// failure (rate limit, auth) fails the PR.
func (r *runner) judge(ctx context.Context, res *PRResult) error {
	texts := res.Candidates
	var pairs []Judged
	for g := range res.Golden {
		for j := range texts {
			pairs = append(pairs, Judged{Golden: g, Candidate: j})
		}
	}
	var mu sync.Mutex
	var firstErr error
	sem := make(chan struct{}, judgeWorkers)
	var wg sync.WaitGroup
	for i := range pairs {
		p := &pairs[i]
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			v, u, err := r.opt.Judge.Same(ctx, res.Golden[p.Golden].Comment, texts[p.Candidate])
			mu.Lock()
			defer mu.Unlock()
			res.JudgeUsage = res.JudgeUsage.Add(u)
			switch {
			case errors.Is(err, ErrJudgeAnswer):
				p.Err = err.Error()
				res.JudgeErrors = append(res.JudgeErrors, fmt.Sprintf("golden %d vs candidate %d: %v", p.Golden, p.Candidate, err))
			case err != nil:
				if firstErr == nil {
					firstErr = err
				}
			default:
				p.Verdict = v
			}
		}()
	}
	wg.Wait()
	sort.Slice(res.JudgeErrors, func(a, b int) bool { return res.JudgeErrors[a] < res.JudgeErrors[b] })
	res.Verdicts = pairs
	return firstErr
}

func candidateResult(f review.Finding) CandidateResult {
	return CandidateResult{Text: Candidate(f), Path: f.Path, Line: f.Line, Title: f.Title, Score: f.Score, Category: f.Category, Pass: f.Pass, Inline: f.Inline}
}

// matches lists, for each golden comment found, the candidate and the
// judge's reason.
func matches(res PRResult) []MatchResult {
	var out []MatchResult
	for g, j := range res.Matching.GoldenBy {
		if j < 0 {
			continue
		}
		m := MatchResult{Golden: g, GoldenComment: res.Golden[g].Comment, Candidate: j, CandidateText: res.Candidates[j]}
		for _, v := range res.Verdicts {
			if v.Golden == g && v.Candidate == j {
				m.Reasoning, m.Confidence = v.Reasoning, v.Confidence
			}
		}
		out = append(out, m)
	}
	return out
}

// OneLine makes text someone else wrote (titles, API errors, model text)
// safe to print: one line of at most n runes, without control or bidi
// characters that could move the cursor or reorder what a terminal shows.
func OneLine(s string, n int) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) {
			return ' '
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
