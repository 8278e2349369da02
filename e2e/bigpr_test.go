package e2e

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/github/fakegithub"
	"github.com/review-my-code-bot/rmc/llm/fakellm"
)

// bigPRFile is one added file of n lines of ordinary code.
func bigPRFile(i, n int) fakegithub.File {
	var b strings.Builder
	fmt.Fprintf(&b, "@@ -0,0 +1,%d @@\n", n)
	for j := range n {
		fmt.Fprintf(&b, "+\tif v%d := lookup(ctx, \"key-%d-%d\"); v%d != nil { total += v%d.size }\n", j, i, j, j, j)
	}
	return fakegithub.File{Path: fmt.Sprintf("svc/part%04d.go", i), Status: "added", Additions: n, Patch: b.String()}
}

// bigPRResult is what one automatic review of a big PR cost.
type bigPRResult struct {
	calls, prompt, cached, largest int
	prefixShare                    float64 // requests from the second on with >= 80% of their prompt cached
	refused                        int     // requests the model's window refused
	run                            run
}

// reviewBigPR runs the built action's automatic review of a PR of lines
// changed lines, against a scripted model with a 200k-token window that
// caches byte-identical prefixes as OpenAI does.
func reviewBigPR(tb testing.TB, lines int) bigPRResult {
	w := newWorld(tb)
	w.llm = fakellm.New(fakellm.Config{APIKey: "sk-e2e-test-key", ContextTokens: 200_000})
	tb.Cleanup(w.llm.Close)
	w.llm.SetDefault(fakellm.Reply{JSON: map[string]any{"findings": []finding{}}})
	w.inputs["model_context_tokens"] = "200000"
	const perFile = 500
	var files []fakegithub.File
	for i := 0; i*perFile < lines; i++ {
		files = append(files, bigPRFile(i, min(perFile, lines-i*perFile)))
	}
	w.gh.SetFiles(repoName, w.pr, files)
	r := w.run(w.prEvent("opened"))
	if r.code != 0 {
		tb.Fatalf("%d lines: exit %d\n%s", lines, r.code, r.log)
	}
	res := bigPRResult{run: r}
	cachedEnough, later := 0, 0
	for i, q := range w.llm.Requests() {
		if q.Status != 200 {
			res.refused++
			continue
		}
		res.calls++
		res.prompt += q.Usage.PromptTokens
		res.cached += q.Usage.CachedTokens
		res.largest = max(res.largest, len(q.Body))
		if i > 0 {
			later++
			if q.Usage.CachedTokens*5 >= q.Usage.PromptTokens*4 {
				cachedEnough++
			}
		}
	}
	if later > 0 {
		res.prefixShare = float64(cachedEnough) / float64(later)
	}
	return res
}

// BenchmarkBigPR prints, for PRs of 1k to 200k changed lines, what the
// automatic review costs: model calls, prompt tokens, the tokens a prefix
// cache serves, the largest request, the action's own CPU and its peak
// memory. `go test ./e2e -run '^$' -bench BigPR -benchtime 1x` prints the
// table; the sizes' log-log slope of prompt tokens is reported on the last
// row.
func BenchmarkBigPR(b *testing.B) {
	sizes := []int{1_000, 10_000, 50_000, 200_000}
	var xs, ys []float64
	for _, lines := range sizes {
		b.Run(fmt.Sprintf("lines=%d", lines), func(b *testing.B) {
			var res bigPRResult
			for range b.N {
				res = reviewBigPR(b, lines)
			}
			b.ReportMetric(float64(res.calls), "calls")
			b.ReportMetric(float64(res.prompt), "prompt-tokens")
			b.ReportMetric(float64(res.cached), "cached-tokens")
			b.ReportMetric(float64(res.largest), "largest-request-bytes")
			b.ReportMetric(float64(res.refused), "refused")
			b.ReportMetric(100*res.prefixShare, "%requests-80%-cached")
			b.ReportMetric(res.run.cpu.Seconds(), "action-cpu-s")
			b.ReportMetric(float64(res.run.maxRSS)/1e6, "peak-rss-MB")
			xs, ys = append(xs, math.Log(float64(lines))), append(ys, math.Log(float64(res.prompt)))
		})
	}
	if len(xs) == len(sizes) {
		b.Logf("prompt tokens grow with changed lines at a log-log slope of %.2f", slope(xs, ys))
	}
}

// slope is the least-squares slope of ys over xs.
func slope(xs, ys []float64) float64 {
	var mx, my float64
	for i := range xs {
		mx, my = mx+xs[i], my+ys[i]
	}
	mx, my = mx/float64(len(xs)), my/float64(len(xs))
	var num, den float64
	for i := range xs {
		num += (xs[i] - mx) * (ys[i] - my)
		den += (xs[i] - mx) * (xs[i] - mx)
	}
	return num / den
}

// The review of a PR past the model's window completes, covers every file,
// and costs prompt tokens in proportion to its size: every request fits,
// and no chunk is paid for in another chunk's requests.
func TestBigPRFitsTheWindow(t *testing.T) {
	t.Parallel()
	small, big := reviewBigPR(t, 2_000), reviewBigPR(t, 20_000)
	for _, res := range []bigPRResult{small, big} {
		if !strings.Contains(res.run.summary, "reviewed: no open blocking findings") {
			t.Fatalf("the review did not cover the PR:\n%s", res.run.summary)
		}
	}
	if big.refused != 0 {
		t.Errorf("%d requests went over the window", big.refused)
	}
	// Ten times the lines: about ten times the tokens (a square law would
	// make it a hundred).
	if ratio := float64(big.prompt) / float64(small.prompt); ratio > 14 {
		t.Errorf("prompt tokens grew %.1f times for 10 times the lines (%d → %d)", ratio, small.prompt, big.prompt)
	}
}
