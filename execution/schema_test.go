package execution

import (
	"testing"

	"github.com/review-my-code-bot/rmc/llm"
)

// TestAnswerSchemas pins the schemas the model sees for execution's
// answers, generated from their types: the same bytes as the hand-written
// schemas they replaced, so prompts (and their cached prefixes) do not
// change.
func TestAnswerSchemas(t *testing.T) {
	t.Parallel()
	check := func(s *llm.Schema, err error, name, want string) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		if s.Name() != name || string(s.JSON()) != want {
			t.Errorf("schema %q = %s, want %q %s", s.Name(), s.JSON(), name, want)
		}
	}
	s, err := llm.SchemaFor[verdict]()
	check(s, err, "verdict", `{"additionalProperties":false,"properties":{`+
		`"kind":{"enum":["acknowledgment","question","out-of-scope","dispute"],"type":"string"},"reason":{"type":"string"},"reply":{"type":"string"},`+
		`"verdict":{"enum":["concede","maintain","escalate","none"],"type":"string"}},"required":["kind","verdict","reply","reason"],"type":"object"}`)
	s, err = llm.SchemaFor[fixAnswer]()
	check(s, err, "verdict", `{"additionalProperties":false,"properties":{"fixed":{"type":"boolean"},"reason":{"type":"string"}},"required":["fixed","reason"],"type":"object"}`)
	s, err = llm.SchemaFor[intentAnswer]()
	check(s, err, "intent", `{"additionalProperties":false,"properties":{"intent":{"enum":["question","review","full-review"],"type":"string"}},"required":["intent"],"type":"object"}`)
	if err := s.Validate(`{"intent":"approve"}`); err == nil {
		t.Errorf("an intent outside the enum validates")
	}
}
