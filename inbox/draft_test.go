package inbox

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

func TestDraftStore(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := testStore(t, Options{})
	open := reviewIn(t, s, StatusOpen)
	if d, err := s.Draft(ctx, open.ID); err != nil || d != nil {
		t.Fatalf("draft before any = %q, %v", d, err)
	}
	for _, body := range []string{`{"a":1}`, `{"a":2}`} {
		if err := s.SaveDraft(ctx, open.ID, []byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	if d, err := s.Draft(ctx, open.ID); err != nil || string(d) != `{"a":2}` {
		t.Fatalf("draft = %q, %v", d, err)
	}
	if err := s.SaveDraft(ctx, "zzzzzzzz", []byte("{}")); kindOf(err) != "not found" {
		t.Errorf("draft of an unknown review = %v", err)
	}
	if err := s.SaveDraft(ctx, open.ID, make([]byte, MaxDraftBytes+1)); kindOf(err) != "invalid input" {
		t.Errorf("oversized draft = %v", err)
	}
	submitted := reviewIn(t, s, StatusSubmitted)
	if err := s.SaveDraft(ctx, submitted.ID, []byte("{}")); kindOf(err) != "invalid state" {
		t.Errorf("draft of a submitted review = %v", err)
	}
	// Cancelling drops the draft; so does compaction for a draft left
	// behind by a crash between the two steps.
	if _, err := s.Cancel(ctx, open.ID); err != nil {
		t.Fatal(err)
	}
	if d, _ := s.Draft(ctx, open.ID); d != nil {
		t.Errorf("the cancelled review keeps its draft %q", d)
	}
	stray := filepath.Join(s.diffDir, submitted.ID+".draft.json")
	if err := os.WriteFile(stray, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Compact(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stray); !os.IsNotExist(err) {
		t.Errorf("compaction kept the draft of a submitted review: %v", err)
	}
}
