package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/internal/golden"
	"github.com/review-my-code-bot/rmc/llm/fakellm"
)

func runDemo(t *testing.T, opts options) string {
	t.Helper()
	if opts.width == 0 {
		opts.width = 80
	}
	var out bytes.Buffer
	if err := demo(context.Background(), &out, opts); err != nil {
		t.Fatalf("demo: %v\n%s", err, out.String())
	}
	return out.String()
}

// The whole demo, end to end: three runs of the real pipeline against the
// fakes, and what a person sees afterwards. The sample is deterministic
// (the fake's clock and ids, the scripted model), so the transcript is
// pinned byte for byte.
func TestTranscript(t *testing.T) {
	t.Parallel()
	out := runDemo(t, options{})
	golden.Assert(t, "transcript.golden", out)
	for what, want := range map[string][]string{
		"the review, requesting changes": {"@github-actions[bot] requested changes:", "🔴 review-my-code-bot: 1 blocking"},
		"the inline finding": {"limiter/bucket.go:28\n", "  28 +     if b.tokens >= 0 {\n",
			"🔴 Off-by-one: an empty bucket still lets a request through", "bug · score 8/10 · blocking"},
		"the suggestion":      {"Suggested change:\n    -     if b.tokens >= 0 {\n    +     if b.tokens > 0 {\n"},
		"the question":        {"@alice commented:\n  @rmc-bot why refill inside Allow"},
		"the answer":          {"Refilling lazily costs nothing while a client is idle.", "Answered by review-my-code-bot (demo/scripted-model) for @alice."},
		"the dispute":         {"@alice replied on limiter/bucket.go:28:\n  This is fine:"},
		"the dispute's reply": {"@github-actions[bot] replied on limiter/bucket.go:28:\n  I read `Allow` again", "I am keeping this finding open on this code"},
		"the merge gate": {"Status rmc/merge-gate on 1111111: ✗ failure — 1 open blocking finding(s)",
			"Status rmc/merge-gate on 1111111: ✗ failure (unchanged)"},
		"each run's job":   {"the workflow runs on pull_request.opened: the job fails (exit 1)", "the workflow runs on issue_comment.created: the job succeeds"},
		"the job summary":  {"Job summary", "pull_request.opened on acme/gateway#1", "🔍 review `review-auto-1111111`", "🔴 Merge gate: failure — 1 open blocking finding(s)"},
		"later summaries":  {"⚖️ dispute `dispute-", "Result: ✅ dispute from @alice: maintained (DISPUTED)"},
		"a summary's rows": {"Tokens (prompt / cached / out): "},
	} {
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("the transcript lacks %s: %q", what, w)
			}
		}
	}
	assertPlain(t, out)
}

// assertPlain checks that nothing meant for GitHub's renderer or the
// runner reaches the terminal.
func assertPlain(t *testing.T, out string) {
	t.Helper()
	for i, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "::") {
			t.Errorf("line %d is a workflow command: %q", i+1, line)
		}
		if line != strings.TrimRight(line, " ") {
			t.Errorf("line %d ends in spaces: %q", i+1, line)
		}
	}
	for _, bad := range []string{"<details", "</details>", "<summary", "<sub>", "rmcoc", "rmc state", "```", "\x1b",
		"127.0.0.1", ghToken, llmKey, `"type":`} {
		if strings.Contains(out, bad) {
			t.Errorf("the transcript contains %q", bad)
		}
	}
}

func TestBriefTranscript(t *testing.T) {
	t.Parallel()
	out := runDemo(t, options{brief: true})
	golden.Assert(t, "transcript_brief.golden", out)
	if n := strings.Count(out, "Job summary"); n != 1 {
		t.Errorf("brief transcript shows %d job summaries, want the first run's only", n)
	}
	for _, small := range []string{"Answered by review-my-code-bot", "Reply in this thread to dispute"} {
		if strings.Contains(out, small) {
			t.Errorf("brief transcript shows the small print %q", small)
		}
	}
	for _, want := range []string{"Off-by-one", "Refilling lazily", "I read `Allow` again", "✗ failure", "Merge gate: failure — 1 open blocking"} {
		if !strings.Contains(out, want) {
			t.Errorf("brief transcript lacks %q", want)
		}
	}
	assertPlain(t, out)
}

// The docs' transcript is the brief demo's output (go test -update rewrites
// it), and the README's excerpt is its review's finding and merge gate.
func TestDocsTranscript(t *testing.T) {
	t.Parallel()
	out := runDemo(t, options{brief: true})
	golden.AssertBlock(t, "../../docs/demo.md", "demo-transcript: go run ./cmd/demo --brief", "```text\n"+out+"```\n")
	golden.AssertBlock(t, "../../README.md", "demo-excerpt: go run ./cmd/demo --brief", "```text\n"+excerpt(t, out)+"```\n")
	golden.AssertBlock(t, "../../docs/cost.md", "demo-tokens: go run ./cmd/demo --brief", tokenLine(t, out))
}

// excerpt is the part of the transcript the README shows: the review's
// inline finding with its suggestion, and the merge gate it sets.
func excerpt(t *testing.T, out string) string {
	t.Helper()
	return linesBetween(t, out, "  limiter/bucket.go:28", "    +     if b.tokens > 0") + "\n" +
		linesBetween(t, out, "Status rmc/merge-gate on 1111111", "  or reply in the thread")
}

// linesBetween is the first run of whole lines from one starting with
// first to the next one starting with last, both included.
func linesBetween(t *testing.T, out, first, last string) string {
	t.Helper()
	lines := strings.SplitAfter(out, "\n")
	for i, l := range lines {
		if !strings.HasPrefix(l, first) {
			continue
		}
		for j := i; j < len(lines); j++ {
			if strings.HasPrefix(lines[j], last) {
				return strings.Join(lines[i:j+1], "")
			}
		}
	}
	t.Fatalf("the transcript has no lines from %q to %q", first, last)
	return ""
}

var (
	addedLines   = regexp.MustCompile(`\(added, \+(\d+) −0\)`)
	reviewTokens = regexp.MustCompile(`(?s)🔍 review .*?Tokens \(prompt / cached / out\): (\d+) / (\d+) / (\d+)`)
)

// tokenLine is the sentence of docs/cost.md about what the demo's review
// spent, from the review task's row of the job summary.
func tokenLine(t *testing.T, out string) string {
	t.Helper()
	lines, tokens := addedLines.FindStringSubmatch(out), reviewTokens.FindStringSubmatch(out)
	if lines == nil || tokens == nil {
		t.Fatalf("the transcript shows no added file or no review task's tokens:\n%s", out)
	}
	return fmt.Sprintf("The demo's review (a %s-line file, three passes) used %s prompt tokens, %s of them\ncached, and %s completion tokens.\n",
		lines[1], thousands(tokens[1]), thousands(tokens[2]), thousands(tokens[3]))
}

// thousands writes a count as the docs do: 9273 as 9,273.
func thousands(digits string) string {
	for i := len(digits) - 3; i > 0; i -= 3 {
		digits = digits[:i] + "," + digits[i:]
	}
	return digits
}

// --log shows the action's own log as a runner shows it: groups as
// headings, annotations labelled, masks and outputs never.
func TestLogIsPlainText(t *testing.T) {
	t.Parallel()
	out := runDemo(t, options{brief: true, log: true})
	for _, want := range []string{"Action log", "▸ Read acme/gateway#1", "▸ Plan", "    task 1 [review] review-auto-1111111",
		"  error: merge gate: 1 open blocking finding(s) after the automatic review", "▸ Task dispute-"} {
		if !strings.Contains(out, want) {
			t.Errorf("the log lacks %q", want)
		}
	}
	assertPlain(t, out)
}

// With colour, the only escape sequences are the demo's own colours.
func TestColour(t *testing.T) {
	t.Parallel()
	out := runDemo(t, options{color: true, brief: true})
	if !strings.Contains(out, "\x1b[31m✗ failure\x1b[39m") || !strings.Contains(out, "\x1b[1m") {
		t.Errorf("no colours in the coloured transcript:\n%q", out[:200])
	}
	if plain := sgrRe.ReplaceAllString(out, ""); strings.Contains(plain, "\x1b") {
		t.Errorf("an escape sequence other than a colour reached the terminal")
	}
}

// A run that does not do what the sample is built for stops the demo with
// its log, rather than showing less than it claims.
func TestDemoFailsLoudly(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		script func(*fakellm.Server)
		want   []string
	}{
		"the model cannot judge the dispute": {
			script: func(m *fakellm.Server) {
				m.AddRule(fakellm.Rule{LastUser: "# Task: answer a reply on your finding", Reply: fakellm.Reply{Error: &fakellm.APIError{Status: 400, Message: "no"}}})
				script(m)
			},
			want: []string{"run 3 (pull_request_review_comment) exited 1, want 0", "error: 1 of 1 task(s) failed"},
		},
		"the review finds nothing to dispute": {
			script: func(m *fakellm.Server) {
				m.AddRule(fakellm.Rule{LastUserRegexp: regexp.MustCompile(`# Task: review pass \d of 3`), Respond: func(r fakellm.Request) fakellm.Reply { return fakellm.ReviewAnswer(r, []finding{}) }})
				script(m)
			},
			want: []string{"run 1 (pull_request) exited 0, want 1"},
		},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			err := demo(context.Background(), io.Discard, options{width: 80, script: tc.script})
			if err == nil {
				t.Fatal("the demo succeeded")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("the error lacks %q:\n%v", w, err)
				}
			}
		})
	}
}

// go test -run '^$' -bench Demo ./cmd/demo: the three runs and the
// transcript, in-process.
func BenchmarkDemo(b *testing.B) {
	for b.Loop() {
		if err := demo(context.Background(), io.Discard, options{width: 80}); err != nil {
			b.Fatal(err)
		}
	}
}
