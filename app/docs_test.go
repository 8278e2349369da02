package app

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/internal/golden"
)

// docsRunNames are the run kinds as docs/how-it-works.md names them.
var docsRunNames = map[string]string{"question": "question", "auto review": "automatic review", "dispute": "dispute"}

// docsSize is a PR size as the docs' table heads it.
func docsSize(s readSize) string {
	out := fmt.Sprintf("%s/%s", commas(s.comments), commas(s.threads))
	if s.maxReplies > 1 {
		out += fmt.Sprintf(", %d–%d replies a thread", s.minReplies, s.maxReplies)
	}
	return out
}

// commas writes 1000 as 1,000.
func commas(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// readsTable is the table of docs/how-it-works.md: read requests per run
// kind and PR size, and what their answers weighed, measured as
// BenchmarkReads measures them.
func readsTable(tb testing.TB) string {
	var b strings.Builder
	b.WriteString("| run (comments/threads) |")
	for _, s := range readSizes {
		fmt.Fprintf(&b, " %s |", docsSize(s))
	}
	b.WriteString("\n|---|" + strings.Repeat("---:|", len(readSizes)) + "\n")
	for _, kind := range readRuns {
		fmt.Fprintf(&b, "| %s |", docsRunNames[kind.name])
		for _, s := range readSizes {
			c, _, _ := measureRun(tb, kind, s)
			fmt.Fprintf(&b, " %d (%s) |", c.reads, weight(c.bytes))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// weight writes a number of bytes as the docs do: 40 kB, 1.7 MB.
func weight(bytes int) string {
	if bytes < 1e6 {
		return fmt.Sprintf("%.0f kB", float64(bytes)/1e3)
	}
	return fmt.Sprintf("%.1f MB", float64(bytes)/1e6)
}

// reviewWrites is how many GitHub writes an automatic review with that
// many findings makes, as BenchmarkReview counts them.
func reviewWrites(tb testing.TB, findings int) int {
	w := newBenchWorld(tb, 10*findings, findings)
	before := w.gh.WriteCount()
	w.run(tb, pushEv)
	return w.gh.WriteCount() - before
}

// The reads table and the writes of docs/how-it-works.md are what the code
// does now (go test ./app -run TestDocsReadsAndWrites -update rewrites
// them). Not under -short: it runs the action fourteen times, on pull
// requests of up to 1,000 comments.
func TestDocsReadsAndWrites(t *testing.T) {
	if testing.Short() {
		t.Skip("fourteen runs of the action, up to 1,000 comments each")
	}
	t.Parallel()
	w40, w80 := reviewWrites(t, 40), reviewWrites(t, 80)
	writes := fmt.Sprintf("an automatic review with 40 findings is %d writes, one with 80 is %d", w40, w80)
	if w40 == w80 {
		writes = fmt.Sprintf("an automatic review with 40 or 80 findings is %d writes", w40)
	}
	got := readsTable(t) + "\nWrites do not grow with a review's size: " + writes + ",\nits inline comments posted with the review in one request (`go test ./app -run '^$' -bench\n'Review/' -benchtime 1x` counts them too).\n"
	const doc, key = "../docs/how-it-works.md", "reads: go test ./app -run TestDocsReadsAndWrites -update"
	if golden.Updating() || !sameWithinNoise(golden.Block(t, doc, key), got) {
		golden.AssertBlock(t, doc, key, got)
	}
}

var weights = regexp.MustCompile(`(\d+(?:\.\d)?) (kB|MB)`)

// sameWithinNoise reports whether two renderings of the table differ only
// in the weights, each by at most 1% or one unit of its last digit: a
// response carries the run's timestamps, whose length varies by a few
// bytes (a time's trailing zeros are dropped), which can move a rounded
// weight across a boundary. Counts must be equal.
func sameWithinNoise(doc, got string) bool {
	if weights.ReplaceAllString(doc, "W") != weights.ReplaceAllString(got, "W") {
		return false
	}
	a, b := weights.FindAllStringSubmatch(doc, -1), weights.FindAllStringSubmatch(got, -1)
	for i := range a {
		x, _ := strconv.ParseFloat(a[i][1], 64)
		y, _ := strconv.ParseFloat(b[i][1], 64)
		unit := 1.0
		if strings.Contains(a[i][1], ".") {
			unit = 0.1
		}
		if a[i][2] != b[i][2] || math.Abs(x-y) > max(unit, x/100)+1e-9 {
			return false
		}
	}
	return true
}

func TestSameWithinNoise(t *testing.T) {
	t.Parallel()
	const doc = "| question | 3 (628 kB) | 7 (1.7 MB) |\n"
	for got, want := range map[string]bool{
		"| question | 3 (628 kB) | 7 (1.7 MB) |\n": true,
		"| question | 3 (629 kB) | 7 (1.6 MB) |\n": true,
		"| question | 3 (640 kB) | 7 (1.7 MB) |\n": false,
		"| question | 4 (628 kB) | 7 (1.7 MB) |\n": false,
		"| question | 3 (628 kB) | 7 (1.9 MB) |\n": false,
		"| question | 3 (628 MB) | 7 (1.7 MB) |\n": false,
	} {
		if sameWithinNoise(doc, got) != want {
			t.Errorf("sameWithinNoise(%q, %q) = %v", doc, got, !want)
		}
	}
}
