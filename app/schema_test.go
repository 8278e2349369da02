package app

import (
	"testing"

	"github.com/review-my-code-bot/rmc/internal/golden"
	"github.com/review-my-code-bot/rmc/llm"
)

// TestInjectionSchema pins the injection check's schema, generated from its
// type (the bytes of the hand-written one it replaced), in
// testdata/schema/injection.json.
func TestInjectionSchema(t *testing.T) {
	t.Parallel()
	s, err := llm.SchemaFor[injectionVerdict]()
	if err != nil || s.Name() != "verdict" {
		t.Fatalf("schema = %v %v, want verdict", s, err)
	}
	golden.Assert(t, "schema/injection.json", string(s.JSON()))
}
