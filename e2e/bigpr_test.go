package e2e

import (
	"flag"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

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
	chunks                         int     // chunks of the diff (requests of review pass 1)
	diffTokens                     int     // the PR's patches as GitHub sends them, in tokens
	mostInFlight                   int     // the most requests the model answered at once
	wall                           time.Duration
	run                            run
	requests                       []fakellm.Request
}

// bigPR is how a big PR is reviewed: the model's latency, and
// review_concurrency ("" = action.yml's default).
type bigPR struct {
	latency     time.Duration
	concurrency string
}

// reviewBigPR runs the built action's automatic review of a PR of lines
// changed lines, against a scripted model with a 200k-token window that
// caches byte-identical prefixes as OpenAI does.
func reviewBigPR(tb testing.TB, lines int, how bigPR) bigPRResult {
	w := newWorld(tb)
	w.llm = fakellm.New(fakellm.Config{APIKey: "sk-e2e-test-key", ContextTokens: 200_000, Latency: how.latency})
	tb.Cleanup(w.llm.Close)
	return reviewBigPRIn(tb, w, lines, how)
}

// reviewBigPRIn is reviewBigPR in w, whose model is set up.
func reviewBigPRIn(tb testing.TB, w *world, lines int, how bigPR) bigPRResult {
	w.llm.AddRule(fakellm.Rule{Name: "passes", LastUser: "# Task: review pass", Respond: func(r fakellm.Request) fakellm.Reply { return fakellm.ReviewAnswer(r, []finding{}) }})
	w.scriptGroupedWalkthrough()
	w.inputs["model_context_tokens"] = "200000"
	if how.concurrency != "" {
		w.inputs["review_concurrency"] = how.concurrency
	}
	const perFile = 500
	var files []fakegithub.File
	res := bigPRResult{}
	for i := 0; i*perFile < lines; i++ {
		files = append(files, bigPRFile(i, min(perFile, lines-i*perFile)))
		res.diffTokens += (len(files[i].Patch) + 3) / 4 // the model's 4 characters a token
	}
	w.gh.SetFiles(repoName, w.pr, files)
	start := time.Now()
	r := w.run(w.prEvent("opened"))
	res.wall, res.run, res.mostInFlight = time.Since(start), r, w.llm.MostInFlight()
	if r.code != 0 {
		tb.Fatalf("%d lines: exit %d\n%s", lines, r.code, r.log)
	}
	cachedEnough, later := 0, 0
	res.requests = w.llm.Requests()
	for i, q := range res.requests {
		if q.Status != 200 {
			res.refused++
			continue
		}
		res.calls++
		res.prompt += q.Usage.PromptTokens
		res.cached += q.Usage.CachedTokens
		res.largest = max(res.largest, len(q.Body))
		if strings.Contains(q.LastUser(), "# Task: review pass 1 ") {
			res.chunks++
		}
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

// reviewPasses is how many passes the benchmark's review runs (every one).
const reviewPasses = 3

// floor is the least a review of res's PR can send in res.calls requests:
// every pass reads the whole diff once, and every request carries the
// fixed part of a prompt (instructions, tools, the pass's task), measured
// as what a request of a one-line PR's review costs on average.
func floor(res, oneLine bigPRResult) int {
	fixed := (oneLine.prompt - reviewPasses*oneLine.diffTokens) / oneLine.calls
	return reviewPasses*res.diffTokens + res.calls*fixed
}

// rounds is how many model calls in a row a review of chunks takes with
// concurrency of them at once: the passes over a chunk go in order.
func rounds(chunks, concurrency int) int {
	return (chunks + concurrency - 1) / concurrency * reviewPasses
}

var (
	benchLatency     = flag.Duration("bigpr.latency", time.Second, "BenchmarkBigPR: how long the scripted model takes to answer a call")
	benchConcurrency = flag.Int("bigpr.concurrency", 0, "BenchmarkBigPR: review_concurrency (0 = action.yml's default)")
)

// BenchmarkBigPR prints, for PRs of 1k to 200k changed lines, what the
// automatic review costs: model calls, prompt tokens, the tokens a prefix
// cache serves, the ratio to the floor, the largest request, the action's
// own CPU and its peak memory; and, against a model that answers each call
// after -bigpr.latency, the wall time, and the goal for it: 1.2 times the
// calls in a row that review_concurrency chunks at once need, plus the
// walkthrough's call. `go test ./e2e -run '^$' -bench BigPR -benchtime 1x`
// prints the table; the sizes' log-log slope of prompt tokens is reported
// on the last row.
func BenchmarkBigPR(b *testing.B) {
	sizes := []int{1_000, 10_000, 50_000, 200_000}
	how := bigPR{latency: *benchLatency}
	conc := defaultConcurrency(b)
	if *benchConcurrency > 0 {
		conc, how.concurrency = *benchConcurrency, fmt.Sprint(*benchConcurrency)
	}
	oneLine := reviewBigPR(b, 1, bigPR{})
	var xs, ys []float64
	for _, lines := range sizes {
		b.Run(fmt.Sprintf("lines=%d", lines), func(b *testing.B) {
			var res bigPRResult
			for range b.N {
				res = reviewBigPR(b, lines, how)
			}
			goal := (1.2*float64(rounds(res.chunks, conc)) + 1) * how.latency.Seconds() // and the walkthrough's call
			b.ReportMetric(float64(res.calls), "calls")
			b.ReportMetric(float64(res.chunks), "chunks")
			b.ReportMetric(float64(res.prompt), "prompt-tokens")
			b.ReportMetric(float64(res.cached), "cached-tokens")
			b.ReportMetric(float64(res.prompt)/float64(floor(res, oneLine)), "x-floor")
			b.ReportMetric(float64(res.largest), "largest-request-bytes")
			b.ReportMetric(float64(res.refused), "refused")
			b.ReportMetric(100*res.prefixShare, "%requests-80%-cached")
			b.ReportMetric(res.run.cpu.Seconds(), "action-cpu-s")
			b.ReportMetric(float64(res.run.maxRSS)/1e6, "peak-rss-MB")
			b.ReportMetric(res.wall.Seconds(), "wall-s")
			b.ReportMetric(goal, "goal-wall-s")
			b.ReportMetric(float64(res.mostInFlight), "most-in-flight")
			xs, ys = append(xs, math.Log(float64(lines))), append(ys, math.Log(float64(res.prompt)))
		})
	}
	if len(xs) == len(sizes) {
		b.Logf("prompt tokens grow with changed lines at a log-log slope of %.2f", slope(xs, ys))
	}
}

// defaultConcurrency is review_concurrency's default in action.yml.
func defaultConcurrency(tb testing.TB) int {
	n, err := strconv.Atoi(actionDefaults(tb)["review_concurrency"])
	if err != nil {
		tb.Fatalf("review_concurrency's default: %v", err)
	}
	return n
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
	small, big := reviewBigPR(t, 2_000, bigPR{}), reviewBigPR(t, 20_000, bigPR{})
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

// reviewRequests are what the review's requests asked, each its chunk and
// its pass prompt, sorted: the same set whatever order they were sent in.
func reviewRequests(tb testing.TB, reqs []fakellm.Request) []string {
	var out []string
	for _, q := range reqs {
		if strings.Contains(q.LastUser(), "# Task: review pass ") {
			if len(q.Messages) != 3 {
				tb.Fatalf("a review request of %d messages, want the system prompt, the chunk and the pass", len(q.Messages))
			}
			out = append(out, q.Messages[1].Content+"\x00"+q.LastUser())
		}
	}
	slices.Sort(out)
	return out
}

// The built action reviews a big PR's chunks side by side, never more than
// review_concurrency at once, and sends exactly what it sends one chunk at
// a time.
func TestBigPRChunksAtOnce(t *testing.T) {
	t.Parallel()
	one := reviewBigPR(t, 8_000, bigPR{concurrency: "1"})
	w := newWorld(t)
	w.llm = fakellm.New(fakellm.Config{APIKey: "sk-e2e-test-key", ContextTokens: 200_000, Latency: time.Second}) // long enough that three requests overlap on a loaded machine
	t.Cleanup(w.llm.Close)
	three := reviewBigPRIn(t, w, 8_000, bigPR{concurrency: "3"})
	if one.chunks < 4 || three.chunks != one.chunks || one.mostInFlight != 1 || three.mostInFlight != 3 {
		t.Fatalf("%d chunks (%d one at a time); at most %d requests in flight one at a time, %d three at once",
			three.chunks, one.chunks, one.mostInFlight, three.mostInFlight)
	}
	if got, want := reviewRequests(t, w.llm.Requests()), reviewRequests(t, one.requests); !slices.Equal(got, want) {
		t.Errorf("three at once sent %d review requests that differ from the %d sent one at a time", len(got), len(want))
	}
	if three.run.outputs["review_status"] != "clean" || !strings.Contains(three.run.summary, "reviewed: no open blocking findings") {
		t.Errorf("outputs %v\n%s", three.run.outputs, three.run.summary)
	}
}
