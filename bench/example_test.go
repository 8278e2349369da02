package bench

import (
	"testing"

	"github.com/review-my-code-bot/rmc/internal/golden"
)

// TestExampleReport pins report.md as the README shows it: a run of the
// local set against the scripted model, which reports every golden issue
// and invents one finding per PR. Times are zeroed: they are not the
// report's format.
func TestExampleReport(t *testing.T) {
	t.Parallel()
	set := NewLocal()
	res := runSet(t, set, scriptedModel(t, set, behaviour{oracle: true, invent: 1}), nil)
	res.Seconds = 0
	for i := range res.PRs {
		res.PRs[i].Seconds = 0
	}
	golden.Assert(t, "example-report.md", res.Markdown(testBoard(t)))
}

// BenchmarkLocalSet times the whole local set (14 PRs: review, duplicate
// grouping, judging, scoring) against the scripted model.
func BenchmarkLocalSet(b *testing.B) {
	set := NewLocal()
	for b.Loop() {
		b.StopTimer()
		model := scriptedModel(b, set, behaviour{oracle: true, invent: 1})
		b.StartTimer()
		res, err := Run(b.Context(), Options{Set: set, Client: clientFor(b, model, "m"), Judge: ModelJudge{Client: clientFor(b, model, "j")},
			Engine: EngineOptions{ProblemThreshold: 5, BlockingThreshold: 5, Retries: 1}, Concurrency: 2})
		if err != nil || res.Failed != 0 {
			b.Fatal(err, res.Failed)
		}
		b.ReportMetric(float64(res.ReviewUsage.Requests)/float64(len(res.PRs)), "model-calls/PR")
		b.ReportMetric(float64(res.JudgeUsage.Requests)/float64(len(res.PRs)), "judge-calls/PR")
		b.ReportMetric(float64(res.GitHubRequests)/float64(len(res.PRs)), "github-req/PR")
	}
}
