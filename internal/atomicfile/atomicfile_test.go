package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

// Write replaces the file whole, leaves no temporary file behind, and
// makes it readable by its owner only.
func TestWrite(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "token")
	for _, want := range []string{"first\n", "second, longer\n"} {
		if err := Write(path, []byte(want)); err != nil {
			t.Fatal(err)
		}
		if got, err := os.ReadFile(path); err != nil || string(got) != want {
			t.Fatalf("read %q, %v; want %q", got, err, want)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("%d entries in the directory, want the file alone", len(entries))
	}
	if info, err := os.Stat(path); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, %v; want 0600", info.Mode().Perm(), err)
	}
	if err := Write(filepath.Join(dir, "missing", "x"), nil); err == nil {
		t.Error("a write into a missing directory succeeded")
	}
}
