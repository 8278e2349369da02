package review

import (
	"context"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/llm"
)

// The engine reviews with the defaults as they are, and refuses settings
// it cannot review with before any request: a zero Settings (a caller that
// forgot DefaultSettings) would otherwise report every finding.
func TestSettingsCheck(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		s    Settings
		want string // "" = valid
	}{
		"defaults":               {DefaultSettings(), ""},
		"both thresholds at 10":  {settings(func(s *Settings) { s.ProblemThreshold, s.BlockingThreshold = 10, 10 }), ""},
		"one pass":               {settings(func(s *Settings) { s.Passes = []string{"security"} }), ""},
		"zero":                   {Settings{}, "problem threshold 0 is not a score from 1 to 10"},
		"problem over 10":        {settings(func(s *Settings) { s.ProblemThreshold, s.BlockingThreshold = 11, 11 }), "problem threshold 11"},
		"blocking under problem": {settings(func(s *Settings) { s.ProblemThreshold = 6 }), "blocking threshold 5 is not a score from the problem threshold to 10"},
		"blocking over 10":       {settings(func(s *Settings) { s.BlockingThreshold = 11 }), "blocking threshold 11"},
		"negative retries":       {settings(func(s *Settings) { s.Retries = -1 }), "a count is negative"},
		"negative inline":        {settings(func(s *Settings) { s.MaxInline = -1 }), "a count is negative"},
		"negative window":        {settings(func(s *Settings) { s.ContextTokens = -1 }), "a count is negative"},
		"negative ceiling":       {settings(func(s *Settings) { s.MaxRunTokens = -1 }), "a count is negative"},
		"no pass":                {settings(func(s *Settings) { s.Passes = nil }), "no pass is enabled"},
		"unknown pass":           {settings(func(s *Settings) { s.Passes = []string{"atomic", "style"} }), `"style" is not a pass`},
		"a pass by another case": {settings(func(s *Settings) { s.Passes = []string{"Security"} }), "no pass is enabled"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			err := tc.s.Check()
			if (err == nil) != (tc.want == "") || err != nil && !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Check() = %v, want %q", err, tc.want)
			}
			s := &scripted{}
			_, err = Run(context.Background(), s, Input{Anchor: files(t)}, Options{Settings: tc.s}, nil)
			if (err == nil) != (tc.want == "") || len(s.prompts) > 0 && tc.want != "" {
				t.Errorf("Run: %v after %d requests", err, len(s.prompts))
			}
		})
	}
}

func TestPassNamesAndEnabledPasses(t *testing.T) {
	t.Parallel()
	if got := strings.Join(PassNames(), ","); got != "atomic,structure,security" {
		t.Errorf("PassNames() = %s", got)
	}
	var got []string
	for _, p := range settings(func(s *Settings) { s.Passes = []string{"security", "atomic"} }).EnabledPasses() {
		got = append(got, p.Name)
	}
	if strings.Join(got, ",") != "atomic,security" {
		t.Errorf("EnabledPasses() = %v, want the fixed order", got)
	}
}

// The ceiling is max_run_tokens over what the run spent; without either
// there is none.
func TestSettingsCeiling(t *testing.T) {
	t.Parallel()
	spent := func() llm.Usage { return llm.Usage{PromptTokens: 900, CompletionTokens: 100} }
	capped := settings(func(s *Settings) { s.MaxRunTokens = 1_500 })
	if c := capped.Ceiling(spent); c.Max != 1_500 || !c.Over(501) || c.Over(500) {
		t.Errorf("ceiling %+v: over 501 %v, over 500 %v", c, c.Over(501), c.Over(500))
	}
	if c := capped.Ceiling(nil); c.Over(1 << 30) {
		t.Error("a ceiling with no usage to count stopped the run")
	}
	if c := DefaultSettings().Ceiling(spent); c.Over(1 << 30) {
		t.Error("max_run_tokens 0 stopped the run")
	}
}
