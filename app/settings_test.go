package app

import (
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
