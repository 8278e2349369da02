package e2e

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/review-my-code-bot/rmc/internal/golden"
)

// costBlock names the block of docs/cost.md TestCostTable keeps.
const costBlock = "cost-table: go test ./e2e -run TestCostTable -update"

// callTime is the model's time per call the table's wall times assume.
const callTime = 20 * time.Second

// The cost table of docs/cost.md is what the big-PR review costs now: the
// test reviews each size with the built action and fails when a number on
// the page differs; -update writes them. Reviews go one chunk at a time,
// so the cache's hits do not depend on which request finished first; the
// prompt tokens and calls are the same at any review_concurrency.
func TestCostTable(t *testing.T) {
	if testing.Short() {
		t.Skip("reviews PRs of up to 200k lines")
	}
	t.Parallel()
	golden.AssertBlock(t, "../docs/cost.md", costBlock, costTable(t, defaultConcurrency(t)))
}

// costTable renders what reviews of 1k to 200k changed lines cost.
func costTable(t *testing.T, concurrency int) string {
	oneLine := reviewBigPR(t, 1, bigPR{concurrency: "1"})
	var b strings.Builder
	fmt.Fprintf(&b, "| changed lines | chunks | model calls | prompt tokens | cached | × floor | largest request | calls in a row, %d at once | wall at %v a call |\n", concurrency, callTime)
	b.WriteString("|--------------:|-------:|------------:|--------------:|-------:|--------:|----------------:|----------------:|--------------:|\n")
	var xs, ys []float64
	for _, lines := range []int{1_000, 10_000, 50_000, 200_000} {
		res := reviewBigPR(t, lines, bigPR{concurrency: "1"})
		if res.refused != 0 {
			t.Errorf("%d lines: %d requests over the window", lines, res.refused)
		}
		inRow := rounds(res.chunks, concurrency) + res.calls - reviewPasses*res.chunks
		fmt.Fprintf(&b, "| %dk | %d | %d | %s | %d%% | %.2f | %d KB | %d | %s |\n", lines/1000, res.chunks, res.calls, thousands(res.prompt),
			100*res.cached/res.prompt, float64(res.prompt)/float64(floor(res, oneLine)), res.largest/1000, inRow, minutes(time.Duration(inRow)*callTime))
		xs, ys = append(xs, math.Log(float64(lines))), append(ys, math.Log(float64(res.prompt)))
	}
	fmt.Fprintf(&b, "\nPrompt tokens grow with changed lines at a log-log slope of %.2f.\n", slope(xs, ys))
	return b.String()
}

// thousands writes n with thousands separators.
func thousands(n int) string {
	s := fmt.Sprint(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// minutes writes d as whole minutes, or seconds under two minutes.
func minutes(d time.Duration) string {
	if d < 2*time.Minute {
		return fmt.Sprintf("%d s", int(d.Seconds()))
	}
	return fmt.Sprintf("%d min", int(math.Round(d.Minutes())))
}
