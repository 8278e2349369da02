package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/review-my-code-bot/rmc/inbox"
	"github.com/review-my-code-bot/rmc/inbox/inboxmcp"
	"github.com/review-my-code-bot/rmc/reviewsforagent"
)

// sourcesRepo is a feature branch two commits off main, main one commit
// on, with a staged change, an unstaged one and a new file.
func sourcesRepo(t *testing.T) (dir string, git func(args ...string) string) {
	t.Helper()
	dir = gitRepo(t) // main: a.txt, changed in the work tree
	git = func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1",
			"GIT_AUTHOR_NAME=Dev", "GIT_AUTHOR_EMAIL=dev@example.com", "GIT_COMMITTER_NAME=Dev", "GIT_COMMITTER_EMAIL=dev@example.com")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("c.txt", "c\n")
	git("add", "-A")
	git("commit", "-q", "-m", "main: a 2, c") // main's base: a.txt "one 2 three", c.txt
	git("switch", "-q", "-c", "feature")
	write("b.txt", "bee\n")
	git("add", "b.txt")
	git("commit", "-q", "-m", "feature: b")
	write("a.txt", "one\n2\n3\n")
	git("commit", "-q", "-am", "feature: a 3")
	git("switch", "-q", "main")
	write("c.txt", "c on main\n")
	git("commit", "-q", "-am", "main: c")
	git("switch", "-q", "feature")
	write("b.txt", "bee\nstaged\n")
	git("add", "b.txt")
	write("a.txt", "one\n2\n3\nunstaged\n")
	write("d.txt", "new\n")
	return dir, git
}

// startProcess runs start in a process of its own with stdin, and returns
// the page URL it printed, the process and its output so far.
func startProcess(t *testing.T, env []string, stdin string, args ...string) (page string, cmd *exec.Cmd, out *lockedBuffer) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd = exec.Command(exe, append([]string{"start", "--no-open", "--port", "0"}, args...)...)
	cmd.Env = append(append(os.Environ(), cliEnv+"=1"), env...)
	cmd.Stdin = strings.NewReader(stdin)
	out = &lockedBuffer{}
	cmd.Stderr = out
	r, err := cmd.StdoutPipe() // ends when the process does
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	pages := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(r)
		sent := false
		for sc.Scan() {
			out.Write([]byte(sc.Text() + "\n"))
			if m := regexp.MustCompile(`^Open (http://\S+) in your browser\.$`).FindStringSubmatch(sc.Text()); m != nil && !sent {
				pages <- m[1]
				sent = true
			}
		}
		close(pages)
	}()
	select {
	case page, ok := <-pages:
		if !ok {
			t.Fatalf("start ended before serving:\n%s", out)
		}
		return page, cmd, out
	case <-time.After(30 * time.Second):
		t.Fatalf("start printed no page URL:\n%s", out)
	}
	return "", nil, nil
}

// Every diff source through the command line, end to end: start reads the
// changes, the person submits on the page's API, and the exported files
// name what was reviewed, to the commit and blob.
func TestStartDiffSources(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts processes")
	}
	dir, git := sourcesRepo(t)
	mergeBase := git("merge-base", "main", "feature")
	// Two files of diff -u, the first with lines that read like a file's
	// header but are a deleted and an added line.
	plain := "--- x.txt\t2026-01-01 10:00:00\n+++ x.txt\t2026-01-01 10:01:00\n@@ -1,2 +1,2 @@\n x\n--- not a file header\n+++ nor this\n" +
		"--- /dev/null\n+++ y.txt\n@@ -0,0 +1 @@\n+why\n"
	tests := map[string]struct {
		args      []string
		stdin     string
		source    inbox.DiffSource
		files     []string
		from, to  string // commits; "" when the side is no commit
		blobsOf   string // the commit whose blobs the new side has, "" for the work tree
		mdContain string
	}{
		"default: uncommitted": {source: inbox.DiffUncommitted, files: []string{"a.txt", "b.txt", "d.txt"}, from: git("rev-parse", "HEAD"),
			mdContain: "The diff of the uncommitted changes against HEAD ("},
		"staged": {args: []string{"--staged"}, source: inbox.DiffStaged, files: []string{"b.txt"}, from: git("rev-parse", "HEAD"),
			mdContain: "The diff of the staged changes against HEAD ("},
		"unstaged": {args: []string{"--unstaged"}, source: inbox.DiffUnstaged, files: []string{"a.txt", "d.txt"},
			mdContain: "The diff of the unstaged changes (new files too) against the index"},
		"one commit": {args: []string{"--commit", "HEAD~1"}, source: inbox.DiffCommit, files: []string{"b.txt"},
			from: git("rev-parse", "HEAD~2"), to: git("rev-parse", "HEAD~1"), blobsOf: "HEAD~1", mdContain: "The diff of commit HEAD~1 ("},
		"two refs": {args: []string{"--range", "main..feature"}, source: inbox.DiffRange, files: []string{"a.txt", "b.txt", "c.txt"},
			from: git("rev-parse", "main"), to: git("rev-parse", "feature"), blobsOf: "feature", mdContain: "The diff of feature ("},
		"two refs from their merge base": {args: []string{"--range", "main...feature"}, source: inbox.DiffRange, files: []string{"a.txt", "b.txt"},
			from: mergeBase, to: git("rev-parse", "feature"), blobsOf: "feature", mdContain: "against the merge base of main and feature"},
		"work tree against the merge base": {args: []string{"--base", "main"}, source: inbox.DiffBase, files: []string{"a.txt", "b.txt", "d.txt"},
			from: mergeBase, mdContain: "The diff of the work tree against the merge base of main and HEAD ("},
		"a git diff on stdin": {args: []string{"--stdin"}, stdin: git("diff", "main", "feature", "--", "c.txt") + "\n", source: inbox.DiffStdin,
			files: []string{"c.txt"}, mdContain: "The diff of a diff read from standard input"},
		"a plain diff on stdin": {args: []string{"--stdin"}, stdin: plain, source: inbox.DiffStdin, files: []string{"x.txt", "y.txt"},
			mdContain: "The diff of a diff read from standard input"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			env := []string{"RFA_STORE=" + filepath.Join(t.TempDir(), "reviews.jsonl")}
			page, cmd, out := startProcess(t, env, tc.stdin, append([]string{"--dir", dir}, tc.args...)...)
			exported := submitEmpty(t, page)
			if err := cmd.Process.Signal(os.Interrupt); err != nil {
				t.Fatal(err)
			}
			if err := cmd.Wait(); err != nil {
				t.Errorf("start after Ctrl+C: %v\n%s", err, out)
			}
			var got struct {
				Reviewed *inbox.Reviewed `json:"reviewed"`
			}
			data, err := os.ReadFile(filepath.Join(dir, exported.JSON))
			if err != nil || json.Unmarshal(data, &got) != nil || got.Reviewed == nil {
				t.Fatalf("export %s: %v\n%s", exported.JSON, err, data)
			}
			r := got.Reviewed
			var paths []string
			for _, f := range r.Files {
				paths = append(paths, f.Path)
			}
			if r.Source != tc.source || !slices.Equal(paths, tc.files) {
				t.Errorf("reviewed %s %v, want %s %v", r.Source, paths, tc.source, tc.files)
			}
			if commit := func(ref *inbox.Ref) string {
				if ref == nil {
					return ""
				}
				return ref.Commit
			}; commit(r.From) != tc.from || commit(r.To) != tc.to {
				t.Errorf("sides %+v → %+v, want commits %q → %q", r.From, r.To, tc.from, tc.to)
			}
			for _, f := range r.Files {
				want := ""
				switch {
				case tc.source == inbox.DiffStdin:
					continue
				case tc.blobsOf != "":
					want = git("rev-parse", tc.blobsOf+":"+f.Path)
				default:
					want = git("hash-object", f.Path)
				}
				if tc.source == inbox.DiffStaged {
					want = git("rev-parse", ":"+f.Path)
				}
				if f.NewBlob != want {
					t.Errorf("%s: new blob %s, want %s", f.Path, f.NewBlob, want)
				}
			}
			md, err := os.ReadFile(filepath.Join(dir, exported.MD))
			if err != nil || !strings.Contains(string(md), "## What was reviewed") || !strings.Contains(string(md), tc.mdContain) {
				t.Errorf("%s lacks %q (%v):\n%s", exported.MD, tc.mdContain, err, md)
			}
		})
	}
}

// submitEmpty submits an overall comment on the page's API and returns
// where the files went.
func submitEmpty(t *testing.T, page string) (res struct{ JSON, MD string }) {
	t.Helper()
	base, token, ok := strings.Cut(page, "#token=")
	if !ok {
		t.Fatalf("page URL %q has no token", page)
	}
	api := strings.TrimSuffix(base, "/review") + "/api/comments"
	req, err := http.NewRequest(http.MethodPost, api, strings.NewReader(`{"globalComment":"Looked at it.","comments":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(reviewsforagent.TokenHeader, token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || json.Unmarshal(body, &res) != nil || res.JSON == "" {
		t.Fatalf("submit = %d %s", resp.StatusCode, body)
	}
	return res
}

// An agent asks for a review of what it committed, without waiting: the
// inbox records the source with the review, and its files are the
// commit's.
func TestRequestDiffSource(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts processes")
	}
	dir, git := sourcesRepo(t)
	store := filepath.Join(t.TempDir(), "reviews.jsonl")
	port := freePort(t)
	out := runProcess(t, []string{"RFA_STORE=" + store}, "request", "--dir", dir, "--commit", "HEAD~1",
		"--port", strconv.Itoa(port), "--idle-exit", "1m", "--json")
	st, err := inbox.Open(store, inbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if token, err := reviewsforagent.StoreToken(st); err == nil {
			if h, err := reviewsforagent.Probe(context.Background(), port, token); err == nil {
				syscall.Kill(h.PID, syscall.SIGTERM)
			}
		}
	})
	var res inbox.RequestResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("request output %q: %v", out, err)
	}
	if !slices.Equal(res.Files, []string{"b.txt"}) {
		t.Errorf("request files = %v, want the commit's b.txt", res.Files)
	}
	rec, err := st.Get(context.Background(), res.ID)
	if err != nil {
		t.Fatal(err)
	}
	r := rec.Request.Reviewed
	if r == nil || r.Source != inbox.DiffCommit || r.To == nil || r.To.Commit != git("rev-parse", "HEAD~1") {
		t.Errorf("recorded as reviewed: %+v", r)
	}
}

// The MCP tool chooses the changes as request does: an agent asks over
// MCP for a review of a range it committed, and the inbox records that
// range with the review, its files the range's.
func TestMCPRequestDiffSource(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts processes")
	}
	dir, git := sourcesRepo(t)
	store := filepath.Join(t.TempDir(), "reviews.jsonl")
	port := freePort(t)
	st, err := inbox.Open(store, inbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { // the page server the request started
		if token, err := reviewsforagent.StoreToken(st); err == nil {
			if h, err := reviewsforagent.Probe(context.Background(), port, token); err == nil {
				syscall.Kill(h.PID, syscall.SIGTERM)
			}
		}
	})
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.Command(exe, "mcp", "--port", strconv.Itoa(port), "--idle-exit", "1m")
	cmd.Env = append(os.Environ(), cliEnv+"=1", "RFA_STORE="+store)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: inboxmcp.ToolRequest,
		Arguments: map[string]any{"dir": dir, "source": "range", "rev": "main...feature"}})
	if err != nil || res.IsError {
		raw, _ := json.Marshal(res)
		t.Fatalf("review_request = %s, %v", raw, err)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	id := strings.Fields(strings.TrimPrefix(text, "Requested review "))[0]
	rec, err := st.Get(ctx, id)
	if err != nil {
		t.Fatalf("the review %s of %q: %v", id, text, err)
	}
	if !slices.Equal(rec.Request.Files, []string{"a.txt", "b.txt"}) {
		t.Errorf("recorded files = %v, want the range's a.txt and b.txt", rec.Request.Files)
	}
	r := rec.Request.Reviewed
	if r == nil || r.Source != inbox.DiffRange || r.To == nil || r.To.Commit != git("rev-parse", "feature") ||
		r.From == nil || r.From.Commit != git("merge-base", "main", "feature") {
		t.Errorf("recorded as reviewed: %+v", r)
	}
}
