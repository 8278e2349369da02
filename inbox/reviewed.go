package inbox

import (
	"fmt"
	"strings"
)

// DiffSource is which changes a review is of.
type DiffSource string

// The sources of a review's diff.
const (
	// DiffUncommitted is the default: staged, unstaged and untracked
	// changes against HEAD.
	DiffUncommitted DiffSource = "uncommitted"
	DiffCommit      DiffSource = "commit"   // one commit against its first parent
	DiffRange       DiffSource = "range"    // one ref against another
	DiffBase        DiffSource = "base"     // the work tree against its merge base with a branch
	DiffStaged      DiffSource = "staged"   // the index against HEAD
	DiffUnstaged    DiffSource = "unstaged" // the work tree (untracked files too) against the index
	DiffStdin       DiffSource = "stdin"    // a unified diff given on standard input
)

// Valid reports whether k is one of the sources.
func (k DiffSource) Valid() bool {
	switch k {
	case DiffUncommitted, DiffCommit, DiffRange, DiffBase, DiffStaged, DiffUnstaged, DiffStdin:
		return true
	}
	return false
}

// Reviewed says exactly what a review was of, so that an agent acting on
// its comments reads the same versions the person read: the source, the
// two sides by name and commit where they are commits, and each file's
// blob ids on both sides (git's content ids, from the diff's index lines).
type Reviewed struct {
	Source DiffSource `json:"source"`
	// Against describes the old side for people: "HEAD (1a2b3c4)",
	// "the merge base of main and HEAD (…)".
	Against string `json:"against"`
	// From and To are the two sides where they are commits; To is absent
	// when the new side is the work tree or the index, From for a diff
	// read from standard input.
	From  *Ref           `json:"from,omitempty"`
	To    *Ref           `json:"to,omitempty"`
	Files []ReviewedFile `json:"files"`
}

// Ref is a commit by the name it was given and its full id.
type Ref struct {
	Name   string `json:"name"`
	Commit string `json:"commit"`
}

// ReviewedFile is one file of a review with its blob ids; an id is empty
// where the side has no such file, or the diff named none.
type ReviewedFile struct {
	Path    string `json:"path"`
	OldPath string `json:"oldPath,omitempty"`
	OldBlob string `json:"oldBlob,omitempty"`
	NewBlob string `json:"newBlob,omitempty"`
}

// Phrase says for people what the review is of: "the uncommitted changes
// against HEAD (1a2b3c4)", "commit main~1 (…) against its parent".
func (r Reviewed) Phrase() string {
	against := oneLine(r.Against)
	switch r.Source {
	case DiffUncommitted:
		return "the uncommitted changes against " + against
	case DiffStaged:
		return "the staged changes against " + against
	case DiffUnstaged:
		return "the unstaged changes (new files too) against " + against
	case DiffCommit:
		if r.To != nil {
			return "commit " + oneLine(r.To.Name) + " (" + short(r.To.Commit) + ") against " + against
		}
	case DiffRange:
		if r.To != nil {
			return oneLine(r.To.Name) + " (" + short(r.To.Commit) + ") against " + against
		}
	case DiffBase:
		return "the work tree against " + against
	case DiffStdin:
		return against
	}
	return "the changes against " + against
}

// short is a commit or blob id cut to 12 characters.
func short(id string) string { return id[:min(len(id), 12)] }

// maxReviewedFiles is how many files' blob ids the Markdown lists; the
// JSON file lists them all.
const maxReviewedFiles = 30

// ReviewedMarkdown is the part of an agent's document that names what
// was reviewed, to the commit and blob: the agent compares them with what
// it has before it acts on a comment.
func ReviewedMarkdown(r Reviewed) string {
	var b strings.Builder
	b.WriteString("\n## What was reviewed\n\n")
	b.WriteString("The diff of " + r.Phrase() + " (source: " + string(r.Source) + ").\n")
	if r.From != nil {
		fmt.Fprintf(&b, "Old side: %s, commit %s.\n", oneLine(r.From.Name), r.From.Commit)
	}
	if r.To != nil {
		fmt.Fprintf(&b, "New side: %s, commit %s.\n", oneLine(r.To.Name), r.To.Commit)
	}
	if len(r.Files) > 0 {
		b.WriteString("\nBlobs, old → new (git cat-file -p ID shows one):\n")
	}
	for i, f := range r.Files {
		if i == maxReviewedFiles {
			fmt.Fprintf(&b, "- and %d more files: see the JSON file.\n", len(r.Files)-i)
			break
		}
		fmt.Fprintf(&b, "- `%s`: %s → %s\n", strings.ReplaceAll(oneLine(f.Path), "`", "'"), dash(short(f.OldBlob)), dash(short(f.NewBlob)))
	}
	return b.String()
}
