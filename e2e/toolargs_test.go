package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/llm/fakellm"
)

// The built binary offers the model the tool definitions made from the
// tools' argument structs, byte for byte the ones in
// tools/testdata/tool_definitions.jsonl (the hand-written schemas' bytes),
// and a model's loosely written tool calls get through while its bad ones
// get the tools' error text, naming the argument and what was expected.
func TestToolArgumentsOnTheBuiltBinary(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	// The run's checkout holds limiter/bucket.go, one line: "package limiter".
	calls := []fakellm.ToolCall{
		fakellm.Call("read_file", `{"path": "limiter/bucket.go", "start_line": "1", "end_line": 1.0}`),
		fakellm.Call("read_file", `{"path": "limiter/bucket.go", "start_line": "three"}`),
		fakellm.Call("get_pr_diff", `{"file": "limiter/bucket.go"}`),
		fakellm.Call("search", `{"path_glob": "*.go", "max_results": ""}`),
		fakellm.Call("get_pr_diff", `null`),
		fakellm.Call("search", `{"pattern": "^package", "path_glob": null, "max_results": "1e1"}`),
		fakellm.Call("list_files", `{"path": "limiter", "max_entries": "0"}`),
		fakellm.Call("list_files", `{"path": "limiter", "max_entries": -1}`),
	}
	want := []string{
		"limiter/bucket.go, lines 1-1 of 1:\n1\tpackage limiter\n",
		`error: invalid arguments (start_line must be a whole number of at least 1, not "three"); expected a JSON object like {"path": "src/main.go", "start_line": 1, "end_line": 200}`,
		`error: invalid arguments (unknown argument "file"; the arguments are: path); expected a JSON object like {"path": "src/main.go"}`,
		`error: invalid arguments (missing required argument pattern); expected a JSON object like {"pattern": "func \\w+Handler", "path_glob": "*.go", "max_results": 50}`,
		"diff --git a/limiter/bucket.go b/limiter/bucket.go\n",
		"1 matching lines for \"^package\" in all files:\nlimiter/bucket.go:1: package limiter\n",
		"1 entries under limiter:\nlimiter/bucket.go", // 0: the default count
		`error: invalid arguments (max_entries must be a whole number of at least 1, not -1); expected a JSON object like {"path": "src", "max_entries": 500}`,
	}
	w.llm.AddRule(fakellm.Rule{Name: "classify", LastUser: "Decide what a developer wants", Reply: fakellm.Reply{JSON: map[string]string{"intent": "question"}}})
	w.llm.AddRule(fakellm.Rule{Name: "answer", LastUser: "# Task: answer a question", Respond: func(r fakellm.Request) fakellm.Reply {
		if n := len(r.ToolResults()); n < len(calls) {
			return fakellm.Reply{ToolCalls: calls[n : n+1]}
		}
		return fakellm.Reply{Text: "ANSWER: it holds the buckets"}
	}})
	const q = "@rmc-bot what is in bucket.go?"
	id := w.gh.AddIssueComment(repoName, w.pr, "alice", q).ID
	r := w.run(w.commentEvent(id, "alice", q))
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.log)
	}
	reqs := w.llm.RequestsContaining("# Task: answer a question")
	if len(reqs) != len(calls)+1 {
		t.Fatalf("%d answer requests, want %d", len(reqs), len(calls)+1)
	}
	results := reqs[len(reqs)-1].ToolResults()
	if len(results) != len(want) {
		t.Fatalf("%d tool results, want %d", len(results), len(want))
	}
	for i, res := range results {
		if !strings.HasPrefix(res.Content, want[i]) {
			t.Errorf("%s(%s) result:\n%s\nwant it to start with:\n%s", calls[i].Name, calls[i].Arguments, res.Content, want[i])
		}
	}

	golden, err := os.ReadFile("../tools/testdata/tool_definitions.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	type def struct {
		Name, Description string
		Parameters        json.RawMessage
	}
	defs := map[string]def{}
	for _, line := range bytes.Split(bytes.TrimSpace(golden), []byte("\n")) {
		var d def
		if err := json.Unmarshal(line, &d); err != nil {
			t.Fatal(err)
		}
		defs[d.Name] = d
	}
	sent := reqs[0].Tools
	if len(sent) != 4 { // fetch_url only with enable_web
		t.Errorf("%d tools offered, want 4", len(sent))
	}
	for _, tool := range sent {
		d, ok := defs[tool.Name]
		if !ok || tool.Description != d.Description || string(tool.Parameters) != string(d.Parameters) {
			t.Errorf("tool %s offered as %s %s;\nwant %s %s", tool.Name, tool.Description, tool.Parameters, d.Description, d.Parameters)
		}
	}
}
