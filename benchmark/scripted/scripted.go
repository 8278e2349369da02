// Package scripted is bench's built-in scripted model: an in-process
// OpenAI-compatible server that reviews, extracts and judges a set's PRs
// from their golden comments, so that `bench --scripted` shows a whole
// run, report included, offline and without a key. Its numbers are a
// format example, never a score; the action never links it.
package scripted

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/review-my-code-bot/rmc/benchmark"
	"github.com/review-my-code-bot/rmc/llm/fakellm"
)

// Names of the scripted model and judge, as the report shows them.
const (
	Model = "scripted"
	Judge = "scripted-judge"
)

var (
	repoLine = regexp.MustCompile(`(?m)^Repository: (\S+)$`)
	prLine   = regexp.MustCompile(`(?m)^Pull request: #(\d+) `)
	passLine = regexp.MustCompile(`# Task: review pass (\d) of \d`)
)

// Start serves the scripted model for the cases: in its first pass the
// reviewer reports every golden comment of the PR and one invented
// finding; the extraction keeps each comment as one issue; the judge
// matches a candidate that carries the golden comment's text. The caller
// closes the server.
func Start(cases []benchmark.Case) *fakellm.Server {
	golden := map[string][]benchmark.Golden{}
	for _, c := range cases {
		golden[fmt.Sprintf("%s/%s#%d", c.Ref.Owner, c.Ref.Name, c.Ref.Number)] = c.Golden
	}
	s := fakellm.New(fakellm.Config{APIKey: "sk-scripted"})
	s.AddRule(fakellm.Rule{Name: "review", LastUserRegexp: passLine, Respond: func(r fakellm.Request) fakellm.Reply {
		return review(r, golden)
	}})
	s.AddRule(fakellm.Rule{Name: "judge", Any: "found a known issue", Respond: judge})
	s.AddRule(fakellm.Rule{Name: "extract", Any: "List every distinct problem", Respond: func(r fakellm.Request) fakellm.Reply {
		issues := strings.Split(fenced(r.LastUser(), "review comments"), "\n\n---\n\n")
		return fakellm.Reply{JSON: map[string]any{"issues": issues}}
	}})
	return s
}

func review(r fakellm.Request, golden map[string][]benchmark.Golden) fakellm.Reply {
	system := r.Messages[0].Content
	repo, pr := repoLine.FindStringSubmatch(system), prLine.FindStringSubmatch(system)
	pass := passLine.FindStringSubmatch(r.LastUser())
	findings := []map[string]any{}
	if repo == nil || pr == nil || pass[1] != "1" {
		return fakellm.Reply{JSON: map[string]any{"findings": findings}}
	}
	finding := func(title, explanation string) map[string]any {
		return map[string]any{"path": "unknown.txt", "line": 1, "start_line": 0, "side": "right", "title": title,
			"explanation": explanation, "score": 8, "category": "bug", "suggestion": ""}
	}
	for i, g := range golden[repo[1]+"#"+pr[1]] {
		findings = append(findings, finding(fmt.Sprintf("Golden issue %d", i), g.Comment))
	}
	findings = append(findings, finding("Invented problem", "INVENTED: the names could be clearer."))
	return fakellm.Reply{JSON: map[string]any{"findings": findings}}
}

func judge(r fakellm.Request) fakellm.Reply {
	q := r.LastUser()
	g, c := fenced(q, "golden comment"), fenced(q, "candidate issue")
	match := g != "" && strings.Contains(c, g)
	return fakellm.Reply{JSON: map[string]any{"reasoning": fmt.Sprintf("match=%v", match), "match": match,
		"confidence": map[bool]float64{true: 0.9, false: 0.1}[match]}}
}

// fenced is the text inside the untrusted-data fence labelled source.
func fenced(text, source string) string {
	_, rest, ok := strings.Cut(text, fmt.Sprintf("<untrusted source=%q>\n", source))
	if !ok {
		return ""
	}
	body, _, _ := strings.Cut(rest, "\n</untrusted>")
	return body
}
