package app

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/review-my-code-bot/rmc/config"
	"github.com/review-my-code-bot/rmc/event"
	"github.com/review-my-code-bot/rmc/internal/version"
	"github.com/review-my-code-bot/rmc/outcome"
	"github.com/review-my-code-bot/rmc/snapshot"
)

const usage = `review-my-code-bot (rmc) %s

Usage:
  rmc                           run as the GitHub Action (reads the runner's environment)
  rmc plan --repo OWNER/NAME --pr N [--event NAME]
                                print what a run would do on a real pull request and write
                                nothing (needs GITHUB_TOKEN; honours GITHUB_API_URL)
  rmc version                   print the version (also --version)
  rmc help                      print this help (also --help)
`

// Main dispatches the subcommands and returns the exit code. gh reads the
// event and reaches GitHub (cmd/action passes the real one). What a command
// was asked for goes to stdout; its usage errors go to stderr.
func Main(ctx context.Context, env Env, gh Connector, args []string) int {
	if len(args) == 0 || args[0] == "run" {
		return Run(ctx, env, gh)
	}
	switch args[0] {
	case "plan":
		return planCmd(ctx, env, gh, args[1:])
	case "demo":
		// The demo is its own command, so that the fakes it runs against
		// stay out of the action's binary.
		env.errLog().Print("the demo is its own command: in a clone of the repository, run: go run ./cmd/demo")
		return outcome.ExitUsage
	case "version", "--version", "-version":
		consoleLog(env).Print(version.Line("rmc"))
		return outcome.ExitOK
	case "help", "-h", "-help", "--help":
		consoleLog(env).Print(fmt.Sprintf(usage, version.String()))
		return outcome.ExitOK
	}
	env.errLog().Print(fmt.Sprintf("unknown command %q\n\n"+usage, args[0], version.String()))
	return outcome.ExitUsage
}

// planCmd prints the plan of a real PR: the same pipeline, dry.
func planCmd(ctx context.Context, env Env, gh Connector, args []string) int {
	errs := env.errLog()
	fs := flag.NewFlagSet("plan", flag.ContinueOnError)
	var flagOut strings.Builder
	fs.SetOutput(&flagOut)
	repoFlag := fs.String("repo", env.Getenv("GITHUB_REPOSITORY"), "repository, owner/name")
	pr := fs.Int("pr", 0, "pull request number")
	eventName := fs.String("event", string(event.IssueComment), "event to plan for: "+strings.Join(planEvents, ", ")+
		"\n(issue_comment: questions, disputes, owed reviews; pull_request: a new push; workflow_dispatch: a manual review)")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: rmc plan --repo OWNER/NAME --pr N [--event NAME]\n\n"+
			"Prints what a run would do on a real pull request and writes nothing.\nNeeds GITHUB_TOKEN; honours GITHUB_API_URL.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); errors.Is(err, flag.ErrHelp) {
		consoleLog(env).Print(flagOut.String())
		return outcome.ExitOK
	} else if err != nil {
		errs.Print(flagOut.String())
		return outcome.ExitUsage
	}
	if fs.NArg() > 0 {
		errs.Print(fmt.Sprintf("plan takes no arguments, got %q; use --repo OWNER/NAME --pr N", fs.Args()))
		return outcome.ExitUsage
	}
	if !slices.Contains(planEvents, *eventName) {
		errs.Print(fmt.Sprintf("--event %q is not an event the action handles; use one of: %s", *eventName, strings.Join(planEvents, ", ")))
		return outcome.ExitUsage
	}
	repo, ok := snapshot.ParseRepo(*repoFlag)
	if !ok || *pr <= 0 {
		errs.Print("plan needs --repo OWNER/NAME and --pr N")
		return outcome.ExitUsage
	}
	token := env.Getenv("GITHUB_TOKEN")
	if token == "" {
		errs.Print("plan needs GITHUB_TOKEN (a token that can read the repository); for an offline demo, run go run ./cmd/demo in a clone of the repository")
		return outcome.ExitUsage
	}
	get := func(name string) string { return env.Getenv(envName(name)) }
	cfg, err := config.Load(withDefaults(get), false)
	if err != nil {
		errs.Print(err.Error())
		return outcome.ExitUsage
	}
	cfg.DryRun = true
	ev := planEvent(env, repo, *pr, event.Name(*eventName))
	log := consoleLog(env)
	client, err := gh.Connect(Connection{Token: token, Getenv: env.Getenv, Warn: func(msg string) { log.Warningf("%s", msg) }})
	if err != nil {
		errs.Print(err.Error())
		return outcome.ExitUsage
	}
	return Pipeline{Config: cfg, GitHub: client, Log: log}.Run(ctx, repo, ev)
}

// planEvent is the event plan pretends to run on.
func planEvent(env Env, repo snapshot.Repo, pr int, name event.Name) event.Event {
	ev := event.Event{Name: name, Repo: repo.String(), PRNumber: pr, Sender: env.Getenv("GITHUB_ACTOR")}
	switch ev.Name {
	case event.PullRequest, event.PullRequestTarget:
		ev.Action = "synchronize"
	case event.IssueComment, event.PullRequestReviewComment:
		ev.Action = "created"
	case event.PullRequestReview:
		ev.Action = "submitted"
	case event.WorkflowDispatch:
		// A new run asks anew; GITHUB_RUN_ID plans as that run would.
		ev.RunID, _ = strconv.ParseInt(env.Getenv("GITHUB_RUN_ID"), 10, 64)
	}
	return ev
}

// planEvents are the events `plan --event` accepts: the ones the action handles.
var planEvents = []string{string(event.PullRequest), string(event.PullRequestTarget), string(event.IssueComment), string(event.PullRequestReviewComment), string(event.PullRequestReview), string(event.WorkflowDispatch)}

// envName is the variable the runner uses for an input.
func envName(input string) string { return "INPUT_" + strings.ToUpper(input) }

// withDefaults fills unset inputs with action.yml's defaults, as the runner
// does, for commands run from a shell.
func withDefaults(get func(string) string) func(string) string {
	defs := config.Defaults()
	return func(name string) string {
		if v := get(name); v != "" {
			return v
		}
		return defs[name]
	}
}

// consoleLog logs to a terminal: workflow commands print as they are and
// the job summary goes to stdout.
func consoleLog(env Env) *Log {
	return newLog(Env{Getenv: func(k string) string {
		if k == "GITHUB_STEP_SUMMARY" || k == "GITHUB_OUTPUT" {
			return ""
		}
		return env.Getenv(k)
	}, Stdout: env.Stdout, ReadFile: env.ReadFile})
}
