package execution

import (
	"cmp"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/review-my-code-bot/rmc/prompts"
	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/sanitize"
	"github.com/review-my-code-bot/rmc/snapshot"
)

// Bounds that keep the walkthrough's prompt, answer, comment and block
// small at any file count: what does not fit is grouped and counted.
const (
	// maxNoteRunes cuts one file's line.
	maxNoteRunes = 160
	// maxPromptFiles is the characters of file lines the last call reads;
	// the rest go by directory, counted.
	maxPromptFiles = 40_000
	// maxPromptDirs bounds those directory lines.
	maxPromptDirs = 100
	// maxKeptChars bounds the lines the block keeps (a block holds 32 KB).
	maxKeptChars = 24_000
	// maxShownFiles is how many files the comment lists one a line; the
	// others are counted in their group.
	maxShownFiles = 250
	// maxGroups is how many of the model's groups are shown.
	maxGroups = 12
)

// walkEntry is one changed file as the walkthrough sees it.
type walkEntry struct {
	Path, Status string
	Add, Del     int
	Note         string // the review's line on it; "" when none was written
	Why          string // why its content is out of the review's scope
	Private      bool   // private_paths: never named to the model
}

// entries are the PR's files with the line the review wrote on each: this
// run's when its review read the file, else the one the block kept from an
// earlier run (a push rewrites only its own files' lines).
func (x *walkthroughRunner) entries(files []snapshot.ChangedFile) []walkEntry {
	kept := map[string]string{}
	for _, l := range x.kept {
		kept[l.Path] = l.Change
	}
	parsed, unread := ParseFiles(files)
	why := map[string]string{}
	for _, s := range unread {
		why[s.Path] = cmp.Or(x.scope.WhyPath(s.Path), s.Why)
	}
	for _, f := range parsed {
		why[f.Path()] = x.scope.Why(f)
	}
	out := make([]walkEntry, 0, len(files))
	for _, f := range files {
		e := walkEntry{Path: f.Path, Status: f.Status, Add: f.Additions, Del: f.Deletions, Why: why[f.Path],
			Private: x.scope.Private(f.Path) || f.PreviousPath != "" && x.scope.Private(f.PreviousPath)}
		if e.Why == "" {
			e.Note = shortLine(cmp.Or(x.read[f.Path], kept[f.Path]))
		}
		out = append(out, e)
	}
	return out
}

// shortLine is a model's line on one line, cut to maxNoteRunes.
func shortLine(s string) string {
	s = oneLine(s)
	if r := []rune(s); len(r) > maxNoteRunes {
		s = string(r[:maxNoteRunes-1]) + "…"
	}
	return s
}

func (e walkEntry) stat() string { return fmt.Sprintf("%s, +%d -%d", e.Status, e.Add, e.Del) }

// walkthroughData is the last call's data: a line per file from the
// review's reading (never the diff), a private file not even named, up to
// maxPromptFiles characters; the other files by directory, counted.
func walkthroughData(es []walkEntry, diagram bool) prompts.WalkthroughData {
	d := prompts.WalkthroughData{Diagram: diagram}
	size := 0
	type dir struct{ files, add, del int }
	rest := map[string]*dir{}
	var order []string
	for _, e := range es {
		if e.Private {
			continue
		}
		var line string
		switch {
		case e.Why != "":
			line = fmt.Sprintf("%s (%s; not reviewed: %s)", prompts.Path(e.Path), e.stat(), e.Why)
		case e.Note == "":
			line = fmt.Sprintf("%s (%s): not described yet", prompts.Path(e.Path), e.stat())
		default:
			line = fmt.Sprintf("%s (%s): %s", prompts.Path(e.Path), e.stat(), e.Note)
		}
		if size+len(line) <= maxPromptFiles {
			size += len(line) + 1
			d.Files = append(d.Files, line)
			continue
		}
		k := topDir(e.Path)
		if rest[k] == nil {
			rest[k] = &dir{}
			order = append(order, k)
		}
		rest[k].files, rest[k].add, rest[k].del = rest[k].files+1, rest[k].add+e.Add, rest[k].del+e.Del
	}
	for i, k := range order {
		if i == maxPromptDirs {
			d.More = append(d.More, fmt.Sprintf("and %d more directories", len(order)-i))
			break
		}
		d.More = append(d.More, fmt.Sprintf("%s (%d more files, +%d -%d)", prompts.Path(k), rest[k].files, rest[k].add, rest[k].del))
	}
	return d
}

// topDir is the first two directories of p ("src/api/" of
// "src/api/v1/x.go"), or "./" for a file at the root.
func topDir(p string) string {
	parts := strings.Split(path.Dir(p), "/")
	if parts[0] == "." {
		return "./"
	}
	return strings.Join(parts[:min(2, len(parts))], "/") + "/"
}

// keepLines are the lines the block keeps, in file order, up to
// maxKeptChars; dropped counts the described files whose line did not fit.
func keepLines(es []walkEntry) (kept []rmcoc.FileLine, dropped int) {
	size := 0
	for _, e := range es {
		if e.Note == "" {
			continue
		}
		if n := len(e.Path) + len(e.Note) + 32; size+n <= maxKeptChars {
			size += n
			kept = append(kept, rmcoc.FileLine{Path: e.Path, Change: e.Note})
			continue
		}
		dropped++
	}
	return kept, dropped
}

// grouped assigns each file to the first of the model's groups that names
// it or a directory holding it, the rest to "Other changes". A path the
// model made up matches nothing.
func grouped(a walkthroughAnswer, es []walkEntry) (purposes []string, members [][]walkEntry) {
	groups := a.Groups[:min(len(a.Groups), maxGroups)]
	members = make([][]walkEntry, len(groups)+1)
	for _, e := range es {
		i := slices.IndexFunc(groups, func(g fileGroup) bool { return e.Why == "" && !e.Private && names(g.Files, e.Path) })
		if i < 0 {
			i = len(groups)
		}
		members[i] = append(members[i], e)
	}
	for _, g := range groups {
		purposes = append(purposes, g.Purpose)
	}
	return append(purposes, ""), members
}

// names reports whether entries name p or a directory holding it.
func names(entries []string, p string) bool {
	for _, n := range entries {
		n = strings.TrimPrefix(strings.TrimSpace(n), "./")
		if n == p || strings.HasSuffix(n, "/") && strings.HasPrefix(p, n) {
			return true
		}
	}
	return false
}

// maxRenderChars bounds the listing in the comment, leaving room for the
// block within GitHub's limit.
const maxRenderChars = 28_000

// render is the walkthrough's text. Everything in it the model wrote is
// vetted and relayed (no HTML, no live mention); paths are shown as code,
// and only the PR's own: a path the model made up is left out, and a file
// no group names is listed under "Other changes". Past maxShownFiles files
// or maxRenderChars, a group's other files are counted, and it says so.
func (x *walkthroughRunner) render(a walkthroughAnswer, es []walkEntry, head string, dropped int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## 🧭 Walkthrough\n\n%s\n", x.fromModel(strings.TrimSpace(a.Summary)))
	if fit := strings.TrimSpace(a.IssueFit); fit != "" && x.issues {
		fmt.Fprintf(&b, "\n**The linked issue:** %s\n", x.fromModelLine(shortLine(fit)))
	}
	b.WriteString("\n### Changes\n")
	purposes, members := grouped(a, es)
	shown, counted := 0, 0
	for i, ms := range members {
		if len(ms) == 0 {
			continue
		}
		title := "Other changes"
		if i < len(purposes)-1 {
			title = x.fromModelLine(shortLine(purposes[i]))
		}
		fmt.Fprintf(&b, "\n**%s** (%d)\n", title, len(ms))
		for j, e := range ms {
			if shown == maxShownFiles || b.Len() >= maxRenderChars {
				fmt.Fprintf(&b, "- … and %d more in this group\n", len(ms)-j)
				counted += len(ms) - j
				break
			}
			shown++
			b.WriteString(x.fileLine(e) + "\n")
		}
	}
	fmt.Fprintf(&b, "\n**Review effort: %d/5**: %s\n", min(max(int(a.Effort), 1), 5), x.fromModelLine(shortLine(a.EffortWhy)))
	if d := diagram(a.Diagram); x.Diagram && d != "" {
		b.WriteString("\n### Sequence\n\n" + sanitize.CodeBlock("mermaid", d) + "\n")
	}
	fmt.Fprintf(&b, "\n<sub>Written for `%.7s` from what the review read in each file, and edited in place on each automatic review; `@rmc-bot summary` writes it again.", head)
	if counted > 0 {
		fmt.Fprintf(&b, " %d of %d files are counted, not listed: the comment lists at most %d.", counted, len(es), maxShownFiles)
	}
	if dropped > 0 {
		fmt.Fprintf(&b, " The lines of %d files did not fit in the comment's record: they are written again when those files are next reviewed.", dropped)
	}
	b.WriteString("</sub>")
	return b.String()
}

// fileLine is one file's line in the comment.
func (x *walkthroughRunner) fileLine(e walkEntry) string {
	switch {
	case e.Private:
		return fmt.Sprintf("- %s (%s): private, not described", sanitize.Code(e.Path), sanitize.Name(e.Status))
	case e.Why != "":
		return fmt.Sprintf("- %s (%s): not reviewed: %s", sanitize.Code(e.Path), sanitize.Name(e.Status), e.Why)
	case e.Note == "":
		return fmt.Sprintf("- %s (%s, +%d -%d)", sanitize.Code(e.Path), sanitize.Name(e.Status), e.Add, e.Del)
	}
	return fmt.Sprintf("- %s: %s", sanitize.Code(e.Path), x.fromModelLine(e.Note))
}
