package docs

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/internal/golden"
)

var blockBegin = regexp.MustCompile(`<!-- begin (.+?) -->\n`)

// testSources is the text of every test file of the module.
func testSources(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules") && path != ".." {
			return filepath.SkipDir
		}
		if strings.HasSuffix(path, "_test.go") {
			raw, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			b.Write(raw)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// Every generated block in the README and docs/ (numbers, tables,
// transcripts a command prints) is closed, and named by a test that checks
// it with golden.AssertBlock: a block nobody checks would go stale.
func TestGeneratedBlocksAreChecked(t *testing.T) {
	t.Parallel()
	sources := testSources(t)
	keys := 0
	for _, page := range pages(t) {
		text := readFile(t, page)
		for _, m := range blockBegin.FindAllStringSubmatch(text, -1) {
			keys++
			key := m[1]
			if _, end := golden.BlockMarkers(key); !strings.Contains(text, end) {
				t.Errorf("%s: the block %q has no end marker", page, key)
			}
			if strings.Count(text, m[0]) > 1 {
				t.Errorf("%s: the block %q begins twice", page, key)
			}
			if !strings.Contains(sources, `"`+key+`"`) {
				t.Errorf("%s: no test checks the block %q (golden.AssertBlock with that key)", page, key)
			}
		}
	}
	if keys < 5 {
		t.Errorf("found %d generated blocks: the test no longer reads them", keys)
	}
}

// The Go the README asks for is go.mod's.
func TestReadmeGoVersion(t *testing.T) {
	t.Parallel()
	mod := regexp.MustCompile(`(?m)^go (\d+\.\d+)(?:\.\d+)?$`).FindStringSubmatch(readFile(t, "../go.mod"))
	said := regexp.MustCompile(`\(Go (\d+\.\d+) or newer\)`).FindStringSubmatch(readFile(t, "../README.md"))
	if mod == nil || said == nil || mod[1] != said[1] {
		t.Errorf("the README asks for Go %v, go.mod says %v", said, mod)
	}
}

// The versions the pages name are the ones the build pins: the tools in
// the Makefile, the vendored diff2html in its README.
func TestDocsPinnedVersions(t *testing.T) {
	t.Parallel()
	makefile := readFile(t, "../Makefile")
	vendor := readFile(t, "../reviewsforagent/web/vendor/README.md")
	find := func(re, text, where string) string {
		m := regexp.MustCompile(re).FindStringSubmatch(text)
		if m == nil {
			t.Fatalf("%s has no %s", where, re)
		}
		return m[1]
	}
	staticcheck := find(`(?m)^# staticcheck (\S+)$`, makefile, "Makefile")
	exhaustive := find(`(?m)^EXHAUSTIVE_VERSION := (\S+)$`, makefile, "Makefile")
	diff2html := find("`diff2html@([0-9.]+)`", vendor, "the vendor README")
	dev, local := readFile(t, "development.md"), readFile(t, "local-review.md")
	for what, c := range map[string]struct{ got, want string }{
		"development.md: staticcheck": {find(`staticcheck.? pinned to one version \((\S+)\)`, dev, "development.md"), staticcheck},
		"development.md: exhaustive":  {find(`exhaustive.? pinned to one version \((\S+)\)`, dev, "development.md"), exhaustive},
		"development.md: diff2html":   {find("`diff2html` ([0-9.]+)", dev, "development.md"), diff2html},
		"local-review.md: diff2html":  {find(`diff2html\s+([0-9.]+) is vendored`, local, "local-review.md"), diff2html},
	} {
		if c.got != c.want {
			t.Errorf("%s %s, the build pins %s", what, c.got, c.want)
		}
	}
}
