package shape

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// deferBeforeExit names each function in the file at path that both defers
// a call and calls os.Exit: the exit skips the deferred call (a signal
// handler left installed, a file left unflushed).
func deferBeforeExit(root, path string) ([]string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Body == nil {
			continue
		}
		var deferred, exits bool
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false // a closure's defers are its own
			case *ast.DeferStmt:
				deferred = true
			case *ast.CallExpr:
				if sel, ok := n.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Exit" {
					if id, ok := sel.X.(*ast.Ident); ok && id.Name == "os" {
						exits = true
					}
				}
			}
			return true
		})
		if deferred && exits {
			rel, _ := filepath.Rel(root, fset.Position(fn.Pos()).Filename)
			out = append(out, filepath.ToSlash(rel)+" "+fn.Name.Name)
		}
	}
	return out, nil
}

// No production function defers a call and calls os.Exit.
func TestNoDeferSkippedByExit(t *testing.T) {
	t.Parallel()
	root := moduleRoot(t)
	files, err := productionFiles(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range files {
		bad, err := deferBeforeExit(root, path)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range bad {
			t.Errorf("%s defers a call that its os.Exit skips: exit from a caller (os.Exit(run()))", b)
		}
	}
}

// The check sees a defer beside os.Exit, and leaves alone an exit whose
// defers are in the function it calls, or in a closure.
func TestDeferBeforeExitCheck(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		src  string
		want []string
	}{
		"defer then exit":    {src: "package p\nimport \"os\"\nfunc main() {\n\tdefer println()\n\tos.Exit(1)\n}\n", want: []string{"p.go main"}},
		"exit of run":        {src: "package p\nimport \"os\"\nfunc main() { os.Exit(run()) }\nfunc run() int {\n\tdefer println()\n\treturn 0\n}\n"},
		"defer in a closure": {src: "package p\nimport \"os\"\nfunc main() {\n\tf := func() { defer println() }\n\tf()\n\tos.Exit(0)\n}\n"},
		"another Exit":       {src: "package p\ntype x struct{}\nfunc (x) Exit() {}\nfunc f(v x) {\n\tdefer println()\n\tv.Exit()\n}\n"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			path := filepath.Join(dir, "p.go")
			if err := os.WriteFile(path, []byte(tc.src), 0o600); err != nil {
				t.Fatal(err)
			}
			got, err := deferBeforeExit(dir, path)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
