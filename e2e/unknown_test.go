package e2e

import (
	"strings"
	"testing"
)

// A misspelt input, or a misspelt key of .github/rmc.yml, is not silently
// ignored: the run warns, naming the nearest known name, and goes on. A
// name made to look like a workflow command stays inside its warning.
func TestUnknownInputsAndKeysWarn(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.push("1111111111111111111111111111111111111111", patchV1)
	cfg := "langauge: French\nmax_inline_comments: 7\n"
	w.setConfig(cfg, cfg)
	w.inputs["modle"] = "some/model"
	w.inputs["problem_score_treshold"] = "7"
	w.inputs["x%0A::error::forged"] = "1"
	w.inputs["y\n::error::forged"] = "1"
	w.scriptReview(true)
	r := w.run(w.prEvent("opened"))
	if r.code != 0 {
		t.Fatalf("exit %d: unknown names must not fail the run\n%s", r.code, r.log)
	}
	for _, want := range []string{
		"::warning::unknown input \"modle\" is ignored (did you mean model?)",
		"::warning::unknown input \"problem_score_treshold\" is ignored (did you mean problem_score_threshold?)",
		"::warning::.github/rmc.yml: unknown key \"langauge\" is ignored (did you mean language?)",
		"::warning::unknown input \"x%250a::error::forged\" is ignored;",
	} {
		if !strings.Contains(r.log, want) {
			t.Errorf("the log lacks %q:\n%s", want, r.log)
		}
	}
	for _, line := range strings.Split(r.log, "\n") {
		if strings.HasPrefix(line, "::error::") || strings.Contains(line, "\n::error::forged") {
			t.Errorf("a name wrote a workflow command of its own: %q", line)
		}
	}
	if !strings.Contains(r.summary, "| `max_inline_comments` | 7 | `.github/rmc.yml` |") {
		t.Errorf("the file's known keys no longer apply:\n%s", r.summary)
	}
}
