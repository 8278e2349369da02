package main

import (
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// The action ships as a lone static binary in a scratch image: it must run in
// an empty root filesystem, with no libc, no shell, no git and no CA bundle.
func TestStaticBinary(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	bin := filepath.Join(root, "rmc")
	build := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP || p.Type == elf.PT_DYNAMIC {
			t.Fatalf("binary is dynamically linked (program header %v)", p.Type)
		}
	}
	if st, _ := os.Stat(bin); st != nil {
		t.Logf("binary size: %.1f MB", float64(st.Size())/1e6)
	}

	if os.Geteuid() != 0 {
		if os.Getenv("CI") != "" {
			t.Fatal("CI must run this test as root to chroot into an empty root filesystem")
		}
		t.Skip("chroot needs root; the static-linking check above passed")
	}
	// Inside the chroot there is nothing but the binary: the demo runs the
	// whole pipeline against the in-process fake GitHub over loopback.
	for _, args := range [][]string{{"version"}, {"demo"}} {
		cmd := exec.Command("/rmc", args...)
		cmd.SysProcAttr = &syscall.SysProcAttr{Chroot: root}
		cmd.Dir = "/"
		cmd.Env = []string{}
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("rmc %s in an empty root: %v\n%s", strings.Join(args, " "), err, out)
		}
		t.Logf("rmc %s in an empty root:\n%s", strings.Join(args, " "), firstLines(string(out), 6))
	}
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}
