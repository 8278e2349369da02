package summary

import (
	"fmt"
	"strings"

	"github.com/review-my-code-bot/rmc/execution"
	"github.com/review-my-code-bot/rmc/llm"
	"github.com/review-my-code-bot/rmc/snapshot"
)

// Settings is what the summary shows of the run's configuration.
type Settings struct {
	// Effective are the keys of .github/rmc.yml, in order, with the value
	// each has and where it came from.
	Effective []Setting
	// Problems are what reading the file found wrong; a setting with a
	// problem was left out.
	Problems []string
	Language string      // "" = English
	Prices   *llm.Prices // nil = not set: the summary shows no cost
}

// Setting is one effective setting.
type Setting struct {
	Key, Value string
	Source     Source
}

// Source is where a setting's value came from.
type Source string

// The sources, as the settings table names them; a value from the file is
// shown as the file's name.
const (
	FromDefault Source = "default"
	FromInput   Source = "input"
	FromFile    Source = "file"
)

// settingsMarkdown shows the effective settings and where each came from.
func (r Report) settingsMarkdown(b *strings.Builder) {
	cf := r.ConfigFile
	if !cf.Read {
		return
	}
	if cf.ChangedByPR {
		fmt.Fprintf(b, "⚠️ This pull request changes `%s`: it is reviewed under the base branch's version; the change applies once merged.\n\n", cf.Name())
	}
	if n := len(r.Config.Problems); n > 0 {
		fmt.Fprintf(b, "❌ **%d problem(s) in `%s`** — these settings were ignored:\n\n", n, cf.Name())
		for _, p := range r.Config.Problems {
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

// Settings is the settings table alone: the answer to a configuration
// command.
func (r Report) Settings() string {
	var b strings.Builder
	r.settingsTable(&b)
	return b.String()
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
	for _, s := range r.Config.Effective {
		from := string(s.Source)
		if s.Source == FromFile {
			from = "`" + cf.Name() + "`"
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
