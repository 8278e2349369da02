package e2e

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// crashWorld seeds the same PR every time: a question, a reply disputing a
// finding (which the bot will concede), a manual review request, and a push
// that owes an automatic review with one blocking finding; the coding agent
// is to be told.
func crashWorld(t *testing.T) (*world, func() (string, []byte)) {
	w := newWorld(t)
	w.inputs["notify_agent"] = "@claude"
	w.push("1111111111111111111111111111111111111111", patchV1)
	w.scriptAnswers()
	w.scriptDisputes()
	w.scriptReview(false, bug(5, "Goroutine leak in Refill", 9))
	_, root := w.finding(3, "Unsynchronized map", 8, true)
	w.gh.AddReply(repoName, w.pr, root, "alice", "mu guards every write")
	w.gh.AddIssueComment(repoName, w.pr, "bob", "@rmc-bot what is the refill rate?")
	w.gh.AddIssueComment(repoName, w.pr, "bob", "@rmc-bot please review")
	w.push("2222222222222222222222222222222222222222", patchV1+"\n+// v2")
	return w, func() (string, []byte) { return w.prEvent("synchronize") }
}

var (
	timestamps = regexp.MustCompile(`\d{4}-\d\d-\d\dT[\d:.]+Z`)
	numbers    = regexp.MustCompile(`\b\d{4,}\b`)
)

func norm(s string) string {
	return numbers.ReplaceAllString(timestamps.ReplaceAllString(digests.ReplaceAllString(s, `"digest": "D"`), "T"), "N")
}

// digests are the state ledger's links: hashes of blocks that hold ids and
// times, so they differ as those do.
var digests = regexp.MustCompile(`"digest": "[0-9a-f]{24}"`)

// prState is the PR as a sorted list of normalized objects: what a person
// sees, minus ids and times.
func prState(w *world) []string {
	var out []string
	for _, c := range w.comments() {
		out = append(out, "comment "+c.Author+": "+norm(c.Body))
	}
	for _, th := range w.gh.Threads(repoName, w.pr) {
		line := fmt.Sprintf("thread %s:%d resolved=%v", th.Path, th.Line, th.Resolved)
		for _, c := range th.Comments {
			line += "\n  " + c.Author + ": " + norm(c.Body)
		}
		out = append(out, line)
	}
	for _, r := range w.gh.Reviews(repoName, w.pr) {
		if r.Body != "" {
			out = append(out, "review "+r.Author+" "+r.State+": "+norm(r.Body))
		}
	}
	reactions := 0
	for _, c := range w.gh.ReviewComments(repoName, w.pr) {
		reactions += len(w.gh.Reactions(c.ID))
	}
	for _, c := range w.comments() {
		reactions += len(w.gh.Reactions(c.ID))
	}
	out = append(out, fmt.Sprintf("reactions %d", reactions), "gate "+w.gate())
	slices.Sort(out)
	return out
}

// Kill the run after its k-th write, for every k, rerun it to completion,
// and require the same PR as one clean run: nothing twice, nothing missing.
func TestKillAtEveryWrite(t *testing.T) {
	t.Parallel()
	clean, event := crashWorld(t)
	before := clean.gh.WriteCount()
	if r := clean.run(event()); r.code != 1 {
		t.Fatalf("clean run: exit %d, want 1 (blocking finding)\n%s", r.code, r.log)
	}
	writes := clean.gh.WriteCount() - before
	want := prState(clean)
	if writes < 8 {
		t.Fatalf("the scenario made only %d writes: %v", writes, clean.gh.Writes())
	}
	t.Logf("clean run: %d writes: %v", writes, clean.gh.Writes())

	for k := 1; k < writes; k++ {
		t.Run(fmt.Sprintf("killed after write %d", k), func(t *testing.T) {
			t.Parallel()
			w, event := crashWorld(t)
			w.killAfter = k
			if r := w.run(event()); r.code != -1 {
				t.Fatalf("the run was not killed (exit %d)\n%s", r.code, r.log)
			}
			w.killAfter = 0
			r := w.run(event())
			if r.code != 1 {
				t.Errorf("rerun: exit %d, want 1\n%s", r.code, r.log)
			}
			got := prState(w)
			if !slices.Equal(got, want) {
				t.Errorf("after a kill at write %d and a rerun, the PR differs from a clean run:\n%s", k, diffLines(want, got))
			}
		})
	}
}

// diffLines shows what is missing (-) and extra (+).
func diffLines(want, got []string) string {
	var b strings.Builder
	count := func(xs []string) map[string]int {
		m := map[string]int{}
		for _, x := range xs {
			m[x]++
		}
		return m
	}
	w, g := count(want), count(got)
	for x, n := range w {
		for i := g[x]; i < n; i++ {
			b.WriteString("- " + x + "\n")
		}
	}
	for x, n := range g {
		for i := w[x]; i < n; i++ {
			b.WriteString("+ " + x + "\n")
		}
	}
	return b.String()
}
