package summary

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/sanitize"
	"github.com/review-my-code-bot/rmc/state"
)

// maxListed bounds each list of findings in the job summary.
const maxListed = 50

// findingsMarkdown lists the PR's open findings for the job summary: the
// blocking ones, each with where it is, a link to its thread and what
// unblocks it, then the others, collapsed. Titles and paths are untrusted
// (a model wrote the one, a developer named the other) and are escaped.
func (r Report) findingsMarkdown() string {
	st := r.State // a dry run lists what is open now
	if r.Gate != nil {
		if r.After == nil {
			return "" // the run wrote, and the PR could not be read again
		}
		st = *r.After
	}
	var blocking, other []state.Finding
	for _, f := range st.Findings {
		switch {
		case f.Blocks():
			blocking = append(blocking, f)
		case f.Open() && f.WaivedBy == "": // waived ones are listed with the waivers
			other = append(other, f)
		}
	}
	var b strings.Builder
	if len(blocking) > 0 {
		fmt.Fprintf(&b, "### Blocking findings (%d)\n\n", len(blocking))
		b.WriteString("Each holds the `rmc/merge-gate` status red until it is unblocked.\n\n")
		listFindings(&b, blocking, true)
		b.WriteString("\n")
	}
	if len(other) > 0 {
		fmt.Fprintf(&b, "<details><summary>Open non-blocking findings (%d)</summary>\n\n", len(other))
		listFindings(&b, other, false)
		b.WriteString("\n</details>\n\n")
	}
	return b.String()
}

func listFindings(b *strings.Builder, fs []state.Finding, unblock bool) {
	for i, f := range fs {
		if i == maxListed {
			fmt.Fprintf(b, "- … and %d more\n", len(fs)-maxListed)
			return
		}
		title := f.Block.Title
		if title == "" {
			title = "(untitled finding)"
		}
		fmt.Fprintf(b, "- **%s**", sanitize.InlineMarkdown(title))
		if w := where(f); w != "" {
			fmt.Fprintf(b, " — %s", sanitize.InlineMarkdown(w))
		}
		if link := threadLink(f); link != "" {
			fmt.Fprintf(b, " — [thread](%s)", link)
		}
		if unblock {
			fmt.Fprintf(b, "  \n  %s", unblocks(f))
		}
		b.WriteString("\n")
	}
}

// where is the finding's path:line.
func where(f state.Finding) string {
	path, line := f.Thread.Path, f.Thread.Line
	if path == "" {
		path = f.Block.Path
	}
	if line == 0 {
		line = f.Block.Line
	}
	if line > 0 {
		return fmt.Sprintf("%s:%d", path, line)
	}
	return path
}

// threadLink is the URL of the thread's root comment, if it is a web URL.
func threadLink(f state.Finding) string {
	root := f.Thread.Root()
	if root == nil {
		return ""
	}
	u, err := url.Parse(root.URL)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return ""
	}
	// Parentheses and spaces would end a Markdown link destination.
	return strings.NewReplacer("(", "%28", ")", "%29", " ", "%20").Replace(u.String())
}

// unblocks says what turns a blocking finding's gate green, by its status.
func unblocks(f state.Finding) string {
	switch f.Status {
	case rmcoc.FindingAcknowledged:
		return "A fix was promised: push it (the bot checks the push), or a maintainer resolves the thread."
	case rmcoc.FindingDisputed:
		return "Disputed, and the bot holds its ground: push a fix, reply in the thread with more to go on, or a maintainer resolves it."
	case rmcoc.FindingEscalated:
		return "Escalated to the humans named in the thread: a maintainer resolves it, or push a fix."
	case rmcoc.FindingOpen, rmcoc.FindingResolved:
		// No step of their own: the usual ways below.
	}
	return "Push a fix, reply in the thread to dispute it, or a maintainer resolves it."
}
