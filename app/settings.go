package app

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/review-my-code-bot/rmc/config"
	"github.com/review-my-code-bot/rmc/execution"
	"github.com/review-my-code-bot/rmc/glob"
	"github.com/review-my-code-bot/rmc/snapshot"
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
		log.Errorf("%s", p)
	}
	if snap.Config.ChangedByPR {
		log.Noticef("this pull request changes %s; it is reviewed under the base branch's version", configName(snap.Config))
	}
	if cfg.File.Fatal {
		return cfg, errConfigFile
	}
	return cfg, nil
}

func configFailure(snap snapshot.Snapshot, cfg config.Config) failure {
	return failure{code: ExitUsage, title: fmt.Sprintf("Invalid %s on the base branch: the run did nothing", configName(snap.Config)), problems: cfg.File.Problems,
		hint: "A bad threshold, ignore_paths, passes or max_run_tokens would change what gates the merge, so the run stops. Fix the file on the base branch (its keys are described in the README and in rmc.schema.json)."}
}

func configName(cf snapshot.ConfigFile) string {
	if cf.Path != "" {
		return cf.Path
	}
	return snapshot.ConfigPaths[0]
}

// repoInstructions are the config file's instructions and those of its
// path_instructions whose glob matches a changed file.
func repoInstructions(cfg config.Config, files []snapshot.ChangedFile) string {
	parts := []string{}
	if cfg.Instructions != "" {
		parts = append(parts, cfg.Instructions)
	}
	for _, pi := range cfg.PathInstructions {
		g, err := glob.Compile(pi.Path)
		if err != nil {
			continue // WithFile already reported it
		}
		if slices.ContainsFunc(files, func(f snapshot.ChangedFile) bool { return g.Match(f.Path) }) {
			parts = append(parts, fmt.Sprintf("For files matching %s:\n%s", pi.Path, pi.Instructions))
		}
	}
	return strings.Join(parts, "\n\n")
}

// settingsMarkdown shows the effective settings and where each came from.
func (r Report) settingsMarkdown(b *strings.Builder) {
	cf := r.ConfigFile
	if !cf.Read {
		return
	}
	if cf.ChangedByPR {
		fmt.Fprintf(b, "⚠️ This pull request changes `%s`: it is reviewed under the base branch's version; the change applies once merged.\n\n", configName(cf))
	}
	if n := len(r.Config.File.Problems); n > 0 {
		fmt.Fprintf(b, "❌ **%d problem(s) in `%s`** — these settings were ignored:\n\n", n, configName(cf))
		for _, p := range r.Config.File.Problems {
			fmt.Fprintf(b, "- %s\n", mdEscape(p))
		}
		b.WriteString("\n")
	}
	if l := r.Config.Language; l != "" && !execution.HasPhrases(l) {
		fmt.Fprintf(b, "🌐 Reviews, answers and dispute replies are written in %s; the bot's few fixed texts stay in English (they exist in English, French, German, Spanish, Portuguese and Italian).\n\n", mdEscape(l))
	}
	b.WriteString("<details><summary>Settings</summary>\n\n")
	r.settingsTable(b)
	b.WriteString("\n</details>\n\n")
}

// settingsTable is the effective settings, one row each with where it came
// from: in the job summary, and the answer to a configuration command.
func (r Report) settingsTable(b *strings.Builder) {
	cf := r.ConfigFile
	switch {
	case !cf.Read:
	case cf.Path == "":
		fmt.Fprintf(b, "No `%s` on the base branch: inputs and defaults apply.\n\n", snapshot.ConfigPaths[0])
	default:
		fmt.Fprintf(b, "Read `%s` at the base commit `%.7s`.\n\n", cf.Path, r.PR.BaseSHA)
	}
	b.WriteString("| Setting | Value | From |\n|---|---|---|\n")
	for _, s := range r.Config.Settings() {
		from := string(s.Source)
		if s.Source == config.SourceFile {
			from = "`" + configName(cf) + "`"
		}
		fmt.Fprintf(b, "| `%s` | %s | %s |\n", s.Key, mdEscape(strings.ReplaceAll(s.Value, "`", "'")), from)
	}
}

// learningsMarkdown shows what the learnings issue holds and what this run
// learned or did there.
func (r Report) learningsMarkdown(b *strings.Builder) {
	ls, lr := r.Learnings, r.Learned
	if lr != nil && len(lr.Recorded) > 0 {
		fmt.Fprintf(b, "📚 **Learned %d thing(s)** in [the learnings issue](%s):\n\n", len(lr.Recorded), lr.IssueURL)
		for _, l := range lr.Recorded {
			fmt.Fprintf(b, "- `%s` (%s, `%s`): %s\n", l.ID, l.Origin, mdEscape(strings.ReplaceAll(l.PathGlob, "`", "'")), mdEscape(l.Title))
		}
		b.WriteString("\n")
	}
	notes := append(append([]string{}, r.LearningNotes...), ls.Notices...)
	if lr != nil {
		notes = append(notes, lr.Notes...)
	}
	if len(notes) > 0 {
		b.WriteString("<details><summary>Learnings issue</summary>\n\n")
		for _, n := range notes {
			fmt.Fprintf(b, "- %s\n", mdEscape(n))
		}
		b.WriteString("\n</details>\n\n")
	}
	switch {
	case ls.Issue == 0:
	case ls.Off:
		fmt.Fprintf(b, "📚 Learning is off: [the learnings issue](%s) is closed or not the bot's.\n\n", ls.URL)
	default:
		confirmed := 0
		for _, l := range ls.Active {
			if ls.ConfirmedBy(l) != "" {
				confirmed++
			}
		}
		fmt.Fprintf(b, "📚 %d active learning(s) in [the learnings issue](%s), %d confirmed by a maintainer; the others are hints for the model and suppress nothing.\n\n", len(ls.Active), ls.URL, confirmed)
	}
}
