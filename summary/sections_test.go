package summary_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/config"
	"github.com/review-my-code-bot/rmc/detector"
	"github.com/review-my-code-bot/rmc/execution"
	"github.com/review-my-code-bot/rmc/gate"
	"github.com/review-my-code-bot/rmc/internal/golden"
	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/state"
	"github.com/review-my-code-bot/rmc/summary"
)

// settingsConfig is the inputs' defaults under a config file with a bad
// key, a language the bot has no fixed texts in and a glob with markup.
func settingsConfig(t *testing.T) summary.Settings {
	t.Helper()
	defs := config.Defaults()
	cfg, err := config.Load(func(name string) string { return defs[name] }, false)
	if err != nil {
		t.Fatal(err)
	}
	cfg = cfg.WithFile(".github/rmc.yml", "problem_score_threshold: 7\nlanguage: Klingon\nbogus_key: <b>1</b>\nignore_paths:\n  - docs/**\n  - \"a|b`<c>`\"\n")
	out := summary.Settings{Problems: cfg.File.Problems, Language: cfg.Language, Prices: cfg.ModelPrices}
	for _, s := range cfg.Settings() {
		out.Effective = append(out.Effective, summary.Setting{Key: s.Key, Value: s.Value, Source: summary.Source(s.Source)})
	}
	return out
}

// resolved is a blocking finding on a thread, resolved by someone.
func resolved(id, title string, line int) state.Finding {
	return state.Finding{Block: rmcoc.Finding{ID: id, Title: title, Line: line, Blocking: true}, Status: rmcoc.FindingOpen,
		Thread: snapshot.Thread{Path: "src/a|b.go", Line: line}}
}

// The sections after the findings: resolutions (whose counted, whose did
// not and what the run did), waivers and the learnings issue.
func TestReportSections(t *testing.T) {
	t.Parallel()
	r := baseReport()
	r.Plan = detector.Plan{Tasks: []detector.Task{disputeTask}}
	byMaint, again, fixed, failed := resolved("f-1", "Race <here>", 3), resolved("f-2", "Leak", 4), resolved("f-3", "Fixed one", 5), resolved("f-4", "Stuck", 6)
	byMaint.ResolvedBy = &snapshot.Actor{Login: "maint"}
	unjudged := resolved("f-5", "Unjudged", 7)
	unjudged.Unjudged = "carol"
	tampered := resolved("f-6", "Edited | by someone", 8)
	tampered.Tampered = true
	pending := resolved("f-7", "To reopen", 9)
	pending.Reopen = &snapshot.Actor{Login: "alice"}
	again.Reopen, fixed.Reopen, failed.Reopen = &snapshot.Actor{Login: "alice"}, &snapshot.Actor{}, &snapshot.Actor{Login: "bob"}
	r.State = state.State{Bot: bot, Findings: []state.Finding{byMaint, unjudged, tampered, pending, again, fixed, failed}}
	r.Result = &execution.Result{Outcomes: []execution.Outcome{{Task: disputeTask, Note: "maintained"}},
		Resolutions: []execution.Resolution{{Finding: fixed, Fixed: true}, {Finding: failed, Err: errors.New("HTTP 502 | bad gateway")},
			{Finding: again, Reopened: true}}}
	after := state.State{Bot: bot, Findings: []state.Finding{resolved("f-8", "Waived one", 2)},
		WaivedBy: map[string]state.Waiver{"f-8": {FindingID: "f-8", By: "maint"}}, Waived: map[string]bool{"f-8": true}}
	after.Findings[0].WaivedBy = "maint"
	r.After = &after
	r.Gate = &summary.Gate{Verdict: gate.Verdict{State: gate.Success, Description: "1234567 reviewed: no open blocking findings"}}
	r.Learnings = state.Learnings{Issue: 12, URL: "https://github.com/o/r/issues/12", Notices: []string{"skipped a learning pasted by @mallory <img>"},
		Active:    []rmcoc.Learning{{ID: "l-1", Origin: rmcoc.LearnedConcession}, {ID: "l-2", Origin: rmcoc.LearnedRemember, By: "maint"}, {ID: "l-3", Origin: rmcoc.LearnedResolution}},
		Confirmed: map[string]string{"l-3": "maint"}}
	r.Learned = &execution.LearnResult{IssueURL: "https://github.com/o/r/issues/12", Notes: []string{"recorded 1 learning"},
		Recorded: []rmcoc.Learning{{ID: "l-4", Origin: rmcoc.LearnedConcession, PathGlob: "src/`**`", Title: "Not a race | here"}}}
	r.LearningNotes = []string{"forgot l-0 (asked by @maint)"}
	md := r.Markdown(false)
	golden.Assert(t, "report_sections.golden", md)
	for _, want := range []string{
		"✅ @maint (write access, not the PR's author) resolved blocking finding \"Race &lt;here>\" (src/a\\|b.go:3): it no longer blocks",
		"✅ someone resolved blocking finding \"Fixed one\"",
		"reopening the thread failed: HTTP 502 \\| bad gateway",
		"🔒 @alice resolved blocking finding \"To reopen\" (src/a\\|b.go:9), which does not clear it: the thread is to be reopened",
		"🏳️ **1 finding(s) waived**",
		"📚 **Learned 1 thing(s)**",
		"📚 3 active learning(s) in [the learnings issue](https://github.com/o/r/issues/12), 2 confirmed by a maintainer",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("summary lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "<img") {
		t.Errorf("people's text reaches the summary as HTML:\n%s", md)
	}
}

// The settings, with where each came from and the config file's problems.
// (Not a golden file: the table lists every key the config file knows.)
func TestReportSettings(t *testing.T) {
	t.Parallel()
	r := baseReport()
	r.PR.BaseSHA = "abcdef0123456789abcdef0123456789abcdef01"
	r.Config, r.ConfigFile = settingsConfig(t), snapshot.ConfigFile{Read: true, Path: ".github/rmc.yml", ChangedByPR: true}
	md := r.Markdown(true)
	for _, want := range []string{
		"⚠️ This pull request changes `.github/rmc.yml`: it is reviewed under the base branch's version; the change applies once merged.\n\n",
		"❌ **1 problem(s) in `.github/rmc.yml`** — these settings were ignored:\n\n- .github/rmc.yml: unknown key \"bogus_key\"",
		"🌐 Reviews, answers and dispute replies are written in Klingon; the bot's few fixed texts stay in English",
		"<details><summary>Settings</summary>\n\nRead `.github/rmc.yml` at the base commit `abcdef0`.\n\n| Setting | Value | From |\n|---|---|---|\n",
		"| `problem_score_threshold` | 7 | `.github/rmc.yml` |\n| `blocking_score_threshold` | 7 | default |\n",
		"| `ignore_paths` | docs/**, a\\|b'&lt;c>' | `.github/rmc.yml` |\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("summary lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "<c>") {
		t.Errorf("a setting's value reaches the summary as HTML:\n%s", md)
	}
	table := r.Settings()
	if !strings.HasPrefix(table, "Read `.github/rmc.yml` at the base commit `abcdef0`.") || !strings.Contains(md, table) {
		t.Errorf("the summary's settings table is not the one a configuration command answers with:\n%s", table)
	}
}

// Without a config file the settings say where they came from instead.
func TestReportSettingsWithoutFile(t *testing.T) {
	t.Parallel()
	r := baseReport()
	r.Config, r.ConfigFile = settingsConfig(t), snapshot.ConfigFile{Read: true}
	if got := r.Settings(); !strings.HasPrefix(got, "No `.github/rmc.yml` on the base branch: inputs and defaults apply.\n\n| Setting | Value | From |\n") {
		t.Errorf("settings without a file:\n%s", got)
	}
	r.ConfigFile = snapshot.ConfigFile{}
	if md := r.Markdown(true); strings.Contains(md, "Settings") {
		t.Errorf("a run that did not read the file shows settings:\n%s", md)
	}
}
