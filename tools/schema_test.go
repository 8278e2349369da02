package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/llm"
	"github.com/review-my-code-bot/rmc/workspace"
)

func allTools() []llm.Tool {
	return append(Workspace(fakeReader{}), Diff(func(context.Context) (string, error) { return "", nil }), Web(WebOptions{}))
}

// The tool definitions the model is offered are, byte for byte, the ones
// the hand-written schemas gave before they were made from the argument
// structs (testdata/tool_definitions.jsonl, one tool a line): the prompt's
// tokens and the provider's prompt cache stay as they were.
func TestToolDefinitionsWire(t *testing.T) {
	t.Parallel()
	want, err := os.ReadFile("testdata/tool_definitions.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var got []byte
	for _, tool := range allTools() {
		b, err := json.Marshal(map[string]any{"name": tool.Name, "description": tool.Description, "parameters": tool.Parameters})
		if err != nil {
			t.Fatal(err)
		}
		got = append(append(got, b...), '\n')
	}
	if string(got) != string(want) {
		t.Errorf("tool definitions changed on the wire:\ngot:\n%s\nwant:\n%s", got, want)
	}
}

// Every tool is built by llm.MustTool from its argument struct: no file of
// the package writes an llm.Tool literal (with a schema by hand) or a JSON
// Schema map.
func TestToolSchemasAreGenerated(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, _ := d.(*ast.FuncDecl)
			ownSchema := fn != nil && fn.Recv != nil && fn.Name.Name == "JSONSchema" // a field type's own schema
			ast.Inspect(d, func(n ast.Node) bool {
				lit, ok := n.(*ast.CompositeLit)
				if !ok || lit.Type == nil {
					return true
				}
				switch typ := types(lit.Type); typ {
				case "llm.Tool", "map[string]any", "map[string]interface{}", "jsonschema.Schema":
					if !(ownSchema && typ == "jsonschema.Schema") {
						t.Errorf("%s: %s literal: tools are made with llm.MustTool from their argument struct", fset.Position(lit.Pos()), typ)
					}
				}
				return true
			})
		}
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && (fn.Name.Name == "object" || fn.Name.Name == "str" || fn.Name.Name == "integer") {
				t.Errorf("%s: hand-written schema helper %s", fset.Position(fn.Pos()), fn.Name.Name)
			}
		}
	}
	for _, tool := range allTools() {
		if tool.Parameters["type"] != "object" || tool.Parameters["additionalProperties"] != false {
			t.Errorf("tool %q: parameters %v are not a closed object schema", tool.Name, tool.Parameters)
		}
	}
}

func types(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.SelectorExpr:
		return types(e.X) + "." + e.Sel.Name
	case *ast.Ident:
		return e.Name
	case *ast.MapType:
		return "map[" + types(e.Key) + "]" + types(e.Value)
	case *ast.InterfaceType:
		return "interface{}"
	}
	return fmt.Sprintf("%T", e)
}

// recorder is a Reader that answers with the arguments the tool passed
// it, so a test sees what a call's arguments decoded to.
type recorder struct{}

func (recorder) List(_ context.Context, dir string, max int) (workspace.Listing, error) {
	return workspace.Listing{}, fmt.Errorf("list(%q, %d)", dir, max)
}

func (recorder) Read(_ context.Context, path string, from, to int) (workspace.Text, error) {
	return workspace.Text{}, fmt.Errorf("read(%q, %d, %d)", path, from, to)
}

func (recorder) Search(_ context.Context, pattern, glob string, max int) (workspace.SearchResult, error) {
	return workspace.SearchResult{}, fmt.Errorf("search(%q, %q, %d)", pattern, glob, max)
}

// Every tool's arguments, as models really write them: what a call decodes
// to (want: the recorder's or the tool's answer), or the whole error text
// the model is shown (wantErr).
func TestToolArguments(t *testing.T) {
	t.Parallel()
	diff := "diff --git a/a.go b/a.go\n--- a/a.go\n+++ b/a.go\n@@ -1 +1 @@\n-x\n+y\n"
	tools := byName(append(Workspace(recorder{}),
		Diff(func(context.Context) (string, error) { return diff, nil }), Web(WebOptions{Resolver: fakeResolver{}})))
	const (
		listHint   = `; expected a JSON object like {"path": "src", "max_entries": 500}`
		readHint   = `; expected a JSON object like {"path": "src/main.go", "start_line": 1, "end_line": 200}`
		searchHint = `; expected a JSON object like {"pattern": "func \\w+Handler", "path_glob": "*.go", "max_results": 50}`
		diffHint   = `; expected a JSON object like {"path": "src/main.go"}`
		webHint    = `; expected a JSON object like {"url": "https://pkg.go.dev/net/http"}`
	)
	tests := map[string]struct{ tool, args, want, wantErr string }{
		// list_files
		"list: none":                {tool: "list_files", args: ``, want: `list("", 500)`},
		"list: null":                {tool: "list_files", args: `null`, want: `list("", 500)`},
		"list: empty object":        {tool: "list_files", args: ` {} `, want: `list("", 500)`},
		"list: count":               {tool: "list_files", args: `{"path": "src", "max_entries": 10}`, want: `list("src", 10)`},
		"list: count as text":       {tool: "list_files", args: `{"max_entries": "10"}`, want: `list("", 10)`},
		"list: count as float":      {tool: "list_files", args: `{"max_entries": 10.0}`, want: `list("", 10)`},
		"list: count with exponent": {tool: "list_files", args: `{"max_entries": "1e1"}`, want: `list("", 10)`},
		"list: count left empty":    {tool: "list_files", args: `{"max_entries": ""}`, want: `list("", 500)`},
		"list: count null":          {tool: "list_files", args: `{"path": null, "max_entries": null}`, want: `list("", 500)`},
		"list: count over the cap":  {tool: "list_files", args: `{"max_entries": 99999}`, want: `list("", 2000)`},
		"list: count zero":          {tool: "list_files", args: `{"max_entries": 0}`, want: `list("", 500)`},
		"list: count negative":      {tool: "list_files", args: `{"max_entries": "-3"}`, wantErr: `invalid arguments (max_entries must be a whole number of at least 1, not -3)` + listHint},
		"list: count a fraction":    {tool: "list_files", args: `{"max_entries": 1.5}`, wantErr: `invalid arguments (max_entries must be a whole number of at least 1, not 1.5)` + listHint},
		"list: count a word":        {tool: "list_files", args: `{"max_entries": "ten"}`, wantErr: `invalid arguments (max_entries must be a whole number of at least 1, not "ten")` + listHint},
		"list: count padded":        {tool: "list_files", args: `{"max_entries": " 7"}`, wantErr: `invalid arguments (max_entries must be a whole number of at least 1, not " 7")` + listHint},
		"list: count a bool":        {tool: "list_files", args: `{"max_entries": true}`, wantErr: `invalid arguments (max_entries must be a whole number of at least 1, not true)` + listHint},
		"list: count too big":       {tool: "list_files", args: `{"max_entries": 1e19}`, wantErr: `invalid arguments (max_entries must be a whole number of at least 1, not 1e19)` + listHint},
		"list: path a number":       {tool: "list_files", args: `{"path": 5}`, wantErr: `invalid arguments (path must be a string, not 5)` + listHint},
		"list: unknown argument":    {tool: "list_files", args: `{"dir": "src"}`, wantErr: `invalid arguments (unknown argument "dir"; the arguments are: path, max_entries)` + listHint},
		"list: unknown null":        {tool: "list_files", args: `{"dir": null}`, wantErr: `invalid arguments (unknown argument "dir"; the arguments are: path, max_entries)` + listHint},
		"list: an array":            {tool: "list_files", args: `["src"]`, wantErr: `invalid arguments (the arguments must be a JSON object, not an array)` + listHint},
		"list: a string":            {tool: "list_files", args: `"src"`, wantErr: `invalid arguments (the arguments must be a JSON object, not a string)` + listHint},
		"list: trailing text":       {tool: "list_files", args: `{"path": "a"} {"path": "b"}`, wantErr: `invalid arguments (not valid JSON: extra text after the arguments object)` + listHint},
		"list: broken JSON":         {tool: "list_files", args: `{"path": `, wantErr: `invalid arguments (not valid JSON: unexpected EOF)` + listHint},
		"list: a long unknown name": {tool: "list_files", args: `{"` + strings.Repeat("x", 200) + `": 1}`, wantErr: `invalid arguments (unknown argument "` + strings.Repeat("x", 60) + `"; the arguments are: path, max_entries)` + listHint},
		// read_file
		"read: path":             {tool: "read_file", args: `{"path": "a.go"}`, want: `read("a.go", 0, 0)`},
		"read: lines as text":    {tool: "read_file", args: `{"path": "a.go", "start_line": "10", "end_line": 20.0}`, want: `read("a.go", 10, 20)`},
		"read: lines left empty": {tool: "read_file", args: `{"path": "a.go", "start_line": "", "end_line": null}`, want: `read("a.go", 0, 0)`},
		"read: a line past 2^53": {tool: "read_file", args: `{"path": "a.go", "start_line": 9007199254740993}`, want: `read("a.go", 9007199254740993, 0)`},
		"read: empty path":       {tool: "read_file", args: `{"path": ""}`, wantErr: `path is required; expected {"path": "src/main.go", "start_line": 1, "end_line": 200}`},
		"read: no path":          {tool: "read_file", args: `{"start_line": 3}`, wantErr: `invalid arguments (missing required argument path)` + readHint},
		"read: null path":        {tool: "read_file", args: `{"path": null}`, wantErr: `invalid arguments (missing required argument path)` + readHint},
		"read: path a list":      {tool: "read_file", args: `{"path": ["a.go", "b.go"]}`, wantErr: `invalid arguments (path must be a string, not ["a.go","b.go"])` + readHint},
		"read: line zero":        {tool: "read_file", args: `{"path": "a.go", "start_line": 0, "end_line": "0"}`, want: `read("a.go", 0, 0)`},
		"read: leading zero":     {tool: "read_file", args: `{"path": "a.go", "start_line": "007"}`, wantErr: `invalid arguments (start_line must be a whole number of at least 1, not "007")` + readHint},
		"read: a long bad value": {tool: "read_file", args: `{"path": "a.go", "start_line": "` + strings.Repeat("9", 100) + `x"}`, wantErr: `invalid arguments (start_line must be a whole number of at least 1, not "` + strings.Repeat("9", 59) + `…)` + readHint},
		"read: file for path":    {tool: "read_file", args: `{"file": "a.go"}`, wantErr: `invalid arguments (unknown argument "file"; the arguments are: path, start_line, end_line)` + readHint},
		// search
		"search: pattern":           {tool: "search", args: `{"pattern": "TODO"}`, want: `search("TODO", "", 50)`},
		"search: all":               {tool: "search", args: `{"pattern": "x", "path_glob": "*.go", "max_results": "3"}`, want: `search("x", "*.go", 3)`},
		"search: glob null":         {tool: "search", args: `{"pattern": "x", "path_glob": null, "max_results": ""}`, want: `search("x", "", 50)`},
		"search: results capped":    {tool: "search", args: `{"pattern": "x", "max_results": 1e3}`, want: `search("x", "", 500)`},
		"search: no pattern":        {tool: "search", args: `{"path_glob": "*.go"}`, wantErr: `invalid arguments (missing required argument pattern)` + searchHint},
		"search: pattern a number":  {tool: "search", args: `{"pattern": 42}`, wantErr: `invalid arguments (pattern must be a string, not 42)` + searchHint},
		"search: glob an object":    {tool: "search", args: `{"pattern": "x", "path_glob": {"a": 1}}`, wantErr: `invalid arguments (path_glob must be a string, not {"a":1})` + searchHint},
		"search: results negative":  {tool: "search", args: `{"pattern": "x", "max_results": -1}`, wantErr: `invalid arguments (max_results must be a whole number of at least 1, not -1)` + searchHint},
		"search: query for pattern": {tool: "search", args: `{"query": "x"}`, wantErr: `invalid arguments (unknown argument "query"; the arguments are: pattern, path_glob, max_results)` + searchHint},
		// get_pr_diff
		"diff: whole":         {tool: "get_pr_diff", args: `{}`, want: diff},
		"diff: null":          {tool: "get_pr_diff", args: `null`, want: diff},
		"diff: path null":     {tool: "get_pr_diff", args: `{"path": null}`, want: diff},
		"diff: one file":      {tool: "get_pr_diff", args: `{"path": "a.go"}`, want: diff},
		"diff: path a number": {tool: "get_pr_diff", args: `{"path": 1}`, wantErr: `invalid arguments (path must be a string, not 1)` + diffHint},
		"diff: file for path": {tool: "get_pr_diff", args: `{"file": "a.go"}`, wantErr: `invalid arguments (unknown argument "file"; the arguments are: path)` + diffHint},
		// fetch_url
		"web: decoded":      {tool: "fetch_url", args: `{"url": "ftp://example.test/x"}`, wantErr: `only http and https URLs can be fetched, not "ftp:"`},
		"web: no url":       {tool: "fetch_url", args: `{}`, wantErr: `invalid arguments (missing required argument url)` + webHint},
		"web: url null":     {tool: "fetch_url", args: `{"url": null}`, wantErr: `invalid arguments (missing required argument url)` + webHint},
		"web: url a number": {tool: "fetch_url", args: `{"url": 8080}`, wantErr: `invalid arguments (url must be a string, not 8080)` + webHint},
		"web: an extra":     {tool: "fetch_url", args: `{"url": "https://example.test", "timeout": 5}`, wantErr: `invalid arguments (unknown argument "timeout"; the arguments are: url)` + webHint},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got, err := call(t, tools[tt.tool], tt.args)
			switch {
			case tt.wantErr != "" && strings.HasPrefix(tt.wantErr, "invalid arguments") || strings.HasPrefix(tt.wantErr, "path is required"):
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("%s(%s) = %q, %v;\nwant the error %s", tt.tool, tt.args, got, err, tt.wantErr)
				}
			case tt.wantErr != "":
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || strings.Contains(err.Error(), "invalid arguments") {
					t.Fatalf("%s(%s) = %q, %v; want an error containing %q", tt.tool, tt.args, got, err, tt.wantErr)
				}
			default:
				if err != nil {
					got = err.Error() // the recorder answers with an error
				}
				if got != tt.want {
					t.Fatalf("%s(%s) = %q; want %q", tt.tool, tt.args, got, tt.want)
				}
			}
		})
	}
}

// The defaults and caps the argument descriptions state are the ones the
// tools apply.
func TestArgumentDescriptionsState(t *testing.T) {
	t.Parallel()
	tools := byName(allTools())
	for _, c := range []struct{ tool, arg, want string }{
		{"list_files", "max_entries", fmt.Sprintf("(default %d, at most %d)", defaultListEntries, maxListEntries)},
		{"search", "max_results", fmt.Sprintf("(default %d, at most %d)", defaultResults, maxResults)},
	} {
		props, _ := tools[c.tool].Parameters["properties"].(map[string]any)
		p, _ := props[c.arg].(map[string]any)
		if desc, _ := p["description"].(string); !strings.Contains(desc, c.want) {
			t.Errorf("%s.%s description %q does not state %q", c.tool, c.arg, desc, c.want)
		}
	}
}
