package execution

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/sanitize"
)

// FindingText is what a finding's inline comment says, every field as it
// is posted (model text already relayed, the category escaped). Render is
// the comment's prose; ParseFindingText reads it back. The agent notice
// quotes Notice: from the value when it is sent in the run that posted the
// review, from the posted comment when a later run sends it.
type FindingText struct {
	Title    string // one line
	Category string // one line
	Score    int
	Blocking bool
	// Explanation is trimmed; it may hold any Markdown.
	Explanation string
	// Moved is the line the model named when the comment sits on another
	// (the nearest changed line); 0 when it sits where the model said.
	Moved int
	// Suggestion is the code GitHub offers to commit; "" for none.
	Suggestion string
	// OnFix is the id of the earlier finding whose fix wrote the lines
	// this one sits on, "" for none; OnSuggestion says those lines are
	// that finding's own suggestion, committed. The comment says so.
	OnFix        string
	OnSuggestion bool
}

const (
	findingFooter = "<sub>Reply in this thread to dispute, ask, or say it is fixed; I will answer.</sub>"
	movedFormat   = "_Reported on line %d, which is outside the diff; placed on the nearest changed line._"
	scoreSep      = " · score "
	loopFormat    = "_🔁 On lines the fix for finding `%s` wrote: a finding on a fix._"
	ownFormat     = "_🔁 On lines my own suggestion in finding `%s` wrote, as it was committed: a finding on my own fix._"
)

// loopNote is the comment's line on a finding on a fix, "" for none (or
// for an id that is not one the bot writes).
func (t FindingText) loopNote() string {
	switch {
	case !findingID(t.OnFix):
		return ""
	case t.OnSuggestion:
		return fmt.Sprintf(ownFormat, t.OnFix)
	}
	return fmt.Sprintf(loopFormat, t.OnFix)
}

// findingID reports whether s has the shape of a finding id the bot
// writes: a few lowercase letters, digits and dashes.
func findingID(s string) bool {
	if s == "" || len(s) > 40 {
		return false
	}
	for _, c := range s {
		if (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '-' {
			return false
		}
	}
	return true
}

// Render is the comment's prose (compose adds the finding block).
func (t FindingText) Render() string {
	var b strings.Builder
	sev, tag := "🟡", "should fix"
	if t.Blocking {
		sev, tag = "🔴", "blocking"
	}
	fmt.Fprintf(&b, "%s **%s**\n\n%s%s%d/10 · %s\n\n%s", sev, t.Title, t.Category, scoreSep, t.Score, tag, t.Explanation)
	if t.Moved > 0 {
		fmt.Fprintf(&b, "\n\n"+movedFormat, t.Moved)
	}
	if note := t.loopNote(); note != "" {
		b.WriteString("\n\n" + note)
	}
	if t.Suggestion != "" {
		// A suggestion is code: a fence longer than any in it keeps it one
		// block, and GitHub reads neither mentions nor HTML in it.
		b.WriteString("\n\n" + sanitize.CodeBlock("suggestion", t.Suggestion))
	}
	b.WriteString("\n\n" + findingFooter)
	return b.String()
}

// Notice is what the coding agent is told to do about the finding: the
// explanation, with the moved note and the suggestion when there are.
func (t FindingText) Notice() string {
	parts := []string{t.Explanation}
	if t.Moved > 0 {
		parts = append(parts, fmt.Sprintf(movedFormat, t.Moved))
	}
	if note := t.loopNote(); note != "" {
		parts = append(parts, note)
	}
	if t.Suggestion != "" {
		parts = append(parts, sanitize.CodeBlock("suggestion", t.Suggestion))
	}
	return strings.TrimSpace(strings.Join(parts, "\n\n"))
}

// ParseFindingText reads Render's prose back. Render(ParseFindingText(s))
// is s for every s Render made; the value is the one rendered unless its
// explanation itself ends as a comment does (a moved note or a suggestion
// block), which then reads as those. ok is false for prose Render cannot
// have made.
func ParseFindingText(prose string) (t FindingText, ok bool) {
	head, rest, ok1 := strings.Cut(prose, "\n\n")
	meta, rest, ok2 := strings.Cut(rest, "\n\n")
	switch {
	case !ok1 || !ok2:
		return t, false
	case strings.HasSuffix(rest, "\n\n"+findingFooter):
		rest = strings.TrimSuffix(rest, "\n\n"+findingFooter)
	case rest == findingFooter:
		rest = ""
	default:
		return t, false
	}
	switch {
	case strings.HasPrefix(head, "🔴 **") && strings.HasSuffix(meta, " · blocking"):
		t.Blocking, meta = true, strings.TrimSuffix(meta, " · blocking")
	case strings.HasPrefix(head, "🟡 **") && strings.HasSuffix(meta, " · should fix"):
		meta = strings.TrimSuffix(meta, " · should fix")
	default:
		return FindingText{}, false
	}
	title, ok := strings.CutSuffix(strings.SplitN(head, " **", 2)[1], "**")
	at := strings.LastIndex(meta, scoreSep)
	if !ok || strings.Contains(title, "\n") || at < 0 || strings.Contains(meta, "\n") {
		return FindingText{}, false
	}
	score, ok := strings.CutSuffix(meta[at+len(scoreSep):], "/10")
	n, err := strconv.Atoi(score)
	if !ok || err != nil || strconv.Itoa(n) != score {
		return FindingText{}, false
	}
	t.Title, t.Category, t.Score = title, meta[:at], n
	rest, t.Suggestion = cutSuggestion(rest)
	rest, t.OnFix, t.OnSuggestion = cutLoop(rest)
	rest, t.Moved = cutMoved(rest)
	t.Explanation = rest
	return t, true
}

// cutSuggestion takes the suggestion block off the end of s, if s ends
// with one.
func cutSuggestion(s string) (string, string) {
	lines := strings.Split(s, "\n")
	for i := len(lines) - 2; i >= 0; i-- {
		fence, ok := strings.CutSuffix(lines[i], "suggestion")
		// Render puts a blank line before the block, even after an empty
		// explanation.
		if !ok || fence == "" || strings.Trim(fence, "`") != "" || i < 2 || lines[i-1] != "" {
			continue
		}
		code := strings.Join(lines[i+1:len(lines)-1], "\n")
		if i+1 <= len(lines)-1 && code != "" && sanitize.CodeBlock("suggestion", code) == strings.Join(lines[i:], "\n") {
			return strings.Join(lines[:i-1], "\n"), code
		}
	}
	return s, ""
}

// cutLoop takes the note on a finding on a fix off the end of s, if s
// ends with one.
func cutLoop(s string) (rest, id string, own bool) {
	i := strings.LastIndex(s, "_🔁 On lines ")
	if i < 0 || !strings.HasSuffix(s[:i], "\n\n") { // as after the explanation, even an empty one
		return s, "", false
	}
	note := s[i:]
	_, after, ok1 := strings.Cut(note, "`")
	id, _, ok2 := strings.Cut(after, "`")
	switch t := (FindingText{OnFix: id}); {
	case !ok1 || !ok2:
		return s, "", false
	case note == t.loopNote():
	case note == fmt.Sprintf(ownFormat, id) && findingID(id):
		own = true
	default:
		return s, "", false
	}
	return strings.TrimSuffix(s[:i], "\n\n"), id, own
}

// cutMoved takes the moved note off the end of s, if s ends with one.
func cutMoved(s string) (string, int) {
	i := strings.LastIndex(s, "_Reported on line ")
	if i < 0 || !strings.HasSuffix(s[:i], "\n\n") { // as after the explanation, even an empty one
		return s, 0
	}
	var n int
	if _, err := fmt.Sscanf(s[i:], "_Reported on line %d,", &n); err != nil || n <= 0 || fmt.Sprintf(movedFormat, n) != s[i:] {
		return s, 0
	}
	return strings.TrimSuffix(s[:i], "\n\n"), n
}

// findingNotice is what the agent notice quotes of a posted finding
// comment: its Notice when the comment reads as a finding's, else (a
// comment GitHub's limit cut, or one edited by hand) everything between
// its title and meta lines and its footer.
func findingNotice(body string) string {
	prose := rmcoc.Strip(body)
	if t, ok := ParseFindingText(prose); ok {
		return t.Notice()
	}
	paras := strings.Split(prose, "\n\n")
	if len(paras) > 2 {
		paras = paras[2:]
	}
	if n := len(paras); n > 0 && strings.HasPrefix(paras[n-1], "<sub>") {
		paras = paras[:n-1]
	}
	return strings.TrimSpace(strings.Join(paras, "\n\n"))
}
