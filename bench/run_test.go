package bench

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/diff"
	"github.com/review-my-code-bot/rmc/llm"
	"github.com/review-my-code-bot/rmc/llm/fakellm"
)

func TestLocalSetIsWellFormed(t *testing.T) {
	t.Parallel()
	set := NewLocal()
	cases, err := set.Cases(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	clean, planted := 0, 0
	langs := map[string]bool{}
	for _, c := range cases {
		if len(c.Golden) == 0 {
			clean++
		} else {
			planted++
		}
		for _, g := range c.Golden {
			if g.Category == "" {
				t.Errorf("%s: a local golden comment needs a category", c.Ref)
			}
		}
		m, err := set.Load(context.Background(), c)
		if err != nil {
			t.Fatalf("%s: %v", c.Ref, err)
		}
		if len(m.Files) == 0 {
			t.Fatalf("%s changes no file", c.Ref)
		}
		for _, f := range m.Files {
			langs[filepath.Ext(f.Path)] = true
			if _, err := diff.ParsePatch(f.Path, f.Patch); err != nil || f.Additions+f.Deletions == 0 {
				t.Errorf("%s %s: patch %v, +%d -%d", c.Ref, f.Path, err, f.Additions, f.Deletions)
			}
			// The head tree holds the changed file with its new content.
			if f.Status != "removed" {
				text, err := m.Code.Read(context.Background(), f.Path, 1, 0)
				if err != nil || len(text.Lines) == 0 {
					t.Errorf("%s: head file %s: %v", c.Ref, f.Path, err)
				}
			}
		}
	}
	if planted < 12 || clean < 2 {
		t.Errorf("%d PRs with planted problems and %d clean ones, want at least 12 and 2", planted, clean)
	}
	for _, ext := range []string{".go", ".py", ".ts", ".java"} {
		if !langs[ext] {
			t.Errorf("no PR changes a %s file", ext)
		}
	}
}

func TestOracleModelScoresOne(t *testing.T) {
	t.Parallel()
	set := NewLocal()
	model := scriptedModel(t, set, behaviour{oracle: true})
	res := runSet(t, set, model, nil)
	if res.Failed != 0 {
		t.Fatalf("%d PRs failed: %s", res.Failed, mustJSON(t, res.PRs))
	}
	o := res.Summary.Overall
	if o.TP != 13 || o.FP != 0 || o.FN != 0 || o.Precision != 1 || o.Recall != 1 || o.F1 != 1 || o.F2 != 1 {
		t.Errorf("overall %+v, want 13 TP and every measure 1", o)
	}
	for name, s := range res.Summary.Repos {
		if s.Recall != 1 || s.Precision != 1 {
			t.Errorf("%s: %+v", name, s)
		}
	}
	for _, pr := range res.PRs {
		// One request per pass: the diff fits one chunk.
		if pr.ReviewUsage.Requests != 3 {
			t.Errorf("%s: %d review calls, want 3", pr.PR, pr.ReviewUsage.Requests)
		}
		n := len(pr.Golden) * len(pr.Candidates)
		if len(pr.Candidates) > 1 {
			n++ // the duplicate grouping
		}
		if pr.JudgeUsage.Requests != n {
			t.Errorf("%s: %d judge calls, want %d", pr.PR, pr.JudgeUsage.Requests, n)
		}
		if len(pr.Matches) != len(pr.Golden) {
			t.Errorf("%s: %d matches for %d golden comments", pr.PR, len(pr.Matches), len(pr.Golden))
		}
		for _, m := range pr.Matches {
			if m.Reasoning != "match=true" {
				t.Errorf("%s: the judge's reason is not kept: %+v", pr.PR, m)
			}
		}
	}
}

func TestSilentModelScoresRecallZero(t *testing.T) {
	t.Parallel()
	set := NewLocal()
	res := runSet(t, set, scriptedModel(t, set, behaviour{}), nil)
	o := res.Summary.Overall
	if o.TP != 0 || o.FN != 13 || o.FP != 0 || o.Recall != 0 || o.F1 != 0 {
		t.Errorf("overall %+v, want recall 0 with 13 missed", o)
	}
	if res.JudgeUsage.Requests != 0 {
		t.Errorf("%d judge calls with nothing to judge", res.JudgeUsage.Requests)
	}
}

func TestInventedFindingLowersPrecisionByTheExpectedAmount(t *testing.T) {
	t.Parallel()
	set := NewLocal()
	res := runSet(t, set, scriptedModel(t, set, behaviour{oracle: true, invent: 1}), nil)
	o := res.Summary.Overall
	// 13 golden issues found, one invented finding on each of 14 PRs.
	if o.TP != 13 || o.FP != 14 || o.FN != 0 {
		t.Fatalf("overall %+v, want TP 13, FP 14, FN 0", o)
	}
	if want := 13.0 / 27; math.Abs(o.Precision-want) > 1e-9 || o.Recall != 1 {
		t.Errorf("precision %v recall %v, want %v and 1", o.Precision, o.Recall, want)
	}
	if want := 2 * (13.0 / 27) / (13.0/27 + 1); math.Abs(o.F1-want) > 1e-9 {
		t.Errorf("F1 %v, want %v", o.F1, want)
	}
	// A clean PR scores one false positive and nothing else.
	for _, pr := range res.PRs {
		if pr.PR == "local/go-ledger#4" && (pr.Counts != Counts{FP: 1}) {
			t.Errorf("clean PR counts %+v, want one false positive", pr.Counts)
		}
	}
}

func TestDuplicatesAreNotFalsePositives(t *testing.T) {
	t.Parallel()
	set := NewLocal()
	model := scriptedModel(t, set, behaviour{oracle: true, duplicate: true})
	res := runSet(t, set, model, func(o *Options) { o.Only = "go-ledger" })
	if o := res.Summary.Overall; o.TP != 4 || o.FP != 0 {
		t.Errorf("with duplicates grouped: %+v, want 4 TP and no FP", o)
	}
	if pr := res.PRs[1]; len(pr.Candidates) != 4 || !strings.Contains(mustJSON(t, pr.Groups), "[0,2]") {
		t.Errorf("go-ledger#2: %d candidates in groups %v", len(pr.Candidates), pr.Groups)
	}
}

func TestGroupingAnswerThatDoesNotParseIsReported(t *testing.T) {
	t.Parallel()
	set := NewLocal()
	model := scriptedModel(t, set, behaviour{oracle: true, duplicate: true, badGroups: true})
	res := runSet(t, set, model, func(o *Options) { o.Only = "local/go-ledger#3" })
	pr := res.PRs[0]
	if pr.Error != "" || len(pr.JudgeErrors) != 1 || !strings.Contains(pr.JudgeErrors[0], "does not parse") {
		t.Fatalf("error %q, judge errors %q", pr.Error, pr.JudgeErrors)
	}
	// Without groups the repeated finding counts as noise.
	if pr.Counts != (Counts{TP: 1, FP: 1}) {
		t.Errorf("counts %+v, want TP 1 FP 1", pr.Counts)
	}
	if !strings.Contains(res.Markdown(testBoard(t)), "Findings that match no golden comment (1)") {
		t.Error("report.md does not list the noise")
	}
}

func TestOnePRFailingDoesNotStopTheRun(t *testing.T) {
	t.Parallel()
	set := failingSet{Set: NewLocal(), fail: "local/py-notes#2"}
	res := runSet(t, set, scriptedModel(t, set, behaviour{oracle: true}), nil)
	if res.Failed != 1 || len(res.PRs) != 14 {
		t.Fatalf("%d failed of %d", res.Failed, len(res.PRs))
	}
	for _, pr := range res.PRs {
		if (pr.PR == set.fail) != (pr.Error != "") {
			t.Errorf("%s: error %q", pr.PR, pr.Error)
		}
	}
	if o := res.Summary.Overall; o.PRs != 13 || o.TP != 12 || o.Recall != 1 {
		t.Errorf("the failed PR must be left out of the scores: %+v", o)
	}
	var table strings.Builder
	res.Table(&table)
	if !strings.Contains(table.String(), "failed: load: the PR is gone") {
		t.Errorf("the table does not say why the PR failed:\n%s", table.String())
	}
}

type failingSet struct {
	Set
	fail string
}

func (s failingSet) Load(ctx context.Context, c Case) (*Material, error) {
	if c.Ref.String() == s.fail {
		return nil, errors.New("the PR is gone")
	}
	return s.Set.Load(ctx, c)
}

func TestEndpointFailuresEveryPRWouldShareStopTheRun(t *testing.T) {
	t.Parallel()
	set := NewLocal()
	model := scriptedModel(t, set, behaviour{oracle: true})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String() + "/v1"
	ln.Close()
	tests := map[string]struct {
		opts llm.Options
		want string
	}{
		"unreachable": {llm.Options{BaseURL: closed, APIKey: "k", Model: "m", MaxRetries: -1}, "cannot be reached"},
		"refused key": {llm.Options{BaseURL: model.BaseURL(), APIKey: "wrong-key", Model: "m", MaxRetries: -1}, "refused the API key"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c, err := llm.New(tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			_, err = Run(context.Background(), Options{Set: set, Client: c, Judge: ModelJudge{Client: c}, Concurrency: 2})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "wrong-key") {
				t.Errorf("the key leaked into the message: %v", err)
			}
		})
	}
}

func TestFilter(t *testing.T) {
	t.Parallel()
	cases, err := NewLocal().Cases(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	tests := map[string]struct {
		only  string
		limit int
		want  int
	}{
		"all":              {"", 0, 14},
		"limit":            {"", 5, 5},
		"repository":       {"java-auth", 0, 4},
		"PR":               {"local/ts-shop#2", 0, 1},
		"short PR":         {"ts-shop#2", 0, 1},
		"URL":              {"local/ts-shop/pull/2", 0, 1},
		"repository limit": {"py-notes", 2, 2},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got, err := Filter(cases, tc.only, tc.limit)
			if err != nil || len(got) != tc.want {
				t.Errorf("Filter(%q, %d) = %d cases, %v; want %d", tc.only, tc.limit, len(got), err, tc.want)
			}
		})
	}
	if _, err := Filter(cases, "nope#1", 0); err == nil || !strings.Contains(err.Error(), "--list") {
		t.Errorf("an unknown PR: %v", err)
	}
}

func TestResultsFiles(t *testing.T) {
	t.Parallel()
	set := NewLocal()
	res := runSet(t, set, scriptedModel(t, set, behaviour{oracle: true, invent: 1}), func(o *Options) { o.Only = "ts-shop" })
	dir := t.TempDir()
	if err := res.Write(dir, testBoard(t)); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var back Results
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if len(back.PRs) != 3 || back.Model != "model-under-test" || back.JudgeModel != "judge-model" || back.Summary.Overall.TP != 2 {
		t.Errorf("results.json: %d PRs, model %q, judge %q, summary %+v", len(back.PRs), back.Model, back.JudgeModel, back.Summary.Overall)
	}
	pr := back.PRs[0]
	if len(pr.Candidates) != 2 || len(pr.Golden) != 1 || len(pr.Matches) != 1 || pr.Matches[0].Reasoning == "" || len(pr.Verdicts) != 2 {
		t.Errorf("results.json PR: %s", mustJSON(t, pr))
	}
	md, err := os.ReadFile(filepath.Join(dir, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| Augment | 53.8 |", "**this run** (`model-under-test`, core profile)", "anthropic/claude-opus-4-5-20251101",
		"https://github.com/withmartian/code-review-benchmark", "not directly comparable", "| **overall** | 3 | 2 | 3 | 0 | 40.0% | 100.0% | 57.1% | 76.9% |"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report.md lacks %q:\n%s", want, md)
		}
	}
}

func testBoard(t *testing.T) Leaderboard {
	t.Helper()
	b, err := PublishedLeaderboard()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestReportCellsCannotBreakTheTable(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"a|b", "x`y", "<script>", "two\nlines", "clear\x1b[2J", "bidi\u202egnp.exe"} {
		if c := cell(s); strings.ContainsAny(c, "`<>\n\x1b\u202e") || strings.Count(c, "|") != strings.Count(c, "\\|") {
			t.Errorf("cell(%q) = %q", s, c)
		}
	}
}

func TestRateLimitIsWaitedOutWithTheActionsRetryRules(t *testing.T) {
	t.Parallel()
	set := NewLocal()
	model := scriptedModel(t, set, behaviour{oracle: true})
	model.InjectNext(2, fakellm.Fault{Status: 429, RetryAfterMS: "1"})
	client, err := llm.New(llm.Options{BaseURL: model.BaseURL(), APIKey: model.APIKey(), Model: "m", PromptJSON: true})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), Options{Set: set, Client: client, Judge: ModelJudge{Client: client}, Only: "go-ledger#1",
		Engine: EngineOptions{ProblemThreshold: 5, BlockingThreshold: 5}})
	if err != nil || res.Failed != 0 || res.Summary.Overall.TP != 1 {
		t.Fatalf("err %v, %d failed, %+v", err, res.Failed, res.Summary.Overall)
	}
	limited := 0
	for _, r := range model.Requests() {
		if r.Status == 429 {
			limited++
		}
	}
	if limited != 2 {
		t.Errorf("%d requests were rate limited, want 2 (then retried)", limited)
	}
}

func TestStoppedRunKeepsWhatItFinished(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	set := stoppingSet{Set: NewLocal(), at: "local/go-ledger#4", stop: cancel}
	model := scriptedModel(t, set, behaviour{oracle: true})
	res, err := Run(ctx, Options{Set: set, Client: clientFor(t, model, "m"), Judge: ModelJudge{Client: clientFor(t, model, "j")}, Concurrency: 1,
		Engine: EngineOptions{ProblemThreshold: 5, BlockingThreshold: 5}})
	if !errors.Is(err, context.Canceled) || res == nil {
		t.Fatalf("err = %v, results %v", err, res != nil)
	}
	if len(res.PRs) != 14 || res.Failed != 11 {
		t.Fatalf("%d PRs, %d failed; want 14 and 11 (the stopping PR and the 10 after it)", len(res.PRs), res.Failed)
	}
	for i, pr := range res.PRs {
		switch {
		case i < 3 && pr.Error != "":
			t.Errorf("%s finished before the stop but failed: %s", pr.PR, pr.Error)
		case i > 3 && !strings.HasPrefix(pr.Error, "not run: context canceled"):
			t.Errorf("%s: %q, want not run", pr.PR, pr.Error)
		}
	}
	if res.Summary.Overall.PRs != 3 || res.Summary.Overall.TP != 4 {
		t.Errorf("scores of the finished PRs: %+v", res.Summary.Overall)
	}
}

// stoppingSet stops the run when it loads the PR at.
type stoppingSet struct {
	Set
	at   string
	stop func()
}

func (s stoppingSet) Load(ctx context.Context, c Case) (*Material, error) {
	if c.Ref.String() == s.at {
		s.stop()
		return nil, ctx.Err()
	}
	return s.Set.Load(ctx, c)
}
