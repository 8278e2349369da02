package tools

import (
	"context"
	"fmt"
	"strconv"

	"github.com/review-my-code-bot/rmc/llm"
	"github.com/review-my-code-bot/rmc/workspace"
)

// Caps the model can raise up to, and the defaults when it gives none.
const (
	defaultListEntries = 500
	maxListEntries     = 2000
	defaultResults     = 50
	maxResults         = 500
)

// refusedSummary tells the model up front what it will not get, so that it
// does not spend calls finding out.
const refusedSummary = "Not available: .git, environment files (.env, .env.*, *.env, .envrc), keys and certificates (*.pem, *.key, *.p12, *.pfx, id_rsa*, ...), credential files (.npmrc, .netrc, .pypirc, credentials*), and symlinks leading outside the repository."

// Workspace returns the tools that read the repository through r:
// list_files, read_file and search.
func Workspace(r workspace.Reader) []llm.Tool {
	return []llm.Tool{listFiles(r), readFile(r), search(r)}
}

// listFilesArgs are list_files' arguments; the numbers in the tags are
// defaultListEntries and maxListEntries (a test holds them to it).
type listFilesArgs struct {
	Path       string   `json:"path,omitempty" jsonschema:"Directory relative to the repository root, e.g. \"src/util\". Empty or \".\" for the root."`
	MaxEntries positive `json:"max_entries,omitempty" jsonschema:"Most entries to return (default 500, at most 2000)."`
}

func listFiles(r workspace.Reader) llm.Tool {
	return llm.MustTool("list_files",
		"List the files and directories under a directory of the repository, recursively, with file sizes. "+
			"Directories end in \"/\"; symlinks show their target. A big tree is cut breadth-first, so the top levels always show; "+
			"list a subdirectory to see deeper. "+refusedSummary,
		`{"path": "src", "max_entries": 500}`,
		func(ctx context.Context, a listFilesArgs) (string, error) {
			max := clamp(int(a.MaxEntries), defaultListEntries, maxListEntries)
			l, err := r.List(ctx, a.Path, max)
			if err != nil {
				return "", err
			}
			return formatListing(l, max), nil
		})
}

func formatListing(l workspace.Listing, max int) string {
	var c lineCapper
	dir := l.Dir
	if dir == "" || dir == "." {
		dir = "the repository root"
	}
	if len(l.Entries) == 0 {
		c.add(fmt.Sprintf("%s is empty (or holds only files that are not available).", dir))
		return c.String()
	}
	c.add(fmt.Sprintf("%d entries under %s:", len(l.Entries), dir))
	shown := 0
	for _, e := range l.Entries {
		var line string
		switch {
		case e.Link != "" && e.Dir:
			line = fmt.Sprintf("%s/ -> %s/", e.Path, e.Link)
		case e.Link != "":
			line = fmt.Sprintf("%s -> %s (%s)", e.Path, e.Link, sizeText(e.Size))
		case e.Dir:
			line = e.Path + "/"
		default:
			line = fmt.Sprintf("%s (%s)", e.Path, sizeText(e.Size))
		}
		if !c.add(line) {
			break
		}
		shown++
	}
	switch {
	case shown < len(l.Entries):
		c.note("truncated: %d of %d entries shown to keep the answer short; list a subdirectory to see the rest", shown, len(l.Entries))
	case l.Truncated:
		c.note("truncated at %d entries: deeper levels are missing; list a subdirectory, or raise max_entries (at most %d)", max, maxListEntries)
	}
	return c.String()
}

// readFileArgs are read_file's arguments.
type readFileArgs struct {
	Path      string   `json:"path" jsonschema:"File path relative to the repository root, e.g. \"src/main.go\"."`
	StartLine positive `json:"start_line,omitempty" jsonschema:"First line to read, 1-based (default 1)."`
	EndLine   positive `json:"end_line,omitempty" jsonschema:"Last line to read, inclusive (default: the end of the file)."`
}

func readFile(r workspace.Reader) llm.Tool {
	const expected = `{"path": "src/main.go", "start_line": 1, "end_line": 200}`
	return llm.MustTool("read_file",
		"Read a text file of the repository, as it is in the PR's head, with line numbers. "+
			"Give start_line and end_line (1-based, inclusive) to read part of a big file; without them the whole file is read, "+
			fmt.Sprintf("up to about %d KB per call, with a note saying where to continue; a line longer than that is cut. Binary files cannot be read. ", maxOutput/1000)+
			refusedSummary,
		expected,
		func(ctx context.Context, a readFileArgs) (string, error) {
			if a.Path == "" {
				return "", fmt.Errorf("path is required; expected %s", expected)
			}
			t, err := r.Read(ctx, a.Path, int(a.StartLine), int(a.EndLine))
			if err != nil {
				return "", err
			}
			return formatText(t, int(a.EndLine)), nil
		})
}

func formatText(t workspace.Text, asked int) string {
	var c lineCapper
	if len(t.Lines) == 0 {
		c.add(fmt.Sprintf("%s: no lines to show (the file has %d lines).", t.Path, t.TotalLines))
		return c.String()
	}
	width := len(strconv.Itoa(t.To()))
	last := t.From - 1
	cut := false
	for i, l := range t.Lines {
		line := fmt.Sprintf("%*d\t%s", width, t.From+i, l)
		if c.add(line) {
			last = t.From + i
			continue
		}
		if i == 0 {
			// One line longer than a whole answer (minified code, a data
			// blob): show its start and move on, so that every call
			// advances and a model paging through the file reaches its end.
			c.addCut(line, cutMarker)
			last, cut = t.From, true
		}
		break
	}
	switch {
	case cut && last < t.TotalLines:
		c.note("line %d is longer than one answer and was cut where %q stands; call read_file with start_line=%d to continue after it", last, cutMarker, last+1)
	case cut:
		c.note("line %d, the last of the file, is longer than one answer and was cut where %q stands", last, cutMarker)
	case last < t.To():
		c.note("cut after line %d to keep the answer short; call read_file with start_line=%d to continue", last, last+1)
	case t.Truncated:
		c.note("%s", t.Note)
	case asked > t.TotalLines:
		c.note("end of file: it has %d lines", t.TotalLines)
	}
	// The heading goes first but is written last, to name the lines shown.
	return fmt.Sprintf("%s, lines %d-%d of %d:\n", t.Path, t.From, last, t.TotalLines) + c.String()
}

// cutMarker ends a line read_file had to cut.
const cutMarker = "…[line cut]"

// searchArgs are search's arguments; the numbers in the tags are
// defaultResults and maxResults (a test holds them to it).
type searchArgs struct {
	Pattern    string   `json:"pattern" jsonschema:"Go regular expression, e.g. \"func New[A-Z]\\\\w*\" or \"(?i)todo\"."`
	PathGlob   string   `json:"path_glob,omitempty" jsonschema:"Only search files matching this glob. Without a \"/\" it matches file names at any depth (\"*.go\", \"Dockerfile\"); with one it matches the path from the root, \"**\" standing for any directories (\"cmd/**/*.go\"); a trailing \"/\" means everything below (\"internal/\"). Empty: all files."`
	MaxResults positive `json:"max_results,omitempty" jsonschema:"Most matching lines to return (default 50, at most 500)."`
}

func search(r workspace.Reader) llm.Tool {
	return llm.MustTool("search",
		"Search the repository's text files for lines matching a regular expression (Go RE2 syntax: no backreferences "+
			"or lookaround). Case-sensitive; start the pattern with (?i) to ignore case. Each line is matched on its own. "+
			"Answers are \"path:line: text\", in path order. Binary files and files over "+sizeText(workspace.MaxSearchFileSize)+
			" are not searched. "+refusedSummary,
		`{"pattern": "func \\w+Handler", "path_glob": "*.go", "max_results": 50}`,
		func(ctx context.Context, a searchArgs) (string, error) {
			max := clamp(int(a.MaxResults), defaultResults, maxResults)
			res, err := r.Search(ctx, a.Pattern, a.PathGlob, max)
			if err != nil {
				return "", err
			}
			return formatMatches(a.Pattern, a.PathGlob, res, max), nil
		})
}

func formatMatches(pattern, glob string, res workspace.SearchResult, max int) string {
	var c lineCapper
	where := "all files"
	if glob != "" {
		where = fmt.Sprintf("files matching %q", glob)
	}
	if len(res.Matches) == 0 {
		c.add(fmt.Sprintf("No lines match %q in %s (%d files searched).", pattern, where, res.Searched))
	} else {
		c.add(fmt.Sprintf("%d matching lines for %q in %s:", len(res.Matches), pattern, where))
	}
	shown := 0
	for _, m := range res.Matches {
		if !c.add(fmt.Sprintf("%s:%d: %s", m.Path, m.Line, m.Text)) {
			break
		}
		shown++
	}
	switch {
	case shown < len(res.Matches):
		c.note("truncated: %d of %d matches shown to keep the answer short; narrow the pattern or path_glob", shown, len(res.Matches))
	case res.Truncated:
		c.note("truncated at %d matches: more exist; narrow the pattern or path_glob, or raise max_results (at most %d)", max, maxResults)
	}
	if res.Skipped > 0 {
		c.note("%d matching files were not searched: binary or larger than %s; read_file can read large text files in parts",
			res.Skipped, sizeText(workspace.MaxSearchFileSize))
	}
	return c.String()
}

// clamp applies a tool's default and cap to a count the model gave.
func clamp(n, def, max int) int {
	if n <= 0 {
		return def
	}
	return min(n, max)
}
