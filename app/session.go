package app

import (
	"context"
	"fmt"
	"slices"

	"github.com/review-my-code-bot/rmc/config"
	"github.com/review-my-code-bot/rmc/diff"
	"github.com/review-my-code-bot/rmc/execution"
	"github.com/review-my-code-bot/rmc/llm"
	"github.com/review-my-code-bot/rmc/prompts"
	"github.com/review-my-code-bot/rmc/review"
	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/state"
	"github.com/review-my-code-bot/rmc/tools"
	"github.com/review-my-code-bot/rmc/workspace"
)

// newLLM builds the model client from the inputs; its notices (tools
// refused, prompts cut by the server) become warnings in the log.
func newLLM(cfg config.Config, log *Log) (*llm.Client, error) {
	opts := cfg.LLMOptions(cfg.Model)
	opts.Referer, opts.Title = "https://github.com/review-my-code-bot/rmc", "review-my-code-bot"
	// Structured answers go in the prompt, not response_format: providers
	// cache the request prefix, and a schema there would change it.
	opts.PromptJSON = true
	opts.Warn = func(msg string) { log.Warningf("%s", msg) }
	return llm.New(opts)
}

// classifier decides intents with a fresh, tool-less session per mention.
func classifierFor(client *llm.Client) execution.Classifier {
	return execution.Classifier{NewSession: func() execution.Asker {
		return client.NewSession("You classify comments addressed to a code-review bot. Answer only with the JSON asked for.", nil)
	}}
}

// reader picks how the model reads code: the checked-out workspace when it
// holds the PR's head commit, else the head commit through the API (with a
// warning saying how to check it out).
func reader(log *Log, gh sourceOpener, dir string, snap snapshot.Snapshot) workspace.Reader {
	remote := func(why string) workspace.Reader {
		log.Warningf("%s; reading the PR's head %.7s through the GitHub API instead (check out refs/pull/%d/head, as the example workflow does, to read it locally)", why, snap.PR.HeadSHA, snap.PR.Number)
		return workspace.NewRemote(gh.Source(snap.Repo, snap.PR.HeadSHA))
	}
	if dir == "" {
		return remote("GITHUB_WORKSPACE is not set")
	}
	fs, err := workspace.Open(dir)
	if err != nil {
		return remote(fmt.Sprintf("cannot open the workspace %s: %v", dir, err))
	}
	head, err := fs.Head()
	switch {
	case err != nil:
		return remote(fmt.Sprintf("cannot tell which commit the workspace holds (%v)", err))
	case head != snap.PR.HeadSHA:
		return remote(fmt.Sprintf("the workspace holds %.7s, not the PR head", head))
	}
	return fs
}

// screener is the injection screen with its verifying model
// (injection_detection_enabled); nil when that model cannot be used.
func screener(cfg config.Config, log *Log) func(ctx context.Context, text string) string {
	opts := cfg.LLMOptions(cfg.InjectionModel)
	opts.PromptJSON, opts.Referer, opts.Title = true, "https://github.com/review-my-code-bot/rmc", "review-my-code-bot"
	verifier, err := llm.New(opts)
	if err != nil {
		log.Warningf("injection verification is off: %v", err)
		return nil
	}
	return execution.Screener{Model: cfg.InjectionModel, NewSession: func(system string) execution.Asker { return verifier.NewSession(system, nil) }}.Screen
}

// private reports a file of private_paths, by either of its names: the
// model is not even told it changed.
func private(s review.Scope, f snapshot.ChangedFile) bool {
	return s.Private(f.Path) || f.PreviousPath != "" && s.Private(f.PreviousPath)
}

// session starts the run's one conversation: system prompt with the PR's
// context, and the tools.
func session(ctx context.Context, cfg config.Config, client *llm.Client, gh *runReader, log *Log, dir string, snap snapshot.Snapshot, ls state.Learnings) (*llm.Session, prompts.SystemPrompt, error) {
	files, err := gh.Files(ctx, snap.Repo, snap.PR.Number)
	if err != nil {
		return nil, prompts.SystemPrompt{}, fmt.Errorf("list the PR's files: %w", err)
	}
	src, text := rules(ctx, gh, snap)
	scope := review.NewScope(cfg.Review, review.Generated{Attributes: snap.Config.Attributes})
	files = slices.DeleteFunc(slices.Clone(files), func(f snapshot.ChangedFile) bool { return private(scope, f) })
	paths := make([]string, len(files))
	for i, f := range files {
		paths[i] = f.Path
	}
	_, learned := execution.Applicable(ls, paths)
	system, err := execution.SystemPrompt(snap, files, execution.Rules{Source: src, Text: text, Instructions: cfg.InstructionsFor(paths), Language: cfg.Language, Learnings: learned})
	if err != nil {
		return nil, prompts.SystemPrompt{}, err
	}
	toolset := []llm.Tool{tools.ScopedDiff(func(ctx context.Context) (string, error) { return gh.Diff(ctx, snap.Repo, snap.PR.Number) },
		func(f diff.File) (string, bool) {
			return scope.Why(f), scope.Private(f.NewPath) || scope.Private(f.OldPath)
		})}
	toolset = append(toolset, tools.Workspace(workspace.Private(reader(log, gh, dir, snap), scope.Private))...)
	if cfg.EnableWeb {
		toolset = append(toolset, tools.Web(tools.WebOptions{}))
	}
	return client.NewSession(system.String(), toolset), system, nil
}
