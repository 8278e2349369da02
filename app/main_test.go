package app_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/app"
)

// The demo left the action's binary: asking it for one says where it went,
// and the usage no longer offers it.
func TestDemoIsItsOwnCommand(t *testing.T) {
	t.Parallel()
	for args, want := range map[string]struct {
		code int
		out  string
	}{
		"demo": {app.ExitUsage, "go run ./cmd/demo"},
		"help": {app.ExitOK, "rmc plan --repo OWNER/NAME --pr N"},
	} {
		var out bytes.Buffer
		env := app.Env{Getenv: func(string) string { return "" }, Stdout: &out}
		if code := app.Main(context.Background(), env, strings.Fields(args)); code != want.code || !strings.Contains(out.String(), want.out) {
			t.Errorf("rmc %s: exit %d, output %q; want exit %d and %q", args, code, out.String(), want.code, want.out)
		}
		if args == "help" && strings.Contains(out.String(), "demo") {
			t.Errorf("the usage still offers the demo:\n%s", out.String())
		}
	}
}
