package version

import (
	"slices"
	"strings"
	"testing"
)

func TestWords(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct{ in, want []string }{
		"help alone":            {[]string{"help"}, []string{"--help"}},
		"version alone":         {[]string{"version"}, []string{"--version"}},
		"a flag is kept":        {[]string{"--brief"}, []string{"--brief"}},
		"help with more is not": {[]string{"help", "x"}, []string{"help", "x"}},
		"nothing":               {nil, nil},
	} {
		if got := Words(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("%s: Words(%q) = %q, want %q", name, tc.in, got, tc.want)
		}
	}
}

func TestLine(t *testing.T) {
	t.Parallel()
	if got := Line("bench"); !strings.HasPrefix(got, "bench ") || got != "bench "+String() {
		t.Errorf("Line(bench) = %q", got)
	}
}
