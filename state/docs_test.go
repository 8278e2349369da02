package state_test

import (
	"testing"

	"github.com/review-my-code-bot/rmc/internal/golden"
	"github.com/review-my-code-bot/rmc/state"
)

// docs/commands.md shows what `@rmc-bot help` answers, as the code writes
// it from the command registry (go test ./state -run TestDocsHelp -update
// rewrites it). It runs here, where only the program's own commands are
// registered: a test binary that registers one of its own (execution's)
// would show it.
func TestDocsHelp(t *testing.T) {
	t.Parallel()
	golden.AssertBlock(t, "../docs/commands.md", "help: the answer to @rmc-bot help", "```markdown\n"+state.HelpText()+"\n```\n")
}
