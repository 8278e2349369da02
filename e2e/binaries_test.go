package e2e

import (
	"bytes"
	"errors"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
)

// Every binary in cmd/ takes the same words: --version and version print
// "NAME VERSION" in one format, --help, -h and help print the usage, all
// on stdout with exit 0; an unknown flag is a usage error on stderr, exit 2.
func TestEveryCommandHelpAndVersion(t *testing.T) {
	if testing.Short() {
		t.Skip("builds every command")
	}
	t.Parallel()
	dir := t.TempDir()
	bins := map[string]string{"rmc": binary}
	for _, cmd := range []string{"bench", "demo", "reviews-for-agent"} {
		bins[cmd] = filepath.Join(dir, cmd)
		if out, err := exec.Command("go", "build", "-o", bins[cmd], "../cmd/"+cmd).CombinedOutput(); err != nil {
			t.Fatalf("build %s: %v\n%s", cmd, err, out)
		}
	}
	run := func(bin string, args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		c := exec.Command(bin, args...)
		c.Stdout, c.Stderr, c.Dir = &stdout, &stderr, dir
		err := c.Run()
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return exit.ExitCode(), stdout.String(), stderr.String()
		}
		if err != nil {
			t.Fatalf("%s %q: %v", bin, args, err)
		}
		return 0, stdout.String(), stderr.String()
	}
	versions := map[string]bool{}
	for name, bin := range bins {
		line := regexp.MustCompile(`^` + regexp.QuoteMeta(name) + ` (\(devel\)|v\d+\.\d+\.\d+\S*)\n$`)
		for _, arg := range []string{"--version", "version"} {
			code, out, errOut := run(bin, arg)
			m := line.FindStringSubmatch(out)
			if code != 0 || m == nil || errOut != "" {
				t.Errorf("%s %s: exit %d, stdout %q, stderr %q; want %q", name, arg, code, out, errOut, name+" VERSION")
				continue
			}
			versions[m[1]] = true
		}
		for _, arg := range []string{"--help", "-h", "help"} {
			if code, out, errOut := run(bin, arg); code != 0 || len(out) < 40 || errOut != "" {
				t.Errorf("%s %s: exit %d, stdout %q, stderr %q", name, arg, code, out, errOut)
			}
		}
		if code, out, errOut := run(bin, "--frobnicate"); code != 2 || out != "" || errOut == "" {
			t.Errorf("%s --frobnicate: exit %d, stdout %q, stderr %q; want a usage error, exit 2", name, code, out, errOut)
		}
	}
	if len(versions) != 1 {
		t.Errorf("the commands print %d versions from one tree: %v", len(versions), versions)
	}
}
