package benchmark

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
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
	// Rules is the rule set the run is scored with; "" means PinnedRules.
	Rules Rules
	// Profile chooses the golden categories that count under HeadRules;
	// "" means Core.
	Profile Profile
	// Resume redoes, in results kept from an earlier run, exactly what
	// failed: a review, an extraction, a judge call.
	Resume bool
	// ModelEndpoint and JudgeEndpoint are the clients' settings, for the
	// cache key and the report.
	ModelEndpoint, JudgeEndpoint Endpoint
	// Warnings, when set, lists the clients' notices for the report.
	Warnings func() []string
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
	if opt.Rules == "" {
		opt.Rules = PinnedRules
	}
	if err := opt.checkKeyed(); err != nil {
		return nil, err
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

// checkKeyed refuses to keep results without the endpoints they came
// from: a model name alone would let a run against another server reuse
// them and make no request at all.
func (opt *Options) checkKeyed() error {
	if opt.Cache == nil {
		return nil
	}
	if opt.Client != nil && opt.ModelEndpoint.BaseURL == "" {
		return errors.New("bench: results are kept, but Options.ModelEndpoint does not name the model's endpoint")
	}
	if _, ok := opt.Judge.(ModelJudge); ok && opt.JudgeEndpoint.BaseURL == "" {
		return errors.New("bench: results are kept, but Options.JudgeEndpoint does not name the judge's endpoint")
	}
	return nil
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
	opt.Method.Temperature = JudgeTemperature(opt.JudgeModel)
	if opt.JudgeEndpoint.Model != "" {
		opt.Method.Temperature = opt.JudgeEndpoint.Temperature
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

// cachedCase returns the PR's kept result (with its failed review or
// failed judge calls redone when the run resumes), or runs it. A result is
// kept unless the run stopped before it was finished.
func (r *runner) cachedCase(ctx context.Context, c Case) PRResult {
	key := r.cacheKey(c)
	res, ok := r.opt.Cache.get(c, key)
	switch {
	case !ok:
		res = r.runCase(ctx, c)
	case r.opt.Resume && res.failures() > 0:
		res = r.redo(ctx, c, res)
	default:
		return res
	}
	if res.Error == "" {
		if err := r.opt.Cache.put(c, key, res); err != nil {
			res.Error, res.err = "cache: "+err.Error(), err
		}
	}
	return res
}

// redo runs again what failed in a kept result: the whole PR when its
// review failed, the extraction and every judge call when the extraction
// failed (the candidates change), else exactly the judge calls that failed.
func (r *runner) redo(ctx context.Context, c Case, kept PRResult) PRResult {
	if kept.ReviewError != "" {
		res := r.runCase(ctx, c)
		res.Redone = true
		return res
	}
	res := kept // the review is reused
	res.Cached, res.Redone, res.err = true, true, nil
	if res.ExtractError != "" {
		res.ExtractError, res.JudgeErrors, res.Candidates, res.Verdicts = "", nil, nil, nil
		r.assess(ctx, &res)
		return res
	}
	var failed []int
	for i, v := range res.Verdicts {
		if v.Err != "" {
			failed = append(failed, i)
		}
	}
	res.JudgeErrors = slices.DeleteFunc(res.JudgeErrors, func(s string) bool { return strings.HasPrefix(s, pairPrefix) })
	r.judgePairs(ctx, &res, failed)
	r.finishCase(ctx, &res)
	return res
}

func (r *runner) runCase(ctx context.Context, c Case) (res PRResult) {
	start := time.Now()
	res = PRResult{PR: c.Ref.String(), URL: c.URL, Title: c.Title, Repo: c.Repo, Golden: c.Golden}
	defer func() { res.Seconds = time.Since(start).Seconds() }()
	r.review(ctx, c, &res)
	if res.Error != "" {
		return res
	}
	r.assess(ctx, &res)
	return res
}

// review runs the engine on the PR. A review that fails is scored as
// upstream scores a tool that left no comment: every golden comment
// missed. Only a run being stopped leaves the PR unscored.
func (r *runner) review(ctx context.Context, c Case, res *PRResult) {
	fail := func(stage string, err error) {
		res.err, res.stage = err, stage
		if ctx.Err() != nil {
			res.Error = "not run: " + context.Cause(ctx).Error()
			return
		}
		res.ReviewError = fmt.Sprintf("%s: %v", stage, err)
	}
	m, err := r.opt.Set.Load(ctx, c)
	if err != nil {
		fail("load", err)
		return
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
		fail("review", err)
		return
	}
	for _, s := range found.Skipped {
		res.Skipped = append(res.Skipped, s.Path+": "+s.Why)
	}
	for _, f := range found.Findings {
		res.Findings = append(res.Findings, candidateResult(f))
	}
}

// assess extracts the candidates and judges every pair.
func (r *runner) assess(ctx context.Context, res *PRResult) {
	r.candidates(ctx, res)
	pairs := make([]int, 0, len(res.Golden)*len(res.Candidates))
	res.Verdicts = nil
	for g := range res.Golden {
		for j := range res.Candidates {
			res.Verdicts = append(res.Verdicts, Judged{Golden: g, Candidate: j})
			pairs = append(pairs, len(res.Verdicts)-1)
		}
	}
	r.judgePairs(ctx, res, pairs)
	r.finishCase(ctx, res)
}

// finishCase marks a PR whose judging the stopped run cut short as not
// run, and otherwise matches its verdicts.
func (r *runner) finishCase(ctx context.Context, res *PRResult) {
	if ctx.Err() != nil {
		res.Error = "not run: " + context.Cause(ctx).Error()
		return
	}
	res.Matching = r.opt.Rules.Match(len(res.Golden), len(res.Candidates), res.Verdicts, res.Groups)
	res.Counts = r.opt.Rules.Count(res.Golden, res.Matching, r.opt.Profile)
	res.Matches = matches(*res)
}

// minExtractChars is upstream's floor: shorter review text is not sent to
// extraction.
const minExtractChars = 20

// candidates fills res.Candidates: the issues extraction finds in all the
// review's comments, or (extraction off, the text under upstream's 20
// characters, or an extraction that failed, as upstream falls back to the
// raw comments) one per comment. A candidate text that repeats an earlier
// one word for word is one candidate, as upstream keys candidates by text.
func (r *runner) candidates(ctx context.Context, res *PRResult) {
	texts := res.Comments()
	joined := strings.Join(texts, "\n\n---\n\n")
	if r.opt.Method.Extract && len(strings.TrimSpace(joined)) >= minExtractChars {
		issues, u, err := r.opt.Judge.Extract(ctx, joined)
		res.JudgeUsage = res.JudgeUsage.Add(u)
		if err != nil {
			res.ExtractError = err.Error()
			res.JudgeErrors = append(res.JudgeErrors, "extraction failed (the comments are judged as they are): "+err.Error())
			r.noteJudgeErr(res, "extract", err)
		} else {
			texts, res.Extracted = issues, true
		}
	}
	res.Candidates = uniqueTexts(texts)
}

func (r *runner) noteJudgeErr(res *PRResult, stage string, err error) {
	if res.err == nil {
		res.err, res.stage = err, stage
	}
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

// pairPrefix starts the error line of a failed judge call.
const pairPrefix = "golden "

// judgePairs asks the judge about the verdicts at the given indexes. A
// call that fails (an answer upstream's parser refuses, a rate limit that
// outlasted the retries) is that pair's "no match", as upstream scores it,
// and is listed; --resume asks it again.
func (r *runner) judgePairs(ctx context.Context, res *PRResult, idx []int) {
	var mu sync.Mutex
	sem := make(chan struct{}, judgeWorkers)
	var wg sync.WaitGroup
	for _, i := range idx {
		p := &res.Verdicts[i]
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			v, u, err := r.opt.Judge.Same(ctx, res.Golden[p.Golden].Comment, res.Candidates[p.Candidate])
			mu.Lock()
			defer mu.Unlock()
			res.JudgeUsage = res.JudgeUsage.Add(u)
			p.Verdict, p.Err = v, ""
			if err != nil {
				p.Verdict, p.Err = Verdict{}, err.Error()
				res.JudgeErrors = append(res.JudgeErrors, fmt.Sprintf("%s%d vs candidate %d: %v", pairPrefix, p.Golden, p.Candidate, err))
				r.noteJudgeErr(res, "judge", err)
			}
		}()
	}
	wg.Wait()
	sort.Strings(res.JudgeErrors)
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
