package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestPlainLog(t *testing.T) {
	t.Parallel()
	raw := "::add-mask::ghs_secret\n" +
		"::group::Read acme/gateway#1\n" +
		"read 3 comments\n" +
		"::endgroup::\n" +
		"::warning::could not react%0Aon two lines 100%25\n" +
		"::error file=a.go,line=3::bad \x1b]0;title\x07thing\n" +
		"::set-output name=x::ghs_secret\n" +
		"plain line\n"
	got := strings.Join(plainLog(raw), "\n")
	want := "▸ Read acme/gateway#1\n" +
		"  read 3 comments\n" +
		"warning: could not react\n" +
		"         on two lines 100%\n" +
		"error: bad ]0;titlething\n" +
		"plain line"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestParseArgs(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		args      []string
		tty       bool
		env       map[string]string
		code      int
		ok        bool
		color     bool
		brief     bool
		stdout    string // a substring of what is printed there
		stderrHas string
	}{
		"defaults, piped":               {ok: true},
		"defaults, on a terminal":       {tty: true, ok: true, color: true},
		"NO_COLOR on a terminal":        {tty: true, env: map[string]string{"NO_COLOR": "1"}, ok: true},
		"an empty NO_COLOR is not set":  {tty: true, env: map[string]string{"NO_COLOR": ""}, ok: true, color: true},
		"a dumb terminal":               {tty: true, env: map[string]string{"TERM": "dumb"}, ok: true},
		"always, piped and NO_COLOR":    {args: []string{"--color=always"}, env: map[string]string{"NO_COLOR": "1"}, ok: true, color: true},
		"never on a terminal":           {args: []string{"--color", "never"}, tty: true, ok: true},
		"brief":                         {args: []string{"-brief"}, ok: true, brief: true},
		"help":                          {args: []string{"--help"}, stdout: "Usage: go run ./cmd/demo"},
		"short help":                    {args: []string{"-h"}, stdout: "--color=WHEN"},
		"version":                       {args: []string{"--version"}, stdout: "demo "},
		"version among flags":           {args: []string{"--brief", "-version"}, stdout: "demo ", brief: false},
		"the word version":              {args: []string{"version"}, stdout: "demo "},
		"the word help":                 {args: []string{"help"}, stdout: "Usage: go run ./cmd/demo"},
		"help with an argument":         {args: []string{"help", "x"}, code: 2, stderrHas: `unexpected argument "help"`},
		"an unknown flag":               {args: []string{"--colour=always"}, code: 2, stderrHas: "demo: flag provided but not defined: -colour\n\nUsage:"},
		"an argument":                   {args: []string{"run"}, code: 2, stderrHas: `demo: unexpected argument "run"`},
		"an argument after flags":       {args: []string{"--brief", "x"}, code: 2, stderrHas: `unexpected argument "x"`},
		"a bad colour":                  {args: []string{"--color=sometimes"}, code: 2, stderrHas: `--color must be auto, always or never, not "sometimes"`},
		"a bad colour is shown cleaned": {args: []string{"--color=\x1b[2Jx"}, code: 2, stderrHas: `not "[2Jx"`},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var stdout, stderr bytes.Buffer
			opts, code, ok := parseArgs(tc.args, &stdout, &stderr, tc.tty, func(k string) string { return tc.env[k] })
			if ok != tc.ok || code != tc.code || opts.color != tc.color || opts.brief != tc.brief {
				t.Errorf("ok %v code %d color %v brief %v; want ok %v code %d color %v brief %v",
					ok, code, opts.color, opts.brief, tc.ok, tc.code, tc.color, tc.brief)
			}
			if !strings.Contains(stdout.String(), tc.stdout) || (tc.stdout == "" && stdout.Len() > 0) {
				t.Errorf("stdout = %q, want %q", stdout.String(), tc.stdout)
			}
			if !strings.Contains(stderr.String(), tc.stderrHas) || (tc.stderrHas == "" && stderr.Len() > 0) {
				t.Errorf("stderr = %q, want %q", stderr.String(), tc.stderrHas)
			}
			if strings.Contains(stderr.String(), "\x1b") {
				t.Errorf("an escape sequence reached stderr")
			}
		})
	}
}

// The built command, as `go run ./cmd/demo` runs it: exit statuses, no
// colour when stdout is not a terminal, and the same transcript as the
// test of the function.
func TestBinary(t *testing.T) {
	t.Parallel()
	bin := filepath.Join(t.TempDir(), "demo")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	run := func(env []string, args ...string) (string, string, int) {
		cmd := exec.Command(bin, args...)
		cmd.Env = append([]string{"HOME=" + t.TempDir(), "PATH=/usr/bin:/bin", "TMPDIR=" + t.TempDir()}, env...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		var ee *exec.ExitError
		if err != nil && !errors.As(err, &ee) {
			t.Fatal(err)
		}
		return stdout.String(), stderr.String(), cmd.ProcessState.ExitCode()
	}
	out, errOut, code := run(nil, "--brief")
	want, err := os.ReadFile("testdata/transcript_brief.golden")
	if err != nil {
		t.Fatal(err)
	}
	if code != 0 || errOut != "" || out != string(want) {
		t.Errorf("--brief: exit %d, stderr %q, output equal to the golden file: %v\n%s", code, errOut, out == string(want), out)
	}
	if out, _, code := run([]string{"TERM=xterm-256color"}, "--color=always", "--brief"); code != 0 || !strings.Contains(out, "\x1b[1m") {
		t.Errorf("--color=always: exit %d, no colour", code)
	}
	if _, errOut, code := run(nil, "--bogus"); code != 2 || !strings.Contains(errOut, "flag provided but not defined: -bogus") {
		t.Errorf("--bogus: exit %d, stderr %q", code, errOut)
	}
	if out, _, code := run(nil, "--help"); code != 0 || !strings.HasPrefix(out, "Usage:") {
		t.Errorf("--help: exit %d, stdout %q", code, out)
	}
	// The runner's temporary directory is gone afterwards.
	tmp := t.TempDir()
	run([]string{"TMPDIR=" + tmp}, "--brief")
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("the demo left %d entries in TMPDIR", len(left))
	}
}
