package benchmark

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/review-my-code-bot/rmc/execution"
	"github.com/review-my-code-bot/rmc/llm"
	"github.com/review-my-code-bot/rmc/snapshot"
)

// What a dry run assumes where only a real run can tell. The estimate is a
// guide to the order of the cost, not a quote: tool calls and retries add
// to the review, and the number of candidates depends on the model.
const (
	charsPerToken      = 4
	passes             = 3   // the engine's review passes
	passPromptTokens   = 900 // one pass's task text
	passAnswerTokens   = 700 // one pass's findings
	assumedCandidates  = 5   // candidates per PR for the judge
	candidateTokens    = 80
	verdictTokens      = 60 // one match answer
	extractAnswerPerIt = 30 // tokens per extracted issue
)

// Prices are a model's prices in dollars per million tokens: uncached
// prompt, cached prompt, completion.
type Prices struct{ In, Cached, Out float64 }

// ParsePrices reads "IN/CACHED/OUT" (dollars per million tokens).
func ParsePrices(s string) (Prices, error) {
	parts := strings.Split(s, "/")
	if len(parts) != 3 {
		return Prices{}, fmt.Errorf("prices %q are not IN/CACHED/OUT dollars per million tokens (e.g. 3/0.3/15)", s)
	}
	var v [3]float64
	for i, p := range parts {
		f, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || f < 0 || f > 1e6 {
			return Prices{}, fmt.Errorf("price %q in %q is not a number from 0 up", p, s)
		}
		v[i] = f
	}
	return Prices{v[0], v[1], v[2]}, nil
}

// Cost is what u costs at p, in dollars.
func (p Prices) Cost(u llm.Usage) float64 {
	return (float64(u.Uncached())*p.In + float64(u.CachedTokens)*p.Cached + float64(u.CompletionTokens)*p.Out) / 1e6
}

// Estimate is a dry run's guess for one PR: calls and tokens, not made.
type Estimate struct {
	PR     string
	Golden int
	Cached bool // a kept result: no calls
	Review llm.Usage
	Judge  llm.Usage
}

// Plan is a dry run: what a run with these options would ask, per PR.
type Plan struct {
	Set     string
	PRs     []Estimate
	Review  llm.Usage
	Judge   llm.Usage
	Extract bool
	Fresh   int // PRs that would be run
	Cached  int // PRs whose kept result would be used
	Assumed int // candidates assumed per PR
}

// DryRun reads the set (and, for the crb set, each PR's data through the
// GitHub cache) and estimates the model calls and tokens of a run, making
// none.
func DryRun(ctx context.Context, opt Options) (*Plan, error) {
	cases, _, err := prepare(ctx, &opt)
	if err != nil {
		return nil, err
	}
	r := &runner{opt: opt}
	p := &Plan{Set: opt.Set.Name(), Extract: opt.Method.Extract, Assumed: assumedCandidates}
	for _, c := range cases {
		e := Estimate{PR: c.Ref.String(), Golden: len(c.Golden)}
		if _, ok := opt.Cache.get(c, r.cacheKey(c)); ok {
			e.Cached = true
			p.Cached++
			p.PRs = append(p.PRs, e)
			continue
		}
		m, err := opt.Set.Load(ctx, c)
		if err != nil {
			return nil, fmt.Errorf("load %s: %w", c.Ref, err)
		}
		system, err := execution.SystemPrompt(snapshot.Snapshot{Repo: m.Repo, PR: m.PR}, m.Files, m.Rules)
		if err != nil {
			return nil, err
		}
		e.Review = reviewEstimate(len(system.String()) / charsPerToken)
		e.Judge = judgeEstimate(opt.Method, c.Golden)
		p.Fresh++
		p.Review, p.Judge = p.Review.Add(e.Review), p.Judge.Add(e.Judge)
		p.PRs = append(p.PRs, e)
	}
	return p, nil
}

// reviewEstimate: the passes share one session, so each pass's prompt is
// the system prompt and every earlier pass, served from the provider's
// prefix cache.
func reviewEstimate(system int) llm.Usage {
	var u llm.Usage
	for k := 1; k <= passes; k++ {
		prefix := system + (k-1)*(passPromptTokens+passAnswerTokens)
		u.Requests++
		u.PromptTokens += prefix + passPromptTokens
		if k > 1 {
			u.CachedTokens += prefix
		}
		u.CompletionTokens += passAnswerTokens
	}
	return u
}

func judgeEstimate(m Method, golden []Golden) llm.Usage {
	var u llm.Usage
	if m.Extract {
		u.Requests++
		u.PromptTokens += (len(m.Prompts.ExtractSystem)+len(m.Prompts.Extract))/charsPerToken + assumedCandidates*candidateTokens
		u.CompletionTokens += assumedCandidates * extractAnswerPerIt
	}
	base := (len(m.Prompts.JudgeSystem) + len(m.Prompts.Judge)) / charsPerToken
	for _, g := range golden {
		u.Requests += assumedCandidates
		u.PromptTokens += assumedCandidates * (base + len(g.Comment)/charsPerToken + candidateTokens)
		u.CompletionTokens += assumedCandidates * verdictTokens
	}
	return u
}

// Write prints the plan; with prices (nil: unknown) it adds the cost.
func (p *Plan) Write(w io.Writer, model, judge string, modelPrices, judgePrices *Prices) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "PR\tgolden\treview calls\treview prompt tok.\tof them cached\treview output tok.\tjudge calls\tjudge prompt tok.\tjudge output tok.\t")
	for _, e := range p.PRs {
		if e.Cached {
			fmt.Fprintf(tw, "%s\t%d\tkept from an earlier run: no calls\t\t\t\t\t\t\t\n", e.PR, e.Golden)
			continue
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t\n", e.PR, e.Golden, e.Review.Requests, e.Review.PromptTokens, e.Review.CachedTokens,
			e.Review.CompletionTokens, e.Judge.Requests, e.Judge.PromptTokens, e.Judge.CompletionTokens)
	}
	tw.Flush()
	fmt.Fprintf(w, "\nDry run of the %s set: %d PR(s) to run, %d kept from an earlier run. No model was called.\n", p.Set, p.Fresh, p.Cached)
	fmt.Fprintf(w, "Model %s: about %d calls, %d prompt tokens (%d of them cached), %d output tokens.\n",
		OneLine(model, 100), p.Review.Requests, p.Review.PromptTokens, p.Review.CachedTokens, p.Review.CompletionTokens)
	fmt.Fprintf(w, "Judge %s: about %d calls, %d prompt tokens, %d output tokens (assuming %d candidates per PR; extraction %s).\n",
		OneLine(judge, 100), p.Judge.Requests, p.Judge.PromptTokens, p.Judge.CompletionTokens, p.Assumed, map[bool]string{true: "on", false: "off"}[p.Extract])
	cost := func(name string, pr *Prices, u llm.Usage) {
		if pr == nil {
			fmt.Fprintf(w, "%s cost: unknown (pass --%sprices IN/CACHED/OUT in dollars per million tokens).\n", name, map[string]string{"Model": "", "Judge": "judge-"}[name])
			return
		}
		fmt.Fprintf(w, "%s cost: about $%.2f.\n", name, pr.Cost(u))
	}
	cost("Model", modelPrices, p.Review)
	cost("Judge", judgePrices, p.Judge)
	fmt.Fprintln(w, "Tool calls and retries are not in the estimate; the number of candidates depends on the model.")
}
