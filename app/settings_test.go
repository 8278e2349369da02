package app

import (
	"reflect"
	"testing"

	"github.com/review-my-code-bot/rmc/config"
	"github.com/review-my-code-bot/rmc/summary"
)

// The summary is told every setting, each with where it came from, the
// file's problems, the language and the prices.
func TestReportSettings(t *testing.T) {
	t.Parallel()
	defs := config.Defaults()
	defs["max_run_tokens"], defs["model_prices"] = "5000", `{"input": 3, "output": 15}`
	cfg, err := config.Load(func(k string) string { return defs[k] }, false)
	if err != nil {
		t.Fatal(err)
	}
	cfg = cfg.WithFile(".github/rmc.yml", "language: French\nbogus: 1\n")
	got := reportSettings(cfg)
	if len(got.Effective) != len(config.Keys) || got.Language != "French" || got.Prices == nil || len(got.Problems) != 1 {
		t.Fatalf("settings %+v", got)
	}
	want := map[string]summary.Source{"max_run_tokens": summary.FromInput, "language": summary.FromFile, "passes": summary.FromDefault}
	for _, s := range got.Effective {
		if w, ok := want[s.Key]; ok && s.Source != w {
			t.Errorf("%s from %q, want %q", s.Key, s.Source, w)
		}
	}
	for src := range map[config.Source]bool{config.SourceDefault: true, config.SourceInput: true, config.SourceFile: true} {
		if summarySource[src] == "" {
			t.Errorf("source %q has no name in the summary", src)
		}
	}
}

// The tasks receive the run's settings whole, as the configuration read
// them (inputs under the file), not field by field.
func TestExecutionReceivesTheSettingsWhole(t *testing.T) {
	t.Parallel()
	defs := config.Defaults()
	defs["notify_agent"], defs["enable_human_escalation"], defs["human_reviewers"] = "@claude", "true", "carol"
	defs["review_manual_trigger_enable_end_comment"] = "false"
	cfg, err := config.Load(func(k string) string { return defs[k] }, false)
	if err != nil {
		t.Fatal(err)
	}
	cfg = cfg.WithFile(".github/rmc.yml", "language: French\nwalkthrough_diagram: true\nchecks:\n  - {name: no panics, instructions: no panic calls, mode: error}\n")
	opts := Pipeline{}.executionConfig(&runRecord{cfg: cfg}).Options
	if !reflect.DeepEqual(opts.Run, cfg.Run) || opts.Language != "French" || !opts.WalkthroughDiagram || len(opts.Checks) != 1 || opts.NotifyAgent != "@claude" || opts.ManualEndComment {
		t.Errorf("the tasks' settings %+v, the configuration's %+v", opts.Run, cfg.Run)
	}
	if opts.Lease != cfg.ReviewTimeout {
		t.Errorf("lease %s, the run's timeout %s", opts.Lease, cfg.ReviewTimeout)
	}
}
