// Package summary renders what a run did and found, or why it stopped: the
// job summary (Markdown for $GITHUB_STEP_SUMMARY) and the plan's log lines.
// The pipeline fills in a Report (or a Failure), the run's facts as plain
// values, and prints what it renders; nothing here reads or writes anything.
package summary

import (
	"fmt"
	"strings"
	"time"

	"github.com/review-my-code-bot/rmc/detector"
	"github.com/review-my-code-bot/rmc/event"
	"github.com/review-my-code-bot/rmc/execution"
	"github.com/review-my-code-bot/rmc/gate"
	"github.com/review-my-code-bot/rmc/llm"
	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/state"
)

// Report is what a run knows about its plan, rendered for the log and the
// job summary.
type Report struct {
	Repo     snapshot.Repo
	Event    event.Event
	PR       snapshot.PullRequest
	Bot      snapshot.Actor
	State    state.State
	Plan     detector.Plan
	Counts   snapshot.Counts
	Comments int
	Threads  int
	// Set after execution.
	Result *execution.Result
	Gate   *Gate
	After  *state.State // the PR's state after the run's writes
	// Warnings are the run's warnings (rate limits, missing permissions…).
	Warnings []string
	Usage    []llm.TaskUsage
	Total    llm.Usage
	// Config is the run's effective configuration; ConfigFile what the
	// snapshot read of .github/rmc.yml.
	Config     Settings
	ConfigFile snapshot.ConfigFile
	// Learnings is the learnings issue as the run read it; Learned what
	// the run recorded and did there.
	Learnings     state.Learnings
	Learned       *execution.LearnResult
	LearningNotes []string // commands carried out in the learnings issue
}

// Gate is the merge gate a run published.
type Gate struct {
	Verdict gate.Verdict
	// Gated is set when the run's automatic review gates the job: its
	// blocking findings fail it.
	Gated bool
}

func (r Report) trigger() string {
	t := string(r.Event.Name)
	if r.Event.Action != "" {
		t += "." + r.Event.Action
	}
	return t
}

// LogLines is the plan, one line per task or skip.
func (r Report) LogLines() []string {
	lines := []string{
		fmt.Sprintf("trigger %s on %s#%d (head %.7s, bot @%s)", r.trigger(), r.Repo, r.PR.Number, r.PR.HeadSHA, r.Bot.String()),
		fmt.Sprintf("read %d comments, %d review threads in %d requests (GraphQL cost %d)", r.Comments, r.Threads, r.Counts.Reads, r.Counts.GraphQLCost),
	}
	if r.Plan.RecordTrigger != nil {
		lines = append(lines, fmt.Sprintf("record: automatic review requested for %.7s", r.Plan.RecordTrigger.HeadSHA))
	}
	for i, t := range r.Plan.Tasks {
		lines = append(lines, fmt.Sprintf("task %d [%s] %s: %s", i+1, t.Kind(), t.Key, t.Reason))
	}
	for _, m := range r.Plan.Commands {
		lines = append(lines, fmt.Sprintf("command: answer @%s's %s (comment %d)", m.Author.Login, m.Command, m.Ref.ID))
	}
	if p := r.State.Pause; p != nil {
		lines = append(lines, "paused: "+p.Why())
	}
	for _, ref := range r.Plan.Explain {
		lines = append(lines, fmt.Sprintf("explain: manual request %s was dismissed by an automatic review; post the reply", ref))
	}
	for _, s := range r.Plan.Skipped {
		lines = append(lines, fmt.Sprintf("skip %s: %s", s.What, s.Why))
	}
	for _, f := range r.State.Reopens() {
		lines = append(lines, fmt.Sprintf("reopen: @%s resolved blocking finding %q, which does not clear it", f.Reopen.Login, f.Block.Title))
	}
	if len(r.Plan.Tasks) == 0 {
		lines = append(lines, "nothing pending")
	}
	return lines
}

// Markdown renders the job summary: what triggered the run, its tasks,
// the gate, the findings and what the review covered, then the details.
func (r Report) Markdown(dry bool) string {
	var b strings.Builder
	title := "review-my-code-bot"
	if dry {
		title += " — dry run (nothing was written)"
	}
	fmt.Fprintf(&b, "## %s\n\n", title)
	fmt.Fprintf(&b, "**%s** on [%s#%d](%s) %s — head `%.7s`, bot `@%s`\n\n", r.trigger(), r.Repo, r.PR.Number, r.PR.URL, mdEscape(r.PR.Title), r.PR.HeadSHA, r.Bot.String())
	r.tasksMarkdown(&b)
	r.gateMarkdown(&b)
	b.WriteString(r.findingsMarkdown())
	r.checksMarkdown(&b)
	r.coverageMarkdown(&b)
	r.resolutionsMarkdown(&b)
	r.learningsMarkdown(&b)
	r.settingsMarkdown(&b)
	list(&b, "<details><summary>Skipped</summary>", "</details>", r.Plan.Skipped, func(s detector.Skip) string {
		return fmt.Sprintf("**%s**: %s", mdEscape(s.What), mdEscape(s.Why))
	})
	list(&b, fmt.Sprintf("⚠️ **%d warning(s)**", len(r.Warnings)), "", r.Warnings, mdEscape)
	list(&b, "<details><summary>Notices</summary>", "</details>", r.State.Notices, mdEscape)
	fmt.Fprintf(&b, "<sub>Read %d comments and %d review threads in %d GitHub requests (GraphQL cost %d).</sub>\n", r.Comments, r.Threads, r.Counts.Reads, r.Counts.GraphQLCost)
	return b.String()
}

// list writes items as a bulleted list under head (and above foot), or
// nothing when there are none.
func list[T any](b *strings.Builder, head, foot string, items []T, line func(T) string) {
	if len(items) == 0 {
		return
	}
	b.WriteString(head + "\n\n")
	for _, it := range items {
		fmt.Fprintf(b, "- %s\n", line(it))
	}
	if foot != "" {
		b.WriteString("\n" + foot + "\n\n")
	} else {
		b.WriteString("\n")
	}
}

// tasksMarkdown is the plan's table, with each task's result and tokens
// once it ran.
func (r Report) tasksMarkdown(b *strings.Builder) {
	switch {
	case len(r.Plan.Tasks) == 0:
		b.WriteString("Nothing pending: every question is answered, every reply on a finding has its answer, and no review is owed.\n\n")
		return
	case r.Result == nil:
		b.WriteString("| # | Task | Why |\n|---|---|---|\n")
		for i, t := range r.Plan.Tasks {
			fmt.Fprintf(b, "| %d | %s `%s` | %s |\n", i+1, t.Kind().Label(), t.Key, mdEscape(t.Reason))
		}
		b.WriteString("\n")
		return
	}
	b.WriteString("| # | Task | Why | Result | Tokens (prompt / cached / out) |\n|---|---|---|---|---|\n")
	for i, o := range r.Result.Outcomes {
		result := "✅ " + o.Note
		switch {
		case o.Err != nil:
			result = "❌ " + o.Err.Error()
		case o.Warned:
			result = "⚠️ " + o.Note
		}
		if o.URL != "" {
			result += fmt.Sprintf(" ([link](%s))", o.URL)
		}
		u := r.usage(o.Task.Key)
		fmt.Fprintf(b, "| %d | %s `%s` | %s | %s | %d / %d / %d |\n", i+1, o.Task.Kind().Label(), o.Task.Key, mdEscape(o.Task.Reason), mdEscape(result), u.PromptTokens, u.CachedTokens, u.CompletionTokens)
	}
	// Calls no task owns: fix checks of resolutions that did not count,
	// made before the tasks run.
	if n, u := r.runLevel(); n > 0 {
		fmt.Fprintf(b, "| | 🔁 resolutions | %d fix check(s) of findings resolved by someone whose resolution does not count | | %d / %d / %d |\n", n, u.PromptTokens, u.CachedTokens, u.CompletionTokens)
	}
	if r.Total.Requests > 0 {
		cost := ""
		if p := r.Config.Prices; p != nil {
			cost = fmt.Sprintf("$%.4f at the configured model_prices", r.Total.Cost(*p))
		}
		if w := r.Total.RateLimitWait; w > 0 {
			cost = strings.TrimPrefix(cost+fmt.Sprintf("; waited %v for the model endpoint's rate limits", w.Round(time.Second)), "; ")
		}
		fmt.Fprintf(b, "| | **run** | one session, %d model calls | %s | **%d / %d / %d** |\n", r.Total.Requests, cost, r.Total.PromptTokens, r.Total.CachedTokens, r.Total.CompletionTokens)
	}
	b.WriteString("\n")
	for _, o := range r.Result.Outcomes {
		if o.Stats != "" && o.Err == nil {
			// Counts and fixed keys only: nothing anyone wrote.
			b.WriteString("### 📊 Precision in this repository\n\n" + o.Stats + "\n")
		}
	}
}

// gateMarkdown states the merge gate this run set, or, before it ran,
// whether its review gates the merge.
func (r Report) gateMarkdown(b *strings.Builder) {
	switch {
	case r.Gate != nil && r.Gate.Verdict.State == gate.Failure:
		fmt.Fprintf(b, "🔴 **Merge gate: failure** — %s", mdEscape(r.Gate.Verdict.Description))
		if r.Gate.Gated {
			b.WriteString(". This automatic review fails the job.\n\n")
		} else {
			b.WriteString(". Shown on the `rmc/merge-gate` status; this run does not fail the job.\n\n")
		}
	case r.Gate != nil && r.Gate.Verdict.State == gate.Pending:
		fmt.Fprintf(b, "⏳ **Merge gate: pending** — %s.\n\n", mdEscape(r.Gate.Verdict.Description))
	case r.Gate != nil && r.Gate.Verdict.State == gate.Success:
		fmt.Fprintf(b, "🟢 **Merge gate: success** — %s.\n\n", mdEscape(r.Gate.Verdict.Description))
	case r.Plan.Gate():
		b.WriteString("🚦 This run's review **gates the merge**: blocking findings fail the job.\n\n")
	}
	if blocking := r.State.OpenBlocking(); r.Gate == nil && len(blocking) > 0 {
		fmt.Fprintf(b, "🔴 %d open blocking finding(s) on the PR before this run.\n\n", len(blocking))
	}
}

// checksMarkdown is the table of the repository's checks as this run's
// automatic review evaluated them.
func (r Report) checksMarkdown(b *strings.Builder) {
	if r.Result == nil {
		return
	}
	for _, o := range r.Result.Outcomes {
		if len(o.Checks) == 0 {
			continue
		}
		b.WriteString("**Checks** (from the base branch's configuration)\n\n| Check | Mode | Result | Why |\n|---|---|---|---|\n")
		for _, c := range o.Checks {
			why := c.Reason
			for _, l := range c.Locations {
				why += " " + l.String()
			}
			fmt.Fprintf(b, "| `%s` | %s | %s | %s |\n", mdEscape(c.Check.Name), c.Check.Mode, execution.VerdictLabel(c), mdEscape(why))
		}
		b.WriteString("\n")
	}
}

// coverageMarkdown lists what the run's review did not read, and why, and
// the blocking findings whose thread was deleted.
func (r Report) coverageMarkdown(b *strings.Builder) {
	if r.Result != nil {
		for _, o := range r.Result.Outcomes {
			if len(o.Skipped)+len(o.Unreviewed) == 0 {
				continue
			}
			fmt.Fprintf(b, "<details><summary>Not reviewed by %s (%d skipped, %d not covered)</summary>\n\n", o.Task.Key, len(o.Skipped), len(o.Unreviewed))
			for _, s := range o.Skipped {
				fmt.Fprintf(b, "- %s: %s\n", mdEscape(s.Path), mdEscape(s.Why))
			}
			for _, p := range o.Unreviewed {
				fmt.Fprintf(b, "- %s: not seen by every pass (the next run reviews it; the gate waits)\n", mdEscape(p))
			}
			b.WriteString("\n</details>\n\n")
		}
	}
	st := r.State
	if r.After != nil {
		st = *r.After
	}
	if n := len(st.WaivedBy); n > 0 {
		fmt.Fprintf(b, "🏳️ **%d finding(s) waived** by a maintainer's `@rmc-bot resolve`; they no longer hold the gate:", n)
		for _, f := range st.Findings {
			if w, ok := st.WaivedBy[f.Block.ID]; ok {
				fmt.Fprintf(b, " `%s` (@%s)", mdEscape(f.Block.ID), mdEscape(w.By))
			}
		}
		b.WriteString("\n\n")
	}
	if gone := st.Missing(); len(gone) > 0 {
		fmt.Fprintf(b, "🗑️ **%d blocking finding(s) with a deleted thread** keep holding the gate. A maintainer can waive one with `@rmc-bot waive <id>`:", len(gone))
		for _, f := range gone {
			fmt.Fprintf(b, " `%s`", mdEscape(f.ID))
		}
		b.WriteString("\n\n")
	}
}

// usage sums the model usage recorded for a task: every call labelled
// with its key (a review's passes and fix checks included).
func (r Report) usage(key string) llm.Usage {
	var u llm.Usage
	for _, t := range r.Usage {
		if t.Task == key {
			u = u.Add(t.Usage)
		}
	}
	return u
}

// runLevel counts the model calls no task owns (Label.Task ""): the fix
// checks of resolutions that did not count, made before the tasks.
func (r Report) runLevel() (calls int, u llm.Usage) {
	for _, t := range r.Usage {
		if t.Task == "" {
			calls, u = calls+1, u.Add(t.Usage)
		}
	}
	return calls, u
}

// mdEscape keeps user text from breaking a table row or starting markup.
func mdEscape(s string) string {
	s = strings.NewReplacer("\r\n", " ", "\r", " ", "\n", " ").Replace(s) // markdown's line endings
	s = strings.ReplaceAll(s, "|", "\\|")
	return strings.ReplaceAll(s, "<", "&lt;")
}
