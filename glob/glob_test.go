package glob

import (
	"strings"
	"testing"
)

func TestMatch(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		pattern string
		match   []string
		miss    []string
	}{
		"**/*.snap at any depth, the root included":        {"**/*.snap", []string{"c.snap", "a/b/c.snap", "__snapshots__/x.test.ts.snap"}, []string{"c.snapshot", "a/c.snap.go", "snap"}},
		"*.snap floats like .gitignore":                    {"*.snap", []string{"c.snap", "a/b/c.snap"}, []string{"c.snap.bak", "snap/c.go"}},
		"src/**/gen.go at any depth under src":             {"src/**/gen.go", []string{"src/gen.go", "src/a/gen.go", "src/a/b/gen.go"}, []string{"gen.go", "lib/src/a/gen.go", "src/a/gen.go.txt"}},
		"vendor/ is everything under any vendor directory": {"vendor/", []string{"vendor/a.go", "vendor/github.com/x/y.go", "third/vendor/a.go"}, []string{"vendor", "vendors/a.go", "src/vendor.go"}},
		"docs/** is anchored at the root":                  {"docs/**", []string{"docs/x.md", "docs/a/b/x.md"}, []string{"pkg/docs/x.md", "docs.md", "mydocs/x.md"}},
		"docs without a slash floats, directories too":     {"docs", []string{"docs", "docs/x.md", "pkg/docs/x.md"}, []string{"docs.md", "mydocs/x.md"}},
		"a leading slash anchors":                          {"/gen.go", []string{"gen.go"}, []string{"a/gen.go"}},
		"./ anchors too":                                   {"./docs/*.md", []string{"docs/x.md"}, []string{"a/docs/x.md", "docs/a/x.md"}},
		"a matching directory covers what is under it":     {"src/*", []string{"src/a.go", "src/a/b.go"}, []string{"src", "lib/src/a.go"}},
		"extension alternatives":                           {"*.{png,jpg}", []string{"a.png", "img/b.jpg"}, []string{"a.gif", "a.png.go"}},
		"character class":                                  {"testdata/[ab].json", []string{"testdata/a.json", "testdata/b.json"}, []string{"testdata/c.json", "x/testdata/a.json"}},
		"single character":                                 {"v?.go", []string{"v1.go", "x/v2.go"}, []string{"v10.go", "v.go"}},
		"generated Go files anywhere":                      {"*_generated.go", []string{"zz_generated.go", "api/types_generated.go"}, []string{"generated.go", "api/generated_test.go"}},
		"a path with a directory and a star":               {"migrations/*.sql", []string{"migrations/001.sql"}, []string{"db/migrations/001.sql", "migrations/old/001.sql"}},
		"spaces around are trimmed":                        {"  *.lock ", []string{"yarn.lock", "a/Cargo.lock"}, []string{"lock"}},
		"node_modules/** only at the root":                 {"node_modules/**", []string{"node_modules/x/index.js"}, []string{"web/node_modules/x/index.js"}},
		"**/node_modules/** at any depth":                  {"**/node_modules/**", []string{"node_modules/x/index.js", "web/node_modules/x/index.js"}, []string{"node_modules.js"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			p, err := Compile(tc.pattern)
			if err != nil {
				t.Fatal(err)
			}
			for _, path := range tc.match {
				if !p.Match(path) {
					t.Errorf("%q does not match %q", tc.pattern, path)
				}
			}
			for _, path := range tc.miss {
				if p.Match(path) {
					t.Errorf("%q matches %q", tc.pattern, path)
				}
			}
		})
	}
}

func TestCompileRejects(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"unclosed class":     "src/[ab.go",
		"unclosed brace":     "*.{png,jpg",
		"trailing backslash": `docs\`,
		"negation":           "!docs/keep.md",
		"empty":              "  ",
		"the whole tree":     "/",
		"dot":                "./",
	}
	for name, pattern := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if _, err := Compile(pattern); err == nil {
				t.Errorf("%q compiled", pattern)
			}
		})
	}
}

func TestCompileAllReportsEveryBadPattern(t *testing.T) {
	t.Parallel()
	set, err := CompileAll([]string{"docs/**", "[x", "*.snap", "{a"})
	if err == nil || !strings.Contains(err.Error(), `"[x"`) || !strings.Contains(err.Error(), `"{a"`) {
		t.Fatalf("err = %v", err)
	}
	if len(set) != 2 || !set.Match("a/b.snap") || !set.Match("docs/x") || set.Match("src/a.go") {
		t.Errorf("set = %v", set)
	}
}

func FuzzMatch(f *testing.F) {
	for _, s := range []string{"**/*.snap", "vendor/", "[a", "{a,b}/**", `\`} {
		f.Add(s, "a/b/c.snap")
	}
	f.Fuzz(func(t *testing.T, pattern, path string) {
		p, err := Compile(pattern)
		if err != nil {
			return
		}
		got := p.Match(path) // never panics
		if p.name != "" {
			// The fast path for a pattern with no slash agrees with
			// matching "**/name" against the path and its directories.
			slow := p
			slow.name = ""
			if want := slow.Match(path); got != want {
				t.Errorf("%q on %q: fast %v, slow %v", pattern, path, got, want)
			}
		}
	})
}

func TestFastPathAgrees(t *testing.T) {
	t.Parallel()
	paths := []string{"c.snap", "a/b/c.snap", "docs", "docs/x.md", "pkg/docs/x.md", "vendor", "vendor/a.go", "x/vendor/a/b.go", "a//b", "/abs/c.snap", "a/b/", "{a}/b"}
	for _, pattern := range []string{"*.snap", "docs", "vendor/", "v*/", "*", "**", "{a,b}", "[ab]", "c.snap", "?"} {
		p, err := Compile(pattern)
		if err != nil || p.name == "" {
			t.Fatalf("%q: %v, name %q", pattern, err, p.name)
		}
		slow := p
		slow.name = ""
		for _, path := range paths {
			if got, want := p.Match(path), slow.Match(path); got != want {
				t.Errorf("%q on %q: fast %v, slow %v", pattern, path, got, want)
			}
		}
	}
}

// The review matches every changed file against ignore_paths and the list of
// generated paths: about 20 patterns a file.
func BenchmarkSetMatch(b *testing.B) {
	set := MustCompile("vendor/", "node_modules/", "third_party/", "dist/", "*.pb.go", "*_generated.go", "*.gen.go", "zz_generated*", "*.min.js", "*.min.css", "*.map",
		"go.sum", "package-lock.json", "yarn.lock", "**/*.snap", "docs/**", "src/**/gen.go")
	paths := []string{"internal/server/handlers/user_handler.go", "web/src/components/button/__snapshots__/button.test.tsx.snap", "a/b/c/d/e/f/g/h.go"}
	b.ReportAllocs()
	for b.Loop() {
		for _, p := range paths {
			set.Match(p)
		}
	}
}
