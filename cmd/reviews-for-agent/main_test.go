package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestRunCommands(t *testing.T) {
	t.Parallel()
	notRepo := t.TempDir()
	tests := map[string]struct {
		args       []string
		wantCode   int
		wantStdout string
		wantStderr string
	}{
		"help":           {args: []string{"--help"}, wantCode: 0, wantStdout: "reviews-for-agent start [--port N] [--no-open] [--dir DIR]"},
		"no command":     {args: nil, wantCode: 2, wantStderr: "Usage:"},
		"version":        {args: []string{"version"}, wantCode: 0, wantStdout: "reviews-for-agent "},
		"unknown":        {args: []string{"serve"}, wantCode: 2, wantStderr: `unknown command "serve"`},
		"review":         {args: []string{"review"}, wantCode: 2, wantStderr: "the review command is not available in this build"},
		"start help":     {args: []string{"start", "--help"}, wantCode: 0, wantStderr: "-no-open"},
		"bad flag":       {args: []string{"start", "--colour"}, wantCode: 2, wantStderr: "flag provided but not defined: -colour"},
		"bad port":       {args: []string{"start", "--port", "70000"}, wantCode: 2, wantStderr: "--port 70000 is not a port number"},
		"extra argument": {args: []string{"start", "now"}, wantCode: 2, wantStderr: `unexpected argument "now"`},
		"not a git repo": {args: []string{"start", "--no-open", "--dir", notRepo}, wantCode: 1, wantStderr: "not a git repository: " + notRepo + "\nRun it inside a git work tree, or pass --dir."},
		"missing dir":    {args: []string{"start", "--no-open", "--dir", notRepo + "/nope"}, wantCode: 1, wantStderr: "open directory"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), tc.args, &stdout, &stderr)
			if code != tc.wantCode {
				t.Errorf("exit code %d, want %d\nstdout: %s\nstderr: %s", code, tc.wantCode, &stdout, &stderr)
			}
			if !strings.Contains(stdout.String(), tc.wantStdout) {
				t.Errorf("stdout lacks %q:\n%s", tc.wantStdout, &stdout)
			}
			if !strings.Contains(stderr.String(), tc.wantStderr) {
				t.Errorf("stderr lacks %q:\n%s", tc.wantStderr, &stderr)
			}
		})
	}
}

// lockedBuffer is stdout written by the server while the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// start serves until its context ends, then shuts down and exits 0.
func TestStartServesUntilStopped(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	git := exec.Command("git", "init", "-q")
	git.Dir = dir
	if out, err := git.CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	if err := os.WriteFile(dir+"/new.txt", []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr lockedBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"start", "--no-open", "--port", "0", "--dir", dir}, &stdout, &stderr)
	}()

	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(stdout.String(), "Listening on http://localhost:") {
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
	for _, want := range []string{"Reviewing 1 changed file in ", "against the empty tree (no commits yet)", "Open http://localhost:", "Stopped."} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
}
