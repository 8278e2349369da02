package diff

import (
	"errors"
	"fmt"
	"strings"

	"github.com/bluekeyes/go-gitdiff/gitdiff"
)

// Parse parses a unified diff of any number of files, as git diff prints it
// (renames, binary files, new and deleted files, mode changes, quoted paths
// and "\ No newline at end of file" included). Text before the first file
// header, such as a commit message, is ignored. An empty input is no files.
func Parse(unified string) ([]File, error) {
	if unified == "" {
		return nil, nil
	}
	gfs, _, err := gitdiff.Parse(strings.NewReader(withFinalNewline(unified)))
	if err != nil {
		return nil, fmt.Errorf("parse unified diff: %w", err)
	}
	files := make([]File, 0, len(gfs))
	for _, gf := range gfs {
		files = append(files, convert(gf))
	}
	return files, nil
}

// placeholderHeader stands in for the file header that GitHub strips from a
// patch field: the parser needs one, and the real path is set afterwards,
// so no path ever has to be quoted into it.
const placeholderHeader = "diff --git a/file b/file\n--- a/file\n+++ b/file\n"

// ParsePatch parses the "patch" field GitHub returns for one file of a pull
// request or commit: its hunks without any header. An empty patch (GitHub
// sends none for binary or very large files) is a modified file without
// hunks. The status is inferred from the hunks: a single hunk from nothing is
// an added file, a single hunk to nothing a deleted one; callers that know
// better (GitHub's own "status" field) should overwrite it.
func ParsePatch(path, patch string) (File, error) {
	if path == "" {
		return File{}, errors.New("parse patch: empty path")
	}
	f := File{OldPath: path, NewPath: path, Status: Modified}
	if patch == "" {
		return f, nil
	}
	if !strings.HasPrefix(patch, "@@ ") {
		return File{}, fmt.Errorf("parse patch of %s: does not start with a hunk header (\"@@ \"); use Parse for a diff with file headers", path)
	}
	gfs, _, err := gitdiff.Parse(strings.NewReader(placeholderHeader + withFinalNewline(patch)))
	if err != nil {
		return File{}, fmt.Errorf("parse patch of %s: %w", path, err)
	}
	if len(gfs) != 1 {
		// A line starting "diff --git" cannot appear inside a hunk, so a
		// second file means the patch was several files glued together.
		return File{}, fmt.Errorf("parse patch of %s: holds %d files, want 1", path, len(gfs))
	}
	f.Hunks = convert(gfs[0]).Hunks
	if len(f.Hunks) == 1 {
		switch h := f.Hunks[0]; {
		case h.OldStart == 0 && h.OldLines == 0:
			f.Status, f.OldPath = Added, ""
		case h.NewStart == 0 && h.NewLines == 0:
			f.Status, f.NewPath = Deleted, ""
		}
	}
	return f, nil
}

// withFinalNewline adds the newline that GitHub's patch fields (and text cut
// from a terminal) lack, which the parser would otherwise read as a missing
// newline at the end of the file.
func withFinalNewline(s string) string {
	if strings.HasSuffix(s, "\n") {
		return s
	}
	return s + "\n"
}

func convert(gf *gitdiff.File) File {
	f := File{OldPath: gf.OldName, NewPath: gf.NewName, Binary: gf.IsBinary}
	switch {
	case gf.IsNew:
		f.Status, f.OldPath = Added, ""
	case gf.IsDelete:
		f.Status, f.NewPath = Deleted, ""
	case gf.IsCopy:
		f.Status = Added
	case gf.IsRename:
		f.Status = Renamed
	default:
		f.Status = Modified
	}
	for _, tf := range gf.TextFragments {
		f.Hunks = append(f.Hunks, convertHunk(tf))
	}
	return f
}

func convertHunk(tf *gitdiff.TextFragment) Hunk {
	h := Hunk{
		OldStart: int(tf.OldPosition), OldLines: int(tf.OldLines),
		NewStart: int(tf.NewPosition), NewLines: int(tf.NewLines),
		Section: tf.Comment,
		Lines:   make([]Line, 0, len(tf.Lines)),
	}
	oldN, newN := h.OldStart, h.NewStart
	for _, gl := range tf.Lines {
		l := Line{
			Text:      strings.TrimSuffix(gl.Line, "\n"),
			NoNewline: !strings.HasSuffix(gl.Line, "\n"),
		}
		switch gl.Op {
		case gitdiff.OpAdd:
			l.Kind, l.NewLine = Add, newN
			newN++
		case gitdiff.OpDelete:
			l.Kind, l.OldLine = Delete, oldN
			oldN++
		case gitdiff.OpContext:
			l.Kind, l.OldLine, l.NewLine = Context, oldN, newN
			oldN++
			newN++
		}
		h.Lines = append(h.Lines, l)
	}
	return h
}
