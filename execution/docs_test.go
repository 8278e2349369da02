package execution

import (
	"os"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/internal/golden"
	"github.com/review-my-code-bot/rmc/state"
)

// docs/commands.md shows what `@rmc-bot help` answers, as the code writes
// it from its table of commands (go test ./execution -run TestDocsHelp
// -update rewrites it).
func TestDocsHelp(t *testing.T) {
	t.Parallel()
	golden.AssertBlock(t, "../docs/commands.md", "help: the answer to @rmc-bot help", "```markdown\n"+helpText()+"\n```\n")
}

// The commands table of docs/commands.md has a row for each command the
// code reads.
func TestDocsCommandsTable(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("../docs/commands.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range state.Commands {
		if !strings.Contains(string(raw), "\n| `"+string(c)+"`") {
			t.Errorf("docs/commands.md has no row for the %s command", c)
		}
	}
}
