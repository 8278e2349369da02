package benchmark

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/review-my-code-bot/rmc/diff"
	"github.com/review-my-code-bot/rmc/llm"
	"github.com/review-my-code-bot/rmc/llm/fakellm"
	"github.com/review-my-code-bot/rmc/review"
)

// TestLocalSetIsWellFormed holds the local set to what makes it a
// measure: at least 30 PRs of 100 to 800 changed lines over several files,
// in five languages, at least 8 clean PRs, categorized golden comments
// whose categories make the profiles differ, and no code comment that
// points at the planted problem.
func TestLocalSetIsWellFormed(t *testing.T) {
	t.Parallel()
	set := NewLocal()
	cases, err := set.Cases(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	clean, large := 0, 0
	langs := map[string]bool{}
	inProfile := map[Profile]int{}
	for _, c := range cases {
		if len(c.Golden) == 0 {
			clean++
		}
		for _, g := range c.Golden {
			if g.Category == "" {
				t.Errorf("%s: a local golden comment needs a category", c.Ref)
			}
			for _, p := range []Profile{Strict, Core, All} {
				if p.Includes(g.Category) {
					inProfile[p]++
				}
			}
		}
		m, err := set.Load(context.Background(), c)
		if err != nil {
			t.Fatalf("%s: %v", c.Ref, err)
		}
		if len(m.Files) < 2 {
			t.Errorf("%s changes %d file(s), want several", c.Ref, len(m.Files))
		}
		changed := 0
		for _, f := range m.Files {
			langs[filepath.Ext(f.Path)] = true
			changed += f.Additions + f.Deletions
			if _, err := diff.ParsePatch(f.Path, f.Patch); err != nil || f.Additions+f.Deletions == 0 {
				t.Errorf("%s %s: patch %v, +%d -%d", c.Ref, f.Path, err, f.Additions, f.Deletions)
			}
			if f.Status != "removed" {
				text, err := m.Code.Read(context.Background(), f.Path, 1, 0)
				if err != nil || len(text.Lines) == 0 {
					t.Errorf("%s: head file %s: %v", c.Ref, f.Path, err)
				}
			}
			if hint := hintComment.FindString(f.Patch); hint != "" {
				t.Errorf("%s %s: an added comment gives the problem away: %q", c.Ref, f.Path, hint)
			}
		}
		if changed < 100 || changed > 800 {
			t.Errorf("%s changes %d lines, want 100 to 800", c.Ref, changed)
		}
		if changed > 300 {
			large++
		}
	}
	// The size of real PRs: a third of the set over 300 changed lines.
	if len(cases) < 40 || clean < 10 || 3*large < len(cases) {
		t.Errorf("%d PRs, %d clean, %d over 300 changed lines; want at least 40, 10 and a third", len(cases), clean, large)
	}
	for _, ext := range []string{".go", ".py", ".ts", ".java", ".rb"} {
		if !langs[ext] {
			t.Errorf("no PR changes a %s file", ext)
		}
	}
	if !(inProfile[Strict] < inProfile[Core] && inProfile[Core] < inProfile[All]) {
		t.Errorf("golden comments per profile %v: strict, core and all must differ", inProfile)
	}
}

// hintComment finds an added comment line that names a problem.
var hintComment = regexp.MustCompile(`(?im)^\+\s*(?://|#|/?\*).*\b(bug|fixme|todo|xxx|hack|vulnerab\w*|insecure|unsafe|injection|race|deadlock|leak\w*|off[- ]by[- ]one)\b.*$`)

func TestOracleModelScoresOne(t *testing.T) {
	t.Parallel()
	set := NewLocal()
	n := totals(t, set, "")
	model := scriptedModel(t, set, behaviour{oracle: true})
	res := runSet(t, set, model, nil)
	if res.Failed != 0 {
		t.Fatalf("%d PRs failed: %s", res.Failed, mustJSON(t, res.PRs))
	}
	o := res.Summary.Overall
	// The pinned rules count every golden comment.
	if o.TP != n.golden || o.Excluded != 0 || o.FP != 0 || o.FN != 0 || o.Precision != 1 || o.Recall != 1 || o.F1 != 1 || o.F2 != 1 {
		t.Errorf("overall %+v, want %d TP and every measure 1", o, n.golden)
	}
	// The head rules, from the same verdicts: golden comments outside the
	// core profile are found but not counted; their candidates are no
	// false positives either.
	var scored []Scored
	for _, pr := range res.PRs {
		scored = append(scored, Scored{Repo: pr.Repo, Golden: pr.Golden, Matching: pr.Matching})
	}
	if h := HeadRules.Summarize(scored, Core).Overall; h.TP != n.core || h.Excluded != n.golden-n.core || h.FP != 0 || h.FN != 0 || h.F1 != 1 {
		t.Errorf("head rules: %+v, want %d TP, %d excluded and F1 1", h, n.core, n.golden-n.core)
	}
	if o.PRs != n.planted || res.Summary.Clean.PRs != n.prs-n.planted || res.Summary.Clean.FalseAlarms != 0 {
		t.Errorf("%d scored PRs and clean %+v; want %d and %d clean", o.PRs, res.Summary.Clean, n.planted, n.prs-n.planted)
	}
	for _, pr := range res.PRs {
		if pr.ReviewUsage.Requests < 3 {
			t.Errorf("%s: %d review calls, want at least one per pass", pr.PR, pr.ReviewUsage.Requests)
		}
		extract := 0
		if len(pr.Findings) > 0 {
			extract = 1
		}
		if want := extract + len(pr.Golden)*len(pr.Candidates); pr.JudgeUsage.Requests != want || !pr.Extracted && extract == 1 {
			t.Errorf("%s: %d judge calls (extracted %v), want %d", pr.PR, pr.JudgeUsage.Requests, pr.Extracted, want)
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
	n := totals(t, set, "")
	res := runSet(t, set, scriptedModel(t, set, behaviour{}), nil)
	o := res.Summary.Overall
	if o.TP != 0 || o.FN != n.golden || o.FP != 0 || o.Recall != 0 || o.F1 != 0 {
		t.Errorf("overall %+v, want recall 0 with %d missed", o, n.golden)
	}
	if res.JudgeUsage.Requests != 0 {
		t.Errorf("%d judge calls with nothing to judge", res.JudgeUsage.Requests)
	}
}

func TestInventedFindingLowersPrecisionByTheExpectedAmount(t *testing.T) {
	t.Parallel()
	set := NewLocal()
	n := totals(t, set, "")
	res := runSet(t, set, scriptedModel(t, set, behaviour{oracle: true, invent: 1}), nil)
	o := res.Summary.Overall
	// Every golden issue found, one invented finding on each PR: those on
	// PRs with golden comments are false positives, those on clean PRs
	// false alarms.
	if o.TP != n.golden || o.FP != n.planted || o.FN != 0 {
		t.Fatalf("overall %+v, want TP %d, FP %d, FN 0", o, n.golden, n.planted)
	}
	p := float64(n.golden) / float64(n.golden+n.planted)
	if math.Abs(o.Precision-p) > 1e-9 || o.Recall != 1 || math.Abs(o.F1-2*p/(p+1)) > 1e-9 {
		t.Errorf("precision %v recall %v F1 %v, want %v, 1, %v", o.Precision, o.Recall, o.F1, p, 2*p/(p+1))
	}
	clean := n.prs - n.planted
	if c := res.Summary.Clean; c.PRs != clean || c.FalseAlarms != clean || c.PerPR != 1 {
		t.Errorf("clean PRs %+v, want %d with one false alarm each", c, clean)
	}
}

// TestRepeatedFindingsAreFalsePositives is the example: a reviewer
// that reports each bug twice plus one invented finding. Under upstream's
// rule the second report of a bug raises no golden comment's confidence, so
// it is a false positive.
func TestRepeatedFindingsAreFalsePositives(t *testing.T) {
	t.Parallel()
	set := NewLocal()
	n := totals(t, set, "")
	model := scriptedModel(t, set, behaviour{oracle: true, duplicate: true, invent: 1})
	res := runSet(t, set, model, nil)
	o := res.Summary.Overall
	// Only the first report is matched.
	if o.TP != n.golden || o.FP != n.golden+n.planted || o.FN != 0 {
		t.Fatalf("overall %+v, want TP %d, FP %d (every repeat and invention)", o, n.golden, n.golden+n.planted)
	}
	for _, pr := range res.PRs {
		if len(pr.Candidates) != 2*len(pr.Golden)+1 {
			t.Errorf("%s: %d candidates, want %d", pr.PR, len(pr.Candidates), 2*len(pr.Golden)+1)
		}
	}
}

func TestExtractionAnswerThatDoesNotParseFallsBackToTheFindings(t *testing.T) {
	t.Parallel()
	set := NewLocal()
	cases, _ := set.Cases(context.Background())
	var pick Case
	for _, c := range cases {
		if len(c.Golden) > 0 {
			pick = c
			break
		}
	}
	model := scriptedModel(t, set, behaviour{oracle: true, invent: 1, badExtract: true})
	res := runSet(t, set, model, func(o *Options) { o.Only = pick.Ref.String() })
	pr := res.PRs[0]
	if pr.Error != "" || pr.Extracted || len(pr.JudgeErrors) != 1 || !strings.Contains(pr.JudgeErrors[0], "does not parse") {
		t.Fatalf("error %q, extracted %v, judge errors %q", pr.Error, pr.Extracted, pr.JudgeErrors)
	}
	if len(pr.Candidates) != len(pr.Findings) || pr.Counts.FP != 1 {
		t.Errorf("%d candidates from %d findings, counts %+v", len(pr.Candidates), len(pr.Findings), pr.Counts)
	}
	// Asked three times, as upstream does, before falling back.
	if got := len(model.RequestsContaining("List every distinct problem")); got != judgeAttempts {
		t.Errorf("%d extraction requests, want %d", got, judgeAttempts)
	}
	if !strings.Contains(res.Markdown(testBoard(t)), "Findings that match no golden comment (1)") {
		t.Error("report.md does not list the noise")
	}
}

// firstPlanted is the set's first PR with golden comments.
func firstPlanted(t *testing.T, set Set) Case {
	t.Helper()
	cases, err := set.Cases(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		if len(c.Golden) > 0 {
			return c
		}
	}
	t.Fatal("no PR with golden comments")
	return Case{}
}

func TestOnePRFailingDoesNotStopTheRun(t *testing.T) {
	t.Parallel()
	local := NewLocal()
	n := totals(t, local, "")
	fail := firstPlanted(t, local)
	set := failingSet{Set: local, fail: fail.Ref.String()}
	res := runSet(t, set, scriptedModel(t, set, behaviour{oracle: true}), nil)
	if res.Failed != 0 || res.FailedReviews != 1 || len(res.PRs) != n.prs {
		t.Fatalf("%d not finished, %d failed reviews of %d", res.Failed, res.FailedReviews, len(res.PRs))
	}
	for _, pr := range res.PRs {
		if (pr.PR == set.fail) != (pr.ReviewError != "") || pr.Error != "" {
			t.Errorf("%s: review error %q, error %q", pr.PR, pr.ReviewError, pr.Error)
		}
	}
	// The failed review is scored as upstream scores a review with no
	// comments: its golden comments are all missed.
	if o := res.Summary.Overall; o.PRs != n.planted || o.FN != len(fail.Golden) || o.TP != n.golden-len(fail.Golden) {
		t.Errorf("the failed review must count as all misses: %+v", o)
	}
	var table strings.Builder
	res.Table(&table)
	if !strings.Contains(table.String(), "review failed") || !strings.Contains(table.String(), "1 failed review(s)") {
		t.Errorf("the table does not say the review failed:\n%s", table.String())
	}
	if md := res.Markdown(testBoard(t)); !strings.Contains(md, "review failed (scored as a review with no comments): load: the PR is gone") {
		t.Errorf("the report does not list the failure:\n%s", md)
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
			_, err = Run(context.Background(), Options{Set: set, Client: c, Judge: ModelJudge{Client: c}, Engine: noRetries(), Concurrency: 2})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "wrong-key") {
				t.Errorf("the key leaked into the message: %v", err)
			}
		})
	}
}

// TestSameEndpointErrorOnTheFirstPRsStopsTheRun: an unknown model name
// fails every PR alike; the run stops after the first three instead of
// failing the whole set one by one.
func TestSameEndpointErrorOnTheFirstPRsStopsTheRun(t *testing.T) {
	t.Parallel()
	set := NewLocal()
	model := fakellm.New(fakellm.Config{})
	t.Cleanup(model.Close)
	model.SetDefault(fakellm.Reply{Error: &fakellm.APIError{Status: 404, Message: "model no-such-model does not exist"}})
	c := clientFor(t, model, "no-such-model")
	res, err := Run(context.Background(), Options{Set: set, Client: c, Judge: ModelJudge{Client: c}, Concurrency: 1,
		Engine: noRetries()})
	if err == nil || !strings.Contains(err.Error(), "the first 3 PRs all failed with the same endpoint error") {
		t.Fatalf("err = %v", err)
	}
	notRun := 0
	for _, pr := range res.PRs {
		if strings.HasPrefix(pr.Error, "not run:") {
			notRun++
		}
	}
	if notRun != len(res.PRs)-3 {
		t.Errorf("%d of %d PRs not run, want all but the first 3", notRun, len(res.PRs))
	}
}

// TestRefusalOfOnePRDoesNotStopTheRun: a 403 (a provider's moderation
// refusing one prompt) fails that PR only.
func TestRefusalOfOnePRDoesNotStopTheRun(t *testing.T) {
	t.Parallel()
	set := NewLocal()
	n := totals(t, set, "")
	model := scriptedModel(t, set, behaviour{oracle: true})
	model.InjectNext(1, fakellm.Fault{Status: 403, Message: "Your input was flagged by moderation"})
	res, err := Run(context.Background(), Options{Set: set, Client: clientFor(t, model, "m"), Judge: ModelJudge{Client: clientFor(t, model, "j")},
		Concurrency: 1, Engine: noRetries()})
	if err != nil {
		t.Fatalf("the run stopped: %v", err)
	}
	if res.FailedReviews != 1 || !strings.Contains(res.PRs[0].ReviewError, "403") || len(res.PRs) != n.prs {
		t.Errorf("%d failed reviews; first PR: %q", res.FailedReviews, res.PRs[0].ReviewError)
	}
}

func TestResultsAreKeptAndAStoppedRunResumes(t *testing.T) {
	t.Parallel()
	set := NewLocal()
	n := totals(t, set, "")
	cache := &ResultCache{Dir: t.TempDir()}
	model := scriptedModel(t, set, behaviour{oracle: true, invent: 1})
	first := runSet(t, set, model, func(o *Options) { o.Cache = cache; o.Limit = 4 })
	if first.Cached != 0 {
		t.Fatalf("%d cached on a first run", first.Cached)
	}
	calls := len(model.Requests())
	second := runSet(t, set, model, func(o *Options) { o.Cache = cache })
	if second.Cached != 4 || len(second.PRs) != n.prs {
		t.Fatalf("second run: %d of %d PRs cached, want 4", second.Cached, len(second.PRs))
	}
	for i := range 4 {
		if !second.PRs[i].Cached || second.PRs[i].ReviewUsage != first.PRs[i].ReviewUsage {
			t.Errorf("%s was not kept as it was", second.PRs[i].PR)
		}
	}
	reviewCalls := 0
	for _, r := range model.Requests()[calls:] {
		if r.Model == "model-under-test" && strings.Contains(r.LastUser(), "review pass 1 of 3") {
			reviewCalls++
		}
	}
	if reviewCalls != n.prs-4 {
		t.Errorf("%d PRs reviewed again, want %d", reviewCalls, n.prs-4)
	}
	// Another judge is another setting: nothing is kept for it.
	third := runSet(t, set, model, func(o *Options) { o.Cache = cache; o.Limit = 4; o.JudgeEndpoint.Model = "another-judge" })
	if third.Cached != 0 {
		t.Errorf("%d results kept across judges", third.Cached)
	}
	// So is another threshold.
	stricter := runSet(t, set, model, func(o *Options) {
		o.Cache = cache
		o.Limit = 4
		o.Engine.ProblemThreshold, o.Engine.BlockingThreshold = 6, 6
	})
	if stricter.Cached != 0 {
		t.Errorf("%d results kept across thresholds", stricter.Cached)
	}
	fresh := runSet(t, set, model, func(o *Options) { o.Cache = &ResultCache{Dir: cache.Dir, Refresh: true}; o.Limit = 2 })
	if fresh.Cached != 0 {
		t.Errorf("--fresh used %d kept results", fresh.Cached)
	}
}

// TestCacheKeyCoversWhatChangesAResult: every setting that can change a
// PR's result changes its key; what only paces calls, or only scores,
// does not.
func TestCacheKeyCoversWhatChangesAResult(t *testing.T) {
	t.Parallel()
	c := Case{Ref: PRRef{"local", "go-ledger", 3}, URL: "local/go-ledger/pull/3", Golden: []Golden{{Comment: "c", Severity: "High"}}}
	base := func() Options {
		zero := 0.0
		return Options{Set: NewLocal(), Model: "m", JudgeModel: "j", Engine: review.DefaultSettings(), Method: Method{Extract: true},
			ModelEndpoint: Endpoint{BaseURL: "http://a.test/v1", Model: "m"}, JudgeEndpoint: Endpoint{BaseURL: "http://a.test/v1", Model: "j", Temperature: &zero}}
	}
	key := func(o Options) string { return (&runner{opt: o}).cacheKey(c) }
	ref := key(base())
	changes := map[string]func(*Options){
		"model endpoint": func(o *Options) { o.ModelEndpoint.BaseURL = "http://b.test/v1" },
		"judge endpoint": func(o *Options) { o.JudgeEndpoint.BaseURL = "http://b.test/v1" },
		"judge model":    func(o *Options) { o.JudgeEndpoint.Model = "j2" },
		"model timeout":  func(o *Options) { o.ModelEndpoint.Timeout = time.Minute },
		"context window": func(o *Options) { o.ModelEndpoint.ContextTokens = 4096 },
		"extra_body": func(o *Options) {
			o.ModelEndpoint.ExtraBody = map[string]json.RawMessage{"options": []byte(`{"num_ctx":8192}`)}
		},
		"extra header value": func(o *Options) { o.ModelEndpoint.ExtraHeaders = map[string]string{"X-Gateway": "2"} },
		"reasoning effort":   func(o *Options) { o.ModelEndpoint.ReasoningEffort = "high" },
		"max output tokens":  func(o *Options) { o.ModelEndpoint.MaxOutputTokens = 900 },
		"judge temperature":  func(o *Options) { o.JudgeEndpoint.Temperature = nil },
		"problem threshold":  func(o *Options) { o.Engine.ProblemThreshold = 7 },
		"passes":             func(o *Options) { o.Engine.Passes = o.Engine.Passes[:1] },
		"review retries":     func(o *Options) { o.Engine.Retries = 3 },
		"engine window":      func(o *Options) { o.Engine.ContextTokens = 8000 },
		"extraction":         func(o *Options) { o.Method.Extract = false },
		"prompts":            func(o *Options) { o.Method.Prompts.Judge = "x" },
	}
	other := c
	other.Golden = []Golden{{Comment: "c, edited", Severity: "High"}}
	if (&runner{opt: base()}).cacheKey(other) == ref {
		t.Error("the golden comments do not change the key")
	}
	for name, edit := range changes {
		o := base()
		edit(&o)
		if key(o) == ref {
			t.Errorf("%s does not change the key", name)
		}
	}
	same := map[string]func(*Options){
		"trailing slash":  func(o *Options) { o.ModelEndpoint.BaseURL += "/" },
		"retries":         func(o *Options) { o.ModelEndpoint.MaxRetries = 9 },
		"retry wait":      func(o *Options) { o.JudgeEndpoint.MaxRetryWait = time.Hour },
		"rule set":        func(o *Options) { o.Rules = HeadRules },
		"profile":         func(o *Options) { o.Profile = Strict },
		"resume":          func(o *Options) { o.Resume = true },
		"model by client": func(o *Options) { o.Model = "ignored when the endpoint names one" },
	}
	for name, edit := range same {
		o := base()
		edit(&o)
		if key(o) != ref {
			t.Errorf("%s changes the key", name)
		}
	}
}

// Settings the engine cannot review with stop the run before any model
// call.
func TestRunRefusesInvalidEngineSettings(t *testing.T) {
	t.Parallel()
	set := NewLocal()
	model := scriptedModel(t, set, behaviour{oracle: true})
	c := clientFor(t, model, "m")
	_, err := Run(context.Background(), Options{Set: set, Client: c, Judge: ModelJudge{Client: c}, Concurrency: 1})
	if err == nil || !strings.Contains(err.Error(), "invalid settings") || len(model.Requests()) != 0 {
		t.Errorf("err = %v after %d model requests", err, len(model.Requests()))
	}
}

func TestFilter(t *testing.T) {
	t.Parallel()
	cases, err := NewLocal().Cases(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	inRepo := 0
	for _, c := range cases {
		if c.Repo == "java-auth" {
			inRepo++
		}
	}
	tests := map[string]struct {
		only  string
		limit int
		want  int
	}{
		"all":              {"", 0, len(cases)},
		"limit":            {"", 5, 5},
		"repository":       {"java-auth", 0, inRepo},
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
	pick := firstPlanted(t, set)
	res := runSet(t, set, scriptedModel(t, set, behaviour{oracle: true, invent: 1}), func(o *Options) { o.Only = pick.Ref.String() })
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
	if len(back.PRs) != 1 || back.Model != "model-under-test" || back.JudgeModel != "judge-model" || !back.Method.Extract ||
		back.Method.Prompts.Source != "rmc local" || back.Method.Rule != UpstreamRule {
		t.Errorf("results.json: %d PRs, model %q, judge %q, method %+v", len(back.PRs), back.Model, back.JudgeModel, back.Method)
	}
	pr := back.PRs[0]
	g := len(pick.Golden)
	if len(pr.Candidates) != g+1 || len(pr.Golden) != g || len(pr.Matches) != g || pr.Matches[0].Reasoning == "" || len(pr.Verdicts) != g*(g+1) {
		t.Errorf("results.json PR: %s", mustJSON(t, pr))
	}
	md, err := os.ReadFile(filepath.Join(dir, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| 1 | Augment | 47.0 | 62.8 | 53.8 | 86 | 97 | 51 |", "| 3 | Propel | 46.0 | 38.0 | 41.6 |", "anthropic/claude-opus-4-5-20251101", "https://github.com/withmartian/code-review-benchmark",
		"**This run is not ranked here**", "it used the local set, not the leaderboard's crb set", "its judge is `judge-model`",
		"- Judge: `judge-model` at temperature 0, prompts: rmc local", "extraction on"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report.md lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(string(md), "this run**") {
		t.Errorf("a local run is ranked beside the leaderboard:\n%s", md)
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
	pick := firstPlanted(t, set)
	model := scriptedModel(t, set, behaviour{oracle: true})
	model.InjectNext(2, fakellm.Fault{Status: 429, RetryAfterMS: "1"})
	client, err := llm.New(llm.Options{BaseURL: model.BaseURL(), APIKey: model.APIKey(), Model: "m", PromptJSON: true})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), Options{Set: set, Client: client, Judge: ModelJudge{Client: client}, Only: pick.Ref.String(),
		Engine: noRetries()})
	if err != nil || res.Failed != 0 || res.Summary.Overall.FN != 0 {
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
	local := NewLocal()
	cases, _ := local.Cases(context.Background())
	set := stoppingSet{Set: local, at: cases[3].Ref.String(), stop: cancel}
	model := scriptedModel(t, set, behaviour{oracle: true})
	res, err := Run(ctx, Options{Set: set, Client: clientFor(t, model, "m"), Judge: ModelJudge{Client: clientFor(t, model, "j")}, Concurrency: 1,
		Engine: noRetries()})
	if !errors.Is(err, context.Canceled) || res == nil {
		t.Fatalf("err = %v, results %v", err, res != nil)
	}
	if len(res.PRs) != len(cases) || res.Failed != len(cases)-3 {
		t.Fatalf("%d PRs, %d failed; want %d and %d (the stopping PR and all after it)", len(res.PRs), res.Failed, len(cases), len(cases)-3)
	}
	for i, pr := range res.PRs {
		switch {
		case i < 3 && pr.Error != "":
			t.Errorf("%s finished before the stop but failed: %s", pr.PR, pr.Error)
		case i > 3 && !strings.HasPrefix(pr.Error, "not run: context canceled"):
			t.Errorf("%s: %q, want not run", pr.PR, pr.Error)
		}
	}
	if got := len(res.PRs) - res.Failed; got != 3 {
		t.Errorf("%d PRs finished, want 3", got)
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

// TestOnlyALikeRunIsRanked: a run is put beside the leaderboard only when
// set, coverage, judge, prompts, extraction and temperature are the
// leaderboard's; each difference is named.
func TestOnlyALikeRunIsRanked(t *testing.T) {
	t.Parallel()
	board := testBoard(t)
	// The board's prompts, by hash, are these stand-ins'.
	prompts := Prompts{Source: CRBRepo + "@" + DefaultCRBCommit, Judge: "judge {golden_comment} {candidate}", Extract: "extract {comment}"}
	board.JudgePromptSHA, board.ExtractPromptSHA = sha(prompts.Judge), sha(prompts.Extract)
	zero := 0.0
	like := func() *Results {
		r := &Results{Set: "crb", SetPRs: board.SetPRs, Model: "m", JudgeModel: "anthropic/claude-opus-4.5",
			Method: Method{Extract: true, Prompts: prompts, Temperature: &zero}, Rules: PinnedRules, Profile: Core}
		r.PRs = make([]PRResult, board.SetPRs)
		r.Summary.Overall.F1 = 0.42
		return r
	}
	if why := like().Incomparable(board); len(why) != 0 {
		t.Fatalf("a like run is not comparable: %q", why)
	}
	if md := like().Markdown(board); !strings.Contains(md, "| **this run** (`m`) | 0.0 | 0.0 | **42.0** |") {
		t.Errorf("a like run is not ranked:\n%s", md)
	}
	tests := map[string]struct {
		edit func(*Results)
		want string
	}{
		"scripted":                   {func(r *Results) { r.FormatExample = true }, "format example"},
		"local set":                  {func(r *Results) { r.Set = "local" }, "the local set"},
		"part of it":                 {func(r *Results) { r.PRs = r.PRs[:10] }, "scored 10 of the set's 50 PRs"},
		"failed PRs":                 {func(r *Results) { r.Failed = 2 }, "scored 48 of the set's 50 PRs"},
		"another judge":              {func(r *Results) { r.JudgeModel = "qwen3" }, "its judge is `qwen3`"},
		"own prompts":                {func(r *Results) { r.Method.Prompts.Source = "rmc local" }, "prompts are rmc local"},
		"no extraction":              {func(r *Results) { r.Method.Extract = false }, "skipped the extraction step"},
		"temperature":                {func(r *Results) { t := 0.7; r.Method.Temperature = &t }, "temperature 0.7"},
		"no temperature":             {func(r *Results) { r.Method.Temperature = nil }, "the model's default temperature"},
		"a byte of the judge prompt": {func(r *Results) { r.Method.Prompts.Judge += " " }, "not the benchmark's at 012d682 byte for byte"},
		"fenced prompts":             {func(r *Results) { r.Method.Prompts.Fenced = true }, "byte for byte"},
		"head rules":                 {func(r *Results) { r.Rules = HeadRules }, "scored with the head rule set, not the leaderboard's pinned one"},
	}
	for name, tc := range tests {
		r := like()
		tc.edit(r)
		why := r.Incomparable(board)
		if len(why) != 1 || !strings.Contains(why[0], tc.want) {
			t.Errorf("%s: %q, want one reason with %q", name, why, tc.want)
		}
		if md := r.Markdown(board); strings.Contains(md, "this run**") || !strings.Contains(md, "**This run is not ranked here**") {
			t.Errorf("%s: ranked anyway", name)
		}
	}
}
