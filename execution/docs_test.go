package execution

import (
	"testing"

	"github.com/review-my-code-bot/rmc/internal/golden"
	"github.com/review-my-code-bot/rmc/state"
)

// docs/commands.md shows what `@rmc-bot help` answers, as the code writes
// it from its table of commands (go test ./execution -run TestDocsHelp
// -update rewrites it).
func TestDocsHelp(t *testing.T) {
	t.Parallel()
	golden.AssertBlock(t, "../docs/commands.md", "help: the answer to @rmc-bot help", "```markdown\n"+state.HelpText()+"\n```\n")
}
