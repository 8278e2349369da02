package bench

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
	Measure   string `json:"measure"`
	Note      string `json:"note"`
	Tools     []struct {
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
	if b.Source == "" || b.Judge == "" || len(b.Tools) == 0 {
		return b, fmt.Errorf("leaderboard.json: source, judge and tools are required")
	}
	return b, nil
}

// Markdown renders report.md. Text from the model and the PRs is put in
// code spans or escaped so it cannot change the report's structure.
func (r *Results) Markdown(board Leaderboard) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Review benchmark: %s set\n\n", r.Set)
	fmt.Fprintf(&b, "- Model: `%s`; judge: `%s`\n", cell(r.Model), cell(r.JudgeModel))
	fmt.Fprintf(&b, "- Profile: **%s** (categories: %s; golden comments without a category count under every profile)\n", r.Profile, strings.Join(r.Profile.Categories(), ", "))
	fmt.Fprintf(&b, "- Engine: problem threshold %d, blocking threshold %d, %d review retr%s\n", r.Engine.ProblemThreshold, r.Engine.BlockingThreshold, r.Engine.Retries, map[bool]string{true: "y", false: "ies"}[r.Engine.Retries == 1])
	fmt.Fprintf(&b, "- %d PR(s), %d failed; %d model calls (%d tokens) for the reviews, %d judge calls (%d tokens); %d GitHub requests; %.1f s\n\n",
		len(r.PRs), r.Failed, r.ReviewUsage.Requests, tokens(r.ReviewUsage), r.JudgeUsage.Requests, tokens(r.JudgeUsage), r.GitHubRequests, r.Seconds)

	b.WriteString("## Scores\n\n| | PRs | TP | FP | FN | precision | recall | F1 | F2 |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	row := func(name string, s Score) {
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %s | %s | %s | %s |\n", name, s.PRs, s.TP, s.FP, s.FN, pct(s.Precision), pct(s.Recall), pct(s.F1), pct(s.F2))
	}
	for _, name := range r.Summary.RepoNames() {
		row(cell(name), r.Summary.Repos[name])
	}
	row("**overall**", r.Summary.Overall)

	r.leaderboard(&b, board)

	b.WriteString("\n## Per PR\n\n| PR | golden | findings | TP | FP | FN | model calls | judge calls | review tokens | GitHub requests | seconds |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, pr := range r.PRs {
		if pr.Error != "" {
			fmt.Fprintf(&b, "| %s | %d | failed | | | | %d | %d | %d | %d | %.1f |\n", cell(pr.PR), len(pr.Golden), pr.ReviewUsage.Requests, pr.JudgeUsage.Requests, tokens(pr.ReviewUsage), pr.GitHubRequests, pr.Seconds)
			continue
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d | %d | %d | %d | %d | %.1f |\n", cell(pr.PR), len(pr.Golden), len(pr.Candidates), pr.Counts.TP, pr.Counts.FP, pr.Counts.FN,
			pr.ReviewUsage.Requests, pr.JudgeUsage.Requests, tokens(pr.ReviewUsage), pr.GitHubRequests, pr.Seconds)
	}
	r.details(&b)
	return b.String()
}

func (r *Results) leaderboard(b *strings.Builder, board Leaderboard) {
	fmt.Fprintf(b, "\n## Beside the published leaderboard\n\n%s. Judge: `%s`. %s Source: %s\n\n", cell(board.Benchmark), cell(board.Judge), cell(board.Note), board.Source)
	if r.Set != "crb" {
		b.WriteString("This run used the **local** set, not the public one: its numbers say how this model and these settings do on the team's planted problems, and are not directly comparable with the leaderboard. Run `--set crb` for that.\n\n")
	} else if r.JudgeModel != board.Judge {
		fmt.Fprintf(b, "This run's judge (`%s`) is not the leaderboard's: judges differ in how generously they match, so read the comparison as approximate.\n\n", cell(r.JudgeModel))
	}
	type entry struct {
		name string
		f1   float64
		this bool
	}
	var rows []entry
	for _, t := range board.Tools {
		rows = append(rows, entry{cell(t.Name), t.F1, false})
	}
	rows = append(rows, entry{fmt.Sprintf("**this run** (`%s`, %s profile)", cell(r.Model), r.Profile), 100 * r.Summary.Overall.F1, true})
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].f1 > rows[j].f1 })
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
				noise = append(noise, fmt.Sprintf("- %s: %s", cell(pr.PR), cell(OneLine(pr.Candidates[j].Text, 200))))
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
