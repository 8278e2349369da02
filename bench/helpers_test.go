package bench

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
)

// behaviour is what the scripted reviewer reports on each PR.
type behaviour struct {
	oracle    bool // report every golden issue in pass 1
	invent    int  // add this many invented findings per PR in pass 1
	duplicate bool // report every golden issue again in pass 2, in other words
	badGroups bool // answer the duplicate grouping with prose
	// read names, per repository ("owner/name"), files pass 1 reads with
	// read_file before answering.
	read map[string][]string
}

var (
	repoLine = regexp.MustCompile(`(?m)^Repository: (\S+)$`)
	prLine   = regexp.MustCompile(`(?m)^Pull request: #(\d+) `)
	passLine = regexp.MustCompile(`# Task: review pass (\d) of 3`)
)

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
				out = append(out, finding(fmt.Sprintf("Same problem as issue %d, seen again", i), "Reported again in the structure pass."))
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
	model.AddRule(fakellm.Rule{Name: "judge", Any: "found a known issue", Respond: func(r fakellm.Request) fakellm.Reply {
		q := r.Messages[1].Content // the question, also when answering a correction
		g, c := fenced(q, "golden comment"), fenced(q, "candidate finding")
		match := g != "" && strings.Contains(c, g)
		return fakellm.Reply{JSON: map[string]any{"reasoning": fmt.Sprintf("match=%v", match), "match": match, "confidence": map[bool]float64{true: 0.9, false: 0.1}[match]}}
	}})
	model.AddRule(fakellm.Rule{Name: "dedupe", Any: "Group the findings", Respond: func(r fakellm.Request) fakellm.Reply {
		if b.badGroups {
			return fakellm.Reply{Text: "Findings 0 and 1 look like the same issue to me."}
		}
		// Findings "Golden issue i" and "Same problem as issue i" are one.
		var groups [][]int
		byIssue := map[string]int{}
		for j := 0; ; j++ {
			text := fenced(r.Messages[1].Content, fmt.Sprintf("finding %d", j))
			if text == "" {
				break
			}
			key := fmt.Sprintf("own %d", j)
			if m := regexp.MustCompile(`(?:Golden issue|Same problem as issue) (\d+)`).FindStringSubmatch(text); m != nil {
				key = m[1]
			}
			if k, ok := byIssue[key]; ok {
				groups[k] = append(groups[k], j)
				continue
			}
			byIssue[key] = len(groups)
			groups = append(groups, []int{j})
		}
		return fakellm.Reply{JSON: map[string]any{"groups": groups}}
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
		Engine: EngineOptions{ProblemThreshold: 5, BlockingThreshold: 5, Retries: 1}, Concurrency: 3}
	if edit != nil {
		edit(&opt)
	}
	res, err := Run(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
