package version

import (
	"os"
	"regexp"
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

// The image's build sets the version through this package, the one
// mechanism every binary reads: a -X flag naming any other variable would
// set nothing, silently.
func TestDockerfileSetsThisVersion(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("../../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	flags := regexp.MustCompile(`-X ([^ "=]+)=`).FindAllStringSubmatch(string(raw), -1)
	if len(flags) == 0 {
		t.Fatal("the Dockerfile sets no version")
	}
	for _, f := range flags {
		if f[1] != "github.com/review-my-code-bot/rmc/internal/version.set" {
			t.Errorf("the Dockerfile sets %s; the version is internal/version.set", f[1])
		}
	}
}

func TestStringFallsBack(t *testing.T) {
	old := set
	t.Cleanup(func() { set = old })
	set = "v1.2.3"
	if got := String(); got != "v1.2.3" {
		t.Errorf("String() = %q with the version set", got)
	}
	set = ""
	if got := String(); got == "" {
		t.Error("String() is empty without a set version")
	}
}
