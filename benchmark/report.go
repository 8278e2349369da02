package benchmark

import (
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// Leaderboard is the published scores a run is put beside, with where they
// come from and the judge they were measured with.
type Leaderboard struct {
	Benchmark string `json:"benchmark"`
	Source    string `json:"source"`
	Judge     string `json:"judge"`
	// JudgeOpenRouter is the judge's name on OpenRouter, the default
	// endpoint; JudgeNames are all its other names (OpenRouter's,
	// Anthropic's own).
	JudgeOpenRouter string   `json:"judge_openrouter"`
	JudgeNames      []string `json:"judge_names"`
	Set             string   `json:"set"`
	SetPRs          int      `json:"set_prs"`
	// Commit is the benchmark's commit the scores were read at; Rules the
	// rule set they were scored with.
	Commit string `json:"commit"`
	Rules  Rules  `json:"rules"`
	// JudgePromptSHA and ExtractPromptSHA are the SHA-256 of the judge's
	// and the extraction's templates at Commit: a run whose prompts differ
	// by a byte is not the leaderboard's method.
	JudgePromptSHA   string      `json:"judge_prompt_sha256"`
	ExtractPromptSHA string      `json:"extract_prompt_sha256"`
	Measure          string      `json:"measure"`
	Note             string      `json:"note"`
	Tools            []BoardTool `json:"tools"`
}

// BoardTool is one tool's published score: the pooled counts and the
// measures (percent, one decimal) the dashboard derives from them.
type BoardTool struct {
	Name      string  `json:"name"`
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
	F1        float64 `json:"f1"`
	TP        int     `json:"tp"`
	FP        int     `json:"fp"`
	FN        int     `json:"fn"`
}

//go:embed leaderboard.json
var leaderboardJSON []byte

// PublishedLeaderboard is the embedded leaderboard.json.
func PublishedLeaderboard() (Leaderboard, error) {
	var b Leaderboard
	if err := json.Unmarshal(leaderboardJSON, &b); err != nil {
		return b, fmt.Errorf("leaderboard.json: %w", err)
	}
	if b.Source == "" || b.Judge == "" || b.Set == "" || b.SetPRs <= 0 || len(b.Tools) == 0 || !b.IsJudge(b.JudgeOpenRouter) || b.Commit == "" || b.Rules == "" || b.JudgePromptSHA == "" || b.ExtractPromptSHA == "" {
		return b, fmt.Errorf("leaderboard.json: source, judge, set, set_prs, commit, rules and tools are required, and judge_openrouter is one of judge_names")
	}
	return b, nil
}

// IsJudge reports whether model is the leaderboard's judge by one of its
// names.
func (b Leaderboard) IsJudge(model string) bool {
	return model == b.Judge || known(b.JudgeNames, model)
}

func sha(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// Incomparable lists why r cannot be ranked beside board; none means it
// was measured like the leaderboard: the same golden set (the set, whole,
// at the board's commit), the same judge model and prompts, and the same
// rule set.
func (r *Results) Incomparable(board Leaderboard) []string {
	var why []string
	add := func(format string, args ...any) { why = append(why, fmt.Sprintf(format, args...)) }
	if r.FormatExample {
		add("the findings come from a scripted model: this is a format example, not a score")
	}
	if r.Set != board.Set {
		add("it used the %s set, not the leaderboard's %s set", r.Set, board.Set)
	} else if n := len(r.PRs) - r.Failed; n < board.SetPRs {
		add("it scored %d of the set's %d PRs", n, board.SetPRs)
	}
	if !board.IsJudge(r.JudgeModel) {
		add("its judge is `%s`, not the leaderboard's `%s` (judges differ in how generously they match)", cell(r.JudgeModel), cell(board.Judge))
	}
	if r.Method.Prompts.Source != CRBRepo+"@"+board.Commit || sha(r.Method.Prompts.Judge) != board.JudgePromptSHA || sha(r.Method.Prompts.Extract) != board.ExtractPromptSHA || r.Method.Prompts.Fenced {
		add("its judge and extraction prompts are %s, not the benchmark's at %s byte for byte", cell(r.Method.Prompts.Source), short(board.Commit))
	}
	if r.Rules != board.Rules {
		add("it was scored with the %s rule set, not the leaderboard's %s one", r.Rules, board.Rules)
	}
	if !r.Method.Extract {
		add("it skipped the extraction step, so each finding was one candidate")
	}
	if t := r.Method.Temperature; t == nil || *t != 0 {
		add("its judge ran at %s, not at temperature 0", temperature(t))
	}
	return why
}

func short(commit string) string { return commit[:min(7, len(commit))] }

func temperature(t *float64) string {
	if t == nil {
		return "the model's default temperature (the model refuses temperature)"
	}
	return fmt.Sprintf("temperature %g", *t)
}

// Markdown renders report.md. Text from the model and the PRs is put in
// code spans or escaped so it cannot change the report's structure.
func (r *Results) Markdown(board Leaderboard) string {
	var b strings.Builder
	if r.FormatExample {
		fmt.Fprintf(&b, "# Review benchmark: %s set (format example)\n\n", r.Set)
		b.WriteString("> **Format example, not a score.** A scripted model wrote these findings to show what the report looks like; no model was measured.\n\n")
	} else {
		fmt.Fprintf(&b, "# Review benchmark: %s set\n\n", r.Set)
	}
	fmt.Fprintf(&b, "- Model: `%s`\n", cell(r.Model))
	fmt.Fprintf(&b, "- Judge: `%s` at %s, prompts: %s\n", cell(r.JudgeModel), temperature(r.Method.Temperature), cell(r.Method.Prompts.Source))
	extract := "off (each finding is one candidate)"
	if r.Method.Extract {
		extract = "on (a model lists the single issues in all the findings; those are the candidates)"
	}
	fmt.Fprintf(&b, "- Method: extraction %s; matching: %s; PRs without golden comments are left out of precision and recall and counted as false alarms\n", extract, UpstreamRule)
	fmt.Fprintf(&b, "- Rule set: %s\n", r.Rules.Describe())
	if r.Rules == HeadRules {
		fmt.Fprintf(&b, "- Profile: **%s** (categories: %s; a golden comment without a category counts under none)\n", r.Profile, strings.Join(r.Profile.Categories(), ", "))
	}
	fmt.Fprintf(&b, "- Engine: problem threshold %d, blocking threshold %d, %d review retr%s\n", r.Engine.ProblemThreshold, r.Engine.BlockingThreshold, r.Engine.Retries, map[bool]string{true: "y", false: "ies"}[r.Engine.Retries == 1])
	fmt.Fprintf(&b, "- %d of the set's %d PR(s), %d not finished; %s; %s; %d model calls (%d tokens) for the reviews, %d judge calls (%d tokens); %d GitHub requests; %.1f s\n",
		len(r.PRs), r.SetPRs, r.Failed, r.failureLine(), r.reuseLine(), r.ReviewUsage.Requests, tokens(r.ReviewUsage), r.JudgeUsage.Requests, tokens(r.JudgeUsage), r.GitHubRequests, r.Seconds)
	for _, w := range r.Warnings {
		fmt.Fprintf(&b, "- Client warning: %s\n", cell(OneLine(w, 500)))
	}
	b.WriteString("\n")

	b.WriteString("## Scores\n\n| | PRs | TP | FP | FN | precision | recall | F1 | F2 |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	row := func(name string, s Score) {
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %s | %s | %s | %s |\n", name, s.PRs, s.TP, s.FP, s.FN, pct(s.Precision), pct(s.Recall), pct(s.F1), pct(s.F2))
	}
	for _, name := range r.Summary.RepoNames() {
		row(cell(name), r.Summary.Repos[name])
	}
	row("**overall**", r.Summary.Overall)
	if c := r.Summary.Clean; c.PRs > 0 {
		fmt.Fprintf(&b, "\nClean PRs (no known problem): %d, with %d false alarm(s): **%.2f per clean PR**.\n", c.PRs, c.FalseAlarms, c.PerPR)
	}

	r.leaderboard(&b, board)

	b.WriteString("\n## Per PR\n\n| PR | golden | findings | candidates | TP | FP | FN | model calls | judge calls | review tokens | GitHub requests | seconds |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, pr := range r.PRs {
		if pr.Error != "" {
			fmt.Fprintf(&b, "| %s | %d | not scored | | | | | %d | %d | %d | %d | %.1f |\n", cell(pr.PR), len(pr.Golden), pr.ReviewUsage.Requests, pr.JudgeUsage.Requests, tokens(pr.ReviewUsage), pr.GitHubRequests, pr.Seconds)
			continue
		}
		findings := strconv.Itoa(len(pr.Findings))
		if pr.ReviewError != "" {
			findings = "review failed"
		}
		fmt.Fprintf(&b, "| %s | %d | %s | %d | %d | %d | %d | %d | %d | %d | %d | %.1f |\n", cell(pr.PR), len(pr.Golden), findings, len(pr.Candidates), pr.Counts.TP, pr.Counts.FP, pr.Counts.FN,
			pr.ReviewUsage.Requests, pr.JudgeUsage.Requests, tokens(pr.ReviewUsage), pr.GitHubRequests, pr.Seconds)
	}
	r.details(&b)
	return b.String()
}

// failureLine says what failed and was scored as upstream scores it.
func (r *Results) failureLine() string {
	return fmt.Sprintf("%d failed review(s) scored as reviews with no comments, %d failed extraction(s) judged from the raw comments, %d failed judge call(s) scored as no match (--resume redoes them)",
		r.FailedReviews, r.FailedExtractions, r.FailedCalls)
}

// reuseLine says how many results came from an earlier run.
func (r *Results) reuseLine() string {
	return fmt.Sprintf("%d result(s) reused from an earlier run with the same endpoints and settings; %d kept result(s) with failures redone", r.Cached, r.Redone)
}

// leaderboard puts the run beside the published scores only when it was
// measured like them; otherwise it lists them apart and says why.
func (r *Results) leaderboard(b *strings.Builder, board Leaderboard) {
	fmt.Fprintf(b, "\n## The published leaderboard\n\n%s, commit %s, rule set %s. Judge: `%s`. %s Source: %s\n\n",
		cell(board.Benchmark), short(board.Commit), board.Rules, cell(board.Judge), cell(board.Note), board.Source)
	why := r.Incomparable(board)
	rows := append([]BoardTool(nil), board.Tools...)
	this := -1
	if len(why) > 0 {
		b.WriteString("**This run is not ranked here**, because " + strings.Join(why, "; ") + ". Its numbers measure something other than the leaderboard's, so they are not put beside them.\n\n")
	} else {
		o := r.Summary.Overall
		rows = append(rows, BoardTool{Name: fmt.Sprintf("**this run** (`%s`)", cell(r.Model)), Precision: round1(o.Precision), Recall: round1(o.Recall), F1: round1(o.F1), TP: o.TP, FP: o.FP, FN: o.FN})
		this = len(rows) - 1
		b.WriteString("This run was measured like the leaderboard: the whole set at its commit, the same judge, prompts, extraction and rule set.\n\n")
	}
	order := make([]int, len(rows))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return rows[order[i]].F1 > rows[order[j]].F1 })
	b.WriteString("| rank | tool | precision | recall | F1 | TP | FP | FN |\n|---:|---|---:|---:|---:|---:|---:|---:|\n")
	for rank, i := range order {
		e := rows[i]
		name, f1 := e.Name, fmt.Sprintf("%.1f", e.F1)
		if i == this {
			f1 = "**" + f1 + "**"
		} else {
			name = cell(name)
		}
		fmt.Fprintf(b, "| %d | %s | %.1f | %.1f | %s | %d | %d | %d |\n", rank+1, name, e.Precision, e.Recall, f1, e.TP, e.FP, e.FN)
	}
}

// round1 is a fraction as a percentage with one decimal, as the dashboard
// rounds.
func round1(f float64) float64 { return math.Round(f*1000) / 10 }

// details lists what was missed, what was noise and what failed.
func (r *Results) details(b *strings.Builder) {
	var missed, noise, failed []string
	for _, pr := range r.PRs {
		failed = append(failed, failureLines(pr)...)
		if pr.Error != "" {
			continue
		}
		for g, j := range pr.Matching.GoldenBy {
			if j < 0 && (r.Rules != HeadRules || r.Profile.Includes(pr.Golden[g].Category)) {
				missed = append(missed, fmt.Sprintf("- %s (%s, %s): %s", cell(pr.PR), pr.Golden[g].Severity, orNone(pr.Golden[g].Category), cell(OneLine(pr.Golden[g].Comment, 200))))
			}
		}
		for j, ok := range pr.Matching.Matched {
			if !ok {
				noise = append(noise, fmt.Sprintf("- %s: %s", cell(pr.PR), cell(OneLine(pr.Candidates[j], 200))))
			}
		}
	}
	section := func(title string, lines []string) {
		if len(lines) > 0 {
			fmt.Fprintf(b, "\n## %s (%d)\n\n%s\n", title, len(lines), strings.Join(lines, "\n"))
		}
	}
	section("Missed golden comments", missed)
	section("Findings that match no golden comment", noise)
	section("Failures", failed)
}

// failureLines lists each failure of a PR: not finished, review,
// extraction, each judge call.
func failureLines(pr PRResult) []string {
	var out []string
	add := func(what, why string) {
		out = append(out, fmt.Sprintf("- %s, %s: %s", cell(pr.PR), what, cell(OneLine(why, 300))))
	}
	switch {
	case pr.Error != "":
		add("not scored", pr.Error)
	case pr.ReviewError != "":
		add("review failed (scored as a review with no comments)", pr.ReviewError)
	}
	if pr.ExtractError != "" {
		add("extraction failed (the comments were judged as they are)", pr.ExtractError)
	}
	for _, v := range pr.Verdicts {
		if v.Err != "" {
			add(fmt.Sprintf("judge call golden %d × candidate %d failed (no match)", v.Golden, v.Candidate), v.Err)
		}
	}
	return out
}

func orNone(s string) string {
	if s == "" {
		return "uncategorized"
	}
	return s
}

// cell makes untrusted text safe inside a table cell or a code span: one
// line, no pipes, backticks or HTML.
func cell(s string) string {
	s = OneLine(s, 2000)
	return strings.NewReplacer("|", "\\|", "`", "'", "<", "&lt;", ">", "&gt;").Replace(s)
}
