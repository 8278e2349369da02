package benchmark

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"sort"
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
	Measure         string   `json:"measure"`
	Note            string   `json:"note"`
	Tools           []struct {
		Name string  `json:"name"`
		F1   float64 `json:"f1"`
	} `json:"tools"`
}

//go:embed leaderboard.json
var leaderboardJSON []byte

// PublishedLeaderboard is the embedded leaderboard.json.
func PublishedLeaderboard() (Leaderboard, error) {
	var b Leaderboard
	if err := json.Unmarshal(leaderboardJSON, &b); err != nil {
		return b, fmt.Errorf("leaderboard.json: %w", err)
	}
	if b.Source == "" || b.Judge == "" || b.Set == "" || b.SetPRs <= 0 || len(b.Tools) == 0 || !b.IsJudge(b.JudgeOpenRouter) {
		return b, fmt.Errorf("leaderboard.json: source, judge, set, set_prs and tools are required, and judge_openrouter is one of judge_names")
	}
	return b, nil
}

// IsJudge reports whether model is the leaderboard's judge by one of its
// names.
func (b Leaderboard) IsJudge(model string) bool {
	return model == b.Judge || known(b.JudgeNames, model)
}

// Incomparable lists why r cannot be ranked beside board; none means it
// was measured like the leaderboard: the same set, whole, with the same
// judge and method.
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
	if !strings.HasPrefix(r.Method.Prompts.Source, CRBRepo+"@") {
		add("its judge and extraction prompts are %s, not the benchmark's", cell(r.Method.Prompts.Source))
	}
	if !r.Method.Extract {
		add("it skipped the extraction step, so each finding was one candidate")
	}
	if r.Method.Temperature != 0 {
		add("its judge ran at temperature %g, not 0", r.Method.Temperature)
	}
	return why
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
	fmt.Fprintf(&b, "- Judge: `%s` at temperature %g, prompts: %s\n", cell(r.JudgeModel), r.Method.Temperature, cell(r.Method.Prompts.Source))
	extract := "off (each finding is one candidate)"
	if r.Method.Extract {
		extract = "on (a model lists the single issues in all the findings; those are the candidates)"
	}
	fmt.Fprintf(&b, "- Method: extraction %s; matching: %s; PRs without golden comments are left out of precision and recall and counted as false alarms\n", extract, UpstreamRule)
	fmt.Fprintf(&b, "- Profile: **%s** (categories: %s; golden comments without a category count under every profile)\n", r.Profile, strings.Join(r.Profile.Categories(), ", "))
	fmt.Fprintf(&b, "- Engine: problem threshold %d, blocking threshold %d, %d review retr%s\n", r.Engine.ProblemThreshold, r.Engine.BlockingThreshold, r.Engine.Retries, map[bool]string{true: "y", false: "ies"}[r.Engine.Retries == 1])
	fmt.Fprintf(&b, "- %d of the set's %d PR(s), %d failed, %d kept from an earlier run; %d model calls (%d tokens) for the reviews, %d judge calls (%d tokens); %d GitHub requests; %.1f s\n\n",
		len(r.PRs), r.SetPRs, r.Failed, r.Cached, r.ReviewUsage.Requests, tokens(r.ReviewUsage), r.JudgeUsage.Requests, tokens(r.JudgeUsage), r.GitHubRequests, r.Seconds)

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
			fmt.Fprintf(&b, "| %s | %d | failed | | | | | %d | %d | %d | %d | %.1f |\n", cell(pr.PR), len(pr.Golden), pr.ReviewUsage.Requests, pr.JudgeUsage.Requests, tokens(pr.ReviewUsage), pr.GitHubRequests, pr.Seconds)
			continue
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d | %.1f |\n", cell(pr.PR), len(pr.Golden), len(pr.Findings), len(pr.Candidates), pr.Counts.TP, pr.Counts.FP, pr.Counts.FN,
			pr.ReviewUsage.Requests, pr.JudgeUsage.Requests, tokens(pr.ReviewUsage), pr.GitHubRequests, pr.Seconds)
	}
	r.details(&b)
	return b.String()
}

// leaderboard puts the run beside the published scores only when it was
// measured like them; otherwise it lists them apart and says why.
func (r *Results) leaderboard(b *strings.Builder, board Leaderboard) {
	fmt.Fprintf(b, "\n## The published leaderboard\n\n%s. Judge: `%s`. %s Source: %s\n\n", cell(board.Benchmark), cell(board.Judge), cell(board.Note), board.Source)
	why := r.Incomparable(board)
	type entry struct {
		name string
		f1   float64
		this bool
	}
	var rows []entry
	for _, t := range board.Tools {
		rows = append(rows, entry{cell(t.Name), t.F1, false})
	}
	if len(why) > 0 {
		b.WriteString("**This run is not ranked here**, because " + strings.Join(why, "; ") + ". Its numbers measure something other than the leaderboard's, so they are not put beside them.\n\n")
	} else {
		rows = append(rows, entry{fmt.Sprintf("**this run** (`%s`)", cell(r.Model)), 100 * r.Summary.Overall.F1, true})
		sort.SliceStable(rows, func(i, j int) bool { return rows[i].f1 > rows[j].f1 })
		b.WriteString("This run was measured like the leaderboard: the whole set, the same judge, prompts, extraction and matching rule.\n\n")
	}
	fmt.Fprintf(b, "| rank | tool | %s |\n|---:|---|---:|\n", cell(board.Measure))
	for i, e := range rows {
		f := fmt.Sprintf("%.1f", e.f1)
		if e.this {
			f = "**" + f + "**"
		}
		fmt.Fprintf(b, "| %d | %s | %s |\n", i+1, e.name, f)
	}
}

// details lists what was missed, what was noise and what failed.
func (r *Results) details(b *strings.Builder) {
	var missed, noise, failed []string
	for _, pr := range r.PRs {
		if pr.Error != "" {
			failed = append(failed, fmt.Sprintf("- %s: %s", cell(pr.PR), cell(OneLine(pr.Error, 300))))
			continue
		}
		for g, j := range pr.Matching.GoldenBy {
			if j < 0 && r.Profile.Includes(pr.Golden[g].Category) {
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
	section("Failed PRs", failed)
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
