package golden

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// recorder is a testing.TB that keeps what a check reported.
type recorder struct {
	testing.TB
	failed []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, a ...any) {
	r.failed = append(r.failed, fmt.Sprintf(format, a...))
}
func (r *recorder) Fatalf(format string, a ...any) {
	r.failed = append(r.failed, fmt.Sprintf(format, a...))
	runtime.Goexit()
}

// check runs AssertBlock in a goroutine of its own, so a Fatalf ends only it.
func check(t *testing.T, doc, key, got string) []string {
	path := filepath.Join(t.TempDir(), "doc.md")
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	r := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		AssertBlock(r, path, key, got)
	}()
	<-done
	return r.failed
}

func TestAssertBlock(t *testing.T) {
	t.Parallel()
	doc := "# Page\n\n<!-- begin n: cmd -->\n42 tokens\n<!-- end n: cmd -->\n\nMore.\n"
	for name, tc := range map[string]struct {
		key, got string
		fails    bool
	}{
		"the block is the output":     {key: "n: cmd", got: "42 tokens\n"},
		"the block is stale":          {key: "n: cmd", got: "43 tokens\n", fails: true},
		"a block of another name":     {key: "m: cmd", got: "42 tokens\n", fails: true},
		"the output lost its newline": {key: "n: cmd", got: "42 tokens", fails: true},
	} {
		if failed := check(t, doc, tc.key, tc.got); (len(failed) > 0) != tc.fails {
			t.Errorf("%s: reported %q, want a failure: %v", name, failed, tc.fails)
		}
	}
}
