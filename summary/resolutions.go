package summary

import (
	"fmt"
	"strings"

	"github.com/review-my-code-bot/rmc/state"
)

// resolutionLines says, one line each, whose resolution of a finding's thread
// counted and whose did not, and what this run did about the latter.
func (r Report) resolutionLines() []string {
	var lines []string
	where := func(f state.Finding) string {
		return fmt.Sprintf("%q (%s:%d)", f.Block.Title, f.Thread.Path, f.Block.Line)
	}
	for _, f := range r.State.Findings {
		if f.ResolvedBy != nil {
			lines = append(lines, fmt.Sprintf("✅ @%s (write access, not the PR's author) resolved blocking finding %s: it no longer blocks", f.ResolvedBy.Login, where(f)))
		}
		if f.Unjudged != "" {
			lines = append(lines, fmt.Sprintf("⏸️ @%s resolved blocking finding %s; their permission could not be read, so it still blocks", f.Unjudged, where(f)))
		}
		if f.Tampered {
			lines = append(lines, fmt.Sprintf("⚠️ finding %s: its comment was edited by someone other than the bot, so it holds the merge gate until a maintainer's `@rmc-bot resolve` given after the edit", where(f)))
		}
	}
	done := map[string]bool{}
	if r.Result != nil {
		for _, res := range r.Result.Resolutions {
			f := res.Finding
			done[f.Block.ID] = true
			who := "@" + f.Reopen.Login
			if f.Reopen.Login == "" {
				who = "someone"
			}
			switch {
			case res.Fixed && res.Err == nil:
				lines = append(lines, fmt.Sprintf("✅ %s resolved blocking finding %s; the code changed and the fix is verified, so the bot resolved it", who, where(f)))
			case res.Err != nil:
				lines = append(lines, fmt.Sprintf("🔒 %s resolved blocking finding %s, which does not clear it; reopening the thread failed: %v", who, where(f), res.Err))
			case res.Replied:
				lines = append(lines, fmt.Sprintf("🔒 %s resolved blocking finding %s, which does not clear it: the thread is reopened, with a reply saying what unblocks it", who, where(f)))
			default:
				lines = append(lines, fmt.Sprintf("🔒 %s resolved blocking finding %s again: the thread is reopened (the reply was already posted)", who, where(f)))
			}
		}
	}
	for _, f := range r.State.Reopens() {
		if !done[f.Block.ID] {
			lines = append(lines, fmt.Sprintf("🔒 @%s resolved blocking finding %s, which does not clear it: the thread is to be reopened", f.Reopen.Login, where(f)))
		}
	}
	return lines
}

// resolutionsMarkdown is the job summary's section on resolutions.
func (r Report) resolutionsMarkdown(b *strings.Builder) {
	lines := r.resolutionLines()
	if len(lines) == 0 {
		return
	}
	b.WriteString("**Resolutions**\n\n")
	for _, l := range lines {
		fmt.Fprintf(b, "- %s\n", mdEscape(l))
	}
	b.WriteString("\n")
}
