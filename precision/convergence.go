package precision

import (
	"strings"

	"github.com/review-my-code-bot/rmc/diff"
	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/state"
)

// Fix is what a verified fix wrote: the new-side lines of the fixed
// finding's file that the push since the last review wrote, numbered at
// the commit the fix was verified on. A finding raised later on those
// lines is a finding on a fix (a fix loop).
type Fix struct {
	FindingID string
	Path      string
	Head      string
	Lines     []rmcoc.LineRange
	// Suggestion are the lines holding the fixed finding's own
	// suggestion, committed as the bot wrote it; zero when it was not.
	Suggestion rmcoc.LineRange
}

// Loop is a finding on a fix: the finding whose fix wrote its lines, and
// whether those lines are that finding's own suggestion (the bot reviewing
// its own code).
type Loop struct {
	FindingID string
	Own       bool
}

// Wrote is what the push in d (one file's diff since the last review)
// wrote: its runs of added lines, at most rmcoc.MaxFixLines of them, and
// the lines holding suggestion (the fixed finding's suggested code, ""
// for none) when it was committed: its lines stand in a row on the new
// side of one hunk, one of them at least added by the push.
func Wrote(d diff.File, suggestion string) (lines []rmcoc.LineRange, applied rmcoc.LineRange) {
	want := splitLines(suggestion)
	for _, h := range d.Hunks {
		lines = appendAdded(lines, h)
		if len(want) > 0 && applied.Start == 0 {
			applied = holds(newSide(h), want)
		}
	}
	return lines, applied
}

// appendAdded adds h's runs of added lines to lines, up to MaxFixLines.
func appendAdded(lines []rmcoc.LineRange, h diff.Hunk) []rmcoc.LineRange {
	for _, l := range h.Lines {
		switch {
		case l.Kind != diff.Add:
		case len(lines) > 0 && lines[len(lines)-1].End == l.NewLine-1:
			lines[len(lines)-1].End = l.NewLine
		case len(lines) < rmcoc.MaxFixLines:
			lines = append(lines, rmcoc.LineRange{Start: l.NewLine, End: l.NewLine})
		}
	}
	return lines
}

// newSide is h's lines on the new side (context and added), in order.
func newSide(h diff.Hunk) []diff.Line {
	out := make([]diff.Line, 0, len(h.Lines))
	for _, l := range h.Lines {
		if l.Kind != diff.Delete {
			out = append(out, l)
		}
	}
	return out
}

// holds is where want's lines stand in a row in side with at least one
// of them added, zero when they do not. Trailing blanks are not compared:
// GitHub and editors trim them.
func holds(side []diff.Line, want []string) rmcoc.LineRange {
	for i := 0; i+len(want) <= len(side); i++ {
		added, same := false, true
		for j, w := range want {
			l := side[i+j]
			if strings.TrimRight(l.Text, " \t\r") != w {
				same = false
				break
			}
			added = added || l.Kind == diff.Add
		}
		if same && added {
			return rmcoc.LineRange{Start: side[i].NewLine, End: side[i+len(want)-1].NewLine}
		}
	}
	return rmcoc.LineRange{}
}

func splitLines(s string) []string {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	out := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range out {
		out[i] = strings.TrimRight(l, " \t\r")
	}
	return out
}

// FixesOf are the fixes the state records lines of: findings fixed by a
// fix that still holds.
func FixesOf(findings []state.Finding) []Fix {
	var out []Fix
	for _, f := range findings {
		if r := f.LastResolution; f.Fixed() && !f.Tampered && len(r.FixLines) > 0 {
			out = append(out, Fix{FindingID: f.Block.ID, Path: f.Block.Path, Head: r.HeadSHA, Lines: r.FixLines, Suggestion: r.FixSuggestion})
		}
	}
	return out
}

// On is the finding on a fix that a finding on path, lines start to end
// of head's new side, is: on the lines a fix wrote, the bot's own
// committed suggestion first. Only a fix verified on head itself counts:
// its lines are numbered there.
func On(fixes []Fix, path, head string, start, end int) (Loop, bool) {
	if start <= 0 {
		start = end
	}
	var found Loop
	ok := false
	for _, fx := range fixes {
		if fx.Path != path || fx.Head != head || head == "" {
			continue
		}
		if s := fx.Suggestion; s.Start > 0 && overlaps(s, start, end) {
			return Loop{FindingID: fx.FindingID, Own: true}, true
		}
		for _, r := range fx.Lines {
			if !ok && overlaps(r, start, end) {
				found, ok = Loop{FindingID: fx.FindingID}, true
			}
		}
	}
	return found, ok
}

func overlaps(r rmcoc.LineRange, start, end int) bool { return r.Start <= end && start <= r.End }
