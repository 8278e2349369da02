package rmcoc

import (
	"fmt"
	"slices"
	"strings"
)

// Trusted is what ParseTrusted read from a body the bot wrote.
type Trusted struct {
	// Blocks are the blocks of the trailing state section, in body order,
	// without the tampered ones.
	Blocks []Block
	// Errs are the malformed blocks of the trailing section (skipped).
	Errs []ParseError
	// Prose counts rmcoc blocks found above the trailing section. The code
	// never writes one there, so they are ignored: relayed text (a model's
	// answer, a file name) that slipped past Defang must not carry state.
	Prose int
	// Tampered names the keys (see Key) held by more than one block. The
	// code writes at most one block per key into a body, so two mean the
	// body was edited: none of them is trusted.
	Tampered []string
}

const detailsOpen = "<details><summary>rmc state</summary>"

// ParseTrusted reads only what the code writes into a bot body: the
// trailing run of state sections that compose appends after the prose, each
// either Render's collapsed form or a bare Fence (as rmc-oc appended them),
// separated by blank lines with nothing but whitespace after the last.
// Blocks anywhere above that run are counted in Prose and ignored; two
// blocks with the same Key are reported in Tampered and both ignored.
// CRLF line endings are read as LF. It never panics.
func ParseTrusted(body string) Trusted {
	var tr Trusted
	lines := strings.Split(strings.ReplaceAll(body, "\r\n", "\n"), "\n")
	i, secs := trailing(lines)
	if i > 0 {
		prose, _ := Parse(strings.Join(lines[:i], "\n"))
		tr.Prose = len(prose)
	}
	var blocks []Block
	for _, sec := range secs {
		if len(blocks)+len(tr.Errs) >= maxBlocks {
			tr.Errs = append(tr.Errs, ParseError{sec.open + 1, fmt.Sprintf("more than %d blocks; the rest are ignored", maxBlocks)})
			break
		}
		b, err := decode(sec.content)
		if err != "" {
			tr.Errs = append(tr.Errs, ParseError{sec.open + 1, err})
			continue
		}
		blocks = append(blocks, b)
	}
	seen := map[string]int{}
	for _, b := range blocks {
		seen[Key(b)]++
	}
	for _, b := range blocks {
		k := Key(b)
		switch n := seen[k]; {
		case n == 1:
			tr.Blocks = append(tr.Blocks, b)
		case n > 1:
			tr.Tampered = append(tr.Tampered, k)
			seen[k] = 0 // report each key once
		}
	}
	return tr
}

// stateSection is one section of a body's trailing state run: its lines
// [start, end), the line of its opening fence, and the fence's content.
type stateSection struct {
	start, end, open int
	content          string
}

// trailing finds the trailing run of state sections in lines: the index of
// its first line (len(lines) when there is none) and its sections in body
// order.
func trailing(lines []string) (int, []stateSection) {
	var secs []stateSection // last section first
	i := len(lines)
	for {
		end := i
		for i > 0 && strings.TrimSpace(lines[i-1]) == "" {
			i--
		}
		start, open, closing, ok := section(lines, i)
		if !ok {
			i = end
			break
		}
		secs = append(secs, stateSection{start: start, end: i, open: open, content: strings.Join(lines[open+1:closing], "\n")})
		i = start
		if i > 0 && strings.TrimSpace(lines[i-1]) != "" {
			break // a section is always preceded by a blank line (or starts the body)
		}
	}
	slices.Reverse(secs)
	return i, secs
}

// section recognizes the state section whose last line is lines[end-1]:
// Render's "<details><summary>rmc state</summary>", blank, fence, blank,
// "</details>", or a bare fence. It returns the index of the section's first
// line, of its opening fence and of its closing fence.
func section(lines []string, end int) (start, open, closing int, ok bool) {
	if end < 2 {
		return 0, 0, 0, false
	}
	last := strings.TrimRight(lines[end-1], " \t")
	closing = end - 1
	details := last == "</details>"
	if details {
		if end < 6 || strings.TrimSpace(lines[end-2]) != "" {
			return 0, 0, 0, false
		}
		closing = end - 3
		last = strings.TrimRight(lines[closing], " \t")
	}
	if last != "```" {
		return 0, 0, 0, false
	}
	// Content lines are JSON: none of them is a fence line, so the opener
	// is the nearest line above that is one.
	open = closing - 1
	for open >= 0 && strings.TrimRight(lines[open], " \t") != "```rmcoc" {
		if strings.HasPrefix(strings.TrimSpace(lines[open]), "```") {
			return 0, 0, 0, false
		}
		open--
	}
	if open < 0 {
		return 0, 0, 0, false
	}
	if !details {
		return open, open, closing, true
	}
	if open < 2 || strings.TrimSpace(lines[open-1]) != "" || strings.TrimRight(lines[open-2], " \t") != detailsOpen {
		return 0, 0, 0, false
	}
	return open - 2, open, closing, true
}

// Key names what a block is about within one body. The code writes one
// block per body of every type except two: a manual-review status comment
// holds one manual-pr-review block per request it answers, and a question
// answer's failure holds its question-answer block beside a task-error. So
// manual-pr-review and question-answer blocks are keyed by the request they
// answer, every other type by its type alone.
func Key(b Block) string {
	switch b := b.(type) {
	case ManualReview:
		return fmt.Sprintf("%s/%s/%d", b.BlockType(), b.Source, b.RequestCommentID)
	case QuestionAnswer:
		return fmt.Sprintf("%s/%s/%d", b.BlockType(), b.Source, b.ReplyToCommentID)
	}
	return string(b.BlockType())
}

// TrustedAll returns the trusted blocks of type T in body (see ParseTrusted).
func TrustedAll[T Block](body string) []T {
	var out []T
	for _, b := range ParseTrusted(body).Blocks {
		if t, ok := b.(T); ok {
			out = append(out, t)
		}
	}
	return out
}
