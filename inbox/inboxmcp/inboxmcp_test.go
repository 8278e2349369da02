package inboxmcp

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/review-my-code-bot/rmc/agentmd"
	"github.com/review-my-code-bot/rmc/github"
	"github.com/review-my-code-bot/rmc/github/fakegithub"
	"github.com/review-my-code-bot/rmc/inbox"
	"github.com/review-my-code-bot/rmc/rmcoc"
)

const testDiff = "diff --git a/a.go b/a.go\n--- a/a.go\n+++ b/a.go\n@@ -1,3 +1,3 @@\n package a\n-var x = 1\n+var x = 2\n // end\n"

// stubRequester records local requests in the store without git or a
// server, as reviewsforagent's Requester would.
type stubRequester struct {
	store *inbox.Store
	asked chan<- inbox.LocalRequest // if set, each request is sent here
}

func (r stubRequester) RequestLocal(ctx context.Context, q inbox.LocalRequest) (inbox.RequestResult, error) {
	if r.asked != nil {
		r.asked <- q
	}
	req := inbox.Request{Files: q.Files, Root: "/repo", Cwd: "/repo", Message: q.Message, Server: "http://localhost:4100"}
	rec, err := r.store.Create(ctx, req, testDiff)
	if err != nil {
		return inbox.RequestResult{}, err
	}
	return inbox.RequestResult{ID: rec.ID, Source: inbox.SourceLocal, Status: rec.Status, URL: inbox.PageURL(req.Server, rec.ID, req.Token),
		Files: req.Files, Hint: inbox.Hint(rec.ID)}, nil
}

// world is an inbox over a temp store and a fake GitHub whose pull request
// holds one bot finding, f-open.
type world struct {
	svc    *inbox.Service
	f      *fakegithub.Server
	pr     string
	n      int
	thread string
}

func (w *world) id(finding string) string { return "gh:" + w.pr + ":" + finding }

func newWorld(t *testing.T) *world {
	t.Helper()
	f := fakegithub.New()
	t.Cleanup(f.Close)
	f.AddToken("ghs_mcp", fakegithub.Identity{Login: "github-actions[bot]", Kind: fakegithub.TokenInstallation})
	pr := f.AddPR("o/r", fakegithub.PR{Author: "octocat"})
	f.SetFiles("o/r", pr.Number, []fakegithub.File{{Path: "src/a.go", Patch: "@@ -1,3 +1,3 @@\n package a\n-var x = 1\n+var x = check()\n // end"}})
	block := rmcoc.Finding{ID: "f-open", Path: "src/a.go", Line: 2, Side: "RIGHT", Title: "Unchecked", Score: 8, Blocking: true, Status: rmcoc.FindingOpen}
	tid, _ := f.AddThread("o/r", pr.Number, fakegithub.ThreadSpec{Path: "src/a.go", Line: 2, Author: "github-actions[bot]",
		Body: "**Unchecked**\n\nThe error is dropped.\n\n" + rmcoc.Render(block)})
	store, err := inbox.Open(filepath.Join(t.TempDir(), "reviews.jsonl"), inbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	svc := &inbox.Service{Store: store, Local: stubRequester{store: store}, GitHub: func() (inbox.GitHub, error) {
		return github.New(github.Options{Token: "ghs_mcp", APIURL: f.URL, GraphQLURL: f.GraphQLURL()})
	}}
	return &world{svc: svc, f: f, pr: "o/r#" + strconv.Itoa(pr.Number), n: pr.Number, thread: tid}
}

func submission() inbox.Submission {
	g, line := "Looks fine otherwise.", 2
	return inbox.Submission{Submission: agentmd.Submission{GlobalComment: &g, Comments: []agentmd.SubmittedComment{
		{File: "a.go", StartLine: &line, EndLine: &line, Side: "right", Body: "Why 2?"}}}}
}

// mcpSession connects a client to the inbox's MCP server in memory.
func mcpSession(t *testing.T, svc *inbox.Service) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := NewServer(svc, "test").Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs
}

// call calls a tool and returns its text and whether it is a tool error.
func call(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("call %s %v: %v", tool, args, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), res.IsError
}

func TestMCPSession(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	cs := mcpSession(t, w.svc)
	ctx := context.Background()

	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{ToolInbox, ToolRequest}) {
		t.Fatalf("tools = %v", names)
	}

	out, isErr := call(t, cs, ToolRequest, map[string]any{"files": []string{"a.go"}, "message": "Check x."})
	if isErr || !strings.Contains(out, "Requested review ") || !strings.Contains(out, "http://localhost:4100/review/") {
		t.Fatalf("review_request = %q (error %v)", out, isErr)
	}
	id := strings.Fields(strings.TrimPrefix(out, "Requested review "))[0]
	if _, err := w.svc.Store.Submit(ctx, id, submission()); err != nil { // the person submits
		t.Fatal(err)
	}
	out, isErr = call(t, cs, ToolRequest, map[string]any{"pr": w.pr})
	if isErr || !strings.Contains(out, "Asked the review bot to review "+w.pr) {
		t.Errorf("review_request with pr = %q", out)
	}

	steps := []struct {
		name    string
		args    map[string]any
		want    string
		wantErr bool
	}{
		{"list", map[string]any{"action": "list"}, id + "  submitted", false},
		{"list with findings", map[string]any{"action": "list", "pr": w.pr}, w.id("f-open"), false},
		{"get", map[string]any{"action": "get", "id": id}, "> 2 +var x = 2\n  3  // end\n```\n```\nWhy 2?\n```\n", false},
		{"get a finding", map[string]any{"action": "get", "id": w.id("f-open")}, "> +var x = check()", false},
		{"claim", map[string]any{"action": "claim", "id": id, "by": "alpha"}, "Claimed " + id + ": claimed by alpha", false},
		{"claim taken", map[string]any{"action": "claim", "id": id, "by": "beta"}, "conflict: already claimed by alpha", true},
		{"claim forced", map[string]any{"action": "claim", "id": id, "by": "beta", "force": true}, "claimed by beta", false},
		{"list mine", map[string]any{"action": "list", "by": "beta"}, id + "  claimed", false},
		{"resolve another's", map[string]any{"action": "resolve", "id": id, "by": "alpha", "note": "Renamed x."}, "conflict: claimed by beta", true},
		{"resolve", map[string]any{"action": "resolve", "id": id, "by": "beta", "note": "Renamed x."}, "Resolved " + id + ": resolved by beta\nNote: Renamed x.", false},
		{"resolve a finding", map[string]any{"action": "resolve", "id": w.id("f-open"), "note": "Checked."}, "resolved", false},
		{"unknown id", map[string]any{"action": "get", "id": "zzzzzzzz"}, "not found", true},
		{"bad action", map[string]any{"action": "delete"}, "invalid input", true},
	}
	for _, s := range steps {
		out, isErr := call(t, cs, ToolInbox, s.args)
		if isErr != s.wantErr || !strings.Contains(out, s.want) {
			t.Errorf("%s: %q (error %v), want %q (error %v)", s.name, out, isErr, s.want, s.wantErr)
		}
	}
	for _, th := range w.f.Threads("o/r", w.n) {
		if th.ID == w.thread && (!th.Resolved || len(th.Comments) != 2) {
			t.Errorf("the finding's thread: resolved %v, %d comments", th.Resolved, len(th.Comments))
		}
	}
	// Missing required arguments are refused by the schema.
	if out, isErr := call(t, cs, ToolInbox, map[string]any{}); !isErr {
		t.Errorf("call without action = %q", out)
	}
}

// The inbox tool tells an agent where the review bot's findings are and
// who resolves a blocking one, as the bot's notice on the pull request
// does.
func TestInboxToolNamesBotFindings(t *testing.T) {
	t.Parallel()
	srv := NewServer(&inbox.Service{}, "test")
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	if _, err := srv.Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil)
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools.Tools {
		if tool.Name != ToolInbox {
			continue
		}
		for _, want := range []string{"list with pr (owner/repo#N)", "claim them by their gh: ids", "leave a blocking one to the bot"} {
			if !strings.Contains(tool.Description, want) {
				t.Errorf("%s's description lacks %q:\n%s", ToolInbox, want, tool.Description)
			}
		}
		return
	}
	t.Fatalf("no %s tool", ToolInbox)
}

// review_request chooses the changes as the command line does: its schema
// lists the sources, and each reaches the local requester with its
// revision; a revision where none belongs, or none where one does, is
// refused before anything is asked.
func TestRequestSources(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	asked := make(chan inbox.LocalRequest, 1)
	w.svc.Local = stubRequester{store: w.svc.Store, asked: asked}
	cs := mcpSession(t, w.svc)
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools.Tools {
		if tool.Name != ToolRequest {
			continue
		}
		raw, _ := json.Marshal(tool.InputSchema)
		if !strings.Contains(string(raw), `"enum":["uncommitted","commit","range","base","staged","unstaged"]`) || !strings.Contains(string(raw), `"rev":`) {
			t.Errorf("review_request's schema lists no sources: %s", raw)
		}
	}
	tests := map[string]struct {
		args    map[string]any
		diff    inbox.DiffSource
		rev     string
		wantErr string // "" when the request goes through
	}{
		"the default":        {map[string]any{}, "", "", ""},
		"uncommitted":        {map[string]any{"source": "uncommitted"}, inbox.DiffUncommitted, "", ""},
		"a commit":           {map[string]any{"source": "commit", "rev": "HEAD~2"}, inbox.DiffCommit, "HEAD~2", ""},
		"a range":            {map[string]any{"source": "range", "rev": "main...feature"}, inbox.DiffRange, "main...feature", ""},
		"against a base":     {map[string]any{"source": "base", "rev": " main "}, inbox.DiffBase, "main", ""},
		"staged":             {map[string]any{"source": "staged"}, inbox.DiffStaged, "", ""},
		"unstaged":           {map[string]any{"source": "unstaged", "files": []string{"a.go"}}, inbox.DiffUnstaged, "", ""},
		"a commit without":   {map[string]any{"source": "commit"}, "", "", `source "commit" needs rev`},
		"a base without":     {map[string]any{"source": "base", "rev": "  "}, "", "", `source "base" needs rev`},
		"staged with a rev":  {map[string]any{"source": "staged", "rev": "HEAD"}, "", "", `source "staged" takes none`},
		"a rev alone":        {map[string]any{"rev": "HEAD"}, "", "", "takes none"},
		"stdin":              {map[string]any{"source": "stdin"}, "", "", "stdin"},
		"unknown":            {map[string]any{"source": "yesterday"}, "", "", "yesterday"},
		"a source with a pr": {map[string]any{"source": "staged", "pr": w.pr}, "", "", "source is for local changes"},
	}
	for name, tc := range tests { // one session, one at a time: the requests share the channel
		out, isErr := call(t, cs, ToolRequest, tc.args)
		if tc.wantErr != "" {
			if !isErr || !strings.Contains(out, tc.wantErr) {
				t.Errorf("%s: %q (error %v), want an error saying %q", name, out, isErr, tc.wantErr)
			}
			select {
			case q := <-asked:
				t.Errorf("%s: refused, yet asked for %+v", name, q)
			default:
			}
			continue
		}
		if isErr {
			t.Errorf("%s: %q", name, out)
			continue
		}
		select {
		case q := <-asked:
			if q.Diff != tc.diff || q.Rev != tc.rev {
				t.Errorf("%s: asked for source %q rev %q, want %q %q", name, q.Diff, q.Rev, tc.diff, tc.rev)
			}
		default:
			t.Errorf("%s: answered %q without asking", name, out)
		}
	}
}
