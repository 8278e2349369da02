// Package golden compares rendered output with files in testdata/, the one
// way every package's tests pin what they render. `go test ./pkg -update`
// rewrites the files; review the diff before committing it.
package golden

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
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

// Block markers delimit a generated part of a document: the text between
// "<!-- begin KEY -->\n" and "<!-- end KEY -->" is what a command prints,
// and the test that runs the command checks it with AssertBlock.
const (
	blockBegin = "<!-- begin %s -->\n"
	blockEnd   = "<!-- end %s -->"
)

// BlockMarkers are the lines around the block named key.
func BlockMarkers(key string) (begin, end string) {
	return fmt.Sprintf(blockBegin, key), fmt.Sprintf(blockEnd, key)
}

// Block is the text of the block named key in the document at path.
func Block(t testing.TB, path, key string) string {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read %s: %v", path, err)
	}
	begin, end := BlockMarkers(key)
	_, rest, ok1 := strings.Cut(string(raw), begin)
	block, _, ok2 := strings.Cut(rest, end)
	if !ok1 || !ok2 {
		t.Fatalf("%s has no block between %q and %q", path, begin, end)
	}
	return block
}

// AssertBlock compares got with the block named key in the document at
// path (a README or a page of docs/), or rewrites the block with -update.
// A document pins what a command prints the way testdata/ does, so a
// number or a transcript in the docs cannot drift from the code.
func AssertBlock(t testing.TB, path, key, got string) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read %s: %v", path, err)
	}
	begin, end := BlockMarkers(key)
	before, rest, ok1 := strings.Cut(string(raw), begin)
	block, after, ok2 := strings.Cut(rest, end)
	if !ok1 || !ok2 {
		t.Fatalf("%s has no block between %q and %q", path, begin, end)
	}
	if *update {
		if err := os.WriteFile(path, []byte(before+begin+got+end+after), 0o644); err != nil {
			t.Fatalf("write %s: %v", path, err)
		}
		return
	}
	if block != got {
		t.Errorf("%s: the block %q is not what its command prints now (run go test -update and review the diff)\n--- got ---\n%s\n--- in the document ---\n%s", path, key, got, block)
	}
}
