package benchmark

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/llm"
	"github.com/review-my-code-bot/rmc/llm/fakellm"
	"github.com/review-my-code-bot/rmc/review"
)

// behaviour is what the scripted reviewer reports on each PR.
type behaviour struct {
	oracle     bool // report every golden issue in pass 1
	invent     int  // add this many invented findings per PR in pass 1
	duplicate  bool // report every golden issue again in pass 2, under another title
	badExtract bool // answer the extraction with prose
	// read names, per repository ("owner/name"), files pass 1 reads with
	// read_file before answering.
	read map[string][]string
	// judgeFails, when set and true for a golden comment, answers 429 to
	// every judge call about it.
	judgeFails func(golden string) bool
}

var (
	repoLine = regexp.MustCompile(`(?m)^Repository: (\S+)$`)
	prLine   = regexp.MustCompile(`(?m)^Pull request: #(\d+) `)
	passLine = regexp.MustCompile(`# Task: review pass (\d) of 3`)
)

// between returns the text after the first of starts found and before
// end, or "".
func between(text string, starts []string, end string) string {
	for _, start := range starts {
		if _, rest, ok := strings.Cut(text, start); ok {
			body, _, _ := strings.Cut(rest, end)
			return body
		}
	}
	return ""
}

// judgeTexts are the golden comment and the candidate of a judge prompt:
// fenced (the local prompts) or as they are (upstream's templates, whose
// stand-in in testdata/crb/upstream has "Golden:" and "Candidate:").
func judgeTexts(q string) (golden, candidate string) {
	if g := fenced(q, "golden comment"); g != "" {
		return g, fenced(q, "candidate issue")
	}
	return between(q, []string{"Golden:\n"}, "\n\nCandidate:\n"), between(q, []string{"\n\nCandidate:\n"}, "\n\nReply with JSON only")
}

// extractText is the review text of an extraction prompt.
func extractText(q string) string {
	if c := fenced(q, "review comments"); c != "" {
		return c
	}
	return between(q, []string{"Review comments:\n"}, "\n\nList every distinct")
}

// fenced returns the text inside the fence labelled source.
func fenced(text, source string) string {
	_, rest, ok := strings.Cut(text, fmt.Sprintf("<untrusted source=%q>\n", source))
	if !ok {
		return ""
	}
	body, _, _ := strings.Cut(rest, "\n</untrusted>")
	return body
}

// scriptedModel answers the review passes as b says from the set's golden
// comments, and judges like a careful judge: a candidate matches when its
// text carries the golden comment.
func scriptedModel(t testing.TB, set Set, b behaviour) *fakellm.Server {
	t.Helper()
	cases, err := set.Cases(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	golden := map[string][]Golden{}
	for _, c := range cases {
		golden[fmt.Sprintf("%s/%s#%d", c.Ref.Owner, c.Ref.Name, c.Ref.Number)] = c.Golden
	}
	model := fakellm.New(fakellm.Config{})
	t.Cleanup(model.Close)
	finding := func(title, explanation string) map[string]any {
		return map[string]any{"path": "unknown.txt", "line": 1, "start_line": 0, "side": "right", "title": title,
			"explanation": explanation, "score": 8, "category": "bug", "suggestion": ""}
	}
	model.AddRule(fakellm.Rule{Name: "review", LastUserRegexp: passLine, Respond: func(r fakellm.Request) fakellm.Reply {
		system := r.Messages[0].Content
		repo, pr := repoLine.FindStringSubmatch(system), prLine.FindStringSubmatch(system)
		if repo == nil || pr == nil {
			return fakellm.Reply{Error: &fakellm.APIError{Message: "no PR in the system prompt"}}
		}
		pass, _ := strconv.Atoi(passLine.FindStringSubmatch(r.LastUser())[1])
		if paths := b.read[repo[1]]; pass == 1 && r.LastRole() == "user" && len(paths) > 0 {
			var calls []fakellm.ToolCall
			for _, p := range paths {
				calls = append(calls, fakellm.ToolCall{Name: "read_file", Arguments: fmt.Sprintf(`{"path": %q}`, p)})
			}
			return fakellm.Reply{ToolCalls: calls}
		}
		var out []map[string]any
		for i, g := range golden[repo[1]+"#"+pr[1]] {
			switch {
			case b.oracle && pass == 1:
				out = append(out, finding(fmt.Sprintf("Golden issue %d", i), g.Comment))
			case b.duplicate && pass == 2:
				out = append(out, finding(fmt.Sprintf("Same problem as issue %d, seen again", i), g.Comment))
			}
		}
		if pass == 1 {
			for i := range b.invent {
				out = append(out, finding(fmt.Sprintf("Invented problem %d", i), "INVENTED: the names could be clearer."))
			}
		}
		if out == nil {
			out = []map[string]any{}
		}
		return fakellm.Reply{JSON: map[string]any{"findings": out}}
	}})
	model.AddRule(fakellm.Rule{Name: "judge", Any: "a known issue", Respond: func(r fakellm.Request) fakellm.Reply {
		g, c := judgeTexts(r.Messages[1].Content)
		if b.judgeFails != nil && b.judgeFails(g) {
			return fakellm.Reply{Error: &fakellm.APIError{Status: 429, Message: "Rate limit reached"}}
		}
		match := g != "" && strings.Contains(c, g)
		return fakellm.Reply{JSON: map[string]any{"reasoning": fmt.Sprintf("match=%v", match), "match": match, "confidence": map[bool]float64{true: 0.9, false: 0.1}[match]}}
	}})
	// The extraction keeps each comment as one issue.
	model.AddRule(fakellm.Rule{Name: "extract", Any: "List every distinct", Respond: func(r fakellm.Request) fakellm.Reply {
		if b.badExtract {
			return fakellm.Reply{Text: "The review raises two issues."}
		}
		issues := strings.Split(extractText(r.Messages[1].Content), "\n\n---\n\n")
		return fakellm.Reply{JSON: map[string]any{"issues": issues}}
	}})
	return model
}

// clientFor is a model client the way the command builds it, with no
// retry pauses.
func clientFor(t testing.TB, model *fakellm.Server, name string) *llm.Client {
	t.Helper()
	c, err := llm.New(llm.Options{BaseURL: model.BaseURL(), APIKey: model.APIKey(), Model: name, PromptJSON: true, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func runSet(t *testing.T, set Set, model *fakellm.Server, edit func(*Options)) *Results {
	t.Helper()
	opt := Options{Set: set, Client: clientFor(t, model, "model-under-test"), Judge: ModelJudge{Client: clientFor(t, model, "judge-model")},
		Method: Method{Extract: true}, Engine: review.DefaultSettings(), Concurrency: 3,
		ModelEndpoint: Endpoint{BaseURL: model.BaseURL(), Model: "model-under-test"}, JudgeEndpoint: Endpoint{BaseURL: model.BaseURL(), Model: "judge-model", Temperature: JudgeTemperature("judge-model")}}
	if edit != nil {
		edit(&opt)
	}
	res, err := Run(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// setTotals are what a run of the whole set can find: PRs, the PRs with
// golden comments, and their golden comments.
type setTotals struct{ prs, planted, golden, core int }

func totals(t testing.TB, set Set, only string) setTotals {
	t.Helper()
	cases, err := set.Cases(context.Background())
	if err == nil {
		cases, err = Filter(cases, only, 0)
	}
	if err != nil {
		t.Fatal(err)
	}
	var n setTotals
	for _, c := range cases {
		n.prs++
		if len(c.Golden) > 0 {
			n.planted++
			n.golden += len(c.Golden)
		}
		for _, g := range c.Golden {
			if Core.Includes(g.Category) {
				n.core++
			}
		}
	}
	return n
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// noRetries are the action's review settings with no retry of a failed
// pass.
func noRetries() review.Settings {
	s := review.DefaultSettings()
	s.Retries = 0
	return s
}
