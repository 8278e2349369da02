// Package scripts holds the tests of the shell scripts make runs.
package scripts

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// fakeTools is a PATH for scripts/tools.sh with nothing real but the shell
// utilities it uses: a fake apt-get running the given script, a sudo that
// runs its arguments, a go that knows the pinned exhaustive, and, unless
// bare, actionlint on PATH and the pinned staticcheck and exhaustive in bin.
type fakeTools struct{ path, bin, aptLog string }

func newFakeTools(t *testing.T, aptGet string, bare bool) fakeTools {
	t.Helper()
	dir := t.TempDir()
	f := fakeTools{path: filepath.Join(dir, "path"), bin: filepath.Join(dir, "bin"), aptLog: filepath.Join(dir, "apt.log")}
	for _, d := range []string{f.path, f.bin} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, tool := range []string{"id", "grep", "cat", "rm", "mktemp", "sleep"} {
		real, err := exec.LookPath(tool)
		if err != nil {
			t.Skipf("no %s: %v", tool, err)
		}
		if err := os.Symlink(real, filepath.Join(f.path, tool)); err != nil {
			t.Fatal(err)
		}
	}
	script := func(path, body string) {
		if err := os.WriteFile(path, []byte("#!/bin/bash\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	script(filepath.Join(f.path, "apt-get"), "echo \"$*\" >> "+f.aptLog+"\n"+aptGet)
	script(filepath.Join(f.path, "sudo"), `exec "$@"`)
	script(filepath.Join(f.path, "go"), `[ "$1 $2" = "version -m" ] && printf '\tmod\tgithub.com/nishanths/exhaustive\tv0.17.1\th1:x\n'`)
	if !bare {
		script(filepath.Join(f.path, "actionlint"), "true")
		script(filepath.Join(f.bin, "staticcheck"), `echo "staticcheck 2026.2.2 (0.8.2)"`)
		script(filepath.Join(f.bin, "exhaustive"), "true")
	}
	return f
}

func (f fakeTools) run(t *testing.T, env []string, args ...string) (int, string, []string) {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	cmd := exec.Command(bash, append([]string{"tools.sh"}, append(args, f.bin, "v1.7.12", "v0.8.2", "v0.17.1")...)...)
	cmd.Env = append([]string{"PATH=" + f.path, "RMC_APT_LOCK_POLL=0"}, env...)
	out, err := cmd.CombinedOutput()
	code := 0
	if exit, ok := err.(*exec.ExitError); ok {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	log, _ := os.ReadFile(f.aptLog)
	var calls []string
	for _, l := range strings.Split(strings.TrimSpace(string(log)), "\n") {
		if l != "" {
			calls = append(calls, l)
		}
	}
	return code, string(out), calls
}

const lockHeld = `echo "E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 4242 (apt-get)" >&2; exit 100`

// make tools waits while another apt-get holds the package lock, and
// fails at once on any other apt-get error.
func TestToolsWaitsForThePackageLock(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		aptGet    string
		env       []string
		wantCode  int
		wantCalls int
		wantOut   string
	}{
		"the lock is freed": {aptGet: `n=$(cat "$0.n" 2>/dev/null || echo 0); echo $((n+1)) > "$0.n"; [ "$n" -ge 2 ] || { ` + lockHeld + `; }`,
			wantCode: 0, wantCalls: 4, wantOut: "another package manager holds the lock; waiting"},
		"the lock is never freed": {aptGet: lockHeld, env: []string{"RMC_APT_LOCK_WAIT=3"}, wantCode: 100, wantCalls: 4, wantOut: "Could not get lock"},
		"another error":           {aptGet: `echo "E: Unable to locate package chromium" >&2; exit 100`, wantCode: 100, wantCalls: 1, wantOut: "Unable to locate package"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := newFakeTools(t, tc.aptGet, false)
			code, out, calls := f.run(t, tc.env)
			if code != tc.wantCode || len(calls) != tc.wantCalls || !strings.Contains(out, tc.wantOut) {
				t.Errorf("exit %d, %d apt-get calls %q; want exit %d, %d calls, output with %q\n%s", code, len(calls), calls, tc.wantCode, tc.wantCalls, tc.wantOut, out)
			}
			for _, c := range calls {
				if !strings.Contains(c, "-o DPkg::Lock::Timeout=0") {
					t.Errorf("apt-get %s: no lock timeout", c)
				}
			}
		})
	}
}

// make tools-check (first in make test) installs nothing and names each
// missing tool with what to run; chromium only in CI, where the browser
// tests need it.
func TestToolsCheckNamesWhatIsMissing(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		bare     bool
		env      []string
		wantCode int
		want     []string
	}{
		"nothing installed, in CI": {bare: true, env: []string{"CI=true"}, wantCode: 1,
			want: []string{"make test needs tools that are not installed", "actionlint (the workflow lint): run make tools", "staticcheck (the static checks): run make tools", "exhaustive (the switch checks): run make tools", "chromium (the browser test): run make tools"}},
		"only chromium missing, not in CI": {wantCode: 0, want: []string{"the browser tests will be skipped"}},
		"only chromium missing, in CI":     {env: []string{"CI=true"}, wantCode: 1, want: []string{"chromium (the browser test): run make tools"}},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := newFakeTools(t, "exit 1", tc.bare)
			code, out, calls := f.run(t, tc.env, "--check")
			if code != tc.wantCode || len(calls) != 0 {
				t.Errorf("exit %d, apt-get calls %q; want exit %d and none\n%s", code, calls, tc.wantCode, out)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
}
