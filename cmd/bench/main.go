// Command bench scores the action's review engine on your own model: it
// reviews a set of pull requests whose real problems are known, with the
// same passes, prompts, thresholds, chunking and deduplication as the
// action, has a judge model match the findings with the known problems, and
// reports precision, recall, F1 and F2 beside the Code Review Bench's
// published leaderboard.
//
//	bench [--set local|crb] [--model M] [--base-url URL]
//	      [--model-timeout D] [--model-context-tokens N] [--max-output-tokens N]
//	      [--reasoning-effort E] [--extra-body JSON] [--extra-headers JSON]
//	      [--judge-model M] [--judge-base-url URL] [--judge-timeout D]
//	      [--judge-extra-body JSON] [--max-retry-wait D] [--no-extract]
//	      [--rules pinned|head] [--profile strict|core|all] [--only REPO|PR]
//	      [--limit N] [--concurrency N] [--out DIR] [--cache DIR]
//	      [--fresh | --resume] [--scripted]
//	      [--dry-run [--prices IN/CACHED/OUT] [--judge-prices IN/CACHED/OUT]]
//	      [--list] [--version]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/review-my-code-bot/rmc/benchmark"
	"github.com/review-my-code-bot/rmc/benchmark/scripted"
	"github.com/review-my-code-bot/rmc/github"
	"github.com/review-my-code-bot/rmc/internal/version"
	"github.com/review-my-code-bot/rmc/llm"
	"github.com/review-my-code-bot/rmc/review"
)

// defaultModel is the action's default model (its "model" input).
const defaultModel = "anthropic/claude-sonnet-4.5"

// judgeKeyVar holds the judge endpoint's key when it is not the model's.
const judgeKeyVar = "BENCH_JUDGE_API_KEY"

const (
	exitOK          = 0
	exitFailure     = 1
	exitUsage       = 2
	exitInterrupted = 130
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr, os.Getenv, isTerminal(os.Stderr))
	stop()
	os.Exit(code)
}

// config is the parsed command line.
type config struct {
	set, model, baseURL, judgeModel, judgeBaseURL, profile, rules, only, out, cache, commit string
	prices, judgePrices                                                                     string
	limit, concurrency, problem, blocking, retries                                          int
	list, dryRun, noExtract, fresh, resume, scripted, version                               bool
	provider                                                                                providerFlags
}

func parse(args []string, stdout, stderr io.Writer, board benchmark.Leaderboard) (config, error) {
	var c config
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	// The flag package would print a usage error and the whole usage; run
	// prints the error alone on stderr, and the usage goes to stdout only
	// when it is asked for.
	fs.SetOutput(io.Discard)
	fs.StringVar(&c.set, "set", "local", "the benchmark set: local (shipped with rmc, no GitHub access) or crb (Code Review Bench, read through the GitHub API)")
	fs.StringVar(&c.model, "model", defaultModel, "the model to review with, as named at the endpoint")
	fs.StringVar(&c.baseURL, "base-url", llm.DefaultBaseURL, "the OpenAI-compatible endpoint of the model")
	fs.StringVar(&c.judgeModel, "judge-model", "", fmt.Sprintf("the model that extracts and judges the findings (default: the leaderboard's judge, %s on OpenRouter, %s elsewhere)", board.JudgeOpenRouter, board.Judge))
	fs.StringVar(&c.judgeBaseURL, "judge-base-url", "", "the judge's OpenAI-compatible endpoint (default: --base-url); its key is read from "+judgeKeyVar)
	fs.BoolVar(&c.noExtract, "no-extract", false, "skip the extraction step: judge each finding as one candidate (the report then does not rank the run beside the leaderboard)")
	fs.StringVar(&c.rules, "rules", string(benchmark.PinnedRules), "the benchmark's rule set to score with: pinned (its commit 012d682, the leaderboard's) or head (duplicate groups and category profiles, as upstream scores since)")
	fs.StringVar(&c.profile, "profile", string(benchmark.Core), "which golden categories count under --rules head: strict, core or all")
	fs.StringVar(&c.only, "only", "", "only this repository (e.g. go-ledger, sentry) or PR (owner/name#N or its URL)")
	fs.IntVar(&c.limit, "limit", 0, "at most this many PRs (0: all)")
	fs.IntVar(&c.concurrency, "concurrency", 2, "PRs reviewed at once")
	fs.StringVar(&c.out, "out", "bench-results", "directory for results.json and report.md")
	fs.BoolVar(&c.list, "list", false, "print the set's PRs, one a line, and exit")
	fs.BoolVar(&c.dryRun, "dry-run", false, "print the model calls and an estimate of tokens (and cost, with --prices) a run would make, and exit without calling a model")
	fs.StringVar(&c.prices, "prices", "", "the model's prices for --dry-run: IN/CACHED/OUT dollars per million tokens, e.g. 3/0.3/15")
	fs.StringVar(&c.judgePrices, "judge-prices", "", "the judge's prices for --dry-run, as --prices")
	fs.BoolVar(&c.fresh, "fresh", false, "run every PR again instead of using results kept from an earlier run with the same endpoints and settings")
	fs.BoolVar(&c.resume, "resume", false, "in results kept from an earlier run, redo exactly what failed: reviews and judge calls")
	fs.BoolVar(&c.scripted, "scripted", false, "run the local set against the built-in scripted model: offline, no key, a report in seconds (a format example, not a score)")
	c.provider.add(fs)
	defaults := review.DefaultSettings()
	fs.IntVar(&c.problem, "problem-threshold", defaults.ProblemThreshold, "findings scoring below this (1-10) are dropped, as the action's problem_score_threshold")
	fs.IntVar(&c.blocking, "blocking-threshold", 0, "the action's blocking_score_threshold (default: the problem threshold)")
	fs.IntVar(&c.retries, "max-review-retries", defaults.Retries, "retries of a failed review pass, as the action's max_review_retries")
	fs.StringVar(&c.cache, "cache", "", "cache for the crb set's data and for each PR's result (default: the user cache directory, rmc-bench)")
	fs.StringVar(&c.commit, "crb-commit", benchmark.DefaultCRBCommit, "commit of "+benchmark.CRBRepo+" whose golden comments and prompts are used")
	fs.BoolVar(&c.version, "version", false, "print the version and exit (also: bench version; bench help is --help)")
	fs.Usage = func() {}
	if err := fs.Parse(args); errors.Is(err, flag.ErrHelp) {
		fs.SetOutput(stdout)
		fmt.Fprintln(stdout, "Usage: bench [flags]\n\nThe model's API key is read from LLM_API_KEY, else OPENROUTER_API_KEY; the judge's from "+judgeKeyVar+
			" (default: the model's key when the judge uses the model's endpoint); the crb set reads GitHub with GITHUB_TOKEN.\n\nFlags:")
		fs.PrintDefaults()
		return c, err
	} else if err != nil {
		return c, fmt.Errorf("%w (bench --help lists the flags)", err)
	}
	if err := c.check(fs); err != nil {
		return c, err
	}
	if c.scripted {
		c.model, c.judgeModel = scripted.Model, scripted.Judge
	}
	if c.judgeModel == "" {
		c.judgeModel = board.Judge
		if isDefault(c.judgeBaseURL) {
			c.judgeModel = board.JudgeOpenRouter
		}
	}
	return c, nil
}

func (c *config) check(fs *flag.FlagSet) error {
	var problems []string
	if fs.NArg() > 0 {
		problems = append(problems, fmt.Sprintf("unexpected argument %q", fs.Arg(0)))
	}
	if c.set != "local" && c.set != "crb" {
		problems = append(problems, fmt.Sprintf("--set %q is not local or crb", c.set))
	}
	if _, err := benchmark.ParseProfile(c.profile); err != nil {
		problems = append(problems, "--"+err.Error())
	}
	problems = append(problems, c.checkModes()...)
	problems = append(problems, c.provider.check()...)
	if c.concurrency < 1 || c.limit < 0 {
		problems = append(problems, "--concurrency must be at least 1 and --limit not negative")
	}
	if c.blocking == 0 {
		c.blocking = c.problem
	}
	if c.problem < 1 || c.problem > 10 || c.blocking < c.problem || c.blocking > 10 || c.retries < 0 {
		problems = append(problems, "thresholds are scores from 1 to 10, the blocking one at least the problem one; --max-review-retries is not negative")
	}
	for name, v := range map[string]string{"--prices": c.prices, "--judge-prices": c.judgePrices} {
		if _, err := optionalPrices(v); err != nil {
			problems = append(problems, name+": "+err.Error())
		}
	}
	if c.judgeBaseURL == "" {
		c.judgeBaseURL = c.baseURL
	}
	if c.judgeModel != "" && strings.TrimSpace(c.judgeModel) == "" {
		problems = append(problems, "--judge-model is blank")
	}
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "; "))
	}
	return nil
}

// checkModes checks the scoring and run modes: the rule set, --fresh
// against --resume, --scripted on the local set.
func (c *config) checkModes() []string {
	var problems []string
	if _, err := benchmark.ParseRules(c.rules); err != nil {
		problems = append(problems, "--"+err.Error())
	}
	if c.fresh && c.resume {
		problems = append(problems, "--fresh runs everything again and --resume only what failed: pass one")
	}
	if c.scripted && c.set != "local" {
		problems = append(problems, "--scripted runs the local set only")
	}
	return problems
}

func optionalPrices(s string) (*benchmark.Prices, error) {
	if s == "" {
		return nil, nil
	}
	p, err := benchmark.ParsePrices(s)
	return &p, err
}

// run is the command, with its environment passed in so that tests run it
// in parallel without touching the process's own.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string, tty bool) int {
	board, err := benchmark.PublishedLeaderboard()
	if err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return exitFailure
	}
	c, err := parse(version.Words(args), stdout, stderr, board)
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	if err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return exitUsage
	}
	if c.version {
		fmt.Fprintln(stdout, version.Line("bench"))
		return exitOK
	}
	set, err := openSet(c, getenv)
	if err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return exitUsage
	}
	if c.list {
		return list(ctx, set, c, stdout, stderr)
	}
	if c.scripted {
		stopScripted, err := startScripted(ctx, &c, set, &getenv)
		if err != nil {
			fmt.Fprintln(stderr, "bench:", err)
			return exitFailure
		}
		defer stopScripted()
	}
	opt, code := options(c, set, getenv, stderr)
	if code != exitOK {
		return code
	}
	if c.dryRun {
		return dryRun(ctx, opt, c, stdout, stderr)
	}
	if err := checkWritable(c.out); err != nil {
		fmt.Fprintln(stderr, "bench: --out:", err)
		return exitUsage
	}
	bar := &progress{w: stderr, tty: tty}
	opt.Progress = bar.update
	res, err := benchmark.Run(ctx, opt)
	bar.done()
	return finish(ctx, res, err, c, board, stdout, stderr)
}

// options builds the run's clients and settings; a bad setting is a usage
// error, reported before any model call.
func options(c config, set benchmark.Set, getenv func(string) string, stderr io.Writer) (benchmark.Options, int) {
	usage := func(format string, args ...any) (benchmark.Options, int) {
		fmt.Fprintf(stderr, "bench: "+format+"\n", args...)
		return benchmark.Options{}, exitUsage
	}
	key, judgeKey := keys(c, getenv)
	profile, _ := benchmark.ParseProfile(c.profile)
	rules, _ := benchmark.ParseRules(c.rules)
	engine := review.DefaultSettings()
	engine.ProblemThreshold, engine.BlockingThreshold, engine.Retries = c.problem, c.blocking, c.retries
	engine.ContextTokens = c.provider.contextTokens
	model, judgeAt := c.endpoints()
	opt := benchmark.Options{Set: set, Model: c.model, JudgeModel: c.judgeModel, Method: benchmark.Method{Extract: !c.noExtract},
		Engine: engine, Rules: rules, Profile: profile, Concurrency: c.concurrency, Only: c.only, Limit: c.limit, Resume: c.resume,
		ModelEndpoint: model, JudgeEndpoint: judgeAt, Example: c.scripted}
	if dir, err := cacheDir(c); err == nil && !c.scripted {
		opt.Cache = &benchmark.ResultCache{Dir: dir, Refresh: c.fresh}
	}
	if c.dryRun {
		return opt, exitOK // a dry run calls no model: no client, no key
	}
	if key == "" && isDefault(c.baseURL) {
		return usage("no API key: set LLM_API_KEY (or OPENROUTER_API_KEY) to the key for %s, or pass --base-url for a local server that needs none", c.baseURL)
	}
	if judgeKey == "" && isDefault(c.judgeBaseURL) {
		return usage("no API key for the judge at %s: set %s", c.judgeBaseURL, judgeKeyVar)
	}
	var err error
	if opt.Client, err = llm.New(model.Options(key, nil)); err != nil {
		return usage("%v", err)
	}
	judge, err := llm.New(judgeAt.Options(judgeKey, nil))
	if err != nil {
		return usage("--judge-base-url: %v", err)
	}
	opt.Judge = benchmark.ModelJudge{Client: judge}
	opt.Warnings = func() []string {
		return append(prefixed("model", opt.Client.Warnings()), prefixed("judge", judge.Warnings())...)
	}
	return opt, exitOK
}

// keys are the model's and the judge's API keys.
func keys(c config, getenv func(string) string) (key, judgeKey string) {
	key = getenv("LLM_API_KEY")
	if key == "" {
		key = getenv("OPENROUTER_API_KEY")
	}
	judgeKey = getenv(judgeKeyVar)
	sameEndpoint := strings.TrimRight(c.judgeBaseURL, "/") == strings.TrimRight(c.baseURL, "/")
	if judgeKey == "" && sameEndpoint {
		judgeKey = key
	}
	return key, judgeKey
}

func prefixed(who string, warnings []string) []string {
	out := make([]string, 0, len(warnings))
	for _, w := range warnings {
		out = append(out, who+": "+w)
	}
	return out
}

// startScripted serves the built-in scripted model for the set and points
// the model and the judge at it, with its key.
func startScripted(ctx context.Context, c *config, set benchmark.Set, getenv *func(string) string) (stop func(), err error) {
	cases, err := set.Cases(ctx)
	if err != nil {
		return nil, err
	}
	server := scripted.Start(cases)
	c.baseURL, c.judgeBaseURL = server.BaseURL(), server.BaseURL()
	outer := *getenv
	*getenv = func(k string) string {
		switch k {
		case "LLM_API_KEY", judgeKeyVar:
			return server.APIKey()
		case "OPENROUTER_API_KEY":
			return ""
		}
		return outer(k)
	}
	return server.Close, nil
}

func isDefault(baseURL string) bool { return strings.TrimRight(baseURL, "/") == llm.DefaultBaseURL }

// checkWritable makes sure the results can be written before any money is
// spent on model calls.
func checkWritable(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".bench-write-check-*")
	if err != nil {
		return fmt.Errorf("%s is not writable: %w", dir, err)
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

func dryRun(ctx context.Context, opt benchmark.Options, c config, stdout, stderr io.Writer) int {
	plan, err := benchmark.DryRun(ctx, opt)
	if err != nil {
		fmt.Fprintln(stderr, "bench:", benchmark.OneLine(err.Error(), 2000))
		return exitFailure
	}
	mp, _ := optionalPrices(c.prices)
	jp, _ := optionalPrices(c.judgePrices)
	plan.Write(stdout, c.model, c.judgeModel, mp, jp)
	return exitOK
}

// finish prints and writes what the run finished, also after an
// interruption, and picks the exit code.
func finish(ctx context.Context, res *benchmark.Results, err error, c config, board benchmark.Leaderboard, stdout, stderr io.Writer) int {
	if res != nil && res.Failed < len(res.PRs) {
		res.Table(stdout)
		if werr := res.Write(c.out, board); werr != nil {
			fmt.Fprintln(stderr, "bench: write the results:", werr)
			return exitFailure
		}
		fmt.Fprintf(stdout, "\nWrote %s and %s.\n", filepath.Join(c.out, "results.json"), filepath.Join(c.out, "report.md"))
	}
	if err != nil {
		fmt.Fprintln(stderr, "bench:", benchmark.OneLine(err.Error(), 2000))
		if ctx.Err() != nil {
			return exitInterrupted
		}
		return exitFailure
	}
	if res.Failed+res.FailedReviews == len(res.PRs) {
		fmt.Fprintln(stderr, "bench: every review failed; see the errors above")
		return exitFailure
	}
	return exitOK
}

func cacheDir(c config) (string, error) {
	if c.cache != "" {
		return c.cache, nil
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no user cache directory (%v): pass --cache DIR", err)
	}
	return filepath.Join(dir, "rmc-bench"), nil
}

func openSet(c config, getenv func(string) string) (benchmark.Set, error) {
	if c.set == "local" {
		return benchmark.NewLocal(), nil
	}
	cache, err := cacheDir(c)
	if err != nil {
		return nil, err
	}
	return &benchmark.CRB{Commit: c.commit, CacheDir: cache, NewClient: func() (benchmark.GitHub, error) {
		token := getenv("GITHUB_TOKEN")
		if token == "" {
			return nil, errors.New("GITHUB_TOKEN is not set: the crb set reads the benchmark's golden comments and PRs through the GitHub API (any token that can read public repositories will do); once cached, runs need none")
		}
		return github.New(github.Options{Token: token, APIURL: getenv("GITHUB_API_URL"), UserAgent: "review-my-code-bot-bench", WriteInterval: -1})
	}}, nil
}

func list(ctx context.Context, set benchmark.Set, c config, stdout, stderr io.Writer) int {
	cases, err := set.Cases(ctx)
	if err == nil && (c.only != "" || c.limit > 0) {
		cases, err = benchmark.Filter(cases, c.only, c.limit)
	}
	if err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return exitFailure
	}
	for _, cs := range cases {
		fmt.Fprintf(stdout, "%s\t%s\t%d golden\t%s\n", cs.Ref, cs.Repo, len(cs.Golden), benchmark.OneLine(cs.Title, 120))
	}
	return exitOK
}

// progress draws a bar on a terminal and prints a plain line per PR
// elsewhere (a CI log has no use for carriage returns).
type progress struct {
	w     io.Writer
	tty   bool
	drawn bool
}

const barWidth = 30

func (p *progress) update(done, total int, pr *benchmark.PRResult) {
	status := fmt.Sprintf("%d finding(s), TP %d FP %d FN %d", len(pr.Candidates), pr.Counts.TP, pr.Counts.FP, pr.Counts.FN)
	switch {
	case pr.Error != "":
		status = "not scored: " + pr.Error
	case pr.ReviewError != "":
		status = fmt.Sprintf("review failed, scored as no comments (FN %d): %s", pr.Counts.FN, pr.ReviewError)
	case pr.FailedCalls() > 0:
		status += fmt.Sprintf("; %d failed judge call(s) scored as no match", pr.FailedCalls())
	}
	if !p.tty {
		fmt.Fprintf(p.w, "[%d/%d] %s: %s\n", done, total, pr.PR, benchmark.OneLine(status, 300))
		return
	}
	n := done * barWidth / total
	fmt.Fprintf(p.w, "\r\033[K[%s%s] %d/%d %s", strings.Repeat("#", n), strings.Repeat(".", barWidth-n), done, total, benchmark.OneLine(pr.PR, 60))
	p.drawn = true
}

func (p *progress) done() {
	if p.drawn {
		fmt.Fprintln(p.w)
	}
}

// isTerminal reports whether f is a character device: a terminal, not a
// file or a pipe.
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
