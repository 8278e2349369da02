package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/review-my-code-bot/rmc/github/fakegithub"
	"github.com/review-my-code-bot/rmc/inbox"
	"github.com/review-my-code-bot/rmc/inbox/inboxmcp"
	"github.com/review-my-code-bot/rmc/llm/fakellm"
	"github.com/review-my-code-bot/rmc/rmcoc"
)

// The GitHub source through the command line: the token and API URLs come
// from the environment, as they would on a developer's machine.
func TestGitHubCommands(t *testing.T) {
	t.Parallel()
	f := fakegithub.New()
	t.Cleanup(f.Close)
	f.AddToken("ghs_cli", fakegithub.Identity{Login: "github-actions[bot]", Kind: fakegithub.TokenInstallation})
	pr := f.AddPR("o/r", fakegithub.PR{Author: "octocat"})
	f.SetFiles("o/r", pr.Number, []fakegithub.File{{Path: "a.go", Patch: "@@ -1,2 +1,2 @@\n package a\n-var x = 1\n+var x = f()"}})
	block := rmcoc.Finding{ID: "f-1", Path: "a.go", Line: 2, Side: "RIGHT", Title: "f can fail", Score: 7, Status: rmcoc.FindingOpen}
	tid, _ := f.AddThread("o/r", pr.Number, fakegithub.ThreadSpec{Path: "a.go", Line: 2, Author: "github-actions[bot]",
		Body: "🟡 **f can fail**\n\nCheck its error.\n\n" + rmcoc.Render(block)})
	ref := "o/r#" + strconv.Itoa(pr.Number)
	id := "gh:" + ref + ":f-1"
	c, stdout, stderr := testCLI(t, map[string]string{"GITHUB_TOKEN": "ghs_cli", "GITHUB_API_URL": f.URL, "GITHUB_GRAPHQL_URL": f.GraphQLURL()})
	ctx := context.Background()
	steps := []struct {
		args       []string
		wantCode   int
		wantStdout string
	}{
		{[]string{"inbox", "list", "--pr", ref}, 0, id + "  submitted"},
		{[]string{"inbox", "get", id}, 0, "### Line 2\n_score 7_\n> +var x = f()\n🟡 **f can fail**\n\nCheck its error.\n"},
		{[]string{"inbox", "claim", id, "--by", "alpha"}, 0, "claimed by alpha"},
		{[]string{"inbox", "list", "--claimed-by", "alpha"}, 0, id + "  claimed"},
		{[]string{"inbox", "claim", id, "--by", "beta"}, 4, ""},
		{[]string{"inbox", "resolve", id, "--by", "alpha", "--note", "Checked."}, 0, "Resolved " + id + ": resolved by alpha"},
		{[]string{"inbox", "resolve", id, "--by", "alpha", "--note", "Checked.", "--json"}, 0, `"status": "resolved"`},
		{[]string{"inbox", "list", "--pr", ref, "--status", "resolved"}, 0, id + "  resolved"},
		{[]string{"request", "--pr", ref, "--message", "Again, please."}, 0, "Asked the review bot to review " + ref},
	}
	for _, s := range steps {
		stdout.Reset()
		if code := c.run(ctx, s.args); code != s.wantCode || !strings.Contains(stdout.String(), s.wantStdout) {
			t.Errorf("%v: exit %d (want %d)\nstdout: %s\nwant: %s\nstderr: %s", s.args, code, s.wantCode, stdout, s.wantStdout, stderr)
		}
	}
	var th fakegithub.Thread
	for _, x := range f.Threads("o/r", pr.Number) {
		if x.ID == tid {
			th = x
		}
	}
	if !th.Resolved || len(th.Comments) != 2 {
		t.Errorf("thread: resolved %v with %d comments", th.Resolved, len(th.Comments))
	}
	if cs := f.IssueComments("o/r", pr.Number); len(cs) != 1 || cs[0].Body != "@rmc-bot review\n\nAgain, please." {
		t.Errorf("conversation = %+v", cs)
	}
}

// review runs the review engine against an OpenAI-compatible endpoint
// (a fake one here) and writes the round's files.
func TestReviewCommand(t *testing.T) {
	t.Parallel()
	repo := gitRepo(t)
	model := fakellm.New(fakellm.Config{APIKey: "sk-test"})
	t.Cleanup(model.Close)
	model.AddRule(fakellm.Rule{LastUser: "# Task: review pass", Reply: fakellm.Reply{JSON: map[string]any{"findings": []map[string]any{
		{"path": "a.txt", "line": 2, "start_line": 0, "side": "right", "title": "Digit among words", "explanation": "The other lines are words.",
			"score": 6, "category": "style", "suggestion": ""},
	}}}})
	c, stdout, stderr := testCLI(t, map[string]string{"OPENROUTER_API_KEY": "sk-test"})
	code := c.run(context.Background(), []string{"review", "--dir", repo, "--base-url", model.BaseURL(), "--model", "test-model"})
	if code != 0 {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
	entries, _ := os.ReadDir(filepath.Join(repo, "rfa"))
	if len(entries) != 2 || !strings.Contains(stdout.String(), "Wrote 1 finding(s)") {
		t.Errorf("rfa/ holds %v\nstdout: %s", entries, stdout)
	}
	if got := model.Requests()[0].Header.Get("Authorization"); got != "Bearer sk-test" {
		t.Errorf("authorization = %q", got)
	}
}

// The mcp command speaks MCP on its stdin and stdout: a client starts it as
// an agent would and uses both tools.
func TestMCPCommand(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts a process")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	store := filepath.Join(t.TempDir(), "reviews.jsonl")
	s, err := inbox.Open(store, inbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rec, err := s.Create(ctx, inbox.Request{Files: []string{"a.txt"}, Root: "/repo"}, "")
	if err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "mcp")
	cmd.Env = append(os.Environ(), cliEnv+"=1", "RFA_STORE="+store)
	cmd.Dir = t.TempDir() // not a repository: a local request is refused
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) != 2 {
		t.Fatalf("tools = %+v, %v", tools, err)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: inboxmcp.ToolInbox, Arguments: map[string]any{"action": "list", "status": "open"}})
	if err != nil || res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, rec.ID+"  open") {
		t.Errorf("list = %+v, %v", res, err)
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: inboxmcp.ToolRequest, Arguments: map[string]any{}})
	if err != nil || !res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "not a git repository") {
		raw, _ := json.Marshal(res)
		t.Errorf("request outside a repository = %s, %v", raw, err)
	}
}
