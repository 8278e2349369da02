package diff

import (
	"fmt"
	"strings"
)

// Section is one file's part of a git diff: its text, from its "diff --git"
// line to the next, and the file parsed from it.
type Section struct {
	Text string
	File File
}

// Sections cuts a git diff into its files and parses each part, keeping the
// text: callers show a file's diff as git wrote it.
func Sections(unified string) ([]Section, error) {
	texts := SectionTexts(unified)
	out := make([]Section, 0, len(texts))
	for i, text := range texts {
		files, err := Parse(text)
		if err != nil {
			return nil, fmt.Errorf("diff section %d: %w", i+1, err)
		}
		if len(files) != 1 {
			return nil, fmt.Errorf("diff section %d holds %d files, want 1", i+1, len(files))
		}
		out = append(out, Section{Text: text, File: files[0]})
	}
	return out, nil
}

// SectionTexts cuts a git diff before each line that starts a file. Git
// starts no hunk line with "diff", so the cut is exact; text before the
// first section (git writes none) stays with it.
func SectionTexts(unified string) []string {
	var texts []string
	start := 0
	for i := 0; i < len(unified); {
		next := len(unified)
		if end := strings.IndexByte(unified[i:], '\n'); end >= 0 {
			next = i + end + 1
		}
		if i > start && strings.HasPrefix(unified[i:], "diff --git ") {
			texts = append(texts, unified[start:i])
			start = i
		}
		i = next
	}
	if start < len(unified) {
		texts = append(texts, unified[start:])
	}
	return texts
}
