package config

import (
	"slices"
	"testing"
)

func TestNearest(t *testing.T) {
	t.Parallel()
	known := []string{"model", "language", "problem_score_threshold", "blocking_score_threshold", "passes", "dry_run"}
	for name, want := range map[string]string{
		"modle":                    "model",    // two letters swapped: one edit
		"MODEL":                    "model",    // the runner's capitals
		"langauge":                 "language", // swapped
		"lang":                     "",         // four edits: too far for a typo
		"problem_score_treshold":   "problem_score_threshold",
		"blocking_score_threshold": "blocking_score_threshold",
		"pases":                    "passes",
		"dryrun":                   "dry_run",
		"zzz":                      "",
		"":                         "",
	} {
		if got := Nearest(name, known); got != want {
			t.Errorf("Nearest(%q) = %q, want %q", name, got, want)
		}
	}
}

// The bounds of a typo: edits up to a third of the name (at least two) are
// one; one more is not.
func TestNearestBoundary(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		name, known, want string
	}{
		"two edits in a short name":   {"ab", "xy", "xy"},
		"three edits in a short name": {"abc", "xyz", ""},
		"three edits in nine letters": {"abcdefxyz", "abcdefghi", "abcdefghi"},
		"four edits in nine letters":  {"abcdewxyz", "abcdefghi", ""},
	} {
		if got := Nearest(tc.name, []string{tc.known}); got != tc.want {
			t.Errorf("%s: Nearest(%q, %q) = %q, want %q", name, tc.name, tc.known, got, tc.want)
		}
	}
}

func TestUnknownInputs(t *testing.T) {
	t.Parallel()
	got := UnknownInputs([]string{
		"INPUT_MODEL=x", "INPUT_MODLE=y", "PATH=/bin", "GITHUB_TOKEN=t", "INPUT_LLM_API_KEY=k",
		"INPUT_ENABLE_WEBB=true", "INPUT_SOMETHING_ELSE_ENTIRELY=1", "INPUT_=",
	})
	want := []string{
		`unknown input "" is ignored; the inputs are listed in docs/inputs.md`,
		`unknown input "enable_webb" is ignored (did you mean enable_web?); the inputs are listed in docs/inputs.md`,
		`unknown input "modle" is ignored (did you mean model?); the inputs are listed in docs/inputs.md`,
		`unknown input "something_else_entirely" is ignored; the inputs are listed in docs/inputs.md`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("UnknownInputs =\n%q\nwant\n%q", got, want)
	}
	if got := UnknownInputs(nil); got != nil {
		t.Errorf("no environment: %q", got)
	}
}
