package fakegithub

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// This file holds a deliberately small unified-diff reader: enough to split
// a PR diff into files, and to decide — as GitHub does when a review is
// created — whether a line on a side of a file is part of the diff.

var hunkHeader = regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@`)

// patchLine describes one line of a file's patch.
type patchLine struct {
	kind     byte // '@' hunk header, ' ' context, '+' added, '-' removed, '\\' no-newline marker
	oldLine  int  // line number on the LEFT side, 0 when absent there
	newLine  int  // line number on the RIGHT side, 0 when absent there
	position int  // GitHub's legacy diff position: lines below the first "@@"
	hunk     int  // which hunk, from 0
	index    int  // index into parsedPatch.text
}

type parsedPatch struct {
	text  []string
	lines []patchLine
}

// parsePatch reads a file patch that starts at its first hunk header.
func parsePatch(patch string) (parsedPatch, error) {
	var pp parsedPatch
	if patch == "" {
		return pp, nil
	}
	pp.text = strings.Split(strings.TrimSuffix(patch, "\n"), "\n")
	hunk, oldNo, newNo := -1, 0, 0
	for i, l := range pp.text {
		pl := patchLine{position: i, hunk: hunk, index: i}
		switch {
		case strings.HasPrefix(l, "@@"):
			m := hunkHeader.FindStringSubmatch(l)
			if m == nil {
				return parsedPatch{}, fmt.Errorf("line %d: malformed hunk header %q", i+1, l)
			}
			hunk++
			oldNo, _ = strconv.Atoi(m[1])
			newNo, _ = strconv.Atoi(m[3])
			pl.kind, pl.hunk = '@', hunk
		case hunk < 0:
			return parsedPatch{}, fmt.Errorf("line %d: %q comes before the first hunk header", i+1, l)
		case strings.HasPrefix(l, "+"):
			pl.kind, pl.newLine = '+', newNo
			newNo++
		case strings.HasPrefix(l, "-"):
			pl.kind, pl.oldLine = '-', oldNo
			oldNo++
		case strings.HasPrefix(l, `\`):
			pl.kind = '\\'
		default: // context; some tools strip the leading space of blank lines
			pl.kind, pl.oldLine, pl.newLine = ' ', oldNo, newNo
			oldNo++
			newNo++
		}
		pp.lines = append(pp.lines, pl)
	}
	return pp, nil
}

// find locates line on side ("LEFT" or "RIGHT"). A RIGHT line is an added
// or context line of the new file, a LEFT line a removed or context line of
// the old one; anything else is outside the diff.
func (pp parsedPatch) find(side string, line int) (patchLine, bool) {
	if line <= 0 {
		return patchLine{}, false
	}
	for _, pl := range pp.lines {
		switch {
		case side == "LEFT" && (pl.kind == '-' || pl.kind == ' ') && pl.oldLine == line:
			return pl, true
		case side != "LEFT" && (pl.kind == '+' || pl.kind == ' ') && pl.newLine == line:
			return pl, true
		}
	}
	return patchLine{}, false
}

// at finds the line at a legacy diff position. Hunk headers after the first
// count as positions but cannot be commented on.
func (pp parsedPatch) at(position int) (patchLine, bool) {
	if position <= 0 || position >= len(pp.lines) {
		return patchLine{}, false
	}
	pl := pp.lines[position]
	return pl, pl.kind == '+' || pl.kind == '-' || pl.kind == ' '
}

// side is the side a line at a position belongs to: removed lines are LEFT.
func (pl patchLine) side() (string, int) {
	if pl.kind == '-' {
		return "LEFT", pl.oldLine
	}
	return "RIGHT", pl.newLine
}

// hunkText is GitHub's diff_hunk for a comment on pl: the hunk from its
// header down to and including the commented line.
func (pp parsedPatch) hunkText(pl patchLine) string {
	start := pl.index
	for start > 0 && pp.lines[start].kind != '@' {
		start--
	}
	return strings.Join(pp.text[start:pl.index+1], "\n")
}

// countChanges counts added and removed lines of a patch.
func countChanges(patch string) (adds, dels int) {
	pp, err := parsePatch(patch)
	if err != nil {
		return 0, 0
	}
	for _, pl := range pp.lines {
		switch pl.kind {
		case '+':
			adds++
		case '-':
			dels++
		}
	}
	return adds, dels
}

// splitDiff splits a raw "git diff" into per-file entries the way the REST
// files endpoint reports them.
func splitDiff(diff string) []File {
	var files []File
	var cur *File
	var patch []string
	inPatch := false
	flush := func() {
		if cur == nil {
			return
		}
		cur.Patch = strings.Join(patch, "\n")
		cur.Additions, cur.Deletions = countChanges(cur.Patch)
		files = append(files, *cur)
	}
	for _, l := range strings.Split(strings.TrimSuffix(diff, "\n"), "\n") {
		if strings.HasPrefix(l, "diff --git ") {
			flush()
			cur, patch, inPatch = &File{Status: "modified"}, nil, false
			if i := strings.LastIndex(l, " b/"); i >= 0 {
				cur.Path = l[i+3:]
			}
			continue
		}
		if cur == nil {
			continue
		}
		if inPatch || strings.HasPrefix(l, "@@") {
			inPatch = true
			patch = append(patch, l)
			continue
		}
		switch {
		case strings.HasPrefix(l, "new file mode"):
			cur.Status = "added"
		case strings.HasPrefix(l, "deleted file mode"):
			cur.Status = "removed"
		case strings.HasPrefix(l, "rename from "):
			cur.Status, cur.PreviousPath = "renamed", strings.TrimPrefix(l, "rename from ")
		case strings.HasPrefix(l, "rename to "):
			cur.Path = strings.TrimPrefix(l, "rename to ")
		case strings.HasPrefix(l, "+++ b/"):
			cur.Path = strings.TrimPrefix(l, "+++ b/")
		case strings.HasPrefix(l, "--- a/") && cur.Status == "removed":
			cur.Path = strings.TrimPrefix(l, "--- a/")
		}
	}
	flush()
	return files
}

// joinDiff renders files as the raw diff GitHub serves for
// application/vnd.github.diff.
func joinDiff(files []File) string {
	var b strings.Builder
	for _, f := range files {
		from := f.Path
		if f.PreviousPath != "" {
			from = f.PreviousPath
		}
		fmt.Fprintf(&b, "diff --git a/%s b/%s\n", from, f.Path)
		oldBlob, newBlob := blobSHA(from)[:7], blobSHA(f.Path + "\x00" + f.Patch)[:7]
		switch f.Status {
		case "added":
			fmt.Fprintf(&b, "new file mode 100644\nindex 0000000..%s\n--- /dev/null\n+++ b/%s\n", newBlob, f.Path)
		case "removed":
			fmt.Fprintf(&b, "deleted file mode 100644\nindex %s..0000000\n--- a/%s\n+++ /dev/null\n", oldBlob, f.Path)
		case "renamed":
			fmt.Fprintf(&b, "similarity index 90%%\nrename from %s\nrename to %s\n", from, f.Path)
			if f.Patch != "" {
				fmt.Fprintf(&b, "index %s..%s 100644\n--- a/%s\n+++ b/%s\n", oldBlob, newBlob, from, f.Path)
			}
		default:
			fmt.Fprintf(&b, "index %s..%s 100644\n--- a/%s\n+++ b/%s\n", oldBlob, newBlob, f.Path, f.Path)
		}
		if f.Patch != "" {
			b.WriteString(strings.TrimSuffix(f.Patch, "\n"))
			b.WriteString("\n")
		}
	}
	return b.String()
}
