package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// cliEnv is the environment variable that makes this test binary run the
// command line instead of the tests, for tests that need real processes.
const cliEnv = "RFA_TEST_CLI"

func TestMain(m *testing.M) {
	if os.Getenv(cliEnv) == "1" {
		main()
	}
	os.Exit(m.Run())
}

// testCLI runs commands with env as their whole environment; RFA_STORE
// points into a temp dir unless env says otherwise, so no test touches the
// user's own inbox.
func testCLI(t testing.TB, env map[string]string) (c *cli, stdout, stderr *lockedBuffer) {
	t.Helper()
	if _, ok := env["RFA_STORE"]; !ok {
		if env == nil {
			env = map[string]string{}
		}
		env["RFA_STORE"] = filepath.Join(t.TempDir(), "reviews.jsonl")
	}
	stdout, stderr = &lockedBuffer{}, &lockedBuffer{}
	return &cli{stdout: stdout, stderr: stderr, stdin: strings.NewReader(""), getenv: func(k string) string { return env[k] }}, stdout, stderr
}

func TestRunCommands(t *testing.T) {
	t.Parallel()
	notRepo := t.TempDir()
	tests := map[string]struct {
		args       []string
		wantCode   int
		wantStdout string
		wantStderr string
	}{
		"help":             {args: []string{"--help"}, wantCode: 0, wantStdout: "reviews-for-agent start [--port N] [--no-open] [--dir DIR]"},
		"no command":       {args: nil, wantCode: 2, wantStderr: "Usage:"},
		"version":          {args: []string{"version"}, wantCode: 0, wantStdout: "reviews-for-agent "},
		"--version":        {args: []string{"--version"}, wantCode: 0, wantStdout: "reviews-for-agent "},
		"-version":         {args: []string{"-version"}, wantCode: 0, wantStdout: "reviews-for-agent "},
		"unknown":          {args: []string{"frobnicate"}, wantCode: 2, wantStderr: `unknown command "frobnicate"`},
		"start help":       {args: []string{"start", "--help"}, wantCode: 0, wantStdout: "-no-open"},
		"inbox list help":  {args: []string{"inbox", "list", "-h"}, wantCode: 0, wantStdout: "inbox list [--status S]"},
		"review help":      {args: []string{"review", "--help"}, wantCode: 0, wantStdout: "LLM_API_KEY"},
		"bad flag":         {args: []string{"start", "--colour"}, wantCode: 2, wantStderr: "flag provided but not defined: -colour"},
		"bad port":         {args: []string{"start", "--port", "70000"}, wantCode: 2, wantStderr: "--port 70000 is not a port number"},
		"extra argument":   {args: []string{"start", "now"}, wantCode: 2, wantStderr: `unexpected argument "now"`},
		"not a git repo":   {args: []string{"start", "--no-open", "--dir", notRepo}, wantCode: 1, wantStderr: "not a git repository: " + notRepo + "\nRun it inside a git work tree, or pass --dir."},
		"missing dir":      {args: []string{"start", "--no-open", "--dir", notRepo + "/nope"}, wantCode: 1, wantStderr: "open directory"},
		"inbox alone":      {args: []string{"inbox"}, wantCode: 2, wantStderr: "inbox claim ID --by NAME"},
		"inbox unknown":    {args: []string{"inbox", "frob"}, wantCode: 2, wantStderr: `unknown command "frob"`},
		"get without id":   {args: []string{"inbox", "get"}, wantCode: 2, wantStderr: "give one review id"},
		"list extra":       {args: []string{"inbox", "list", "x"}, wantCode: 2, wantStderr: `unexpected argument "x"`},
		"bad status":       {args: []string{"inbox", "list", "--status", "done"}, wantCode: 2, wantStderr: `status "done" is not one of`},
		"empty inbox":      {args: []string{"inbox", "list"}, wantCode: 0, wantStdout: "No submitted reviews in the inbox."},
		"unknown review":   {args: []string{"inbox", "claim", "zzzzzzzz", "--by", "a"}, wantCode: 3, wantStderr: "claim zzzzzzzz: not found"},
		"claim without by": {args: []string{"inbox", "claim", "zzzzzzzz"}, wantCode: 3, wantStderr: "not found"},
		"json error": {args: []string{"inbox", "get", "zzzzzzzz", "--json"}, wantCode: 3,
			wantStdout: `"kind": "not_found"`},
		"finding without GitHub": {args: []string{"inbox", "get", "gh:o/r#1:f-1"}, wantCode: 2, wantStderr: "set GITHUB_TOKEN"},
		"bad retention":          {args: []string{"inbox", "compact", "--retention", "0d"}, wantCode: 2, wantStderr: "not a positive duration"},
		"request outside a repo": {args: []string{"request", "--dir", notRepo}, wantCode: 2, wantStderr: "not a git repository"},
		"request bad pr":         {args: []string{"request", "--pr", "o/r"}, wantCode: 2, wantStderr: "is not a pull request"},
		"review without a key":   {args: []string{"review", "--dir", notRepo}, wantCode: 2, wantStderr: "set LLM_API_KEY"},
		"review bad threshold":   {args: []string{"review", "--problem-threshold", "11"}, wantCode: 2, wantStderr: "thresholds are scores from 1 to 10"},
		"review blocking below":  {args: []string{"review", "--problem-threshold", "6", "--blocking-threshold", "4"}, wantCode: 2, wantStderr: "is below --problem-threshold"},
		"serve extra":            {args: []string{"serve", "now"}, wantCode: 2, wantStderr: `unexpected argument "now"`},
		"mcp extra":              {args: []string{"mcp", "now"}, wantCode: 2, wantStderr: `unexpected argument "now"`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c, stdout, stderr := testCLI(t, nil)
			code := c.run(context.Background(), tc.args)
			if code != tc.wantCode {
				t.Errorf("exit code %d, want %d\nstdout: %s\nstderr: %s", code, tc.wantCode, stdout, stderr)
			}
			if !strings.Contains(stdout.String(), tc.wantStdout) {
				t.Errorf("stdout lacks %q:\n%s", tc.wantStdout, stdout)
			}
			if !strings.Contains(stderr.String(), tc.wantStderr) {
				t.Errorf("stderr lacks %q:\n%s", tc.wantStderr, stderr)
			}
		})
	}
}

// lockedBuffer is output written by a server while the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) Reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.b.Reset()
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// gitRepo makes a repository with one commit of a.txt and an uncommitted
// change to it.
func gitRepo(t testing.TB) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "."}, {"commit", "-q", "-m", "base"}} {
		if args[0] == "add" {
			if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("one\ntwo\nthree\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1",
			"GIT_AUTHOR_NAME=Dev", "GIT_AUTHOR_EMAIL=dev@example.com", "GIT_COMMITTER_NAME=Dev", "GIT_COMMITTER_EMAIL=dev@example.com")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("one\n2\nthree\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// start serves until its context ends, then shuts down and exits 0.
func TestStartServesUntilStopped(t *testing.T) {
	t.Parallel()
	dir := gitRepo(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c, stdout, stderr := testCLI(t, nil)
	done := make(chan int, 1)
	go func() {
		done <- c.run(ctx, []string{"start", "--no-open", "--port", "0", "--dir", dir})
	}()

	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(stdout.String(), "Listening on http://127.0.0.1:") {
		if time.Now().After(deadline) {
			t.Fatalf("no Listening line after 10s\nstdout: %s\nstderr: %s", stdout.String(), stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit code %d, want 0\nstderr: %s", code, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("start did not stop after its context ended")
	}
	out := stdout.String()
	for _, want := range []string{"Reviewing 1 changed file in ", "against HEAD (", "Recorded as review ", "Open http://127.0.0.1:", "Stopped."} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
}

// start in a repository it cannot write, with an inbox it cannot open,
// says so in plain sentences and starts nothing: comments submitted there
// would be lost. (Root writes anywhere, so this runs as another user, as
// .ci/run's second pass does.)
func TestStartRefusesWhenNothingCanBeWritten(t *testing.T) {
	t.Parallel()
	if os.Geteuid() == 0 {
		t.Skip("root can write to a read-only directory")
	}
	dir := gitRepo(t)
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(dir, 0o755) })
	notADir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notADir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	c, stdout, stderr := testCLI(t, map[string]string{"RFA_STORE": filepath.Join(notADir, "reviews.jsonl")})
	// A server that starts anyway is stopped as soon as it says so, and
	// the test fails on what it printed.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for ctx.Err() == nil && !strings.Contains(stdout.String(), "Listening") {
			time.Sleep(20 * time.Millisecond)
		}
		cancel()
	}()
	code := c.run(ctx, []string{"start", "--no-open", "--port", "0", "--dir", dir})
	if code != exitFailure || strings.Contains(stdout.String(), "Listening") {
		t.Fatalf("exit %d, want %d and no server\nstdout: %s\nstderr: %s", code, exitFailure, stdout.String(), stderr.String())
	}
	for _, want := range []string{"the review will not be in the inbox", "cannot be written", "no review page was started", "pass --store"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
		}
	}
}
