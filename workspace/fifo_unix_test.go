//go:build unix

package workspace

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestFIFO checks that a named pipe in the checkout neither hangs a read
// (opening one for reading blocks until a writer comes) nor shows up in
// listings and searches.
func TestFIFO(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if err := os.Symlink("pipe", filepath.Join(dir, "pipe-link")); err != nil {
		t.Fatal(err)
	}
	w, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	tests := map[string]func(t *testing.T) error{
		"read": func(t *testing.T) error {
			_, err := w.Read(t.Context(), "pipe", 0, 0)
			if err == nil {
				t.Error("Read of a FIFO succeeded")
			}
			return nil
		},
		"read through a symlink": func(t *testing.T) error {
			_, err := w.Read(t.Context(), "pipe-link", 0, 0)
			if err == nil {
				t.Error("Read of a FIFO through a symlink succeeded")
			}
			return nil
		},
		"list": func(t *testing.T) error {
			l, err := w.List(t.Context(), "", 0)
			if len(l.Entries) != 0 {
				t.Errorf("List shows %+v", l.Entries)
			}
			return err
		},
		"search": func(t *testing.T) error {
			_, err := w.Search(t.Context(), "x", "", 0)
			return err
		},
	}
	for name, fn := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			done := make(chan error, 1)
			go func() { done <- fn(t) }()
			// A hang shows as the test's deadline (go test -timeout) draws
			// near, not after a fixed time a loaded machine may need.
			var hung <-chan time.Time
			if dl, ok := t.Deadline(); ok {
				hung = time.After(time.Until(dl) * 9 / 10)
			}
			select {
			case err := <-done:
				if err != nil {
					t.Fatal(err)
				}
			case <-hung:
				t.Fatal("hung on a FIFO")
			}
		})
	}
}
