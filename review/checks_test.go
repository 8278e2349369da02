package review

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/llm"
)

// checkAsker answers the checks prompt with results, recording prompts.
type checkAsker struct {
	results []map[string]any
	prompts []string
	labels  []llm.Label
}

func (c *checkAsker) AskSchema(_ context.Context, label llm.Label, prompt string, _ *llm.Schema) (llm.Reply, error) {
	c.prompts, c.labels = append(c.prompts, prompt), append(c.labels, label)
	b, err := json.Marshal(map[string]any{"results": c.results})
	return llm.Reply{Text: string(b)}, err
}

func result(name, verdict string, locs ...Location) map[string]any {
	if locs == nil {
		locs = []Location{}
	}
	return map[string]any{"name": name, "result": verdict, "reason": name + " because.", "locations": locs}
}

// Every check gets a verdict: from the model when a changed file matches
// its paths, a pass without a model call otherwise, inconclusive when the
// model skipped it. Only a failing error check gets a blocking finding,
// anchored in the diff, fingerprinted by its name.
func TestEvaluateChecks(t *testing.T) {
	t.Parallel()
	checks := []Check{
		{Name: "logging", Instructions: "No log.Printf of keys.", Mode: CheckError, Paths: []string{"svc/**"}},
		{Name: "docs", Instructions: "Docs say why.", Mode: CheckWarning, Paths: []string{"docs/*.md"}},
		{Name: "migrations", Instructions: "Down steps.", Mode: CheckError, Paths: []string{"db/**"}},
		{Name: "forgotten", Instructions: "Anything.", Mode: CheckError},
		{Name: "made-up place", Instructions: "x", Mode: CheckError, Paths: []string{"svc/**"}},
	}
	ask := &checkAsker{results: []map[string]any{
		result("Logging", "fail", Location{Path: "svc/cache.go", Line: 14}),
		result("docs", "fail"),
		result("made-up place", "fail", Location{Path: "../etc/passwd", Line: 3}),
		result("migrations", "fail"), // no file of it changed: not asked, not believed
	}}
	got, err := EvaluateChecks(context.Background(), ask, checks, files(t), CheckOptions{Task: "review-auto-1111111"})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		verdict Verdict
		finding string // "path:line" of the finding, "" for none
	}{
		{CheckFail, "svc/cache.go:14"},
		{CheckFail, ""},
		{CheckPass, ""},
		{CheckInconclusive, ""},
		{CheckFail, "svc/cache.go:10"}, // anchored on the check's files, not the made-up path
	}
	for i, w := range want {
		r := got[i]
		where := ""
		if r.Finding != nil {
			where = Location{Path: r.Finding.Path, Line: r.Finding.Line}.String()
			if !r.Finding.Blocking || !r.Finding.Inline || r.Finding.Category != "check" || r.Finding.Fingerprint != CheckFingerprint(r.Check.Name) {
				t.Errorf("%s: finding %+v", r.Check.Name, r.Finding)
			}
		}
		if r.Verdict != w.verdict || where != w.finding {
			t.Errorf("%s: %s with finding at %q, want %s at %q", r.Check.Name, r.Verdict, where, w.verdict, w.finding)
		}
		for _, l := range r.Locations {
			if l.Path != "svc/cache.go" {
				t.Errorf("%s: location %v outside the diff kept", r.Check.Name, l)
			}
		}
	}
	if len(ask.prompts) != 1 || strings.Contains(ask.prompts[0], `Check "migrations"`) || !strings.Contains(ask.prompts[0], `Check "forgotten"`) {
		t.Errorf("%d prompt(s); the one:\n%s", len(ask.prompts), ask.prompts[0])
	}
	if ask.labels[0] != (llm.Label{Task: "review-auto-1111111", Step: "checks"}) {
		t.Errorf("label %v", ask.labels[0])
	}
	if CheckFingerprint("Logging ") != CheckFingerprint("logging") || CheckFingerprint("logging") == CheckFingerprint("docs") {
		t.Error("a check's fingerprint is not its normalized name")
	}
}

// No check applies: no model call at all.
func TestEvaluateChecksWithoutMatchingFiles(t *testing.T) {
	t.Parallel()
	ask := &checkAsker{}
	got, err := EvaluateChecks(context.Background(), ask, []Check{{Name: "sql", Instructions: "x", Mode: CheckError, Paths: []string{"**/*.sql"}}}, files(t), CheckOptions{})
	if err != nil || len(ask.prompts) != 0 || got[0].Verdict != CheckPass {
		t.Fatalf("err %v, %d prompts, %+v", err, len(ask.prompts), got)
	}
}
