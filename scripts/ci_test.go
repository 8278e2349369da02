package scripts

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// .ci/run, as root, with a user it creates: each pass's make runs with a
// temporary directory of its own, and what the tests leave there (the
// browser's profile folders) is gone at the end with the user's home.
// useradd, runuser and the rest are fakes that log what they were asked.
func TestCIRunRemovesWhatItMade(t *testing.T) {
	t.Parallel()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	dir := t.TempDir()
	repo, path, tmp, home := filepath.Join(dir, "repo"), filepath.Join(dir, "path"), filepath.Join(dir, "tmp"), filepath.Join(dir, "home", "rmcci")
	log := filepath.Join(dir, "log")
	for _, d := range []string{filepath.Join(repo, ".ci"), path, tmp, home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	run, err := os.ReadFile("../.ci/run")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, ".ci", "run"), run, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tool := range []string{"cat", "cp", "cut", "dirname", "env", "mkdir", "mktemp", "rm"} {
		real, err := exec.LookPath(tool)
		if err != nil {
			t.Skipf("no %s", tool)
		}
		if err := os.Symlink(real, filepath.Join(path, tool)); err != nil {
			t.Fatal(err)
		}
	}
	fake := func(name, body string) {
		if err := os.WriteFile(filepath.Join(path, name), []byte("#!"+bash+"\necho \""+name+" $*\" >> "+log+"\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	fake("id", `[ "$*" = "-u" ] && echo 0 && exit 0; exit 1`) // root; the user does not exist yet
	fake("useradd", "")
	fake("userdel", "")
	fake("chown", "")
	fake("getent", "echo 'rmcci:x:4242:4242::"+home+":/bin/bash'")
	fake("go", "")
	fake("find", "")                      // never the machine's /tmp: the call is checked below
	fake("runuser", `shift 3; exec "$@"`) // runuser -u rmcci -- CMD…
	// make test leaves a browser profile in its temporary directory.
	fake("make", `echo "TMPDIR=$TMPDIR" >> `+log+`; [ "${*: -1}" = test ] && mkdir -p "$TMPDIR/chromedp-runner1234/Default"; exit 0`)

	cmd := exec.Command(bash, filepath.Join(repo, ".ci", "run"))
	cmd.Env = []string{"PATH=" + path, "TMPDIR=" + tmp}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf(".ci/run: %v\n%s", err, out)
	}
	calls, _ := os.ReadFile(log)
	var tmps []string
	for _, l := range strings.Split(string(calls), "\n") {
		if d, ok := strings.CutPrefix(l, "TMPDIR="); ok {
			tmps = append(tmps, d)
		}
	}
	if len(tmps) != 3 || !strings.HasPrefix(tmps[0], tmp+"/rmc-ci.") || tmps[1] != tmps[0] || tmps[2] != filepath.Join(home, "ci", "tmp") {
		t.Errorf("make ran with TMPDIR %q; want make tools and the root pass in one under %s, the user's pass in its own under its home\n%s", tmps, tmp, calls)
	}
	for _, want := range []string{"make tools", "make test", "make -C " + filepath.Join(home, "ci", "src") + " test", "useradd", "find /tmp -mindepth 1 -maxdepth 1 -user rmcci -exec rm -rf {} +", "userdel --remove rmcci"} {
		if !strings.Contains(string(calls), want+"\n") && !strings.Contains(string(calls), want+" ") {
			t.Errorf(".ci/run did not run %q:\n%s", want, calls)
		}
	}
	left, _ := filepath.Glob(filepath.Join(tmp, "*"))
	if len(left) != 0 {
		t.Errorf(".ci/run left %q in the temporary directory", left)
	}
	if _, err := os.Stat(home); err == nil {
		t.Errorf(".ci/run left the user's home %s", home)
	}
}
