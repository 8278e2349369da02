package execution

import (
	"testing"

	"github.com/review-my-code-bot/rmc/internal/golden"
	"github.com/review-my-code-bot/rmc/llm"
)

// TestAnswerSchemas pins the schemas the model sees for execution's
// answers, generated from their types: the same bytes as the hand-written
// schemas they replaced, so prompts (and their cached prefixes) do not
// change. The bytes are in testdata/schema/.
func TestAnswerSchemas(t *testing.T) {
	t.Parallel()
	check := func(s *llm.Schema, err error, name, file string) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		if s.Name() != name {
			t.Errorf("schema %q, want %q", s.Name(), name)
		}
		golden.Assert(t, "schema/"+file, string(s.JSON()))
	}
	s, err := llm.SchemaFor[verdict]()
	check(s, err, "verdict", "dispute.json")
	s, err = llm.SchemaFor[fixAnswer]()
	check(s, err, "verdict", "fix.json")
	s, err = llm.SchemaFor[intentAnswer]()
	check(s, err, "intent", "intent.json")
	s2, err2 := llm.SchemaFor[injectionVerdict]()
	check(s2, err2, "verdict", "injection.json")
	if err := s.Validate(`{"intent":"approve"}`); err == nil {
		t.Errorf("an intent outside the enum validates")
	}
}
