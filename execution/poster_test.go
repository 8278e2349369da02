package execution

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestOnePostingPath: the steps that make a body safe to post (redact,
// cut, defang, withhold echoes) are called in poster.go only, so no runner
// can post a body that skipped them by building its own.
func TestOnePostingPath(t *testing.T) {
	t.Parallel()
	only := map[string]bool{"sanitize.Redact": true, "sanitize.Fit": true, "rmcoc.Defang": true, "injection.Echoes": true}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			pkg, ok := sel.X.(*ast.Ident)
			if !ok || !only[pkg.Name+"."+sel.Sel.Name] {
				return true
			}
			if name != "poster.go" {
				t.Errorf("%s calls %s.%s: bodies are made safe in poster.go only", name, pkg.Name, sel.Sel.Name)
			}
			seen[pkg.Name+"."+sel.Sel.Name]++
			return true
		})
	}
	for step := range only {
		if seen[step] == 0 {
			t.Errorf("poster.go does not call %s: every posted body must go through each posting step", step)
		}
	}
}
