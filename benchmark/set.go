package benchmark

import (
	"context"
	"fmt"
	"strings"

	"github.com/review-my-code-bot/rmc/execution"
	"github.com/review-my-code-bot/rmc/llm"
	"github.com/review-my-code-bot/rmc/prompts"
	"github.com/review-my-code-bot/rmc/review"
	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/tools"
	"github.com/review-my-code-bot/rmc/workspace"
)

// Case is one pull request of a set, with its golden comments.
type Case struct {
	Ref    PRRef
	Repo   string // what reports group by: "go-ledger", "sentry"
	URL    string
	Title  string
	Golden []Golden
}

// Material is what the engine reads for one case: what the action reads
// for a PR.
type Material struct {
	PR    snapshot.PullRequest
	Repo  snapshot.Repo
	Files []snapshot.ChangedFile // as GitHub lists them: per-file patches
	Diff  string                 // the unified diff, for get_pr_diff
	Rules execution.Rules        // project rules from the base commit
	Code  workspace.Reader       // the head commit, for the model's tools
	// GitHubRequests counts the requests made for this case so far; nil
	// for a set that makes none.
	GitHubRequests func() int64
}

// Set is a benchmark set.
type Set interface {
	Name() string
	Cases(ctx context.Context) ([]Case, error)
	Load(ctx context.Context, c Case) (*Material, error)
	// Prompts are the judge's and the extraction's prompts for this set.
	Prompts(ctx context.Context) (Prompts, error)
}

// runEngine reviews m exactly as the action's review task does: the
// action's system prompt for the PR, the diff and workspace tools, the three
// passes through one session, nothing known from earlier reviews.
func runEngine(ctx context.Context, client *llm.Client, m *Material, settings review.Settings) (review.Result, llm.Usage, error) {
	snap := snapshot.Snapshot{Repo: m.Repo, PR: m.PR}
	system, err := execution.SystemPrompt(snap, m.Files, m.Rules)
	if err != nil {
		return review.Result{}, llm.Usage{}, err
	}
	toolset := []llm.Tool{tools.Diff(func(context.Context) (string, error) { return m.Diff, nil })}
	toolset = append(toolset, tools.Workspace(m.Code)...)
	session := client.NewSession(system.String(), toolset)
	anchor, skipped := execution.ParseFiles(m.Files)
	res, err := review.Run(ctx, session, review.Input{Anchor: anchor}, review.Options{Settings: settings}, nil)
	res.Skipped = append(skipped, res.Skipped...)
	return res, session.Usage(), err
}

// Candidate is a finding as the judge reads it: where, what, why.
func Candidate(f review.Finding) string {
	text := fmt.Sprintf("%s:%d: %s", prompts.Path(f.Path), f.Line, strings.TrimSpace(f.Title))
	if e := strings.TrimSpace(f.Explanation); e != "" {
		text += "\n" + e
	}
	return text
}
