package tools

import (
	"context"
	"fmt"
	"github.com/review-my-code-bot/rmc/diff"
	"strings"

	"github.com/review-my-code-bot/rmc/llm"
)

// maxChangedFilesNamed bounds the file list in a truncation note.
const maxChangedFilesNamed = 200

// diffArgs are get_pr_diff's arguments.
type diffArgs struct {
	Path string `json:"path,omitempty" jsonschema:"Only show the changes to this file (its path in the repository, old or new name). Empty: the whole diff."`
}

// Diff returns the get_pr_diff tool, which shows the PR's unified diff as get
// returns it, whole or for one file.
func Diff(get func(ctx context.Context) (string, error)) llm.Tool { return ScopedDiff(get, nil) }

// Withhold says why a file's diff is not shown ("" when it is), and whether
// the file is private: a private file is not even named in a note.
type Withhold func(diff.File) (why string, private bool)

// ScopedDiff is Diff showing only the files withhold lets through: a file
// it gives a reason for (out of the review's scope, or private) is taken
// out of every answer, and the answer says which and why. A diff that
// cannot be split into files is then not shown at all. A nil withhold
// withholds nothing.
func ScopedDiff(get func(ctx context.Context) (string, error), withhold Withhold) llm.Tool {
	return llm.MustTool("get_pr_diff",
		"Get the pull request's unified diff (the changes under review). Give path to see the changes to one file only; "+
			fmt.Sprintf("a whole diff over about %d KB is cut, with a note listing every changed file.", maxOutput/1000),
		`{"path": "src/main.go"}`,
		func(ctx context.Context, a diffArgs) (string, error) {
			d, err := get(ctx)
			if err != nil {
				return "", fmt.Errorf("the PR's diff could not be fetched: %w", err)
			}
			if withhold == nil {
				return diffAnswer(d, a.Path)
			}
			return scopedAnswer(d, a.Path, withhold)
		})
}

// scopedAnswer is diffAnswer over the sections withhold lets through.
func scopedAnswer(d, path string, withhold Withhold) (string, error) {
	sections, err := diff.Sections(d)
	if err != nil {
		return "", fmt.Errorf("the diff could not be split into files (%v), so it is not shown: some of its files may not be sent. Read the files you need with read_file", err)
	}
	want := strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(path, "./"), "a/"), "b/")
	var kept []string
	var held []string
	private := 0
	for _, s := range sections {
		why, priv := withhold(s.File)
		switch {
		case why == "":
			kept = append(kept, s.Text)
		case path != "" && (has(s.File, want) || has(s.File, strings.TrimPrefix(path, "./"))):
			return "", fmt.Errorf("the diff of %q is not shown (%s); read_file shows a file that is not private", path, why)
		case priv:
			private++
		default:
			held = append(held, fmt.Sprintf("%s (%s)", s.File.Path(), why))
		}
	}
	out, err := diffAnswer(strings.Join(kept, ""), path)
	if err != nil || path != "" || len(held)+private == 0 {
		return out, err
	}
	if len(held) > maxChangedFilesNamed {
		held = append(held[:maxChangedFilesNamed], fmt.Sprintf("and %d more", len(held)-maxChangedFilesNamed))
	}
	note := fmt.Sprintf("[not shown: %d changed file(s) out of the review's scope", len(held))
	if len(held) > 0 {
		note += ": " + strings.Join(held, "; ")
	}
	if private > 0 {
		note += fmt.Sprintf("; %d private file(s) (private_paths): their content never leaves the runner", private)
	}
	return cutText(out+note+"]\n", maxOutput), nil
}

func diffAnswer(d, path string) (string, error) {
	sections, perr := diff.Sections(d)
	if path != "" {
		if perr != nil {
			return "", fmt.Errorf("the diff could not be split into files (%v); call get_pr_diff without a path", perr)
		}
		var parts []string
		want := strings.TrimPrefix(path, "./")
		for _, s := range sections {
			if has(s.File, want) || has(s.File, strings.TrimPrefix(strings.TrimPrefix(want, "a/"), "b/")) {
				parts = append(parts, s.Text)
			}
		}
		if len(parts) == 0 {
			return "", fmt.Errorf("the PR does not change %q; changed files: %s", path, fileNames(sections))
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
			len(cut), len(d), fileNames(sections))
	} else {
		note = fmt.Sprintf("[diff of %s truncated: %d of %d bytes shown; read_file shows the file as it is in the PR's head]\n", path, len(cut), len(d))
	}
	if !strings.HasSuffix(cut, "\n") {
		cut += "\n"
	}
	return cutText(cut+note, maxOutput), nil
}

// has reports whether a file is known by name p, old or new.
func has(f diff.File, p string) bool { return p != "" && (f.NewPath == p || f.OldPath == p) }

func fileNames(files []diff.Section) string {
	if len(files) == 0 {
		return "(none)"
	}
	var names []string
	for i, f := range files {
		if i == maxChangedFilesNamed {
			names = append(names, fmt.Sprintf("and %d more", len(files)-i))
			break
		}
		names = append(names, f.File.Path())
	}
	return strings.Join(names, ", ")
}
