package benchmark

import (
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/internal/golden"
	"github.com/review-my-code-bot/rmc/review"
)

// TestExampleReport pins report.md as the README shows it: a run of the
// local set against the scripted model, which reports every golden issue
// and invents one finding per PR. It is labelled a format example, never a
// score. Times are zeroed: they are not the report's format.
func TestExampleReport(t *testing.T) {
	t.Parallel()
	set := NewLocal()
	res := runSet(t, set, scriptedModel(t, set, behaviour{oracle: true, invent: 1}), func(o *Options) { o.Example = true })
	res.Seconds = 0
	for i := range res.PRs {
		res.PRs[i].Seconds = 0
	}
	md := res.Markdown(testBoard(t))
	golden.Assert(t, "example-report.md", md)
	if !strings.Contains(md, "(format example)") || !strings.Contains(md, "**Format example, not a score.**") || strings.Contains(md, "this run**") {
		t.Error("a scripted run's report is not labelled a format example, or is ranked")
	}
	var table strings.Builder
	res.Table(&table)
	if !strings.HasPrefix(table.String(), "FORMAT EXAMPLE:") {
		t.Errorf("the terminal table is not labelled:\n%s", table.String())
	}
}

// BenchmarkLocalSet times the whole local set (review, extraction,
// judging, scoring) against the scripted model.
func BenchmarkLocalSet(b *testing.B) {
	set := NewLocal()
	for b.Loop() {
		b.StopTimer()
		model := scriptedModel(b, set, behaviour{oracle: true, invent: 1})
		b.StartTimer()
		res, err := Run(b.Context(), Options{Set: set, Client: clientFor(b, model, "m"), Judge: ModelJudge{Client: clientFor(b, model, "j")}, Method: Method{Extract: true}, Example: true,
			Engine: review.DefaultSettings(), Concurrency: 2})
		if err != nil || res.Failed != 0 {
			b.Fatal(err, res.Failed)
		}
		b.ReportMetric(float64(res.ReviewUsage.Requests)/float64(len(res.PRs)), "model-calls/PR")
		b.ReportMetric(float64(res.JudgeUsage.Requests)/float64(len(res.PRs)), "judge-calls/PR")
		b.ReportMetric(float64(res.GitHubRequests)/float64(len(res.PRs)), "github-req/PR")
	}
}
