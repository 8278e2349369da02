package mutations

import (
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/internal/mdfence"
)

var (
	mutate = flag.Bool("mutate", false, "apply each mutation and run the tests that must catch it (minutes; make mutations)")
	update = flag.Bool("update", false, "rewrite the tables of docs/mutations.md from the list")
)

const docPath = "docs/mutations.md"

// moduleRoot is two directories up from this package.
func moduleRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// TestListMatchesCode keeps the list honest: each mutation's text occurs
// exactly once in its file, and each test it names exists in that package.
func TestListMatchesCode(t *testing.T) {
	root := moduleRoot(t)
	ids := map[string]bool{}
	for _, m := range list {
		if ids[m.ID] {
			t.Errorf("%s: two mutations have this id", m.ID)
		}
		ids[m.ID] = true
		src, err := os.ReadFile(filepath.Join(root, m.File))
		if err != nil {
			t.Errorf("%s: %v", m.ID, err)
			continue
		}
		if n := strings.Count(string(src), m.Old); n != 1 {
			t.Errorf("%s: %s holds %q %d times, not once: the code moved; update the mutation in list_test.go", m.ID, m.File, m.Old, n)
		}
		if strings.HasSuffix(m.File, "_test.go") {
			t.Errorf("%s: %s is a test; a mutation breaks production code", m.ID, m.File)
		}
		tests := testNames(t, filepath.Join(root, path.Dir(m.File)))
		for _, name := range strings.Split(m.Tests, "|") {
			if !tests[name] {
				t.Errorf("%s: %s has no test %s", m.ID, path.Dir(m.File), name)
			}
		}
	}
}

// testNames lists the top-level Test functions of the package in dir.
func testNames(t *testing.T, dir string) map[string]bool {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, f := range files {
		file, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range file.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && strings.HasPrefix(fn.Name.Name, "Test") {
				names[fn.Name.Name] = true
			}
		}
	}
	return names
}

// TestDocShowsList keeps docs/mutations.md's tables equal to the list.
func TestDocShowsList(t *testing.T) {
	root := moduleRoot(t)
	doc, err := os.ReadFile(filepath.Join(root, docPath))
	if err != nil {
		t.Fatal(err)
	}
	want := string(doc)
	for _, s := range sections {
		want = replaceTable(t, want, s, table(t, root, s))
	}
	if want == string(doc) {
		return
	}
	if *update {
		if err := os.WriteFile(filepath.Join(root, docPath), []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s does not show the list in list_test.go: run go test ./internal/mutations -update", docPath)
}

// replaceTable puts body between the section's markers.
func replaceTable(t *testing.T, doc string, s section, body string) string {
	t.Helper()
	begin, end := "<!-- mutations:"+string(s)+" -->\n", "<!-- /mutations:"+string(s)+" -->"
	i, j := strings.Index(doc, begin), strings.Index(doc, end)
	if i < 0 || j < i {
		t.Fatalf("%s has no %q ... %q markers", docPath, strings.TrimSpace(begin), end)
	}
	return doc[:i+len(begin)] + body + doc[j:]
}

// table renders one section's mutations as a Markdown table.
func table(t *testing.T, root string, s section) string {
	var b strings.Builder
	b.WriteString("| # | mutation | where | caught by |\n|---|---|---|---|\n")
	for _, m := range list {
		if m.Section != s {
			continue
		}
		var tests []string
		for _, name := range strings.Split(m.Tests, "|") {
			tests = append(tests, "`"+name+"`")
		}
		fmt.Fprintf(&b, "| %s | %s: %s → %s | %s (%s) | %s |\n", m.ID, m.What, code(m.Old), code(m.New),
			m.File, code(enclosing(t, root, m)), strings.Join(tests, ", "))
	}
	return b.String()
}

var lineBreak = regexp.MustCompile(`\s*\n\s*`)

// code shows source text as an inline code span in a table cell.
func code(s string) string {
	s = lineBreak.ReplaceAllString(strings.TrimSpace(s), " ⏎ ")
	if s == "" {
		return "(nothing)"
	}
	s = strings.ReplaceAll(s, "|", `\|`)
	delim := mdfence.Longer(s, '`', 1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return delim + s + delim
}

// enclosing names the function that holds the mutation's text.
func enclosing(t *testing.T, root string, m mutation) string {
	t.Helper()
	fset := token.NewFileSet()
	src, err := os.ReadFile(filepath.Join(root, m.File))
	if err != nil {
		t.Fatal(err)
	}
	file, err := parser.ParseFile(fset, m.File, src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	at := token.Pos(fset.File(file.Pos()).Base() + strings.Index(string(src), m.Old))
	for _, d := range file.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && fn.Pos() <= at && at < fn.End() {
			return fn.Name.Name
		}
	}
	return "package level"
}

// TestMutationsCaught applies every mutation in turn, through go test's
// -overlay, and runs the tests that must catch it. A mutation that does not
// compile proves nothing and fails the test too.
func TestMutationsCaught(t *testing.T) {
	if !*mutate {
		t.Skip("applies every mutation and runs its package's tests: go test ./internal/mutations -mutate (make mutations)")
	}
	root := moduleRoot(t)
	baseline(t, root)
	for _, m := range list {
		t.Run(m.ID, func(t *testing.T) {
			out, err := goTest(t, root, m.File, m.Tests, overlay(t, root, m))
			switch {
			case strings.Contains(out, "[build failed]") || strings.Contains(out, "[setup failed]"):
				t.Errorf("%s does not compile, so it proves nothing:\n%s", m.ID, out)
			case err == nil:
				t.Errorf("%s survives: %s passes %s with %s → %s", m.ID, path.Dir(m.File), m.Tests, m.Old, m.New)
			default:
				t.Logf("%s caught: %s", m.ID, firstFailure(out))
			}
		})
	}
}

// baseline runs each package's named tests unmutated: they must pass, and
// run, for a failure under a mutation to mean anything.
func baseline(t *testing.T, root string) {
	t.Helper()
	byFile := map[string][]string{}
	for _, m := range list {
		byFile[m.File] = append(byFile[m.File], strings.Split(m.Tests, "|")...)
	}
	for file, tests := range byFile {
		slices.Sort(tests)
		out, err := goTest(t, root, file, strings.Join(slices.Compact(tests), "|"), "")
		if err != nil || strings.Contains(out, "no tests to run") {
			t.Fatalf("%s's tests do not pass unmutated (or do not run): %v\n%s", path.Dir(file), err, out)
		}
	}
}

// overlay writes the mutated file and the -overlay file naming it.
func overlay(t *testing.T, root string, m mutation) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(root, m.File))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	mutated := filepath.Join(dir, filepath.Base(m.File))
	if err := os.WriteFile(mutated, []byte(strings.Replace(string(src), m.Old, m.New, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	spec, err := json.Marshal(map[string]map[string]string{"Replace": {filepath.Join(root, m.File): mutated}})
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(name, spec, 0o644); err != nil {
		t.Fatal(err)
	}
	return name
}

// goTest runs the named tests of file's package, -short (no browser), with
// an overlay when one is given.
func goTest(t *testing.T, root, file, tests, overlay string) (string, error) {
	t.Helper()
	args := []string{"test", "-short", "-count=1", "-run", "^(" + tests + ")$"}
	if overlay != "" {
		args = append(args, "-overlay", overlay)
	}
	cmd := exec.Command("go", append(args, "./"+path.Dir(file))...)
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// firstFailure is the first line that names a failing test.
func firstFailure(out string) string {
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "--- FAIL") {
			return strings.TrimSpace(line)
		}
	}
	return "the package's tests failed"
}
