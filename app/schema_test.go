package app

import (
	"testing"

	"github.com/review-my-code-bot/rmc/llm"
)

// TestInjectionSchema pins the injection check's schema, generated from its
// type (the bytes of the hand-written one it replaced).
func TestInjectionSchema(t *testing.T) {
	t.Parallel()
	s, err := llm.SchemaFor[injectionVerdict]()
	const want = `{"additionalProperties":false,"properties":{"injection":{"type":"boolean"},"reason":{"type":"string"}},"required":["injection","reason"],"type":"object"}`
	if err != nil || s.Name() != "verdict" || string(s.JSON()) != want {
		t.Fatalf("schema = %v %v, want verdict %s", s, err, want)
	}
}
