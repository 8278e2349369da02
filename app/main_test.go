package app_test

import (
	"bytes"
	"context"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/app"
	"github.com/review-my-code-bot/rmc/github/fakegithub"
	"github.com/review-my-code-bot/rmc/internal/version"
	"github.com/review-my-code-bot/rmc/outcome"
)

func envOf(vars map[string]string, out *bytes.Buffer) app.Env {
	return app.Env{Getenv: func(k string) string { return vars[k] }, Stdout: out, ReadFile: os.ReadFile}
}

func TestPlanRejectsWhatItDoesNotKnow(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		args []string
		want string
	}{
		"unknown flag":           {[]string{"plan", "--repo", "o/r", "--pr", "1", "--dry"}, "flag provided but not defined: -dry"},
		"stray argument":         {[]string{"plan", "--repo", "o/r", "--pr", "1", "extra"}, `plan takes no arguments, got ["extra"]`},
		"argument before flags":  {[]string{"plan", "o/r", "--pr", "1"}, "plan takes no arguments"},
		"event the action skips": {[]string{"plan", "--repo", "o/r", "--pr", "1", "--event", "push"}, `--event "push" is not an event the action handles; use one of: pull_request, pull_request_target, issue_comment, pull_request_review_comment, pull_request_review, workflow_dispatch`},
		"no pull request":        {[]string{"plan", "--repo", "o/r"}, "plan needs --repo OWNER/NAME and --pr N"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var out, errOut bytes.Buffer
			env := envOf(map[string]string{"GITHUB_TOKEN": "tok"}, &out)
			env.Stderr = &errOut
			code := app.Main(context.Background(), env, app.RealGitHub, tc.args)
			if code != outcome.ExitUsage || !strings.Contains(errOut.String(), tc.want) || out.Len() != 0 {
				t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant exit 2, nothing on stdout and %q on stderr", code, out.String(), errOut.String(), tc.want)
			}
		})
	}
}

// plan --event workflow_dispatch plans the manual review a dispatch asks for.
func TestPlanWorkflowDispatch(t *testing.T) {
	t.Parallel()
	f, pr := planWorld(t)
	var out bytes.Buffer
	vars := map[string]string{"GITHUB_TOKEN": "tok", "GITHUB_API_URL": f.URL, "GITHUB_GRAPHQL_URL": f.GraphQLURL(), "GITHUB_ACTOR": "alice", "GITHUB_RUN_ID": "77"}
	code := app.Main(context.Background(), envOf(vars, &out), app.RealGitHub, []string{"plan", "--repo", "o/r", "--pr", strconv.Itoa(pr.Number), "--event", "workflow_dispatch"})
	if code != outcome.ExitOK || !strings.Contains(out.String(), "[review] review-manual-") || !strings.Contains(out.String(), "requested by @alice by running the workflow (run 77") {
		t.Errorf("exit %d, output:\n%s", code, out.String())
	}
	if f.WriteCount() != 0 {
		t.Errorf("plan wrote %v", f.Writes())
	}
}

// Outside a runner nobody fills action.yml's defaults: the binary does, so
// one bad value is one error, and the outputs and summary still say failed.
func TestRunOutsideARunnerFillsDefaults(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	vars := map[string]string{"INPUT_PROBLEM_SCORE_THRESHOLD": "0", "INPUT_LLM_API_KEY": "sk-local-key-123"}
	code := app.Run(context.Background(), envOf(vars, &out), app.RealGitHub)
	errs := strings.Count(out.String(), "::error::")
	if code != outcome.ExitUsage || errs != 1 || !strings.Contains(out.String(), `problem_score_threshold: "0" must be a whole number from 1 to 10`) {
		t.Errorf("exit %d, %d errors:\n%s", code, errs, out.String())
	}
	if !strings.Contains(out.String(), "## review-my-code-bot — failed") {
		t.Errorf("no summary on stdout:\n%s", out.String())
	}
}

// The demo left the action's binary: asking it for one says where it went,
// and the usage no longer offers it.
func TestDemoIsItsOwnCommand(t *testing.T) {
	t.Parallel()
	for args, want := range map[string]struct {
		code int
		out  string
	}{
		"demo": {outcome.ExitUsage, "go run ./cmd/demo"},
		"help": {outcome.ExitOK, "rmc plan --repo OWNER/NAME --pr N"},
	} {
		var out bytes.Buffer
		env := app.Env{Getenv: func(string) string { return "" }, Stdout: &out}
		if code := app.Main(context.Background(), env, app.RealGitHub, strings.Fields(args)); code != want.code || !strings.Contains(out.String(), want.out) {
			t.Errorf("rmc %s: exit %d, output %q; want exit %d and %q", args, code, out.String(), want.code, want.out)
		}
		if args == "help" && strings.Contains(out.String(), "demo") {
			t.Errorf("the usage still offers the demo:\n%s", out.String())
		}
	}
}

// Every command answers --help and --version on stdout with exit 0, and
// puts a usage error on stderr with exit 2.
func TestCommandLineConventions(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		code      int
		stdout    string // "" means nothing
		stderr    string
		notStdout string
	}{
		"--version":      {code: outcome.ExitOK, stdout: version.Line("rmc")},
		"version":        {code: outcome.ExitOK, stdout: version.Line("rmc")},
		"--help":         {code: outcome.ExitOK, stdout: "rmc plan --repo OWNER/NAME --pr N"},
		"-h":             {code: outcome.ExitOK, stdout: "rmc plan --repo OWNER/NAME --pr N"},
		"plan --help":    {code: outcome.ExitOK, stdout: "Usage: rmc plan --repo OWNER/NAME --pr N", notStdout: "flag: help requested"},
		"plan -h":        {code: outcome.ExitOK, stdout: "-event string"},
		"frobnicate":     {code: outcome.ExitUsage, stderr: `unknown command "frobnicate"`},
		"demo":           {code: outcome.ExitUsage, stderr: "go run ./cmd/demo"},
		"plan --pr 1 -x": {code: outcome.ExitUsage, stderr: "flag provided but not defined: -x"},
		"plan --pr 1":    {code: outcome.ExitUsage, stderr: "plan needs --repo OWNER/NAME and --pr N"},
	}
	for args, tc := range tests {
		t.Run(args, func(t *testing.T) {
			t.Parallel()
			var out, errOut bytes.Buffer
			env := app.Env{Getenv: func(string) string { return "" }, Stdout: &out, Stderr: &errOut}
			code := app.Main(context.Background(), env, app.RealGitHub, strings.Fields(args))
			if code != tc.code {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, out.String(), errOut.String())
			}
			if tc.stdout != "" && !strings.Contains(out.String(), tc.stdout) || tc.stdout == "" && out.Len() != 0 {
				t.Errorf("stdout %q, want %q", out.String(), tc.stdout)
			}
			if tc.stderr != "" && !strings.Contains(errOut.String(), tc.stderr) || tc.stderr == "" && errOut.Len() != 0 {
				t.Errorf("stderr %q, want %q", errOut.String(), tc.stderr)
			}
			if tc.notStdout != "" && strings.Contains(out.String(), tc.notStdout) {
				t.Errorf("stdout has %q:\n%s", tc.notStdout, out.String())
			}
		})
	}
}

// A token GitHub does not accept fails every run the same way: the message
// sends the reader to the token, and not to run the job again.
func TestBadTokenSaysFixTheToken(t *testing.T) {
	t.Parallel()
	f, pr := planWorld(t)
	var out, errOut bytes.Buffer
	vars := map[string]string{"GITHUB_TOKEN": "ghp_revoked", "GITHUB_API_URL": f.URL, "GITHUB_GRAPHQL_URL": f.GraphQLURL()}
	env := envOf(vars, &out)
	env.Stderr = &errOut
	code := app.Main(context.Background(), env, app.RealGitHub, []string{"plan", "--repo", "o/r", "--pr", strconv.Itoa(pr.Number)})
	text := out.String() + errOut.String()
	if code != outcome.ExitFailed || !strings.Contains(text, "did not accept the token") || !strings.Contains(text, "401") {
		t.Errorf("exit %d, output:\n%s", code, text)
	}
	if strings.Contains(strings.ToLower(text), "re-run") {
		t.Errorf("a bad token's message suggests running again:\n%s", text)
	}
}

// planWorld is a fake GitHub with one PR by alice and a machine user's
// token "tok".
func planWorld(t *testing.T) (*fakegithub.Server, *fakegithub.PR) {
	t.Helper()
	f := fakegithub.New()
	t.Cleanup(f.Close)
	f.AddUser("alice", false)
	f.AddToken("tok", fakegithub.Identity{Login: "rmc-machine", Kind: fakegithub.TokenPAT})
	f.AddRepo("o/r")
	return f, f.AddPR("o/r", fakegithub.PR{Author: "alice"})
}
