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
