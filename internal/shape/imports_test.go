package shape

import (
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/review-my-code-bot/rmc"

// wiring are the packages that read settings and hand them down: only
// they import config. Every package below them receives typed values.
var wiring = []string{module + "/app", module + "/cmd/"}

// configUsers lists, for each package of the module that is not wiring or
// config itself, whether config is among its dependencies (go list -deps).
func configUsers(t *testing.T, root string) []string {
	t.Helper()
	cmd := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Deps " "}}`, "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var bad []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, deps, _ := strings.Cut(line, " ")
		if pkg == module+"/config" || isWiring(pkg) {
			continue
		}
		for _, d := range strings.Fields(deps) {
			if d == module+"/config" {
				bad = append(bad, pkg)
			}
		}
	}
	return bad
}

func isWiring(pkg string) bool {
	for _, w := range wiring {
		if pkg == w || strings.HasSuffix(w, "/") && strings.HasPrefix(pkg, w) {
			return true
		}
	}
	return false
}

// No package below the wiring depends on config: settings reach them as
// typed values (review.Settings, execution.Options, summary.Settings).
func TestOnlyTheWiringImportsConfig(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs go list over the module")
	}
	for _, pkg := range configUsers(t, moduleRoot(t)) {
		t.Errorf("%s depends on config: give it the typed settings it needs instead", pkg)
	}
}
