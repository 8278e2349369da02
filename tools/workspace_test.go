package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/llm"
	"github.com/review-my-code-bot/rmc/workspace"
)

// call runs a tool the way package llm does.
func call(t *testing.T, tool llm.Tool, args string) (string, error) {
	t.Helper()
	return tool.Run(t.Context(), json.RawMessage(args))
}

func byName(tools []llm.Tool) map[string]llm.Tool {
	m := map[string]llm.Tool{}
	for _, t := range tools {
		m[t.Name] = t
	}
	return m
}

// repo writes a small repository and opens it as a workspace.
func repo(t *testing.T) *workspace.FS {
	t.Helper()
	tmp := t.TempDir()
	root := filepath.Join(tmp, "repo")
	var long strings.Builder
	for i := 1; i <= 2000; i++ {
		fmt.Fprintf(&long, "line %04d %s\n", i, strings.Repeat("-", 89))
	}
	files := map[string]string{
		"main.go":          "package main\n\nfunc main() {\n\tprintln(\"hi\")\n}\n",
		"pkg/util.go":      "package pkg\n\n// TODO: remove\nfunc Util() {}\n",
		"long.txt":         long.String(),
		".env.local":       "TOKEN=secret\n",
		".git/config":      "[core]\n",
		"logo.png":         "\x89PNG\r\n\x1a\n\x00\x00\x00",
		"../outside.txt":   "outside\n",
		"pkg/big/data.txt": strings.Repeat("x\n", 1<<20),
	}
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("../outside.txt", filepath.Join(root, "escape")); err != nil {
		t.Fatal(err)
	}
	w, err := workspace.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return w
}

func TestWorkspaceTools(t *testing.T) {
	t.Parallel()
	tools := byName(Workspace(repo(t)))
	tests := map[string]struct {
		tool, args string
		want       []string // substrings of the answer
		not        []string // must not appear
		wantErr    string
	}{
		"list the root": {tool: "list_files", args: `{}`,
			want: []string{"entries under the repository root:", "main.go (45 bytes)", "pkg/\n", "pkg/util.go (", "logo.png"},
			not:  []string{".env", ".git", "escape", "outside"}},
		"list a subdirectory":   {tool: "list_files", args: `{"path": "pkg/big"}`, want: []string{"1 entries under pkg/big:", "pkg/big/data.txt (2.0 MiB)"}},
		"list capped":           {tool: "list_files", args: `{"max_entries": 2}`, want: []string{"[truncated at 2 entries"}},
		"list a file":           {tool: "list_files", args: `{"path": "main.go"}`, wantErr: "is a file, not a directory"},
		"list .git":             {tool: "list_files", args: `{"path": ".git"}`, wantErr: ".git is not available"},
		"read":                  {tool: "read_file", args: `{"path": "main.go"}`, want: []string{"main.go, lines 1-5 of 5:\n1\tpackage main\n2\t\n3\tfunc main() {\n"}},
		"read a range":          {tool: "read_file", args: `{"path": "long.txt", "start_line": 9, "end_line": 10}`, want: []string{"long.txt, lines 9-10 of 2000:\n 9\tline 0009", "10\tline 0010"}},
		"line numbers as text":  {tool: "read_file", args: `{"path": "long.txt", "start_line": "1999", "end_line": 2000.0}`, want: []string{"lines 1999-2000 of 2000"}},
		"read past the end":     {tool: "read_file", args: `{"path": "main.go", "start_line": 4, "end_line": 50}`, want: []string{"lines 4-5 of 5", "[end of file: it has 5 lines]"}},
		"read capped":           {tool: "read_file", args: `{"path": "long.txt"}`, want: []string{"lines 1-942 of 2000", "[cut after line 942 to keep the answer short; call read_file with start_line=943 to continue]"}, not: []string{"line 0943 "}},
		"read relative escape":  {tool: "read_file", args: `{"path": "../../etc/passwd"}`, wantErr: "\"..\" is not allowed"},
		"read absolute":         {tool: "read_file", args: `{"path": "/etc/passwd"}`, wantErr: "absolute paths are not allowed"},
		"read .git/config":      {tool: "read_file", args: `{"path": ".git/config"}`, wantErr: ".git is not available"},
		"read .env.local":       {tool: "read_file", args: `{"path": ".env.local"}`, wantErr: "environment files"},
		"read a symlink out":    {tool: "read_file", args: `{"path": "escape"}`, wantErr: "points outside the repository"},
		"read a binary":         {tool: "read_file", args: `{"path": "logo.png"}`, wantErr: "binary file"},
		"read a missing file":   {tool: "read_file", args: `{"path": "nope.go"}`, wantErr: `"nope.go" does not exist`},
		"read without a path":   {tool: "read_file", args: `{}`, wantErr: "missing required argument path"},
		"read with a bad field": {tool: "read_file", args: `{"file": "main.go"}`, wantErr: `unknown argument "file"; the arguments are: path, start_line, end_line`},
		"read with a bad line":  {tool: "read_file", args: `{"path": "main.go", "start_line": "one"}`, wantErr: `start_line must be a whole number of at least 1, not "one"`},
		"search":                {tool: "search", args: `{"pattern": "TODO"}`, want: []string{"1 matching lines for \"TODO\" in all files:\npkg/util.go:3: // TODO: remove\n"}},
		"search with a glob":    {tool: "search", args: `{"pattern": "^package", "path_glob": "pkg/**"}`, want: []string{"pkg/util.go:1: package pkg"}, not: []string{"main.go"}},
		"search ignoring case":  {tool: "search", args: `{"pattern": "(?i)todo: REMOVE"}`, want: []string{"pkg/util.go:3:"}},
		"search skips secrets":  {tool: "search", args: `{"pattern": "secret|TOKEN"}`, want: []string{"No lines match"}},
		"search capped":         {tool: "search", args: `{"pattern": "^line", "max_results": 3}`, want: []string{"long.txt:3: line 0003", "[truncated at 3 matches: more exist"}, not: []string{"long.txt:4:"}},
		"search skips big files": {tool: "search", args: `{"pattern": "x", "path_glob": "*.txt", "max_results": 1}`,
			want: []string{"[1 matching files were not searched: binary or larger than 1.0 MiB"}},
		"search with a bad regexp": {tool: "search", args: `{"pattern": "a(b"}`, wantErr: "invalid Go regexp"},
		"search without a pattern": {tool: "search", args: `{"path_glob": "*.go"}`, wantErr: "missing required argument pattern"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got, err := call(t, tools[tt.tool], tt.args)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("%s(%s) = %q, %v; want an error containing %q", tt.tool, tt.args, got, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("%s(%s): %v", tt.tool, tt.args, err)
			}
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("%s(%s) answer lacks %q:\n%s", tt.tool, tt.args, w, head(got))
				}
			}
			for _, n := range tt.not {
				if strings.Contains(got, n) {
					t.Errorf("%s(%s) answer has %q:\n%s", tt.tool, tt.args, n, head(got))
				}
			}
			if len(got) > maxOutput {
				t.Errorf("answer is %d bytes, over the %d cap", len(got), maxOutput)
			}
		})
	}
}

func head(s string) string { return s[:min(len(s), 2000)] }

// fakeReader stands in for an API-backed Reader, to check the formatting of
// what the file system rarely produces.
type fakeReader struct {
	listing workspace.Listing
	text    workspace.Text
	result  workspace.SearchResult
	err     error
}

func (f fakeReader) List(context.Context, string, int) (workspace.Listing, error) {
	return f.listing, f.err
}

func (f fakeReader) Read(context.Context, string, int, int) (workspace.Text, error) {
	return f.text, f.err
}

func (f fakeReader) Search(context.Context, string, string, int) (workspace.SearchResult, error) {
	return f.result, f.err
}

func TestWorkspaceToolsFormatting(t *testing.T) {
	t.Parallel()
	many := make([]workspace.Entry, 5000)
	matches := make([]workspace.Match, 500)
	for i := range many {
		many[i] = workspace.Entry{Path: fmt.Sprintf("dir/%s-%04d.go", strings.Repeat("n", 40), i), Size: 10}
	}
	for i := range matches {
		matches[i] = workspace.Match{Path: "a.go", Line: i + 1, Text: strings.Repeat("m", 290)}
	}
	tests := map[string]struct {
		r          fakeReader
		tool, args string
		want       string
		wantErr    error
	}{
		"links and directories": {r: fakeReader{listing: workspace.Listing{Dir: "x", Entries: []workspace.Entry{
			{Path: "x/d", Dir: true}, {Path: "x/l", Link: "y/f.go", Size: 2048}, {Path: "x/ld", Link: "y", Dir: true},
		}}}, tool: "list_files", args: `{"path": "x"}`, want: "3 entries under x:\nx/d/\nx/l -> y/f.go (2.0 KiB)\nx/ld/ -> y/\n"},
		"empty directory": {r: fakeReader{listing: workspace.Listing{Dir: "e"}}, tool: "list_files", args: `{"path": "e"}`,
			want: "e is empty (or holds only files that are not available).\n"},
		"listing over the output cap": {r: fakeReader{listing: workspace.Listing{Dir: ".", Entries: many}}, tool: "list_files", args: `{}`,
			want: "entries shown to keep the answer short; list a subdirectory to see the rest]"},
		"reader's own cap note": {r: fakeReader{text: workspace.Text{Path: "a.go", From: 1, Lines: []string{"x"}, TotalLines: 9, Truncated: true,
			Note: "output capped at 256 KiB: continue from line 2"}}, tool: "read_file", args: `{"path": "a.go"}`,
			want: "a.go, lines 1-1 of 9:\n1\tx\n[output capped at 256 KiB: continue from line 2]\n"},
		"empty file": {r: fakeReader{text: workspace.Text{Path: "e.go", From: 1}}, tool: "read_file", args: `{"path": "e.go"}`,
			want: "e.go: no lines to show (the file has 0 lines).\n"},
		"matches over the output cap": {r: fakeReader{result: workspace.SearchResult{Matches: matches}}, tool: "search", args: `{"pattern": "m", "max_results": 500}`,
			want: "matches shown to keep the answer short; narrow the pattern or path_glob]"},
		"reader errors pass through": {r: fakeReader{err: workspace.ErrRefused}, tool: "search", args: `{"pattern": "x"}`, wantErr: workspace.ErrRefused},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got, err := call(t, byName(Workspace(tt.r))[tt.tool], tt.args)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("error = %v, want %v", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(got, tt.want) {
				t.Errorf("answer lacks %q:\n%s", tt.want, head(got))
			}
			if len(got) > maxOutput {
				t.Errorf("answer is %d bytes, over the %d cap", len(got), maxOutput)
			}
		})
	}
}

// TestToolDefinitions checks what the llm package and the model rely on:
// names, a schema for an object, and required arguments that exist.
func TestToolDefinitions(t *testing.T) {
	t.Parallel()
	all := append(Workspace(fakeReader{}), Diff(func(context.Context) (string, error) { return "", nil }), Web(WebOptions{}))
	seen := map[string]bool{}
	for _, tool := range all {
		if seen[tool.Name] || tool.Name == "" || tool.Description == "" || tool.Run == nil {
			t.Errorf("tool %q: duplicate or incomplete", tool.Name)
		}
		seen[tool.Name] = true
		if tool.Parameters["type"] != "object" {
			t.Errorf("tool %q: parameters are not an object schema", tool.Name)
		}
		props, _ := tool.Parameters["properties"].(map[string]any)
		req, _ := tool.Parameters["required"].([]any)
		for _, r := range req {
			if _, ok := props[r.(string)]; !ok {
				t.Errorf("tool %q: required %q is not a property", tool.Name, r)
			}
		}
		if _, err := json.Marshal(tool.Parameters); err != nil {
			t.Errorf("tool %q: schema does not encode: %v", tool.Name, err)
		}
	}
	for _, name := range []string{"list_files", "read_file", "search", "get_pr_diff", "fetch_url"} {
		if !seen[name] {
			t.Errorf("missing tool %q", name)
		}
	}
}
