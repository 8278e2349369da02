package version

import (
	"os"
	"regexp"
	"testing"
)

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
