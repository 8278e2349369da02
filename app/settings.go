package app

import (
	"errors"
	"fmt"
	"slices"

	"github.com/review-my-code-bot/rmc/config"
	"github.com/review-my-code-bot/rmc/outcome"
	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/summary"
)

// errConfigFile stops a run whose config file has a bad value that touches
// the merge gate.
var errConfigFile = errors.New("the config file has a bad value that touches the merge gate")

// applyConfigFile layers the base branch's .github/rmc.yml under the inputs
// and logs its problems. It fails when a bad value touches the gate: the run
// must not gate on settings nobody chose.
func applyConfigFile(log *Log, cfg config.Config, snap snapshot.Snapshot) (config.Config, error) {
	cfg = cfg.WithFile(snap.Config.Path, snap.Config.Text)
	for _, p := range cfg.File.Problems {
		if slices.Contains(cfg.File.Unknown, p) {
			log.Warningf("%s", p) // a typo: the file's other settings apply
			continue
		}
		log.Errorf("%s", p)
	}
	if snap.Config.ChangedByPR {
		log.Noticef("this pull request changes %s; it is reviewed under the base branch's version", snap.Config.Name())
	}
	if cfg.File.Fatal {
		return cfg, errConfigFile
	}
	return cfg, nil
}

func configFailure(snap snapshot.Snapshot, cfg config.Config) failure {
	return failure{code: outcome.ExitUsage, title: fmt.Sprintf("Invalid %s on the base branch: the run did nothing", snap.Config.Name()), problems: cfg.File.Problems,
		hint: "A bad threshold, ignore_paths, passes or max_run_tokens would change what gates the merge, so the run stops. Fix the file on the base branch (its keys are described in the action's docs/inputs.md and in rmc.schema.json)."}
}

// reportSettings is what the job summary shows of the run's settings.
func reportSettings(cfg config.Config) summary.Settings {
	out := summary.Settings{Problems: cfg.File.Problems, Language: cfg.Language, Prices: cfg.ModelPrices}
	for _, s := range cfg.Settings() {
		out.Effective = append(out.Effective, summary.Setting{Key: s.Key, Value: s.Value, Source: summarySource[s.Source]})
	}
	return out
}

// summarySource is each source of a setting as the summary names it.
var summarySource = map[config.Source]summary.Source{
	config.SourceDefault: summary.FromDefault,
	config.SourceInput:   summary.FromInput,
	config.SourceFile:    summary.FromFile,
}
