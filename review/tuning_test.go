package review

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/diff"
	"github.com/review-my-code-bot/rmc/llm"
)

// passes runs only the named passes, and the first pass that runs carries
// the diff.
func TestPassesOption(t *testing.T) {
	t.Parallel()
	s := &scripted{byPass: map[int][]Finding{1: {f(12, "one", 7)}, 2: {f(13, "two", 7)}, 3: {f(14, "three", 7)}}}
	r, err := Run(context.Background(), s, Input{Anchor: files(t)}, options(func(s *Settings) { s.Passes = []string{"security", "structure"} }), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.prompts) != 2 || !strings.Contains(s.prompts[0], "review pass 2 of 3 (structure)") || !strings.Contains(s.prompts[1], "review pass 3 of 3 (security)") {
		t.Fatalf("prompts: %d, %q", len(s.prompts), s.prompts)
	}
	if len(s.blocks) != 1 || !strings.Contains(s.blocks[0], "svc/cache.go") {
		t.Errorf("both passes must share the one chunk: %q", s.blocks)
	}
	if len(r.Findings) != 2 {
		t.Errorf("findings = %+v", r.Findings)
	}
}

// A finding whose pattern a confirmed learning holds, on a path its glob
// matches, is suppressed; elsewhere, with another title, or when no
// maintainer confirmed the learning, it is reported.
func TestLearningsSuppress(t *testing.T) {
	t.Parallel()
	learned := []Learned{
		{ID: "L-1", Fingerprint: PatternFingerprint("Key logged in plain text"), Glob: "svc/**", ConfirmedBy: "bob"},
		{ID: "L-2", Fingerprint: PatternFingerprint("Returns stale value"), Glob: "other/**", ConfirmedBy: "bob"},
		{ID: "L-3", Glob: "**", ConfirmedBy: "bob"},                                // a rule for the prompt: suppresses nothing
		{ID: "L-4", Fingerprint: PatternFingerprint("Unlocked write"), Glob: "**"}, // a hint: not confirmed
	}
	s := &scripted{byPass: map[int][]Finding{1: {f(12, "key  LOGGED in plain text ", 7), f(13, "Returns stale value", 7), f(14, "Unlocked write", 7)}}}
	r, err := Run(context.Background(), s, Input{Anchor: files(t)}, Options{Settings: DefaultSettings(), Learnings: learned}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Suppressed) != 1 || r.Suppressed[0].Learning.ID != "L-1" || len(r.Findings) != 2 {
		t.Errorf("suppressed %+v, findings %+v", r.Suppressed, r.Findings)
	}
}

// metered is scripted, spending a fixed number of tokens per request.
type metered struct {
	scripted
	per, spent int
}

func (m *metered) Sub(block string) llm.JSONAsker { m.scripted.Sub(block); return m }

// AskSchema answers as scripted does, with the tokens spent in the reply's
// usage as the session reports them.
func (m *metered) AskSchema(ctx context.Context, label llm.Label, prompt string, schema *llm.Schema) (llm.Reply, error) {
	m.mu.Lock()
	m.spent += m.per
	m.mu.Unlock()
	reply, err := m.scripted.AskSchema(ctx, label, prompt, schema)
	reply.Usage = llm.Usage{PromptTokens: m.per * 3 / 4, CompletionTokens: m.per - m.per*3/4}
	return reply, err
}

func (m *metered) usage() llm.Usage {
	m.mu.Lock()
	defer m.mu.Unlock()
	return llm.Usage{PromptTokens: m.spent * 3 / 4, CompletionTokens: m.spent - m.spent*3/4}
}

// The ceiling stops the review between requests, before one that would pass
// it, and says what was not reviewed; what was found is kept.
func TestCeilingStopsBetweenPasses(t *testing.T) {
	t.Parallel()
	m := &metered{scripted: scripted{byPass: map[int][]Finding{1: {f(12, "one", 7)}, 2: {f(13, "two", 7)}, 3: {f(14, "three", 7)}}}, per: 10_000}
	r, err := Run(context.Background(), m, Input{Anchor: files(t)}, Options{Settings: settings(func(s *Settings) { s.MaxRunTokens = 25_000 }), Spent: m.usage}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.prompts) != 2 || len(r.Findings) != 2 || r.Partial == nil {
		t.Fatalf("requests %d, findings %+v, partial %+v", len(m.prompts), r.Findings, r.Partial)
	}
	p := r.Partial
	if p.StoppedAt != "pass 3 (security), part 1 of 1" || p.Spent != 20_000 || strings.Join(p.NotCovered, ",") != "svc/cache.go,vendor/x/x.go,gen/api.pb.go,docs/notes.md" {
		t.Errorf("partial = %+v", p)
	}
	if len(r.Reviewed) != 0 || len(r.Unreviewed) != 4 {
		t.Errorf("a file one pass did not see is not reviewed: reviewed %v, unreviewed %v", r.Reviewed, r.Unreviewed)
	}
	if note := p.Note(); !strings.Contains(note, "max_run_tokens (25000 tokens, 20000 spent)") || !strings.Contains(note, "Not reviewed by every pass: `svc/cache.go`, `vendor/x/x.go`") {
		t.Errorf("note = %q", note)
	}
}

// Stopped inside the first pass, the files of the remaining parts were not
// reviewed at all.
func TestCeilingStopsBetweenChunks(t *testing.T) {
	t.Parallel()
	m := &metered{scripted: scripted{byPass: map[int][]Finding{}}, per: 10_000}
	files := []diff.File{bigFile(t, "a.go", 60), bigFile(t, "b.go", 60), bigFile(t, "c.go", 60)}
	// The smallest window: chunks of 2,000 characters, a file each; one
	// chunk at a time, so the stop falls at one place.
	opt := Options{Settings: settings(func(s *Settings) { s.ContextTokens, s.MaxRunTokens, s.Concurrency = 1024, 15_000, 1 }), Spent: m.usage}
	r, err := Run(context.Background(), m, Input{Anchor: files}, opt, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := r.Partial
	// Chunk by chunk: the first chunk had its first pass; the ceiling
	// stopped the review before the second.
	if p == nil || len(m.prompts) != 1 || p.StoppedAt != "pass 2 (structure), part 1 of 3" || len(r.Reviewed) != 0 || len(r.Unreviewed) != 3 {
		t.Errorf("requests %d, partial %+v, reviewed %v, unreviewed %v", len(m.prompts), p, r.Reviewed, r.Unreviewed)
	}
}

// No ceiling, no partial, whatever was spent.
func TestNoCeiling(t *testing.T) {
	t.Parallel()
	m := &metered{per: 1_000_000}
	r, err := Run(context.Background(), m, Input{Anchor: files(t)}, Options{Settings: DefaultSettings(), Spent: m.usage}, nil)
	if err != nil || r.Partial != nil || len(m.prompts) != 3 {
		t.Errorf("err %v, partial %+v, requests %d", err, r.Partial, len(m.prompts))
	}
}

func TestPartialNoteQuotesPaths(t *testing.T) {
	t.Parallel()
	var many []string
	for i := range 25 {
		many = append(many, fmt.Sprintf("f%d.go", i))
	}
	p := &Partial{Max: 10, Spent: 9, StoppedAt: "pass 1 (atomic), part 2 of 3", NotCovered: append([]string{"a`b\n@x.go"}, many...)}
	note := p.Note()
	if !strings.Contains(note, "`a?b?@x.go`") || !strings.Contains(note, "`f18.go`, and 6 more.") || strings.Contains(note, "f19.go") {
		t.Errorf("note = %q", note)
	}
}
