// Package golden compares rendered output with files in testdata/, the one
// way every package's tests pin what they render. `go test ./pkg -update`
// rewrites the files; review the diff before committing it.
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata/")

// Updating reports whether -update was given.
func Updating() bool { return *update }

// Assert compares got with testdata/name byte for byte, or writes it there
// with -update.
func Assert(t testing.TB, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatalf("write %s: %v", path, err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read %s (run go test -update to create it): %v", path, err)
	}
	if got != string(want) {
		t.Errorf("%s differs (run go test -update and review the diff)\n--- got ---\n%s\n--- want ---\n%s", path, got, want)
	}
}
