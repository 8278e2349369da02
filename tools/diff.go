package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/review-my-code-bot/rmc/llm"
)

// maxChangedFilesNamed bounds the file list in a truncation note.
const maxChangedFilesNamed = 200

// Diff returns the get_pr_diff tool, which shows the PR's unified diff as get
// returns it, whole or for one file.
func Diff(get func(ctx context.Context) (string, error)) llm.Tool {
	const expected = `{"path": "src/main.go"}`
	return llm.Tool{
		Name: "get_pr_diff",
		Description: "Get the pull request's unified diff (the changes under review). Give path to see the changes to one file only; " +
			fmt.Sprintf("a whole diff over about %d KB is cut, with a note listing every changed file.", maxOutput/1000),
		Parameters: object(nil, map[string]any{
			"path": str("Only show the changes to this file (its path in the repository, old or new name). Empty: the whole diff."),
		}),
		Run: func(ctx context.Context, raw json.RawMessage) (string, error) {
			var a struct {
				Path string `json:"path"`
			}
			if err := decodeArgs(raw, &a, expected); err != nil {
				return "", err
			}
			d, err := get(ctx)
			if err != nil {
				return "", fmt.Errorf("the PR's diff could not be fetched: %w", err)
			}
			return diffAnswer(d, a.Path)
		},
	}
}

func diffAnswer(d, path string) (string, error) {
	files := splitDiff(d)
	if path != "" {
		var parts []string
		want := strings.TrimPrefix(path, "./")
		for _, f := range files {
			if f.has(want) || f.has(strings.TrimPrefix(strings.TrimPrefix(want, "a/"), "b/")) {
				parts = append(parts, f.text)
			}
		}
		if len(parts) == 0 {
			return "", fmt.Errorf("the PR does not change %q; changed files: %s", path, fileNames(files))
		}
		d = strings.Join(parts, "")
	}
	if strings.TrimSpace(d) == "" {
		return "The diff is empty: the PR changes no files.", nil
	}
	if len(d) <= maxOutput {
		return d, nil
	}
	cut := cutText(d, maxOutput-2000) // room for the note
	var note string
	if path == "" {
		note = fmt.Sprintf("[diff truncated: %d of %d bytes shown. Call get_pr_diff with a path to see one file's changes. Changed files: %s]\n",
			len(cut), len(d), fileNames(files))
	} else {
		note = fmt.Sprintf("[diff of %s truncated: %d of %d bytes shown; read_file shows the file as it is in the PR's head]\n", path, len(cut), len(d))
	}
	if !strings.HasSuffix(cut, "\n") {
		cut += "\n"
	}
	return cutText(cut+note, maxOutput), nil
}

// diffFile is one file's section of a unified diff, from its "diff --git"
// line to the next.
type diffFile struct {
	text  string
	paths []string // old and new names
}

func (f diffFile) has(p string) bool {
	for _, q := range f.paths {
		if q == p {
			return true
		}
	}
	return false
}

func (f diffFile) name() string {
	if len(f.paths) == 0 {
		return "?"
	}
	return f.paths[len(f.paths)-1]
}

// splitDiff cuts a git diff into files. Names come from the "---"/"+++"
// lines, rename and copy lines, and the "diff --git" line, which alone
// names files whose change has no hunks (mode changes, binary files).
func splitDiff(d string) []diffFile {
	var files []diffFile
	start := -1 // offset of the current file's "diff --git" line
	inHunks := false
	for off := 0; off < len(d); {
		end := len(d)
		if i := strings.IndexByte(d[off:], '\n'); i >= 0 {
			end = off + i + 1
		}
		l := strings.TrimRight(d[off:end], "\r\n")
		if strings.HasPrefix(l, "diff --git ") {
			if start >= 0 {
				files[len(files)-1].text = d[start:off]
			}
			files = append(files, diffFile{})
			start, inHunks = off, false
			if p, ok := sameNames(strings.TrimPrefix(l, "diff --git ")); ok {
				files[len(files)-1].add(p)
			}
		}
		off = end
		if start < 0 || inHunks {
			continue // text before the first file, or hunk lines
		}
		if strings.HasPrefix(l, "@@") {
			inHunks = true
			continue
		}
		f := &files[len(files)-1]
		for _, prefix := range []string{"--- ", "+++ "} {
			if v, ok := strings.CutPrefix(l, prefix); ok {
				if !strings.HasPrefix(v, `"`) {
					v, _, _ = strings.Cut(v, "\t") // GNU diff appends a tab and a date
				}
				if v = unquote(v); v != "/dev/null" {
					f.add(strings.TrimPrefix(strings.TrimPrefix(v, "a/"), "b/"))
				}
			}
		}
		for _, prefix := range []string{"rename from ", "rename to ", "copy from ", "copy to "} {
			if v, ok := strings.CutPrefix(l, prefix); ok {
				f.add(unquote(v))
			}
		}
	}
	if start >= 0 {
		files[len(files)-1].text = d[start:]
	}
	return files
}

func (f *diffFile) add(p string) {
	if p != "" && !f.has(p) {
		f.paths = append(f.paths, p)
	}
}

// sameNames reads "a/P b/P" (the diff --git line of a file that was not
// renamed), which is ambiguous only when names differ; those files have
// rename lines instead.
func sameNames(s string) (string, bool) {
	if strings.HasPrefix(s, `"`) {
		// "a/x y" "b/x y": git quotes names with special characters.
		if i := strings.Index(s, `" "`); i > 0 {
			a, b := unquote(s[:i+1]), unquote(s[i+2:])
			if strings.TrimPrefix(a, "a/") == strings.TrimPrefix(b, "b/") {
				return strings.TrimPrefix(a, "a/"), true
			}
		}
		return "", false
	}
	if len(s)%2 == 0 {
		return "", false
	}
	half := len(s) / 2
	a, b := s[:half], s[half+1:]
	if s[half] == ' ' && strings.HasPrefix(a, "a/") && strings.HasPrefix(b, "b/") && a[2:] == b[2:] {
		return a[2:], true
	}
	return "", false
}

// unquote undoes git's C-style quoting of unusual file names; Go's string
// syntax accepts the same escapes, octal included.
func unquote(s string) string {
	if len(s) >= 2 && s[0] == '"' {
		if u, err := strconv.Unquote(s); err == nil {
			return u
		}
	}
	return s
}

func fileNames(files []diffFile) string {
	if len(files) == 0 {
		return "(none)"
	}
	var names []string
	for i, f := range files {
		if i == maxChangedFilesNamed {
			names = append(names, fmt.Sprintf("and %d more", len(files)-i))
			break
		}
		names = append(names, f.name())
	}
	return strings.Join(names, ", ")
}
