package benchmark

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/llm"
	"github.com/review-my-code-bot/rmc/llm/fakellm"
)

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err == nil {
		err = json.Unmarshal(data, v)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// TestScoringFollowsTheUpstreamRule replays a small recorded fixture in
// the public pipeline's formats (testdata/upstream-method: its
// benchmark_data.json and candidates.json, the judge's answers, and the
// evaluations.json its step 3 writes, worked out by hand from its rule)
// through our judge and scoring.
//
// By hand: PR 1, golden 0 is matched by candidate 0 at 0.8; candidate 1
// matches at 0.8 too, raises nothing and is a false positive. Golden 1 is
// raised by candidate 2 (0.6), then 3 (0.9): both count. Candidates 4 and 5
// are one text, one false positive. PR 2: a match at confidence 0 does not
// count (golden 0 missed); candidate 1 is the best match of goldens 1 and
// 2; candidate 2's answer does not parse (an error, no match). PR 3: nothing
// reported. PR 4 has no golden comments: upstream skips it; we count its 2
// candidates as false alarms. Pooled: TP 4, FP 4, FN 2, precision 1/2,
// recall 2/3, F1 4/7.
func TestScoringFollowsTheUpstreamRule(t *testing.T) {
	t.Parallel()
	dir := "testdata/upstream-method/"
	var data map[string]struct {
		Golden []Golden `json:"golden_comments"`
	}
	var cands map[string]map[string][]struct {
		Text string `json:"text"`
	}
	var answers []struct {
		PR, Golden, Candidate int
		Answer                string
	}
	var want map[string]map[string]struct {
		Skipped     bool `json:"skipped"`
		TP, FP, FN  int
		ErrorsCount int `json:"errors_count"`
	}
	readJSON(t, dir+"benchmark_data.json", &data)
	readJSON(t, dir+"candidates.json", &cands)
	readJSON(t, dir+"judge_answers.json", &answers)
	readJSON(t, dir+"evaluations.json", &want)

	urls := make([]string, 0, len(data))
	for u := range data {
		urls = append(urls, u)
	}
	sort.Strings(urls)
	// The judge answers by the recorded table, keyed by the texts it is
	// shown; a pair not in the table is no match (at a high confidence,
	// which must not matter).
	recorded := map[[2]string]string{}
	for _, a := range answers {
		u := urls[a.PR-1]
		recorded[[2]string{data[u].Golden[a.Golden].Comment, cands[u]["rmc"][a.Candidate].Text}] = a.Answer
	}
	model := fakellm.New(fakellm.Config{})
	t.Cleanup(model.Close)
	model.AddRule(fakellm.Rule{Any: "found a known issue", Respond: func(r fakellm.Request) fakellm.Reply {
		q := r.LastUser()
		if a, ok := recorded[[2]string{fenced(q, "golden comment"), fenced(q, "candidate issue")}]; ok {
			return fakellm.Reply{Text: a}
		}
		return fakellm.Reply{Text: `{"reasoning": "another issue", "match": false, "confidence": 0.95}`}
	}})
	r := &runner{opt: Options{Judge: ModelJudge{Client: clientFor(t, model, "judge"), Prompts: LocalPrompts()}, Rules: PinnedRules, Profile: All}}

	var scored []Scored
	for _, u := range urls {
		// The candidates are extracted already: they go in as findings
		// with extraction off.
		res := PRResult{Golden: data[u].Golden}
		for _, c := range cands[u]["rmc"] {
			res.Findings = append(res.Findings, CandidateResult{Text: c.Text})
		}
		r.assess(context.Background(), &res)
		m := res.Matching
		scored = append(scored, Scored{Repo: "orders", Golden: res.Golden, Matching: m})
		w := want[u]["rmc"]
		if w.Skipped {
			if len(res.Golden) != 0 {
				t.Errorf("%s: upstream skips it, but it has golden comments", u)
			}
			continue
		}
		got := PinnedRules.Count(res.Golden, m, All)
		if got.TP != w.TP || got.FP != w.FP || got.FN != w.FN || len(res.JudgeErrors) != w.ErrorsCount {
			t.Errorf("%s: TP %d FP %d FN %d, %d errors; upstream: %+v", u, got.TP, got.FP, got.FN, len(res.JudgeErrors), w)
		}
	}
	s := PinnedRules.Summarize(scored, All)
	o := s.Overall
	if o.TP != 4 || o.FP != 4 || o.FN != 2 || o.PRs != 3 {
		t.Fatalf("pooled %+v, want TP 4 FP 4 FN 2 over 3 PRs", o)
	}
	for _, x := range []struct {
		name      string
		got, want float64
	}{{"precision", o.Precision, 0.5}, {"recall", o.Recall, 2.0 / 3}, {"F1", o.F1, 4.0 / 7}} {
		if math.Abs(x.got-x.want) > 1e-12 {
			t.Errorf("%s = %v, want %v", x.name, x.got, x.want)
		}
	}
	if s.Clean != (Clean{PRs: 1, FalseAlarms: 2, PerPR: 2}) {
		t.Errorf("clean PRs %+v", s.Clean)
	}
}

func TestUpstreamPromptsFromThePipelineLayout(t *testing.T) {
	t.Parallel()
	extract, err := os.ReadFile("testdata/crb/upstream/step2_extract_comments.py")
	if err != nil {
		t.Fatal(err)
	}
	judge, err := os.ReadFile("testdata/crb/upstream/step3_judge_comments.py")
	if err != nil {
		t.Fatal(err)
	}
	p, err := UpstreamPrompts("src@1", extract, judge)
	if err != nil {
		t.Fatal(err)
	}
	if p.JudgeSystem != "Test judge system message." || p.ExtractSystem != "Test extraction system message." || p.Source != "src@1" {
		t.Errorf("system messages %q, %q", p.JudgeSystem, p.ExtractSystem)
	}
	got, err := pyFormat(p.Judge, map[string]string{"golden_comment": "G!", "candidate": "C!"})
	if err != nil || !strings.Contains(got, "Golden:\nG!\n\nCandidate:\nC!") || !strings.HasSuffix(got, `{"reasoning": "why", "match": true/false, "confidence": 0.0-1.0}`) {
		t.Errorf("formatted judge prompt %q, %v", got, err)
	}

	broken := map[string]struct{ extract, judge, want string }{
		"no judge constant": {string(extract), strings.Replace(string(judge), "JUDGE_PROMPT =", "PROMPT =", 1), "no JUDGE_PROMPT"},
		"a field renamed":   {string(extract), strings.Replace(string(judge), "{candidate}", "{candidate_text}", 1), "unknown field {candidate_text}"},
		"a field dropped":   {strings.Replace(string(extract), "{comment}", "(none)", 1), string(judge), "never uses {comment}"},
		"a lone brace":      {string(extract), strings.Replace(string(judge), "{{\"reasoning\"", "{\"reasoning\"", 1), "unknown field"},
		"an escape":         {strings.Replace(string(extract), "Review comments:", `Review\tcomments:`, 1), string(judge), "escapes"},
		"no system message": {string(extract), strings.Replace(string(judge), `"role": "system"`, `"role": "user"`, 1), "no system message"},
	}
	for name, tc := range broken {
		if _, err := UpstreamPrompts("src@1", []byte(tc.extract), []byte(tc.judge)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", name, err, tc.want)
		}
	}
	if err := LocalPrompts().Check(); err != nil {
		t.Errorf("the local prompts: %v", err)
	}
}

func TestPyFormat(t *testing.T) {
	t.Parallel()
	vals := map[string]string{"a": "{x}", "b": "B"}
	tests := map[string]struct{ in, want, err string }{
		"fields":        {"<{a}|{b}>", "<{x}|B>", ""},
		"escapes":       {"{{a}} }}{{", "{a} }{", ""},
		"value is kept": {"{a}{a}", "{x}{x}", ""},
		"unknown":       {"{c}", "", "unknown field {c}"},
		"format spec":   {"{a!r}", "", "unknown field"},
		"unclosed":      {"{a", "", "unclosed"},
		"lone close":    {"a}", "", "lone }"},
	}
	for name, tc := range tests {
		got, err := pyFormat(tc.in, vals)
		if got != tc.want || (err == nil) != (tc.err == "") || (err != nil && !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("%s: pyFormat(%q) = %q, %v", name, tc.in, got, err)
		}
	}
}

// TestJudgeRunsAtTemperatureZero: every judge and extraction request
// carries temperature 0, and the rest of the request is as the client
// built it.
func TestJudgeRunsAtTemperatureZero(t *testing.T) {
	t.Parallel()
	model := fakellm.New(fakellm.Config{})
	t.Cleanup(model.Close)
	model.AddRule(fakellm.Rule{Any: "found a known issue", Reply: fakellm.Reply{Text: `{"reasoning": "same", "match": true, "confidence": 0.9}`}})
	model.AddRule(fakellm.Rule{Any: "List every distinct problem", Reply: fakellm.Reply{Text: `{"issues": ["x"]}`}})
	zero := 0.0
	c, err := llm.New(llm.Options{BaseURL: model.BaseURL(), APIKey: model.APIKey(), Model: "judge", MaxRetries: -1, Temperature: &zero})
	if err != nil {
		t.Fatal(err)
	}
	j := ModelJudge{Client: c, Prompts: LocalPrompts()}
	if _, _, err := j.Same(context.Background(), "g", "c"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := j.Extract(context.Background(), "a finding that is long enough"); err != nil {
		t.Fatal(err)
	}
	reqs := model.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	for _, r := range reqs {
		var body map[string]json.RawMessage
		if err := json.Unmarshal(r.Body, &body); err != nil {
			t.Fatal(err)
		}
		if string(body["temperature"]) != "0" || r.Model != "judge" || len(r.Messages) != 2 {
			t.Errorf("request: temperature %s, model %q, %d messages", body["temperature"], r.Model, len(r.Messages))
		}
	}
	// Without the transport no temperature is sent: the test above is not
	// passing by accident.
	plain := clientFor(t, model, "judge")
	if _, _, err := (ModelJudge{Client: plain, Prompts: LocalPrompts()}).Same(context.Background(), "g", "c"); err != nil {
		t.Fatal(err)
	}
	last, _ := model.LastRequest()
	if strings.Contains(string(last.Body), `"temperature"`) {
		t.Errorf("a plain client sent a temperature: %s", last.Body)
	}
}
