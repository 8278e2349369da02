package benchmark

import (
	"context"
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/review-my-code-bot/rmc/llm"
	"github.com/review-my-code-bot/rmc/llm/fakellm"
)

// casePR is one PR of a constructed case: golden comments, the review's
// comments (the candidates: extraction is off), whether the review
// failed, duplicate groups, and the judge's answers by (golden,
// candidate) index. A pair without an answer is "no match".
type casePR struct {
	golden       []Golden
	comments     []string
	reviewFailed bool
	groups       [][]int
	answers      map[[2]int]string
}

// rateLimited answers 429 to every attempt of that judge call.
const rateLimited = "429"

func bug(text string) Golden { return Golden{Comment: text, Severity: "High", Category: "bug"} }

func yesAt(c float64) string {
	return fmt.Sprintf(`{"reasoning": "same", "match": true, "confidence": %g}`, c)
}

// scoreCase is a case with the score each rule set gives, worked out by
// hand from upstream's formula (precision TP/(TP+FP), recall TP/(TP+FN),
// F-beta = (1+b²)PR/(b²P+R), pooled over PRs; profile core under head).
type scoreCase struct {
	prs                        []casePR
	pinnedF1, pinnedF2         float64
	headF1, headF2             float64
	failedReviews, failedCalls int
}

// upstreamCases: the first three are the issue's; "before" is what bench
// gave before it scored failures as upstream does.
var upstreamCases = map[string]scoreCase{
	// PR a: g0 found by c0, c1 noise: TP 1 FP 1 FN 1. PR b's review
	// failed: a review with no comments, its 2 golden comments missed.
	// TP 1 FP 1 FN 3: P 1/2, R 1/4, F1 = 2(1/8)/(3/4) = 1/3 = 33.3
	// (before: b left out, F1 50.0); F2 = 5(1/8)/(2+1/4) = 5/18 = 27.8.
	"issue: one of two PRs' reviews failed": {
		prs: []casePR{
			{golden: []Golden{bug("a: off by one"), bug("a: leak")}, comments: []string{"a: off by one in the loop", "a: rename x"},
				answers: map[[2]int]string{{0, 0}: yesAt(0.9)}},
			{golden: []Golden{bug("b: race"), bug("b: nil map")}, reviewFailed: true},
		},
		pinnedF1: 1.0 / 3, pinnedF2: 5.0 / 18, headF1: 1.0 / 3, headF2: 5.0 / 18, failedReviews: 1,
	},
	// No reasoning, an extra member: upstream's json.loads and .get accept
	// it. TP 1 FP 0 FN 0: F1 = F2 = 1 (before: refused, no match, F1 0).
	"issue: a looser but valid JSON answer": {
		prs: []casePR{{golden: []Golden{bug("loose: unchecked error")}, comments: []string{"loose: the error of Close is dropped"},
			answers: map[[2]int]string{{0, 0}: `{"match": true, "confidence": 0.8, "severity": "high"}`}}},
		pinnedF1: 1, pinnedF2: 1, headF1: 1, headF2: 1,
	},
	// PR a: g0 by c0, g1 missed: TP 1 FP 0 FN 1. PR b: g0 by c0; the call
	// for g1 × c1 fails after its retries: no match, c1 a false positive,
	// g1 missed: TP 1 FP 1 FN 1. Pooled TP 2 FP 1 FN 2: P 2/3, R 1/2,
	// F1 = 2(1/3)/(7/6) = 4/7 = 57.1 (before: b left out, 66.7);
	// F2 = 5(1/3)/(8/3+1/2) = 10/19 = 52.6.
	"issue: one judge call failed after its retries (429)": {
		prs: []casePR{
			{golden: []Golden{bug("c: sql injection"), bug("c: missing index")}, comments: []string{"c: the query concatenates input"},
				answers: map[[2]int]string{{0, 0}: yesAt(0.95)}},
			{golden: []Golden{bug("d: deadlock"), bug("d: stale cache")}, comments: []string{"d: locks taken in two orders", "d: cache never invalidated"},
				answers: map[[2]int]string{{0, 0}: yesAt(0.9), {1, 1}: rateLimited}},
		},
		pinnedF1: 4.0 / 7, pinnedF2: 10.0 / 19, headF1: 4.0 / 7, headF2: 10.0 / 19, failedCalls: 1,
	},
	// c1 repeats c0 (one duplicate group) with a lower confidence.
	// Pinned: c1 raises nothing, a false positive: TP 1 FP 1 FN 0,
	// P 1/2, R 1: F1 = 1/(3/2) = 2/3, F2 = 5(1/2)/(2+1) = 5/6.
	// Head: c1 shares c0's group, not a false positive: F1 = F2 = 1.
	"a duplicate group": {
		prs: []casePR{{golden: []Golden{bug("e: token logged")}, comments: []string{"e: the token is written to the log", "e: secrets end up in logs"},
			groups: [][]int{{0, 1}}, answers: map[[2]int]string{{0, 0}: yesAt(0.9), {0, 1}: yesAt(0.8)}}},
		pinnedF1: 2.0 / 3, pinnedF2: 5.0 / 6, headF1: 1, headF2: 1,
	},
	// g0 bug found, g1 style found, g2 uncategorized missed, g3 perf
	// missed, c2 noise. Pinned (no categories): TP 2 FP 1 FN 2, P 2/3,
	// R 1/2: F1 4/7, F2 10/19. Head, core: g1 (style) and g2 (none) are
	// out of the profile, c1 matched g1 so it is no false positive:
	// TP 1 FP 1 FN 1: F1 = F2 = 1/2.
	"categories and profiles": {
		prs: []casePR{{golden: []Golden{bug("f: overflow"), {Comment: "f: naming", Severity: "Low", Category: "style"},
			{Comment: "f: uncategorized", Severity: "Medium"}, {Comment: "f: n+1 queries", Severity: "Medium", Category: "perf"}},
			comments: []string{"f: the sum overflows int32", "f: the name is unclear", "f: add a comment"},
			answers:  map[[2]int]string{{0, 0}: yesAt(0.9), {1, 1}: yesAt(0.7)}}},
		pinnedF1: 4.0 / 7, pinnedF2: 10.0 / 19, headF1: 0.5, headF2: 0.5,
	},
	// Two reports of one issue at the same confidence: the second does
	// not raise the best, a false positive under both rule sets (no
	// groups): TP 1 FP 1: F1 2/3, F2 5/6.
	"a repeat as confident as the first": {
		prs: []casePR{{golden: []Golden{bug("g: divide by zero")}, comments: []string{"g: count may be 0", "g: division by an empty count"},
			answers: map[[2]int]string{{0, 0}: yesAt(0.8), {0, 1}: yesAt(0.8)}}},
		pinnedF1: 2.0 / 3, pinnedF2: 5.0 / 6, headF1: 2.0 / 3, headF2: 5.0 / 6,
	},
	// A later, more confident candidate takes the match; the earlier one
	// stays matched: TP 1 FP 0: F1 = F2 = 1.
	"a more confident later candidate": {
		prs: []casePR{{golden: []Golden{bug("h: path traversal")}, comments: []string{"h: the path is not cleaned", "h: ../ escapes the root"},
			answers: map[[2]int]string{{0, 0}: yesAt(0.6), {0, 1}: yesAt(0.9)}}},
		pinnedF1: 1, pinnedF2: 1, headF1: 1, headF2: 1,
	},
	// "match" true but confidence absent (0) or 0: 0 > 0 is false, so
	// neither counts: TP 0 FP 2 FN 2: F1 = F2 = 0.
	"matches at confidence 0 never count": {
		prs: []casePR{{golden: []Golden{bug("i: timeout ignored"), bug("i: retry storm")}, comments: []string{"i: ctx is dropped", "i: retries without backoff"},
			answers: map[[2]int]string{{0, 0}: `{"match": true}`, {1, 1}: `{"match": true, "confidence": 0}`}}},
	},
	// Python's truth: "no" is a non-empty string, a match; 0 is not.
	// TP 1 FP 1 FN 1: F1 = F2 = 1/2.
	"match in Python's sense": {
		prs: []casePR{{golden: []Golden{bug("j: wrong status"), bug("j: header twice")}, comments: []string{"j: 200 on failure", "j: Set-Cookie repeated"},
			answers: map[[2]int]string{{0, 0}: `{"match": "no", "confidence": 0.7}`, {1, 1}: `{"match": 0, "confidence": 0.95}`}}},
		pinnedF1: 0.5, pinnedF2: 0.5, headF1: 0.5, headF2: 0.5,
	},
	// A confidence upstream cannot compare (text) fails that call: no
	// match, listed; c1 matches. TP 1 FP 1 FN 0: F1 2/3, F2 5/6.
	"an answer upstream cannot score": {
		prs: []casePR{{golden: []Golden{bug("k: unbounded read")}, comments: []string{"k: io.ReadAll on the body", "k: no size limit on uploads"},
			answers: map[[2]int]string{{0, 0}: `{"match": true, "confidence": "high"}`, {0, 1}: yesAt(0.7)}}},
		pinnedF1: 2.0 / 3, pinnedF2: 5.0 / 6, headF1: 2.0 / 3, headF2: 5.0 / 6, failedCalls: 1,
	},
	// A clean PR is left out of precision and recall (upstream skips it);
	// its comment, said twice word for word, is one false alarm. The other
	// PR: TP 1 FP 0: F1 = F2 = 1.
	"a clean PR and a repeated text": {
		prs: []casePR{
			{comments: []string{"l: consider a constant", "l: consider a constant"}},
			{golden: []Golden{bug("m: use after close")}, comments: []string{"m: the file is read after Close"},
				answers: map[[2]int]string{{0, 0}: yesAt(0.9)}},
		},
		pinnedF1: 1, pinnedF2: 1, headF1: 1, headF2: 1,
	},
}

// scriptedJudge answers every case's pairs by their texts, and counts the
// calls per pair.
type scriptedJudge struct {
	model *fakellm.Server
	mu    sync.Mutex
	calls map[[2]string]int
}

func newScriptedJudge(t *testing.T, cases map[string]scoreCase) *scriptedJudge {
	t.Helper()
	answers := map[[2]string]string{}
	for _, c := range cases {
		for _, pr := range c.prs {
			for k, a := range pr.answers {
				answers[[2]string{pr.golden[k[0]].Comment, pr.comments[k[1]]}] = a
			}
		}
	}
	j := &scriptedJudge{model: fakellm.New(fakellm.Config{}), calls: map[[2]string]int{}}
	t.Cleanup(j.model.Close)
	j.model.AddRule(fakellm.Rule{Any: "a known issue", Respond: func(r fakellm.Request) fakellm.Reply {
		g, c := judgeTexts(r.LastUser())
		key := [2]string{g, c}
		j.mu.Lock()
		j.calls[key]++
		j.mu.Unlock()
		switch a, ok := answers[key]; {
		case !ok:
			return fakellm.Reply{Text: `{"reasoning": "another issue", "match": false, "confidence": 0.9}`}
		case a == rateLimited:
			return fakellm.Reply{Error: &fakellm.APIError{Status: 429, Message: "Rate limit reached for requests"}}
		default:
			return fakellm.Reply{Text: a}
		}
	}})
	return j
}

// client retries as the action does, with pauses short enough for a test.
func (j *scriptedJudge) client(t *testing.T) *llm.Client {
	t.Helper()
	c, err := llm.New(llm.Options{BaseURL: j.model.BaseURL(), APIKey: j.model.APIKey(), Model: "judge", PromptJSON: true,
		MaxRetries: 2, RetryBaseDelay: time.Millisecond, MaxRetryDelay: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// scoreWith runs the judging and scoring stages of a run (the review's
// comments given) under rules, and returns the run's results.
func scoreWith(t *testing.T, judge Judge, c scoreCase, rules Rules) *Results {
	t.Helper()
	opt := Options{Set: NewLocal(), Judge: judge, Rules: rules, Profile: Core}
	r := &runner{opt: opt}
	prs := make([]PRResult, len(c.prs))
	for i, p := range c.prs {
		res := PRResult{PR: fmt.Sprintf("case#%d", i+1), Repo: "case", Golden: p.golden, Groups: p.groups}
		if p.reviewFailed {
			res.ReviewError = "review: llm: endpoint unavailable"
		}
		for _, text := range p.comments {
			res.Findings = append(res.Findings, CandidateResult{Text: text})
		}
		r.assess(context.Background(), &res)
		prs[i] = res
	}
	return newResults(opt, len(prs), prs, 0)
}

// TestScoresAsUpstream: each constructed case, scored through the run's
// own judging and scoring, gives the F1 and F2 worked out by hand from
// upstream's rules, under both rule sets; failures are counted and listed.
func TestScoresAsUpstream(t *testing.T) {
	t.Parallel()
	judge := newScriptedJudge(t, upstreamCases)
	mj := ModelJudge{Client: judge.client(t), Prompts: LocalPrompts()}
	for name, c := range upstreamCases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			for _, rs := range []struct {
				rules  Rules
				f1, f2 float64
			}{{PinnedRules, c.pinnedF1, c.pinnedF2}, {HeadRules, c.headF1, c.headF2}} {
				res := scoreWith(t, mj, c, rs.rules)
				o := res.Summary.Overall
				if math.Abs(o.F1-rs.f1) > 1e-9 || math.Abs(o.F2-rs.f2) > 1e-9 {
					t.Errorf("%s rules: F1 %.4f F2 %.4f, want %.4f %.4f (%+v)", rs.rules, o.F1, o.F2, rs.f1, rs.f2, o.Counts)
				}
				if res.FailedReviews != c.failedReviews || res.FailedCalls != c.failedCalls || res.Failed != 0 {
					t.Errorf("%s rules: %d failed reviews, %d failed calls, %d not scored; want %d, %d, 0", rs.rules, res.FailedReviews, res.FailedCalls, res.Failed, c.failedReviews, c.failedCalls)
				}
				md := res.Markdown(testBoard(t))
				if n := strings.Count(md, "judge call golden"); n != c.failedCalls {
					t.Errorf("the report lists %d failed judge calls, want %d", n, c.failedCalls)
				}
			}
		})
	}
	// A rate-limited call was asked as often as the client retries (run
	// once the parallel subtests are done).
	t.Cleanup(func() {
		judge.mu.Lock()
		defer judge.mu.Unlock()
		if n := judge.calls[[2]string{"d: stale cache", "d: cache never invalidated"}]; n != 2*3 {
			t.Errorf("the rate-limited pair was asked %d times over both rule sets, want 3 attempts each", n)
		}
	})
}

// TestJudgeTemperature: OpenAI's reasoning models refuse temperature 0 and
// are sent none; every other judge runs at 0, as upstream's.
func TestJudgeTemperature(t *testing.T) {
	t.Parallel()
	refuses := map[string]bool{
		"openai/gpt-5.2": true, "gpt-5": true, "gpt-5-mini": true, "o3": true, "o4-mini": true, "openai/o1": true, "O3-Mini": true,
		"gpt-5-chat-latest": false, "openai/gpt-5.1-chat": false, "gpt-4o": false, "anthropic/claude-opus-4.5": false,
		"claude-opus-4-5-20251101": false, "qwen3-o1-distill": false, "ollama/llama3": false,
	}
	for model, want := range refuses {
		got := JudgeTemperature(model)
		if (got == nil) != want || (got != nil && *got != 0) {
			t.Errorf("JudgeTemperature(%q) = %v, want none: %v", model, got, want)
		}
	}
}
