package review

import (
	"context"
	"strings"
	"testing"
)

// passes runs only the named passes, and the first pass that runs carries
// the diff.
func TestPassesOption(t *testing.T) {
	t.Parallel()
	s := &scripted{byPass: map[int][]Finding{1: {f(12, "one", 7)}, 2: {f(13, "two", 7)}, 3: {f(14, "three", 7)}}}
	r, err := Run(context.Background(), s, Input{Anchor: files(t)}, Options{Passes: []string{"security", "structure"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.prompts) != 2 || !strings.Contains(s.prompts[0], "review pass 2 of 3 (structure)") || !strings.Contains(s.prompts[1], "review pass 3 of 3 (security)") {
		t.Fatalf("prompts: %d, %q", len(s.prompts), s.prompts)
	}
	if !strings.Contains(s.prompts[0], "The diff:") || !strings.Contains(s.prompts[1], "same diff as in the previous pass") {
		t.Errorf("the first pass run must carry the diff")
	}
	if len(r.Findings) != 2 {
		t.Errorf("findings = %+v", r.Findings)
	}
}

// A finding whose pattern a learning holds, on a path its glob matches, is
// suppressed; elsewhere, or with another title, it is reported.
func TestLearningsSuppress(t *testing.T) {
	t.Parallel()
	learned := []Learned{
		{ID: "L-1", Fingerprint: PatternFingerprint("Key logged in plain text"), Glob: "svc/**"},
		{ID: "L-2", Fingerprint: PatternFingerprint("Returns stale value"), Glob: "other/**"},
		{ID: "L-3", Glob: "**"}, // a rule for the prompt: suppresses nothing
	}
	s := &scripted{byPass: map[int][]Finding{1: {f(12, "key  LOGGED in plain text ", 7), f(13, "Returns stale value", 7), f(14, "Unlocked write", 7)}}}
	r, err := Run(context.Background(), s, Input{Anchor: files(t)}, Options{Learnings: learned}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Suppressed) != 1 || r.Suppressed[0].Learning.ID != "L-1" || len(r.Findings) != 2 {
		t.Errorf("suppressed %+v, findings %+v", r.Suppressed, r.Findings)
	}
}
