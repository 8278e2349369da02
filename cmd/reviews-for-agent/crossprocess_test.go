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
	"github.com/review-my-code-bot/rmc/reviewsforagent"
)

// runProcess runs this test binary as the command line in a process of its
// own, with the environment plus env.
func runProcess(t testing.TB, env []string, args ...string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(append(os.Environ(), cliEnv+"=1"), env...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %v\nstdout: %s\nstderr: %s", args, err, &out, &errOut)
	}
	return out.String()
}

func freePort(t testing.TB) int {
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

	// The request returns with the review still open: it never waits for
	// the person (how fast it returns is BenchmarkRequestProcess's).
	out := runProcess(t, env, "request", "--dir", repo, "--port", strconv.Itoa(port), "--idle-exit", "1m",
		"--message", "Numbers or words?", "--json")
	var req inbox.RequestResult
	if err := json.Unmarshal([]byte(out), &req); err != nil {
		t.Fatalf("request output %q: %v", out, err)
	}
	st, err := inbox.Open(store, inbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	token, err := reviewsforagent.StoreToken(st)
	if err != nil {
		t.Fatal(err)
	}
	bare := "http://127.0.0.1:" + strconv.Itoa(port) + "/review/" + req.ID
	if want := bare + "#token=" + token; req.URL != want || req.Status != inbox.StatusOpen || !strings.Contains(req.Hint, "inbox get "+req.ID) {
		t.Fatalf("request = %+v, want URL %s", req, want)
	}

	// The background server answers as the store's own, and is stopped
	// (by its pid, which only this test started) when the test ends.
	var h reviewsforagent.Health
	deadline := time.Now().Add(10 * time.Second)
	for {
		var err error
		if h, err = reviewsforagent.Probe(context.Background(), port, token); err == nil {
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

	api := strings.Replace(bare, "/review/", "/api/reviews/", 1)
	post := func(token string) int {
		r, err := http.NewRequest(http.MethodPost, api+"/comments", strings.NewReader(
			`{"globalComment":"Close.","comments":[{"file":"a.txt","startLine":2,"endLine":2,"side":"right","body":"Use words: two."}]}`))
		if err != nil {
			t.Fatal(err)
		}
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set(reviewsforagent.TokenHeader, token)
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	// Another user, who cannot read the token, is refused.
	if code := post(strings.Repeat("0", 32)); code != http.StatusForbidden {
		t.Fatalf("submit with a wrong token = %d, want 403", code)
	}
	if code := post(token); code != http.StatusOK {
		t.Fatalf("submit = %d", code)
	}

	out = runProcess(t, env, "inbox", "list")
	if !strings.Contains(out, req.ID+"  submitted") || !strings.Contains(out, "Numbers or words?") {
		t.Errorf("inbox list:\n%s", out)
	}
	out = runProcess(t, env, "inbox", "get", req.ID, "--json")
	var d inbox.Detail
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatalf("inbox get output %q: %v", out, err)
	}
	want := "\n```\nClose.\n```\n\n## a.txt\n\n### Line 2\nIn `@@ -1,3 +1,3 @@`:\n```\n  1  one\n    -two\n> 2 +2\n  3  three\n```\n```\nUse words: two.\n```\n"
	if !strings.HasPrefix(d.Markdown, "# Code Review Comments\n\nReview "+req.ID+" from the reviews-for-agent inbox") || !strings.Contains(d.Markdown, want+"\n## What was reviewed\n\nThe diff of the uncommitted changes against HEAD (") || d.Status != inbox.StatusSubmitted || d.Root == "" {
		t.Errorf("inbox get = %+v\nmarkdown:\n%s\nwant:\n%s", d.Item, d.Markdown, want)
	}
	// The same comments are in the repository, as start writes them.
	entries, _ := os.ReadDir(filepath.Join(repo, "rfa"))
	if len(entries) != 2 {
		t.Errorf("rfa/ holds %v", entries)
	}
	out = runProcess(t, env, "inbox", "claim", req.ID, "--by", "agent-1")
	if !strings.Contains(out, "claimed by agent-1") {
		t.Errorf("claim: %s", out)
	}
	out = runProcess(t, env, "inbox", "resolve", req.ID, "--by", "agent-1", "--note", "Spelled out.")
	if !strings.Contains(out, "Resolved "+req.ID+": resolved by agent-1") {
		t.Errorf("resolve: %s", out)
	}
	// The background server's log is a file other tools (and people) read:
	// it names where the token is, never the token.
	log, err := os.ReadFile(strings.TrimSuffix(store, ".jsonl") + "-server.log")
	if err != nil || !strings.Contains(string(log), "Serving the reviews in "+store) {
		t.Fatalf("server log: %v\n%s", err, log)
	}
	if strings.Contains(string(log), token) || strings.Contains(string(log), "#token=") {
		t.Errorf("the server log holds the session token:\n%s", log)
	}
}

// BenchmarkRequestProcess times the request command as an agent runs it,
// a process of its own, with the background server already up: what an
// agent waits for before it goes on working.
func BenchmarkRequestProcess(b *testing.B) {
	repo := gitRepo(b)
	store := filepath.Join(b.TempDir(), "reviews.jsonl")
	env := []string{"RFA_STORE=" + store}
	port := strconv.Itoa(freePort(b))
	runProcess(b, env, "request", "--dir", repo, "--port", port, "--idle-exit", "1m", "--json")
	st, err := inbox.Open(store, inbox.Options{})
	if err != nil {
		b.Fatal(err)
	}
	token, err := reviewsforagent.StoreToken(st)
	if err != nil {
		b.Fatal(err)
	}
	p, _ := strconv.Atoi(port)
	b.Cleanup(func() {
		if h, err := reviewsforagent.Probe(context.Background(), p, token); err == nil {
			syscall.Kill(h.PID, syscall.SIGTERM)
		}
	})
	for b.Loop() {
		runProcess(b, env, "request", "--dir", repo, "--port", port, "--idle-exit", "1m", "--json")
	}
}
