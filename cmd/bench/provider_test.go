package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/review-my-code-bot/rmc/benchmark"
	"github.com/review-my-code-bot/rmc/internal/golden"
	"github.com/review-my-code-bot/rmc/llm/fakellm"
)

// TestScriptedRunReport: bench --scripted runs the whole local set against
// the built-in scripted model with no key and no endpoint, and writes the
// report pinned in testdata/scripted-report.md.
func TestScriptedRunReport(t *testing.T) {
	t.Parallel()
	out := t.TempDir()
	code, stdout, stderr := runCmd(t, env(nil), "--scripted", "--out", out, "--concurrency", "2")
	if code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	prs, _, _ := localTotals(t)
	if !strings.HasPrefix(stdout, "FORMAT EXAMPLE:") || strings.Count(stderr, "\n") != prs {
		t.Errorf("the table is not labelled, or not every PR ran:\n%s%s", stdout, stderr)
	}
	md, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	golden.Assert(t, "scripted-report.md", string(md))
	code, _, stderr = runCmd(t, env(nil), "--scripted", "--set", "crb", "--out", out)
	if code != exitUsage || !strings.Contains(stderr, "--scripted runs the local set only") {
		t.Errorf("--scripted --set crb: exit %d %s", code, stderr)
	}
}

// bodies are the request bodies the server got for model.
func bodies(t *testing.T, m *fakellm.Server, model string) []map[string]json.RawMessage {
	t.Helper()
	var out []map[string]json.RawMessage
	for _, r := range m.Requests() {
		if r.Model != model {
			continue
		}
		var b map[string]json.RawMessage
		if err := json.Unmarshal(r.Body, &b); err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// TestProviderFlagsReachTheRequests: the action's provider settings as
// flags, each sent to the endpoint it is for and no other.
func TestProviderFlagsReachTheRequests(t *testing.T) {
	t.Parallel()
	m := oracle(t)
	out, cache := t.TempDir(), t.TempDir()
	code, stdout, stderr := runCmd(t, env(map[string]string{"LLM_API_KEY": m.APIKey()}), "--base-url", m.BaseURL(), "--model", "reviewer",
		"--judge-model", "judge", "--only", "go-ledger#1", "--out", out, "--cache", cache,
		"--extra-body", `{"options": {"num_ctx": 32768}}`, "--extra-headers", `{"X-Gateway-Key": "g-123"}`, "--max-output-tokens", "4000",
		"--reasoning-effort", "low", "--model-timeout", "5m", "--model-context-tokens", "32768", "--judge-extra-body", `{"provider": {"order": ["anthropic"]}}`)
	if code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	review, judge := bodies(t, m, "reviewer"), bodies(t, m, "judge")
	if len(review) == 0 || len(judge) == 0 {
		t.Fatalf("%d review and %d judge requests", len(review), len(judge))
	}
	for _, b := range review {
		if string(b["options"]) != `{"num_ctx": 32768}` && string(b["options"]) != `{"num_ctx":32768}` || string(b["max_completion_tokens"]) != "4000" ||
			string(b["reasoning_effort"]) != `"low"` || b["provider"] != nil || b["temperature"] != nil {
			t.Fatalf("a review request: %v", b)
		}
	}
	for _, b := range judge {
		if b["provider"] == nil || b["options"] != nil || b["reasoning_effort"] != nil || string(b["temperature"]) != "0" {
			t.Fatalf("a judge request: %v", b)
		}
	}
	for _, r := range m.Requests() {
		if (r.Header.Get("X-Gateway-Key") == "g-123") != (r.Model == "reviewer") {
			t.Fatalf("the extra header went to %s: %q", r.Model, r.Header.Get("X-Gateway-Key"))
		}
	}
	// A header may carry a gateway's key: it is in the cache key only as
	// a hash, and nowhere on disk or in the output.
	if strings.Contains(stdout+stderr, "g-123") {
		t.Error("the header's value was printed")
	}
	for _, dir := range []string{out, cache} {
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				if data, _ := os.ReadFile(p); strings.Contains(string(data), "g-123") {
					t.Errorf("%s holds the header's value", p)
				}
			}
			return nil
		})
	}
}

// TestJudgeThatRefusesTemperatureGetsNone: OpenAI's reasoning models
// answer 400 to temperature 0; the judge is sent none, and the report says
// so (such a run is not the leaderboard's method).
func TestJudgeThatRefusesTemperatureGetsNone(t *testing.T) {
	t.Parallel()
	m := oracle(t)
	out := t.TempDir()
	code, stdout, stderr := runCmd(t, env(map[string]string{"LLM_API_KEY": m.APIKey()}), "--base-url", m.BaseURL(), "--judge-model", "openai/gpt-5.2",
		"--only", "go-ledger#1", "--out", out, "--cache", t.TempDir())
	if code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	judge := bodies(t, m, "openai/gpt-5.2")
	if len(judge) == 0 {
		t.Fatal("no judge request")
	}
	for _, b := range judge {
		if b["temperature"] != nil {
			t.Fatalf("the reasoning judge was sent temperature %s", b["temperature"])
		}
	}
	md, _ := os.ReadFile(filepath.Join(out, "report.md"))
	if !strings.Contains(string(md), "- Judge: `openai/gpt-5.2` at the model's default temperature (the model refuses temperature)") {
		t.Errorf("report.md:\n%s", md)
	}
}

// TestClientWarningsInTheReport: a vLLM server started without
// --enable-auto-tool-choice refuses tools; the client goes on without them
// and warns, and the warning is in the terminal summary and in report.md.
func TestClientWarningsInTheReport(t *testing.T) {
	t.Parallel()
	m := oracleAt(t, fakellm.Config{APIKey: "sk-bench-test", Provider: fakellm.VLLMNoToolChoice})
	out := t.TempDir()
	code, stdout, stderr := runCmd(t, env(map[string]string{"LLM_API_KEY": m.APIKey()}), "--base-url", m.BaseURL(), "--judge-model", "judge",
		"--only", "go-ledger#1", "--out", out, "--cache", t.TempDir())
	if code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	md, _ := os.ReadFile(filepath.Join(out, "report.md"))
	if !strings.Contains(stdout, "Client warning: model: ") || !strings.Contains(string(md), "- Client warning: model: ") || !strings.Contains(stdout, "tools") {
		t.Errorf("no client warning:\n%s\n%s", stdout, md)
	}
}

// TestLongRetryAfterIsWaitedOut: the action's client refuses a pause over
// its 60 s cap at once; bench waits up to --max-retry-wait (10 min by
// default), and a pause over that fails the call, as a judge call that
// --resume redoes.
func TestLongRetryAfterIsWaitedOut(t *testing.T) {
	t.Parallel()
	c, err := parse([]string{"--base-url", "http://127.0.0.1:1/v1"}, new(strings.Builder), new(strings.Builder), board(t))
	if err != nil {
		t.Fatal(err)
	}
	model, judge := c.endpoints()
	if model.MaxRetryWait != 10*time.Minute || judge.MaxRetryWait != 10*time.Minute || model.Options("", nil).MaxRetryDelay != 10*time.Minute {
		t.Errorf("default retry wait: model %v, judge %v", model.MaxRetryWait, judge.MaxRetryWait)
	}
	m := oracle(t)
	m.InjectNext(1, fakellm.Fault{Status: 429, RetryAfter: "90"})
	out := t.TempDir()
	code, stdout, stderr := runCmd(t, env(map[string]string{"LLM_API_KEY": m.APIKey()}), "--base-url", m.BaseURL(), "--judge-model", "judge",
		"--only", "go-ledger#1", "--out", out, "--cache", t.TempDir(), "--max-retry-wait", "1m", "--max-review-retries", "0")
	md, _ := os.ReadFile(filepath.Join(out, "report.md"))
	if code != exitFailure || !strings.Contains(string(md), "asks to wait 1m30s, more than the 1m0s allowed") {
		t.Errorf("a pause over --max-retry-wait: exit %d\n%s%s\n%s", code, stdout, stderr, md)
	}
}

func board(t *testing.T) benchmark.Leaderboard {
	t.Helper()
	b, err := benchmark.PublishedLeaderboard()
	if err != nil {
		t.Fatal(err)
	}
	return b
}
