// Package modelreview runs the action's review engine on a local
// uncommitted diff and writes the result as a reviews-for-agent round
// (rfa/comments_<hash>.json and .md), so a coding agent gets machine findings
// in the same format as a person's before anyone opens a pull request.
package modelreview

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os/exec"
	"strings"
	"time"

	"github.com/review-my-code-bot/rmc/agentmd"
	"github.com/review-my-code-bot/rmc/diff"
	"github.com/review-my-code-bot/rmc/llm"
	"github.com/review-my-code-bot/rmc/prompts"
	"github.com/review-my-code-bot/rmc/review"
	"github.com/review-my-code-bot/rmc/reviewsforagent"
	"github.com/review-my-code-bot/rmc/tools"
	"github.com/review-my-code-bot/rmc/workspace"
)

// Options configure a local review.
type Options struct {
	Dir     string // inside the repository; "" = the current directory
	BaseURL string // OpenAI-compatible endpoint; "" = OpenRouter
	APIKey  string
	Model   string
	// Review are the review's settings, from review.DefaultSettings. A
	// round has no limit on line comments: every finding the diff can
	// anchor is one, whatever MaxInline says.
	Review review.Settings
	Out    io.Writer // progress lines; nil = discard
}

// Result says what was written.
type Result struct {
	JSONPath, MDPath   string
	Findings, Blocking int
}

// ErrNoChanges means there is nothing to review.
var ErrNoChanges = errors.New("no uncommitted changes to review")

// Run reviews the uncommitted changes in opts.Dir.
func Run(ctx context.Context, opts Options) (Result, error) {
	out := opts.Out
	if out == nil {
		out = io.Discard
	}
	changes, err := reviewsforagent.LoadChanges(ctx, opts.Dir)
	if err != nil {
		return Result{}, err
	}
	if len(changes.Files) == 0 {
		return Result{}, ErrNoChanges
	}
	settings := opts.Review
	settings.MaxInline = math.MaxInt
	client, err := llm.New(llm.Options{BaseURL: opts.BaseURL, APIKey: opts.APIKey, Model: opts.Model, ContextTokens: settings.ContextTokens, PromptJSON: true,
		Referer: "https://github.com/review-my-code-bot/rmc", Title: "reviews-for-agent"})
	if err != nil {
		return Result{}, err
	}
	toolset := []llm.Tool{tools.Diff(func(context.Context) (string, error) { return changes.Diff, nil })}
	if fs, err := workspace.Open(changes.Root); err == nil {
		defer fs.Close()
		toolset = append(toolset, tools.Workspace(fs)...)
	}
	system, err := prompts.LocalSystem(prompts.LocalSystemData{Base: changes.Base, Files: paths(changes.Files), Rules: rules(ctx, changes.Root)})
	if err != nil {
		return Result{}, err
	}
	fmt.Fprintf(out, "Reviewing %d changed file(s) against %s with %s…\n", len(changes.Files), changes.Base, client.Model())
	res, err := review.Run(ctx, client.NewSession(system, toolset), review.Input{Anchor: changes.Files},
		review.Options{Settings: settings}, nil)
	if err != nil {
		return Result{}, err
	}
	jsonPath, mdPath, err := reviewsforagent.Write(changes, submission(res), time.Now())
	if err != nil {
		return Result{}, err
	}
	fmt.Fprintf(out, "Wrote %d finding(s) (%d blocking) to %s and %s. Provide the MD file to your AI agent to have it address the comments.\n", len(res.Findings), res.Blocking(), jsonPath, mdPath)
	return Result{JSONPath: jsonPath, MDPath: mdPath, Findings: len(res.Findings), Blocking: res.Blocking()}, nil
}

// submission turns findings into the reviews-for-agent format: anchored
// findings as line comments, the rest in the overall comment.
func submission(res review.Result) agentmd.Submission {
	var sub agentmd.Submission
	var global strings.Builder
	fmt.Fprintf(&global, "Machine review: %d finding(s), %d blocking, in %d file(s).", len(res.Findings), res.Blocking(), len(res.Reviewed))
	if len(res.Findings) == 0 {
		global.WriteString(" Nothing worth reporting was found.")
	}
	for _, f := range res.Findings {
		body := fmt.Sprintf("**%s** (%s, score %d/10%s)\n%s", f.Title, f.Category, f.Score, map[bool]string{true: ", blocking", false: ""}[f.Blocking], strings.TrimSpace(f.Explanation))
		if s := strings.TrimRight(f.Suggestion, "\n"); s != "" {
			body += "\nSuggested replacement:\n```\n" + s + "\n```"
		}
		if !f.Inline {
			fmt.Fprintf(&global, "\n\n- `%s:%d`: %s", f.Path, f.Line, strings.ReplaceAll(body, "\n", " "))
			continue
		}
		start, end := f.Line, f.Line
		if f.StartLine > 0 {
			start = f.StartLine
		}
		sub.Comments = append(sub.Comments, agentmd.SubmittedComment{File: f.Path, StartLine: &start, EndLine: &end, Side: f.Side, Body: body})
	}
	g := global.String()
	sub.GlobalComment = &g
	return sub
}

func paths(files []diff.File) []string {
	var out []string
	for _, f := range files {
		out = append(out, fmt.Sprintf("%s (%s)", prompts.Path(f.Path()), f.Status))
	}
	return out
}

// rules reads the project's rules for reviewers as committed at HEAD, so the
// changes under review cannot rewrite them.
func rules(ctx context.Context, root string) string {
	var b strings.Builder
	for _, p := range []string{"AGENTS.md", "CLAUDE.md", ".github/copilot-instructions.md"} {
		cmd := exec.CommandContext(ctx, "git", "show", "HEAD:"+p)
		cmd.Dir = root
		if text, err := cmd.Output(); err == nil && len(text) > 0 {
			fmt.Fprintf(&b, "# %s\n\n%s\n\n", p, text)
		}
	}
	return b.String()
}
