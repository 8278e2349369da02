package glob

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

var (
	docsRow  = regexp.MustCompile("(?m)^\\| `([^`]+)`[^|]* \\| ([^|]*) \\| ([^|]*) \\|$")
	docsPath = regexp.MustCompile("`([^`]+)`")
)

// The table of ignore_paths patterns in docs/configuration.md is what the
// matcher does: each pattern skips the paths of its second column and keeps
// those of its third; a malformed pattern and a negation are refused.
func TestDocsPatternTable(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("../docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(raw), "| pattern | skips | keeps |\n|---|---|---|\n")
	table, _, _ = strings.Cut(table, "\n\n")
	rows := docsRow.FindAllStringSubmatch(table, -1)
	if !ok || len(rows) < 5 {
		t.Fatalf("docs/configuration.md: found %d rows of the pattern table", len(rows))
	}
	for _, row := range rows {
		p, err := Compile(row[1])
		if err != nil {
			t.Errorf("%s: %v", row[1], err)
			continue
		}
		for _, m := range docsPath.FindAllStringSubmatch(row[2], -1) {
			if !p.Match(m[1]) {
				t.Errorf("the docs say %s skips %s; it keeps it", row[1], m[1])
			}
		}
		for _, m := range docsPath.FindAllStringSubmatch(row[3], -1) {
			if p.Match(m[1]) {
				t.Errorf("the docs say %s keeps %s; it skips it", row[1], m[1])
			}
		}
	}
	for _, bad := range []string{"src/[ab.go", "!docs/keep.md"} {
		if !strings.Contains(string(raw), "`"+bad+"`") {
			t.Errorf("docs/configuration.md no longer names %s", bad)
		}
		if _, err := Compile(bad); err == nil {
			t.Errorf("the docs say %s is refused; it compiles", bad)
		}
	}
}
