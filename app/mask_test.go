package app_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/app"
	"github.com/review-my-code-bot/rmc/outcome"
)

// extra_headers carries a gateway's credentials: each value is masked
// before anything else is logged, and a failure message does not show it.
func TestExtraHeaderValuesAreMasked(t *testing.T) {
	t.Parallel()
	const secret = "gw-secret-value-9"
	var out bytes.Buffer
	vars := map[string]string{"INPUT_LLM_API_KEY": "sk-local-key-123", "INPUT_PROBLEM_SCORE_THRESHOLD": "0",
		"INPUT_EXTRA_HEADERS": `{"X-Gateway-Key": "` + secret + `", "Authorization": "` + secret + `"}`}
	code := app.Run(context.Background(), envOf(vars, &out), app.RealGitHub)
	lines := strings.Split(out.String(), "\n")
	if code != outcome.ExitUsage || lines[0] == "" {
		t.Fatalf("exit %d, output:\n%s", code, out.String())
	}
	masked := false
	for _, l := range lines {
		switch {
		case l == "::add-mask::"+secret:
			masked = true
		case strings.Contains(l, secret):
			t.Errorf("the header value is shown (masked before: %v): %q", masked, l)
		}
	}
	if !masked || !strings.Contains(out.String(), "extra_headers may not set Authorization") {
		t.Errorf("masked %v; output:\n%s", masked, out.String())
	}
}
