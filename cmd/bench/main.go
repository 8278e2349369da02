// Command bench scores the action's review engine on your own model: it
// reviews a set of pull requests whose real problems are known, with the
// same passes, prompts, thresholds, chunking and deduplication as the
// action, has a judge model match the findings with the known problems, and
// reports precision, recall, F1 and F2 beside the Code Review Bench's
// published leaderboard.
//
//	bench [--set local|crb] [--model M] [--base-url URL] [--judge-model M]
//	      [--profile strict|core|all] [--only REPO|PR] [--limit N]
//	      [--concurrency N] [--out DIR] [--list]
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

	"github.com/review-my-code-bot/rmc/bench"
	"github.com/review-my-code-bot/rmc/github"
	"github.com/review-my-code-bot/rmc/llm"
)

// defaultModel is the action's default model (its "model" input).
const defaultModel = "anthropic/claude-sonnet-4.5"

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
	set, model, baseURL, judgeModel, profile, only, out, cache, commit string
	limit, concurrency, problem, blocking, retries                     int
	list                                                               bool
}

func parse(args []string, stderr io.Writer) (config, error) {
	var c config
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.set, "set", "local", "the benchmark set: local (shipped with rmc, no GitHub access) or crb (Code Review Bench, read through the GitHub API)")
	fs.StringVar(&c.model, "model", defaultModel, "the model to review with, as named at the endpoint")
	fs.StringVar(&c.baseURL, "base-url", llm.DefaultBaseURL, "the OpenAI-compatible endpoint")
	fs.StringVar(&c.judgeModel, "judge-model", "", "the model that judges the findings (default: --model)")
	fs.StringVar(&c.profile, "profile", string(bench.Core), "which golden categories count: strict, core or all")
	fs.StringVar(&c.only, "only", "", "only this repository (e.g. go-ledger, sentry) or PR (owner/name#N or its URL)")
	fs.IntVar(&c.limit, "limit", 0, "at most this many PRs (0: all)")
	fs.IntVar(&c.concurrency, "concurrency", 2, "PRs reviewed at once")
	fs.StringVar(&c.out, "out", "bench-results", "directory for results.json and report.md")
	fs.BoolVar(&c.list, "list", false, "print the set's PRs, one a line, and exit")
	fs.IntVar(&c.problem, "problem-threshold", 5, "findings scoring below this (1-10) are dropped, as the action's problem_score_threshold")
	fs.IntVar(&c.blocking, "blocking-threshold", 0, "the action's blocking_score_threshold (default: the problem threshold)")
	fs.IntVar(&c.retries, "max-review-retries", 1, "retries of a failed review pass, as the action's max_review_retries")
	fs.StringVar(&c.cache, "cache", "", "cache for the crb set's data (default: the user cache directory, rmc-bench)")
	fs.StringVar(&c.commit, "crb-commit", bench.DefaultCRBCommit, "commit of "+bench.CRBRepo+" whose golden comments are used")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: bench [flags]\n\nThe API key is read from LLM_API_KEY, else OPENROUTER_API_KEY; the crb set reads GitHub with GITHUB_TOKEN.\n\nFlags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	var problems []string
	if fs.NArg() > 0 {
		problems = append(problems, fmt.Sprintf("unexpected argument %q", fs.Arg(0)))
	}
	if c.set != "local" && c.set != "crb" {
		problems = append(problems, fmt.Sprintf("--set %q is not local or crb", c.set))
	}
	if _, err := bench.ParseProfile(c.profile); err != nil {
		problems = append(problems, "--"+err.Error())
	}
	if c.concurrency < 1 || c.limit < 0 {
		problems = append(problems, "--concurrency must be at least 1 and --limit not negative")
	}
	if c.blocking == 0 {
		c.blocking = c.problem
	}
	if c.problem < 1 || c.problem > 10 || c.blocking < c.problem || c.blocking > 10 || c.retries < 0 {
		problems = append(problems, "thresholds are scores from 1 to 10, the blocking one at least the problem one; --max-review-retries is not negative")
	}
	if c.judgeModel == "" {
		c.judgeModel = c.model
	}
	if len(problems) > 0 {
		return c, errors.New(strings.Join(problems, "; "))
	}
	return c, nil
}

// run is the command, with its environment passed in so that tests run it
// in parallel without touching the process's own.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string, tty bool) int {
	c, err := parse(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	if err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return exitUsage
	}
	set, err := openSet(c, getenv)
	if err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return exitUsage
	}
	if c.list {
		return list(ctx, set, c, stdout, stderr)
	}
	key := getenv("LLM_API_KEY")
	if key == "" {
		key = getenv("OPENROUTER_API_KEY")
	}
	if key == "" && strings.TrimRight(c.baseURL, "/") == llm.DefaultBaseURL {
		fmt.Fprintf(stderr, "bench: no API key: set LLM_API_KEY (or OPENROUTER_API_KEY) to the key for %s, or pass --base-url for a local server that needs none\n", c.baseURL)
		return exitUsage
	}
	client, err := newClient(c.baseURL, key, c.model)
	if err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return exitUsage
	}
	judge, err := newClient(c.baseURL, key, c.judgeModel)
	if err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return exitUsage
	}
	profile, _ := bench.ParseProfile(c.profile)
	bar := &progress{w: stderr, tty: tty}
	res, err := bench.Run(ctx, bench.Options{Set: set, Client: client, Judge: bench.ModelJudge{Client: judge},
		Engine:  bench.EngineOptions{ProblemThreshold: c.problem, BlockingThreshold: c.blocking, Retries: c.retries},
		Profile: profile, Concurrency: c.concurrency, Only: c.only, Limit: c.limit, Progress: bar.update})
	bar.done()
	if res != nil && res.Failed < len(res.PRs) {
		// Also after an interruption: what finished is kept.
		res.Table(stdout)
		board, werr := bench.PublishedLeaderboard()
		if werr == nil {
			werr = res.Write(c.out, board)
		}
		if werr != nil {
			fmt.Fprintln(stderr, "bench: write the results:", werr)
			return exitFailure
		}
		fmt.Fprintf(stdout, "\nWrote %s and %s.\n", filepath.Join(c.out, "results.json"), filepath.Join(c.out, "report.md"))
	}
	if err != nil {
		fmt.Fprintln(stderr, "bench:", bench.OneLine(err.Error(), 2000))
		if ctx.Err() != nil {
			return exitInterrupted
		}
		return exitFailure
	}
	if res.Failed == len(res.PRs) {
		fmt.Fprintln(stderr, "bench: every PR failed; see the errors above")
		return exitFailure
	}
	return exitOK
}

func newClient(baseURL, key, model string) (*llm.Client, error) {
	return llm.New(llm.Options{BaseURL: baseURL, APIKey: key, Model: model, PromptJSON: true,
		Referer: "https://github.com/review-my-code-bot/rmc", Title: "review-my-code-bot bench"})
}

func openSet(c config, getenv func(string) string) (bench.Set, error) {
	if c.set == "local" {
		return bench.NewLocal(), nil
	}
	cache := c.cache
	if cache == "" {
		dir, err := os.UserCacheDir()
		if err != nil {
			return nil, fmt.Errorf("no user cache directory (%v): pass --cache DIR", err)
		}
		cache = filepath.Join(dir, "rmc-bench")
	}
	return &bench.CRB{Commit: c.commit, CacheDir: cache, NewClient: func() (*github.Client, error) {
		token := getenv("GITHUB_TOKEN")
		if token == "" {
			return nil, errors.New("GITHUB_TOKEN is not set: the crb set reads the benchmark's golden comments and PRs through the GitHub API (any token that can read public repositories will do); once cached, runs need none")
		}
		return github.New(github.Options{Token: token, APIURL: getenv("GITHUB_API_URL"), UserAgent: "review-my-code-bot-bench", WriteInterval: -1})
	}}, nil
}

func list(ctx context.Context, set bench.Set, c config, stdout, stderr io.Writer) int {
	cases, err := set.Cases(ctx)
	if err == nil && (c.only != "" || c.limit > 0) {
		cases, err = bench.Filter(cases, c.only, c.limit)
	}
	if err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return exitFailure
	}
	for _, cs := range cases {
		fmt.Fprintf(stdout, "%s\t%s\t%d golden\t%s\n", cs.Ref, cs.Repo, len(cs.Golden), bench.OneLine(cs.Title, 120))
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

func (p *progress) update(done, total int, pr *bench.PRResult) {
	status := fmt.Sprintf("%d finding(s), TP %d FP %d FN %d", len(pr.Candidates), pr.Counts.TP, pr.Counts.FP, pr.Counts.FN)
	if pr.Error != "" {
		status = "failed: " + pr.Error
	}
	if !p.tty {
		fmt.Fprintf(p.w, "[%d/%d] %s: %s\n", done, total, pr.PR, bench.OneLine(status, 300))
		return
	}
	n := done * barWidth / total
	fmt.Fprintf(p.w, "\r\033[K[%s%s] %d/%d %s", strings.Repeat("#", n), strings.Repeat(".", barWidth-n), done, total, bench.OneLine(pr.PR, 60))
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
