//go:build unix

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/review-my-code-bot/rmc/inbox"
	"github.com/review-my-code-bot/rmc/localreview"
)

// runProcess runs this test binary as the command line in a process of its
// own, with the environment plus env.
func runProcess(t *testing.T, env []string, args ...string) (stdout string, took time.Duration) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(append(os.Environ(), cliEnv+"=1"), env...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	start := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %v\nstdout: %s\nstderr: %s", args, err, &out, &errOut)
	}
	return out.String(), time.Since(start)
}

func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// The whole loop across processes: an agent's request process records the
// review and starts the background server, which is a process of its own;
// the person submits through the page's API; another process of the agent
// reads the comments.
func TestCrossProcessReview(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts processes")
	}
	repo := gitRepo(t)
	store := filepath.Join(t.TempDir(), "reviews.jsonl")
	env := []string{"RFA_STORE=" + store}
	port := freePort(t)

	out, took := runProcess(t, env, "request", "--dir", repo, "--port", strconv.Itoa(port), "--idle-exit", "1m",
		"--message", "Numbers or words?", "--json")
	if took > time.Second && !raceEnabled {
		t.Errorf("request took %v, want it back at once", took)
	}
	var req inbox.RequestResult
	if err := json.Unmarshal([]byte(out), &req); err != nil {
		t.Fatalf("request output %q: %v", out, err)
	}
	if want := "http://localhost:" + strconv.Itoa(port) + "/review/" + req.ID; req.URL != want || !strings.Contains(req.Hint, "inbox get "+req.ID) {
		t.Fatalf("request = %+v, want URL %s", req, want)
	}

	// The background server answers as the store's own, and is stopped
	// (by its pid, which only this test started) when the test ends.
	var h localreview.Health
	deadline := time.Now().Add(10 * time.Second)
	for {
		var err error
		if h, err = localreview.Probe(context.Background(), port); err == nil {
			break
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(strings.TrimSuffix(store, ".jsonl") + "-server.log")
			t.Fatalf("no server on port %d: %v\nserver log:\n%s", port, err, log)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if h.Store != store || h.Mode != "serve" || h.PID == os.Getpid() {
		t.Fatalf("health = %+v", h)
	}
	t.Cleanup(func() { syscall.Kill(h.PID, syscall.SIGTERM) })

	api := strings.Replace(req.URL, "/review/", "/api/reviews/", 1)
	resp, err := http.Post(api+"/comments", "application/json", strings.NewReader(
		`{"globalComment":"Close.","comments":[{"file":"a.txt","startLine":2,"endLine":2,"side":"right","body":"Use words: two."}]}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("submit = %d", resp.StatusCode)
	}

	out, _ = runProcess(t, env, "inbox", "list")
	if !strings.Contains(out, req.ID+"  submitted") || !strings.Contains(out, "Numbers or words?") {
		t.Errorf("inbox list:\n%s", out)
	}
	out, _ = runProcess(t, env, "inbox", "get", req.ID, "--json")
	var d inbox.Detail
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatalf("inbox get output %q: %v", out, err)
	}
	want := "# Code Review Comments\n\nClose.\n\n## a.txt\n\n### Line 2\n> +2\nUse words: two.\n"
	if d.Markdown != want || d.Status != inbox.StatusSubmitted || d.Root == "" {
		t.Errorf("inbox get = %+v\nmarkdown:\n%s\nwant:\n%s", d.Item, d.Markdown, want)
	}
	// The same comments are in the repository, as start writes them.
	entries, _ := os.ReadDir(filepath.Join(repo, "rfa"))
	if len(entries) != 2 {
		t.Errorf("rfa/ holds %v", entries)
	}
	out, _ = runProcess(t, env, "inbox", "claim", req.ID, "--by", "agent-1")
	if !strings.Contains(out, "claimed by agent-1") {
		t.Errorf("claim: %s", out)
	}
	out, _ = runProcess(t, env, "inbox", "resolve", req.ID, "--note", "Spelled out.")
	if !strings.Contains(out, "Resolved "+req.ID+": resolved by agent-1") {
		t.Errorf("resolve: %s", out)
	}
}
