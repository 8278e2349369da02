package app

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/review-my-code-bot/rmc/detector"
	"github.com/review-my-code-bot/rmc/event"
	"github.com/review-my-code-bot/rmc/github/fakegithub"
	"github.com/review-my-code-bot/rmc/llm"
	"github.com/review-my-code-bot/rmc/llm/fakellm"
	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/summary"
)

// benchWorld is a PR on the fake GitHub with a scripted model, run in
// process through the same Run a runner calls.
type benchWorld struct {
	gh    *fakegithub.Server
	model *fakellm.Server
	repo  snapshot.Repo
	pr    int
}

const benchToken = "ghs_bench"

// newBenchWorld seeds a PR whose diff has the given number of added lines
// spread over files of 100 lines, and a description long enough that the
// system prompt is cached by the provider (over 1,024 tokens).
func newBenchWorld(tb testing.TB, lines int, findings int) *benchWorld {
	tb.Helper()
	gh := fakegithub.New()
	tb.Cleanup(gh.Close)
	gh.AddToken(benchToken, fakegithub.Identity{Login: "github-actions[bot]", Kind: fakegithub.TokenInstallation})
	gh.AddUser("alice", false)
	gh.AddRepo("acme/svc")
	pr := gh.AddPR("acme/svc", fakegithub.PR{Author: "alice", Title: "Rework the scheduler",
		Body: strings.Repeat("The scheduler now batches jobs per tenant and retries with jitter. ", 80)})
	var files []fakegithub.File
	for f := 0; f*100 < lines; f++ {
		var b strings.Builder
		n := min(100, lines-f*100)
		fmt.Fprintf(&b, "@@ -0,0 +1,%d @@", n)
		for i := range n {
			fmt.Fprintf(&b, "\n+\tjob%d := schedule(tenant%d, %d) // line %d", i, f, i, i+1)
		}
		files = append(files, fakegithub.File{Path: fmt.Sprintf("sched/part%03d.go", f), Status: "added", Additions: n, Patch: b.String()})
	}
	gh.SetFiles("acme/svc", pr.Number, files)
	gh.SetDiff("acme/svc", pr.Number, "diff --git a/sched/part000.go b/sched/part000.go\n")

	model := fakellm.New(fakellm.Config{APIKey: "sk-bench"})
	tb.Cleanup(model.Close)
	model.AddRule(fakellm.Rule{LastUser: "Decide what a developer wants", Reply: fakellm.Reply{JSON: map[string]string{"intent": "question"}}})
	model.AddRule(fakellm.Rule{LastUser: "# Task: answer a question", Reply: fakellm.Reply{Text: "Batches are flushed every 50 ms; see sched/part000.go:12."}})
	var fs []map[string]any
	for i := range findings {
		fs = append(fs, map[string]any{"path": fmt.Sprintf("sched/part%03d.go", i%len(files)), "line": 1 + i%100, "start_line": 0, "side": "right",
			"title": fmt.Sprintf("Unchecked error number %d", i), "explanation": "schedule can fail; the error is dropped.", "score": 5 + i%5, "category": "bug", "suggestion": ""})
	}
	if fs == nil {
		fs = []map[string]any{}
	}
	model.AddRule(fakellm.Rule{LastUser: "# Task: review pass 1 of 3", Respond: func(r fakellm.Request) fakellm.Reply { return fakellm.ReviewAnswer(r, fs) }})
	model.AddRule(fakellm.Rule{LastUser: "# Task: review pass", Reply: fakellm.Reply{JSON: map[string]any{"findings": []any{}}}})
	return &benchWorld{gh: gh, model: model, repo: snapshot.Repo{Owner: "acme", Name: "svc"}, pr: pr.Number}
}

// run runs the pipeline for an event and returns its record.
func (w *benchWorld) run(tb testing.TB, ev event.Event) *runRecord {
	tb.Helper()
	dir := tb.TempDir()
	env := map[string]string{
		"INPUT_GITHUB_TOKEN": benchToken, "INPUT_LLM_API_KEY": w.model.APIKey(), "INPUT_LLM_BASE_URL": w.model.BaseURL(),
		"GITHUB_API_URL": w.gh.URL, "GITHUB_GRAPHQL_URL": w.gh.GraphQLURL(),
		"GITHUB_OUTPUT": filepath.Join(dir, "out"), "GITHUB_STEP_SUMMARY": filepath.Join(dir, "summary"),
	}
	getenv := envWithDefaults(env)
	log := newLog(Env{Getenv: getenv, Stdout: io.Discard, ReadFile: os.ReadFile})
	cfg, err := configFrom(getenv)
	if err != nil {
		tb.Fatal(err)
	}
	gh, err := realGitHub.Connect(Connection{Token: cfg.GitHubToken, Getenv: getenv, Warn: func(msg string) { log.Warningf("%s", msg) }})
	if err != nil {
		tb.Fatal(err)
	}
	ev.Repo, ev.PRNumber = w.repo.String(), w.pr
	rec, _ := Pipeline{Config: cfg, GitHub: gh, Log: log}.run(context.Background(), w.repo, ev)
	return rec
}

func (w *benchWorld) question(text string) { w.gh.AddIssueComment("acme/svc", w.pr, "alice", text) }

var (
	commentEv = event.Event{Name: event.IssueComment, Action: "created"}
	pushEv    = event.Event{Name: event.PullRequest, Action: "synchronize"}
)

// uncached returns the prompt tokens, and those not served from the
// provider's cache, that a task sent (in one step, when step is set).
func uncached(r summary.Report, task, step string) (prompt, fresh int) {
	var u llm.Usage
	for _, t := range r.Usage {
		if t.Task == task && (step == "" || t.Step == step) {
			u = u.Add(t.Usage)
		}
	}
	return u.PromptTokens, u.Uncached()
}

// BenchmarkSharedSession: two questions and a review in one run, against the
// same tasks each run alone on a cold cache. Run with
//
//	go test ./app -run '^$' -bench SharedSession -benchtime 3x
func BenchmarkSharedSession(b *testing.B) {
	var shared, alone [3][2]int
	for range b.N {
		w := newBenchWorld(b, 2000, 5)
		w.question("@rmc-bot why batch per tenant?")
		w.question("@rmc-bot what is the flush interval?")
		r := w.run(b, pushEv).report
		qs := questionKeys(r)
		shared[0][0], shared[0][1] = uncached(r, qs[0], "")
		shared[1][0], shared[1][1] = uncached(r, qs[1], "")
		shared[2][0], shared[2][1] = uncached(r, reviewKey(r), "")

		for i, setup := range []func(*benchWorld) event.Event{
			func(w *benchWorld) event.Event { w.question("@rmc-bot why batch per tenant?"); return commentEv },
			func(w *benchWorld) event.Event { w.question("@rmc-bot what is the flush interval?"); return commentEv },
			func(w *benchWorld) event.Event { return pushEv },
		} {
			w := newBenchWorld(b, 2000, 5)
			r := w.run(b, setup(w)).report
			key := reviewKey(r)
			if i < 2 {
				key = questionKeys(r)[0]
			}
			alone[i][0], alone[i][1] = uncached(r, key, "")
		}
	}
	b.ReportMetric(float64(shared[1][1]), "q2-uncached-shared")
	b.ReportMetric(float64(alone[1][0]), "q2-prompt-alone")
	b.ReportMetric(float64(shared[2][1]), "review-uncached-shared")
	b.ReportMetric(float64(alone[2][0]), "review-prompt-alone")
	b.Logf("\n%-22s %14s %14s %14s\n%-22s %14d %14d %14d\n%-22s %14d %14d %14d\n%-22s %14d %14d %14d",
		"task", "alone: prompt", "shared: prompt", "shared: new",
		"question 1", alone[0][0], shared[0][0], shared[0][1],
		"question 2", alone[1][0], shared[1][0], shared[1][1],
		"review (3 passes)", alone[2][0], shared[2][0], shared[2][1])
}

func reviewKey(r summary.Report) string {
	for _, t := range r.Plan.Tasks {
		if t.Kind() == detector.Review {
			return t.Key
		}
	}
	return ""
}

func questionKeys(r summary.Report) []string {
	var keys []string
	for _, t := range r.Plan.Tasks {
		if strings.HasPrefix(t.Key, "question-") {
			keys = append(keys, t.Key)
		}
	}
	return keys
}

// The issue's bar, in every test run: the second task sends less than half
// its stand-alone prompt as new tokens.
func TestSharedSessionHalvesNewTokens(t *testing.T) {
	t.Parallel()
	w := newBenchWorld(t, 2000, 5)
	w.question("@rmc-bot why batch per tenant?")
	w.question("@rmc-bot what is the flush interval?")
	r := w.run(t, pushEv).report
	keys := questionKeys(r)
	if len(keys) != 2 {
		t.Fatalf("planned %v", r.Plan.Tasks)
	}
	_, q2fresh := uncached(r, keys[1], "")

	a := newBenchWorld(t, 2000, 5)
	a.question("@rmc-bot what is the flush interval?")
	ra := a.run(t, commentEv).report
	q2alone, _ := uncached(ra, questionKeys(ra)[0], "")
	if q2alone == 0 || 2*q2fresh >= q2alone {
		t.Errorf("question 2: %d new tokens shared vs %d alone; want less than half", q2fresh, q2alone)
	}
	// Passes 2 and 3 ride on pass 1's diff: they send little that is new.
	p1, p1fresh := uncached(r, reviewKey(r), "pass 1")
	_, p2fresh := uncached(r, reviewKey(r), "pass 2")
	if p1 == 0 || 10*p2fresh >= p1fresh {
		t.Errorf("review pass 2 sent %d new tokens after pass 1's %d", p2fresh, p1fresh)
	}
}

// BenchmarkReview: GitHub writes for a review with 40 and 80 findings, and
// the time a review of a 5,000-line diff spends outside the model (the
// scripted model answers at once, so wall time is the action's own).
//
//	go test ./app -run '^$' -bench Review -benchtime 5x
func BenchmarkReview(b *testing.B) {
	for _, tc := range []struct {
		name            string
		lines, findings int
	}{{"40findings", 400, 40}, {"80findings", 800, 80}, {"5000lines", 5000, 10}} {
		b.Run(tc.name, func(b *testing.B) {
			var writes int
			var elapsed time.Duration
			for range b.N {
				b.StopTimer()
				w := newBenchWorld(b, tc.lines, tc.findings)
				before := w.gh.WriteCount()
				b.StartTimer()
				start := time.Now()
				w.run(b, pushEv)
				elapsed += time.Since(start)
				b.StopTimer()
				writes = w.gh.WriteCount() - before
				b.StartTimer()
			}
			b.ReportMetric(float64(writes), "writes/run")
			b.ReportMetric(float64(elapsed.Milliseconds())/float64(b.N), "ms/run")
		})
	}
}

// envWithDefaults reads env, and an input it does not set as the action's
// default.
func envWithDefaults(env map[string]string) func(string) string {
	return func(k string) string {
		if v, ok := env[k]; ok {
			return v
		}
		if in, ok := strings.CutPrefix(k, "INPUT_"); ok {
			return withDefaults(func(string) string { return "" })(strings.ToLower(in))
		}
		return ""
	}
}
