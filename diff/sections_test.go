package diff

import (
	"strings"
	"testing"
)

func TestSections(t *testing.T) {
	t.Parallel()
	unified := "diff --git a/a.go b/a.go\n--- a/a.go\n+++ b/a.go\n@@ -1 +1 @@\n-x\n+diff --git looks like a header but is a line\n" +
		"diff --git a/b.go b/c.go\nsimilarity index 100%\nrename from b.go\nrename to c.go\n"
	secs, err := Sections(unified)
	if err != nil {
		t.Fatal(err)
	}
	var joined strings.Builder
	for _, s := range secs {
		joined.WriteString(s.Text)
	}
	if len(secs) != 2 || joined.String() != unified {
		t.Fatalf("%d sections; joined text equals input: %v", len(secs), joined.String() == unified)
	}
	if secs[0].File.Path() != "a.go" || secs[1].File.OldPath != "b.go" || secs[1].File.NewPath != "c.go" {
		t.Errorf("files: %+v / %+v", secs[0].File, secs[1].File)
	}
	if _, err := Sections("diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,5 +1,5 @@\n-x\n"); err == nil {
		t.Error("a malformed section must be reported")
	}
	if secs, err := Sections(""); err != nil || len(secs) != 0 {
		t.Errorf("empty diff: %v, %v", secs, err)
	}
}
