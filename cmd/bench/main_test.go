package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/benchmark"
	"github.com/review-my-code-bot/rmc/github/fakegithub"
	"github.com/review-my-code-bot/rmc/internal/golden"
	"github.com/review-my-code-bot/rmc/internal/version"
	"github.com/review-my-code-bot/rmc/llm/fakellm"
)

var (
	repoLine = regexp.MustCompile(`(?m)^Repository: (\S+)$`)
	prLine   = regexp.MustCompile(`(?m)^Pull request: #(\d+) `)
)

func fenced(text, source string) string {
	_, rest, ok := strings.Cut(text, fmt.Sprintf("<untrusted source=%q>\n", source))
	if !ok {
		return ""
	}
	body, _, _ := strings.Cut(rest, "\n</untrusted>")
	return body
}

// oracle is a scripted endpoint whose reviewer reports exactly the golden
// issues of the set's PRs (the local set's when none is given) in pass 1,
// and whose judge matches a finding that carries a golden comment's text.
func oracle(t *testing.T, sets ...benchmark.Set) *fakellm.Server {
	t.Helper()
	return oracleAt(t, fakellm.Config{APIKey: "sk-bench-test"}, sets...)
}

// oracleAt is oracle on a server that behaves as cfg says.
func oracleAt(t *testing.T, cfg fakellm.Config, sets ...benchmark.Set) *fakellm.Server {
	t.Helper()
	var cases []benchmark.Case
	for _, set := range append(sets, benchmark.NewLocal()) {
		cs, err := set.Cases(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, cs...)
	}
	golden := map[string][]benchmark.Golden{}
	for _, c := range cases {
		golden[fmt.Sprintf("%s/%s#%d", c.Ref.Owner, c.Ref.Name, c.Ref.Number)] = c.Golden
	}
	m := fakellm.New(cfg)
	t.Cleanup(m.Close)
	m.AddRule(fakellm.Rule{LastUser: "# Task: review pass 1 of 3", Respond: func(r fakellm.Request) fakellm.Reply {
		sys := r.Messages[0].Content
		repo, pr := repoLine.FindStringSubmatch(sys), prLine.FindStringSubmatch(sys)
		findings := []map[string]any{}
		for i, g := range golden[repo[1]+"#"+pr[1]] {
			findings = append(findings, map[string]any{"path": "x", "line": 1, "start_line": 0, "side": "right", "title": fmt.Sprintf("Issue %d", i),
				"explanation": g.Comment, "score": 8, "category": "bug", "suggestion": ""})
		}
		return fakellm.Reply{JSON: map[string]any{"findings": findings}}
	}})
	m.AddRule(fakellm.Rule{LastUser: "# Task: review pass", Reply: fakellm.Reply{JSON: map[string]any{"findings": []any{}}}})
	m.AddRule(fakellm.Rule{LastUser: "found a known issue", Respond: func(r fakellm.Request) fakellm.Reply {
		g, c := judgeTexts(r.LastUser())
		ok := g != "" && strings.Contains(c, g)
		return fakellm.Reply{JSON: map[string]any{"reasoning": "compared the two", "match": ok, "confidence": 0.9}}
	}})
	m.AddRule(fakellm.Rule{LastUser: "List every distinct problem", Respond: func(r fakellm.Request) fakellm.Reply {
		text := fenced(r.LastUser(), "review comments")
		if text == "" { // upstream's template (its stand-in): the text as it is
			_, rest, _ := strings.Cut(r.LastUser(), "Review comments:\n")
			text, _, _ = strings.Cut(rest, "\n\nList every distinct")
		}
		issues := strings.Split(text, "\n\n---\n\n")
		return fakellm.Reply{JSON: map[string]any{"issues": issues}}
	}})
	return m
}

// judgeTexts are the golden comment and the candidate of a judge prompt:
// fenced (the local prompts) or as they are (upstream's template, whose
// stand-in in bench/testdata/crb/upstream has "Golden:" and "Candidate:").
func judgeTexts(q string) (golden, candidate string) {
	if g := fenced(q, "golden comment"); g != "" {
		return g, fenced(q, "candidate issue")
	}
	_, rest, _ := strings.Cut(q, "Golden:\n")
	golden, rest, _ = strings.Cut(rest, "\n\nCandidate:\n")
	candidate, _, _ = strings.Cut(rest, "\n\nReply with JSON only")
	return golden, candidate
}

func env(vars map[string]string) func(string) string { return func(k string) string { return vars[k] } }

func runCmd(t *testing.T, getenv func(string) string, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), args, &stdout, &stderr, getenv, false)
	return code, stdout.String(), stderr.String()
}

// localTotals counts the local set's PRs, those with golden comments, and
// their golden comments (the pinned rules count every one).
func localTotals(t *testing.T) (prs, planted, golden int) {
	t.Helper()
	cases, err := benchmark.NewLocal().Cases(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		prs++
		if len(c.Golden) > 0 {
			planted++
		}
		golden += len(c.Golden)
	}
	return prs, planted, golden
}

func TestLocalSetEndToEnd(t *testing.T) {
	t.Parallel()
	m := oracle(t)
	out, cache := t.TempDir(), t.TempDir()
	prs, planted, core := localTotals(t)
	vars := env(map[string]string{"LLM_API_KEY": m.APIKey()})
	args := []string{"--base-url", m.BaseURL(), "--model", "scripted", "--judge-model", "scripted-judge", "--out", out, "--cache", cache, "--concurrency", "4"}
	code, stdout, stderr := runCmd(t, vars, args...)
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, want := range []string{"overall", "100.0%", "results.json", "Judge scripted-judge, prompts rmc local, extraction on."} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	// Not a terminal: one plain progress line per PR, no bar.
	if n := strings.Count(stderr, "\n"); n != prs || strings.Contains(stderr, "\r") {
		t.Errorf("progress on a non-terminal: %d lines\n%q", n, stderr)
	}
	var res benchmark.Results
	data, err := os.ReadFile(filepath.Join(out, "results.json"))
	if err == nil {
		err = json.Unmarshal(data, &res)
	}
	if err != nil {
		t.Fatal(err)
	}
	if o := res.Summary.Overall; o.PRs != planted || o.TP != core || o.Precision != 1 || o.Recall != 1 || res.Model != "scripted" || res.JudgeModel != "scripted-judge" || !res.Method.Extract {
		t.Errorf("results.json: %+v, model %q judge %q", o, res.Model, res.JudgeModel)
	}
	if md, err := os.ReadFile(filepath.Join(out, "report.md")); err != nil || !strings.Contains(string(md), "**This run is not ranked here**") {
		t.Errorf("report.md: %v", err)
	}
	// The judge's requests carry temperature 0; the reviewer's do not.
	for _, r := range m.Requests() {
		if hot := !strings.Contains(string(r.Body), `"temperature":0`); hot != (r.Model == "scripted") {
			t.Errorf("model %s: temperature in %.300s", r.Model, r.Body)
			break
		}
	}
	// Run again: every PR's result is kept, no model is called.
	calls := len(m.Requests())
	code, stdout, stderr = runCmd(t, vars, args...)
	if code != exitOK || len(m.Requests()) != calls || !strings.Contains(stdout, fmt.Sprintf("%d result(s) reused from an earlier run", prs)) {
		t.Errorf("second run: exit %d, %d new calls\n%s%s", code, len(m.Requests())-calls, stdout, stderr)
	}
	// A dry run with the same settings knows there is nothing left to do.
	code, stdout, stderr = runCmd(t, vars, append(args, "--dry-run")...)
	if code != exitOK || !strings.Contains(stdout, fmt.Sprintf("0 PR(s) to run, %d kept from an earlier run", prs)) {
		t.Errorf("dry run after a full run: exit %d\n%s%s", code, stdout, stderr)
	}
}

func TestList(t *testing.T) {
	t.Parallel()
	prs, _, _ := localTotals(t)
	code, stdout, stderr := runCmd(t, env(nil), "--list")
	if code != exitOK || strings.Count(stdout, "\n") != prs || !strings.Contains(stdout, "local/go-ledger#1\tgo-ledger\t") {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, _ = runCmd(t, env(nil), "--list", "--only", "ts-shop#2")
	if code != exitOK || strings.Count(stdout, "\n") != 1 {
		t.Errorf("--only ts-shop#2 listed:\n%s", stdout)
	}
}

func TestHelpAndVersion(t *testing.T) {
	t.Parallel()
	code, stdout, stderr := runCmd(t, env(nil), "--help")
	if code != exitOK || !strings.Contains(stdout, "-judge-base-url") || !strings.Contains(stdout, "BENCH_JUDGE_API_KEY") || stderr != "" {
		t.Errorf("--help: exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, _ = runCmd(t, env(nil), "--dry-run", "--only", "go-ledger#1")
	if board, _ := benchmark.PublishedLeaderboard(); code != exitOK || !strings.Contains(stdout, "Judge "+board.JudgeOpenRouter+":") {
		t.Errorf("the default judge on OpenRouter: exit %d\n%s", code, stdout)
	}
	for _, args := range [][]string{{"--version"}, {"version"}} {
		code, stdout, _ = runCmd(t, env(nil), args...)
		if code != exitOK || stdout != version.Line("bench")+"\n" {
			t.Errorf("%s: exit %d %q", args[0], code, stdout)
		}
	}
	code, stdout, _ = runCmd(t, env(nil), "help")
	if code != exitOK || !strings.Contains(stdout, "-judge-base-url") {
		t.Errorf("help: exit %d\n%s", code, stdout)
	}
}

// TestDryRunCallsNoModel prints the calls and tokens, and the cost with
// prices, without a request to the endpoint: it needs no API key either.
func TestDryRunCallsNoModel(t *testing.T) {
	t.Parallel()
	m := oracle(t)
	code, stdout, stderr := runCmd(t, env(nil), "--dry-run", "--only", "go-ledger", "--cache", t.TempDir(),
		"--prices", "3/0.3/15", "--out", "/nonexistent/never-written")
	if code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	for _, want := range []string{"local/go-ledger#1", "No model was called.", "Model cost: about $", "Judge cost: unknown (pass --judge-prices"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("dry run lacks %q:\n%s", want, stdout)
		}
	}
	// With an endpoint that answers, still no request.
	code, _, stderr = runCmd(t, env(map[string]string{"LLM_API_KEY": m.APIKey()}), "--dry-run", "--base-url", m.BaseURL(), "--only", "go-ledger#1", "--cache", t.TempDir())
	if n := len(m.Requests()); n != 0 || code != exitOK {
		t.Errorf("exit %d, %d requests in a dry run\n%s", code, n, stderr)
	}
	if _, err := os.Stat("/nonexistent/never-written"); err == nil {
		t.Error("a dry run wrote --out")
	}
}

// TestUnwritableOutIsRefusedBeforeAnyModelCall: nothing is spent on a run
// whose results could not be written.
func TestUnwritableOutIsRefusedBeforeAnyModelCall(t *testing.T) {
	t.Parallel()
	m := oracle(t)
	file := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCmd(t, env(map[string]string{"LLM_API_KEY": m.APIKey()}), "--base-url", m.BaseURL(), "--out", filepath.Join(file, "out"), "--cache", t.TempDir())
	if code != exitUsage || !strings.Contains(stderr, "--out") || len(m.Requests()) != 0 {
		t.Errorf("exit %d, %d requests\n%s%s", code, len(m.Requests()), stdout, stderr)
	}
}

// TestJudgeOnItsOwnEndpoint: the model under test on one endpoint, the
// judge on another with its own key.
func TestJudgeOnItsOwnEndpoint(t *testing.T) {
	t.Parallel()
	reviewer, judge := oracle(t), oracle(t)
	vars := env(map[string]string{"LLM_API_KEY": reviewer.APIKey(), "BENCH_JUDGE_API_KEY": judge.APIKey()})
	code, stdout, stderr := runCmd(t, vars, "--base-url", reviewer.BaseURL(), "--judge-base-url", judge.BaseURL(), "--model", "local-model",
		"--only", "go-ledger#1", "--out", t.TempDir(), "--cache", t.TempDir())
	if code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	board, _ := benchmark.PublishedLeaderboard()
	for _, r := range reviewer.Requests() {
		if r.Model != "local-model" {
			t.Errorf("the reviewer's endpoint got a request for %q", r.Model)
		}
	}
	if len(judge.Requests()) == 0 {
		t.Fatal("the judge's endpoint got no request")
	}
	for _, r := range judge.Requests() {
		if r.Model != board.Judge || r.Header.Get("Authorization") != "Bearer "+judge.APIKey() {
			t.Errorf("the judge's endpoint got model %q", r.Model)
		}
	}
}

func TestBadInput(t *testing.T) {
	t.Parallel()
	m := oracle(t)
	tests := map[string]struct {
		args []string
		env  map[string]string
		code int
		want string
	}{
		"no key":            {nil, nil, exitUsage, "no API key: set LLM_API_KEY"},
		"unknown set":       {[]string{"--set", "public"}, nil, exitUsage, `--set "public" is not local or crb`},
		"unknown profile":   {[]string{"--profile", "lenient"}, nil, exitUsage, `profile "lenient" is not strict, core or all`},
		"bad threshold":     {[]string{"--problem-threshold", "11"}, nil, exitUsage, "thresholds are scores from 1 to 10"},
		"no such PR":        {[]string{"--list", "--only", "nope#9"}, nil, exitFailure, `no PR of the set matches "nope#9"`},
		"crb without token": {[]string{"--set", "crb", "--list"}, nil, exitFailure, "GITHUB_TOKEN is not set"},
		"wrong key": {[]string{"--base-url", m.BaseURL(), "--limit", "2"}, map[string]string{"LLM_API_KEY": "sk-wrong-key-123456"},
			exitFailure, "the model endpoint refused the API key"},
		"wrong judge key": {[]string{"--base-url", m.BaseURL(), "--judge-base-url", m.URL + "/api/v1", "--limit", "2"},
			map[string]string{"LLM_API_KEY": m.APIKey(), "BENCH_JUDGE_API_KEY": "sk-wrong-key-123456"}, exitFailure, "the judge endpoint refused the API key"},
		"judge elsewhere, no key": {[]string{"--base-url", m.BaseURL(), "--judge-base-url", "https://openrouter.ai/api/v1"}, map[string]string{"LLM_API_KEY": "k"},
			exitUsage, "no API key for the judge"},
		"bad prices":  {[]string{"--dry-run", "--prices", "3/x/15"}, nil, exitUsage, `--prices: price "x"`},
		"blank judge": {[]string{"--judge-model", " "}, nil, exitUsage, "--judge-model is blank"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			args := append([]string{"--out", t.TempDir(), "--cache", t.TempDir()}, tc.args...)
			code, stdout, stderr := runCmd(t, env(tc.env), args...)
			if code != tc.code || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, want %d; stderr lacks %q:\n%s%s", code, tc.code, tc.want, stderr, stdout)
			}
			if strings.Contains(stderr+stdout, "sk-wrong-key-123456") {
				t.Error("the API key was printed")
			}
		})
	}
}

// TestBuiltBinaryFromAnotherDirectory runs the built command outside the
// repository: the local set is embedded, so it needs no file of ours.
func TestBuiltBinaryFromAnotherDirectory(t *testing.T) {
	t.Parallel()
	bin := filepath.Join(t.TempDir(), "bench")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	m := oracle(t)
	dir := t.TempDir()
	cmd := exec.Command(bin, "--base-url", m.BaseURL(), "--model", "scripted", "--only", "py-notes#1", "--out", "out")
	cmd.Dir = dir
	cmd.Env = []string{"LLM_API_KEY=" + m.APIKey(), "HOME=" + dir}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(string(out), "[1/1]") {
		t.Errorf("no progress:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(dir, "out", "report.md")); err != nil {
		t.Error(err)
	}
	// --scripted needs no key, no endpoint and no network: the built
	// binary writes the report the golden file pins.
	cmd = exec.Command(bin, "--scripted", "--out", "scripted")
	cmd.Dir = dir
	cmd.Env = []string{"HOME=" + dir}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("--scripted: %v\n%s", err, out)
	}
	got, err := os.ReadFile(filepath.Join(dir, "scripted", "report.md"))
	want, werr := os.ReadFile("testdata/scripted-report.md")
	if err != nil || werr != nil || string(got) != string(want) {
		t.Errorf("the built binary's --scripted report differs from testdata/scripted-report.md (%v, %v)", err, werr)
	}
}

func TestProgressBarOnlyOnATerminal(t *testing.T) {
	t.Parallel()
	var term bytes.Buffer
	p := &progress{w: &term, tty: true}
	p.update(1, 4, &benchmark.PRResult{PR: "local/go-ledger#1"})
	p.update(4, 4, &benchmark.PRResult{PR: "local/go-ledger#2\x1b[2J", Error: "load: gone"})
	p.done()
	want := "\r\033[K[#######.......................] 1/4 local/go-ledger#1\r\033[K[##############################] 4/4 local/go-ledger#2 [2J\n"
	if term.String() != want {
		t.Errorf("terminal output %q, want %q", term.String(), want)
	}
	var log bytes.Buffer
	p = &progress{w: &log}
	p.update(1, 2, &benchmark.PRResult{PR: "local/go-ledger#1", ReviewError: "review: \x1b]0;pwned\x07endpoint unavailable", Counts: benchmark.Counts{FN: 2}})
	p.done()
	if got := log.String(); got != "[1/2] local/go-ledger#1: review failed, scored as no comments (FN 2): review: ]0;pwned endpoint unavailable\n" {
		t.Errorf("log output %q", got)
	}
}

// TestPublicSetThroughTheCommand runs --set crb against the fake GitHub
// through the environment a user sets: GITHUB_TOKEN and GITHUB_API_URL.
func TestPublicSetThroughTheCommand(t *testing.T) {
	t.Parallel()
	const commit = "0123456789abcdef0123456789abcdef01234567"
	gh := fakegithub.New()
	t.Cleanup(gh.Close)
	gh.AddToken("ghp_cmdtest", fakegithub.Identity{Login: "bench-user", Kind: fakegithub.TokenPAT})
	sample, err := os.ReadFile("../../benchmark/testdata/crb/golden_comments/metrics.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range benchmark.CRBFiles {
		content := "[]"
		if name == "grafana.json" {
			content = string(sample)
		}
		gh.SetContents(benchmark.CRBRepo, commit, benchmark.CRBGoldenDir+"/"+name, content)
	}
	for _, path := range []string{benchmark.UpstreamExtractFile, benchmark.UpstreamJudgeFile} {
		data, err := os.ReadFile(filepath.Join("../../benchmark/testdata/crb/upstream", filepath.Base(path)))
		if err != nil {
			t.Fatal(err)
		}
		gh.SetContents(benchmark.CRBRepo, commit, path, string(data))
	}
	unified, err := os.ReadFile("../../benchmark/testdata/crb/prs/metrics-7.diff")
	if err != nil {
		t.Fatal(err)
	}
	gh.AddPR("acme-bench/metrics", fakegithub.PR{Number: 7, Title: "Scrape: retry failed targets", Author: "dev"})
	gh.SetDiff("acme-bench/metrics", 7, string(unified))

	vars := map[string]string{"GITHUB_TOKEN": "ghp_cmdtest", "GITHUB_API_URL": gh.URL}
	cache := t.TempDir()
	code, stdout, stderr := runCmd(t, env(vars), "--set", "crb", "--crb-commit", commit, "--cache", cache, "--list")
	if code != exitOK || stdout != "acme-bench/metrics#7\tgrafana\t2 golden\tScrape: retry failed targets\n" {
		t.Fatalf("--list: exit %d\n%s%s", code, stdout, stderr)
	}
	set := &benchmark.CRB{Commit: commit, CacheDir: cache}
	m := oracle(t, set)
	vars["LLM_API_KEY"] = m.APIKey()
	out := t.TempDir()
	code, stdout, stderr = runCmd(t, env(vars), "--set", "crb", "--crb-commit", commit, "--cache", cache, "--base-url", m.BaseURL(), "--judge-model", "scripted-judge", "--out", out)
	if code != exitOK || !strings.Contains(stdout, "grafana") || !strings.Contains(stdout, "100.0%") {
		t.Fatalf("run: exit %d\n%s%s", code, stdout, stderr)
	}
	md, err := os.ReadFile(filepath.Join(out, "report.md"))
	// The set and method are the leaderboard's, but only 1 of 50 PRs was
	// scored and the judge is another model.
	// The prompts are read at another commit (the stand-in's): not the
	// leaderboard's byte for byte.
	if err != nil || !strings.Contains(string(md), "it scored 1 of the set's 50 PRs") || !strings.Contains(string(md), "its judge is `scripted-judge`") ||
		!strings.Contains(string(md), "prompts are withmartian/code-review-benchmark@"+commit+", not the benchmark's at 012d682 byte for byte") ||
		!strings.Contains(string(md), "prompts: withmartian/code-review-benchmark@"+commit) {
		t.Errorf("report.md of a partial crb run with another judge:\n%s", md)
	}
}

var dryRunTotals = regexp.MustCompile(`(?m)^Model \S+: about (\d+) calls, (\d+) prompt tokens \((\d+) of them cached\).*\nJudge \S+: about (\d+) calls`)

// The local set's size and its dry run's estimate in docs/bench.md are
// what the set and bench --dry-run hold now (-update rewrites them).
func TestDocsLocalSet(t *testing.T) {
	t.Parallel()
	prs, planted, _ := localTotals(t)
	code, stdout, stderr := runCmd(t, env(nil), "--dry-run", "--cache", t.TempDir())
	m := dryRunTotals.FindStringSubmatch(stdout)
	if code != exitOK || m == nil {
		t.Fatalf("bench --dry-run: exit %d, no totals\n%s%s", code, stdout, stderr)
	}
	kilo := func(s string) string {
		n, _ := strconv.Atoi(s)
		return fmt.Sprintf("%dk", (n+500)/1000)
	}
	got := fmt.Sprintf("The local set has %d pull requests, %d of them clean. A dry run of it (`bench --dry-run`)\n"+
		"estimates about %s model calls and %s prompt tokens (%s of them cached) for the reviews, and\nabout %s judge calls.\n",
		prs, prs-planted, m[1], kilo(m[2]), kilo(m[3]), m[4])
	golden.AssertBlock(t, "../../docs/bench.md", "local-set: go run ./cmd/bench --dry-run", got)
}
