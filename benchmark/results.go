package benchmark

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/review-my-code-bot/rmc/llm"
	"github.com/review-my-code-bot/rmc/review"
)

// CandidateResult is one finding of the engine, as results.json lists it.
type CandidateResult struct {
	Text     string `json:"text"` // the finding as a review comment says it
	Path     string `json:"path"`
	Line     int    `json:"line"`
	Title    string `json:"title"`
	Score    int    `json:"score"`
	Category string `json:"category"`
	Pass     int    `json:"pass"`
	Inline   bool   `json:"inline"`
}

// MatchResult is a golden comment the engine found.
type MatchResult struct {
	Golden        int     `json:"golden"`
	GoldenComment string  `json:"golden_comment"`
	Candidate     int     `json:"candidate"`
	CandidateText string  `json:"candidate_text"`
	Confidence    float64 `json:"confidence"`
	Reasoning     string  `json:"reasoning"`
}

// PRResult is everything about one PR of a run.
type PRResult struct {
	PR    string `json:"pr"`
	URL   string `json:"url"`
	Title string `json:"title"`
	Repo  string `json:"repo"`
	// Error says why the PR was not finished (the run stopped); it is then
	// left out of the scores and not kept.
	Error string `json:"error,omitempty"`
	// ReviewError says why the review failed; the PR is scored as a
	// review with no comments, as upstream scores one.
	ReviewError string `json:"review_error,omitempty"`
	// ExtractError says why the extraction failed; the comments were
	// judged as they are, as upstream falls back to them.
	ExtractError string `json:"extract_error,omitempty"`
	// Cached says the result was kept from an earlier run; Redone that its
	// failures were run again (--resume).
	Cached   bool              `json:"cached,omitempty"`
	Redone   bool              `json:"redone,omitempty"`
	Golden   []Golden          `json:"golden_comments"`
	Findings []CandidateResult `json:"findings"`
	// Candidates are what the judge read: the issues extraction found in
	// the findings (Extracted), or the findings' own text.
	Candidates []string `json:"candidates"`
	Extracted  bool     `json:"extracted"`
	// Groups are duplicate groups of candidates (indexes), read only by
	// the head rule set. bench has no step that makes them, so they are
	// empty, as upstream's are without a dedup_groups.json.
	Groups      [][]int       `json:"duplicate_groups,omitempty"`
	Verdicts    []Judged      `json:"verdicts"`
	Matching    Matching      `json:"matching"`
	Matches     []MatchResult `json:"matches"`
	Counts      Counts        `json:"counts"`
	JudgeErrors []string      `json:"judge_errors,omitempty"`
	Skipped     []string      `json:"skipped_files,omitempty"`

	ReviewUsage    llm.Usage `json:"review_usage"`
	JudgeUsage     llm.Usage `json:"judge_usage"`
	GitHubRequests int64     `json:"github_requests"`
	Seconds        float64   `json:"seconds"`

	err   error
	stage string // where err happened: load, review, extract, judge
}

// Comments are what the action would post on the PR, one text each: its
// findings as review comments. They are what extraction reads, and the
// candidates when it is off or fails.
func (pr *PRResult) Comments() []string {
	texts := make([]string, 0, len(pr.Findings))
	for _, f := range pr.Findings {
		texts = append(texts, f.Text)
	}
	return texts
}

// failures counts what failed in the PR: its review, its extraction, and
// each judge call.
func (pr *PRResult) failures() int {
	n := 0
	if pr.ReviewError != "" {
		n++
	}
	if pr.ExtractError != "" {
		n++
	}
	for _, v := range pr.Verdicts {
		if v.Err != "" {
			n++
		}
	}
	return n
}

// FailedCalls counts the PR's failed judge calls.
func (pr *PRResult) FailedCalls() int {
	n := 0
	for _, v := range pr.Verdicts {
		if v.Err != "" {
			n++
		}
	}
	return n
}

// Results are a whole run.
type Results struct {
	// FormatExample marks a run against a scripted model: every output
	// says it is a format example, never a score.
	FormatExample bool       `json:"format_example,omitempty"`
	Set           string     `json:"set"`
	SetPRs        int        `json:"set_prs"` // PRs in the whole set; len(PRs) when none were left out
	Model         string     `json:"model"`
	JudgeModel    string     `json:"judge_model"`
	Method        Method     `json:"method"`
	Rules         Rules      `json:"rules"`
	Profile       Profile    `json:"profile"`
	Engine        EngineOpts `json:"engine"`
	Summary       Summary    `json:"summary"`
	// Failed counts PRs not finished (the run stopped): they are not
	// scored. FailedReviews, FailedExtractions and FailedCalls are scored
	// as upstream scores them.
	Failed            int `json:"failed_prs"`
	FailedReviews     int `json:"failed_reviews"`
	FailedExtractions int `json:"failed_extractions"`
	FailedCalls       int `json:"failed_judge_calls"`
	// Cached counts results reused from an earlier run (a review whose
	// failed judge calls were redone among them); Redone the kept results
	// whose failures this run redid (--resume).
	Cached int        `json:"cached_prs"`
	Redone int        `json:"redone_prs"`
	PRs    []PRResult `json:"prs"`
	// Warnings are the model and judge clients' notices (tools refused,
	// a prompt cut by the server).
	Warnings []string `json:"warnings,omitempty"`

	ReviewUsage    llm.Usage `json:"review_usage"`
	JudgeUsage     llm.Usage `json:"judge_usage"`
	GitHubRequests int64     `json:"github_requests"`
	Seconds        float64   `json:"seconds"`
}

// EngineOpts records the engine settings a run chose (the others are
// review.DefaultSettings'), under the action's names.
type EngineOpts struct {
	ProblemThreshold  int `json:"problem_score_threshold"`
	BlockingThreshold int `json:"blocking_score_threshold"`
	Retries           int `json:"max_review_retries"`
}

// engineRecord is what results.json records of the engine's settings.
func engineRecord(s review.Settings) EngineOpts {
	return EngineOpts{ProblemThreshold: s.ProblemThreshold, BlockingThreshold: s.BlockingThreshold, Retries: s.Retries}
}

func newResults(opt Options, setPRs int, prs []PRResult, took time.Duration) *Results {
	r := &Results{FormatExample: opt.Example, Set: opt.Set.Name(), SetPRs: setPRs, JudgeModel: opt.JudgeModel, Method: opt.Method,
		Rules: opt.Rules, Profile: opt.Profile, PRs: prs, Seconds: took.Seconds(),
		Engine: engineRecord(opt.Engine)}
	if opt.Example {
		// A format example is no measurement: no timings, so that its
		// report reads the same on every machine.
		r.Seconds = 0
		for i := range prs {
			prs[i].Seconds = 0
		}
	}
	r.Model = opt.Model
	if opt.Client != nil {
		r.Model = opt.Client.Model()
	}
	var scored []Scored
	for i := range prs {
		pr := &prs[i]
		r.ReviewUsage = r.ReviewUsage.Add(pr.ReviewUsage)
		r.JudgeUsage = r.JudgeUsage.Add(pr.JudgeUsage)
		r.GitHubRequests += pr.GitHubRequests
		r.countReuse(pr)
		if pr.Error != "" {
			r.Failed++
			continue
		}
		r.countFailures(pr)
		pr.Counts = opt.Rules.Count(pr.Golden, pr.Matching, opt.Profile)
		scored = append(scored, Scored{Repo: pr.Repo, Golden: pr.Golden, Matching: pr.Matching})
	}
	r.Summary = opt.Rules.Summarize(scored, opt.Profile)
	if opt.Warnings != nil {
		r.Warnings = opt.Warnings()
	}
	return r
}

func (r *Results) countReuse(pr *PRResult) {
	if pr.Cached {
		r.Cached++
	}
	if pr.Redone {
		r.Redone++
	}
}

func (r *Results) countFailures(pr *PRResult) {
	if pr.ReviewError != "" {
		r.FailedReviews++
	}
	if pr.ExtractError != "" {
		r.FailedExtractions++
	}
	r.FailedCalls += pr.FailedCalls()
}

// Write writes results.json and report.md into dir.
func (r *Results) Write(dir string, board Leaderboard) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "results.json"), append(data, '\n'), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "report.md"), []byte(r.Markdown(board)), 0o644)
}

// Table writes the terminal summary: one line per PR, then the scores per
// repository and overall.
func (r *Results) Table(w io.Writer) {
	if r.FormatExample {
		fmt.Fprintln(w, "FORMAT EXAMPLE: a scripted model wrote these findings; the numbers are not a score.")
		fmt.Fprintln(w)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "PR\tgolden\tfindings\tcandidates\tTP\tFP\tFN\tmodel calls\tjudge calls\treview tokens\tGitHub req.\tseconds\t")
	for _, pr := range r.PRs {
		if pr.Error != "" {
			fmt.Fprintf(tw, "%s\t%d\tnot scored: %s\t\t\t\t\t%d\t%d\t%d\t%d\t%.1f\t\n", OneLine(pr.PR, 100), len(pr.Golden), OneLine(pr.Error, 60),
				pr.ReviewUsage.Requests, pr.JudgeUsage.Requests, tokens(pr.ReviewUsage), pr.GitHubRequests, pr.Seconds)
			continue
		}
		findings := fmt.Sprint(len(pr.Findings))
		if pr.ReviewError != "" {
			findings = "review failed"
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%.1f\t\n", OneLine(pr.PR, 100), len(pr.Golden), findings, len(pr.Candidates), pr.Counts.TP, pr.Counts.FP, pr.Counts.FN,
			pr.ReviewUsage.Requests, pr.JudgeUsage.Requests, tokens(pr.ReviewUsage), pr.GitHubRequests, pr.Seconds)
	}
	tw.Flush()
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	label := "all golden comments"
	if r.Rules == HeadRules {
		label = string(r.Profile) + " profile"
	}
	fmt.Fprintf(tw, "%s rules, %s\tPRs\tTP\tFP\tFN\tprecision\trecall\tF1\tF2\t\n", r.Rules, label)
	row := func(name string, s Score) {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%s\t%s\t%s\t%s\t\n", name, s.PRs, s.TP, s.FP, s.FN, pct(s.Precision), pct(s.Recall), pct(s.F1), pct(s.F2))
	}
	for _, name := range r.Summary.RepoNames() {
		row(name, r.Summary.Repos[name])
	}
	row("overall", r.Summary.Overall)
	tw.Flush()
	if c := r.Summary.Clean; c.PRs > 0 {
		fmt.Fprintf(w, "\n%d clean PR(s), %d false alarm(s): %.2f per clean PR.\n", c.PRs, c.FalseAlarms, c.PerPR)
	}
	fmt.Fprintf(w, "\nJudge %s, prompts %s, extraction %s.\n", OneLine(r.JudgeModel, 100), OneLine(r.Method.Prompts.Source, 100), map[bool]string{true: "on", false: "off"}[r.Method.Extract])
	fmt.Fprintf(w, "Rule set %s.\n", r.Rules.Describe())
	fmt.Fprintf(w, "%d PR(s), %d not finished; %s.\n%s.\n%d model calls and %d tokens for the reviews, %d judge calls and %d tokens; %d GitHub requests; %.1f s.\n",
		len(r.PRs), r.Failed, r.failureLine(), upper(r.reuseLine()), r.ReviewUsage.Requests, tokens(r.ReviewUsage), r.JudgeUsage.Requests, tokens(r.JudgeUsage), r.GitHubRequests, r.Seconds)
	for _, warn := range r.Warnings {
		fmt.Fprintf(w, "Client warning: %s\n", OneLine(warn, 500))
	}
}

func upper(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func tokens(u llm.Usage) int { return u.PromptTokens + u.CompletionTokens }

func pct(f float64) string { return fmt.Sprintf("%.1f%%", 100*f) }
