package llm

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/llm/fakellm"
)

// The session-reuse scenario: a ~8k-token system prompt of repository
// context, then two tasks, a short question and a longer review. It is
// run three ways:
//
//   - shared: one session, as a run uses it;
//   - fresh-warm: a new session per task, on an endpoint that has already
//     seen the system prompt (an identical prefix is cached across sessions);
//   - alone: each task on an endpoint that has seen nothing, i.e. the
//     task's stand-alone prompt with no cache help.

const reuseContextTokens = 8000

func repoContext(tokens int) string {
	var b strings.Builder
	for i := 0; b.Len() < tokens*4; i++ {
		fmt.Fprintf(&b, "internal/pkg%02d/file%03d.go: func Handler%03d(ctx context.Context, req *Request) (*Response, error) validates req and stores it\n", i%17, i, i)
	}
	return b.String()
}

func reviewPrompt() string {
	var b strings.Builder
	b.WriteString("Review this diff for bugs and risky changes.\n\ndiff --git a/internal/pkg03/file042.go b/internal/pkg03/file042.go\n")
	for i := 0; b.Len() < 12000; i++ {
		fmt.Fprintf(&b, "+\tif err := store.Put(ctx, key%d, value%d); err != nil { return fmt.Errorf(\"put %%d: %%w\", %d, err) }\n", i, i, i)
	}
	return b.String()
}

var reuseTasks = []struct{ task, prompt string }{
	{"question", "Where is the retry policy for outgoing webhooks configured, and what is its default?"},
	{"review", reviewPrompt()},
}

func newReuseFake(tb testing.TB) *fakellm.Server {
	f := newFake(tb, fakellm.Config{}) // OpenAI's thresholds: 1024 tokens, blocks of 128
	f.AddRule(fakellm.Rule{LastUser: "retry policy", Reply: fakellm.Reply{Text: strings.Repeat("The policy lives in internal/pkg05/file122.go. ", 20)}})
	f.AddRule(fakellm.Rule{LastUser: "Review this diff", Reply: fakellm.Reply{Text: strings.Repeat("Line 12: the error from store.Put loses the key. ", 30)}})
	return f
}

// runReuse returns the usage of each task under one of the three setups.
func runReuse(tb testing.TB, mode string) []Usage {
	ctx := context.Background()
	system := "You review pull requests of this repository.\n\n" + repoContext(reuseContextTokens)
	var out []Usage
	ask := func(s *Session, i int) {
		reply, err := s.Ask(ctx, Label{Task: reuseTasks[i].task}, reuseTasks[i].prompt)
		if err != nil {
			tb.Fatalf("%s: task %s: %v", mode, reuseTasks[i].task, err)
		}
		out = append(out, reply.Usage)
	}
	switch mode {
	case "shared":
		s := newTestClient(tb, newReuseFake(tb), nil).NewSession(system, nil)
		for i := range reuseTasks {
			ask(s, i)
		}
	case "fresh-warm":
		c := newTestClient(tb, newReuseFake(tb), nil)
		for i := range reuseTasks {
			ask(c.NewSession(system, nil), i)
		}
	case "alone":
		for i := range reuseTasks {
			ask(newTestClient(tb, newReuseFake(tb), nil).NewSession(system, nil), i)
		}
	default:
		tb.Fatalf("unknown mode %q", mode)
	}
	return out
}

// BenchmarkSessionReuse reports, per task, the uncached prompt tokens of
// each setup and the stand-alone prompt size. Run with
//
//	go test ./llm -run '^$' -bench SessionReuse -benchtime 3x
func BenchmarkSessionReuse(b *testing.B) {
	var results map[string][]Usage
	for b.Loop() {
		results = map[string][]Usage{}
		for _, mode := range []string{"shared", "fresh-warm", "alone"} {
			results[mode] = runReuse(b, mode)
		}
	}
	for _, mode := range []string{"shared", "fresh-warm", "alone"} {
		for i, u := range results[mode] {
			b.ReportMetric(float64(u.Uncached()), fmt.Sprintf("%s-%s-uncached-tok", mode, reuseTasks[i].task))
		}
	}
	for i, u := range results["alone"] {
		b.ReportMetric(float64(u.PromptTokens), fmt.Sprintf("standalone-%s-prompt-tok", reuseTasks[i].task))
	}
	for i, u := range results["shared"] {
		b.ReportMetric(float64(u.PromptTokens), fmt.Sprintf("shared-%s-prompt-tok", reuseTasks[i].task))
	}
}

// TestSessionReuseSavesUncachedTokens holds the benchmark's claim: in the
// shared session the second task sends less than half of its stand-alone
// prompt uncached.
func TestSessionReuseSavesUncachedTokens(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		mode string
		// maxShare bounds each task's uncached tokens as a share of its
		// stand-alone prompt.
		maxShare [2]float64
	}{
		"shared session":            {mode: "shared", maxShare: [2]float64{1, 0.5}},
		"fresh session, warm cache": {mode: "fresh-warm", maxShare: [2]float64{1, 0.5}},
		"alone, nothing cached":     {mode: "alone", maxShare: [2]float64{1, 1}},
	}
	alone := runReuse(t, "alone")
	for i, u := range alone {
		if u.CachedTokens != 0 || u.PromptTokens < reuseContextTokens {
			t.Fatalf("stand-alone task %d usage = %+v, want a full, uncached prompt", i, u)
		}
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got := runReuse(t, tc.mode)
			for i, u := range got {
				limit := tc.maxShare[i] * float64(alone[i].PromptTokens)
				if float64(u.Uncached()) > limit {
					t.Errorf("task %s: %d uncached tokens, want at most %.0f (stand-alone prompt %d)", reuseTasks[i].task, u.Uncached(), limit, alone[i].PromptTokens)
				}
			}
		})
	}
}

// TestJSONTaskKeepsPrefix shows why Options.PromptJSON exists: a strict
// response_format schema is part of the cached prefix, so a JSON task after
// plain tasks misses the cache, while a schema in the prompt keeps it.
func TestJSONTaskKeepsPrefix(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		promptJSON bool
		wantCached bool
	}{
		"strict response_format": {promptJSON: false, wantCached: false},
		"schema in the prompt":   {promptJSON: true, wantCached: true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := newReuseFake(t)
			f.AddRule(fakellm.Rule{LastUser: "verdict", Reply: fakellm.Reply{Text: goodJSON}})
			s := newTestClient(t, f, func(o *Options) { o.PromptJSON = tc.promptJSON }).NewSession(repoContext(2000), nil)
			ctx := context.Background()
			if _, err := s.Ask(ctx, Label{Task: "question"}, reuseTasks[0].prompt); err != nil {
				t.Fatal(err)
			}
			_, reply, err := AskJSON[verdict](ctx, s, Label{Task: "review"}, "Give your verdict.")
			if err != nil {
				t.Fatal(err)
			}
			if got := reply.Usage.CachedTokens > 0; got != tc.wantCached {
				t.Errorf("JSON task usage = %+v, cached = %v, want %v", reply.Usage, got, tc.wantCached)
			}
		})
	}
}
