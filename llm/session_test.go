package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/llm/fakellm"
)

func TestToolLoop(t *testing.T) {
	t.Parallel()
	f := newFake(t, fakellm.Config{})
	f.AddRule(fakellm.Rule{LastRole: "user", LastUser: "what does main do", Reply: fakellm.Reply{
		ToolCalls: []fakellm.ToolCall{fakellm.Call("read_file", map[string]string{"path": "main.go"})},
	}})
	f.AddRule(fakellm.Rule{LastRole: "tool", ToolResult: "func main", Reply: fakellm.Reply{Text: "It prints hello."}})

	var gotArgs string
	readFile := Tool{
		Name:        "read_file",
		Description: "Read a file of the repository.",
		Parameters:  map[string]any{"type": "object", "properties": map[string]any{"path": map[string]any{"type": "string"}}, "required": []string{"path"}},
		Run: func(ctx context.Context, args json.RawMessage) (string, error) {
			gotArgs = string(args)
			return "package main\nfunc main() { println(\"hello\") }", nil
		},
	}
	s := newTestClient(t, f, nil).NewSession("You review Go code.", []Tool{readFile})
	reply, err := s.Ask(context.Background(), Label{Task: "question"}, "what does main do?")
	if err != nil {
		t.Fatalf("Ask: %v", err)
	}
	if reply.Text != "It prints hello." || reply.ToolCalls != 1 || reply.Usage.Requests != 2 {
		t.Errorf("reply = %+v, want the answer after 1 tool call and 2 requests", reply)
	}
	if gotArgs != `{"path":"main.go"}` {
		t.Errorf("tool arguments = %s", gotArgs)
	}
	reqs := f.Requests()
	first, second := reqs[0], reqs[1]
	if len(first.Tools) != 1 || first.Tools[0].Name != "read_file" || !strings.Contains(string(first.Tools[0].Parameters), `"required":["path"]`) {
		t.Errorf("tools sent = %+v", first.Tools)
	}
	if first.Messages[0].Role != "system" || first.Messages[0].Content != "You review Go code." {
		t.Errorf("first message = %+v, want the system prompt", first.Messages[0])
	}
	call := second.Messages[2].ToolCalls
	result := second.Messages[3]
	if len(call) != 1 || result.Role != "tool" || result.ToolCallID != call[0].ID || !strings.Contains(result.Content, "func main") {
		t.Errorf("second request messages = %+v, want assistant tool call then its result", second.Messages)
	}
}

func TestToolResults(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é", 150) // multi-byte, to check the cut is by character
	tests := map[string]struct {
		call       fakellm.ToolCall
		out        string
		err        error
		maxOutput  int
		wantResult []string // substrings of the result sent to the model
		wantRuns   int
	}{
		"plain result":  {call: fakellm.Call("lookup", `{"path":"a"}`), out: "found it", wantResult: []string{"found it"}, wantRuns: 1},
		"unknown tool":  {call: fakellm.Call("rm_rf", `{}`), wantResult: []string{`error: unknown tool "rm_rf"`, "available tools: lookup"}},
		"tool error":    {call: fakellm.Call("lookup", `{"path":"x"}`), err: errors.New("no such file x"), wantResult: []string{"error: no such file x"}, wantRuns: 1},
		"invalid args":  {call: fakellm.Call("lookup", `{"path":`), wantResult: []string{"error: the arguments for lookup are not valid JSON"}},
		"empty args":    {call: fakellm.Call("lookup", ``), out: "ok", wantResult: []string{"ok"}, wantRuns: 1},
		"empty result":  {call: fakellm.Call("lookup", `{}`), out: "", wantResult: []string{"(empty result)"}, wantRuns: 1},
		"truncated":     {call: fakellm.Call("lookup", `{}`), out: long, maxOutput: 100, wantResult: []string{strings.Repeat("é", 100) + "\n[output truncated: 50 of 150 characters cut"}, wantRuns: 1},
		"under the cap": {call: fakellm.Call("lookup", `{}`), out: long, maxOutput: 150, wantResult: []string{long}, wantRuns: 1},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t, fakellm.Config{})
			f.AddRule(fakellm.Rule{LastRole: "user", Reply: fakellm.Reply{ToolCalls: []fakellm.ToolCall{tc.call}}})
			f.AddRule(fakellm.Rule{LastRole: "tool", Reply: fakellm.Reply{Text: "done"}})
			runs := 0
			c := newTestClient(t, f, func(o *Options) { o.MaxToolOutput = tc.maxOutput })
			s := c.NewSession("sys", []Tool{staticTool("lookup", tc.out, tc.err, &runs)})
			reply, err := s.Ask(context.Background(), Label{Task: "t"}, "go")
			if err != nil || reply.Text != "done" {
				t.Fatalf("Ask = %+v, %v; a tool problem must not end the Ask", reply, err)
			}
			last, _ := f.LastRequest()
			results := last.ToolResults()
			if len(results) != 1 {
				t.Fatalf("tool results sent = %+v, want 1", results)
			}
			for _, want := range tc.wantResult {
				if !strings.Contains(results[0].Content, want) {
					t.Errorf("tool result %q does not contain %q", results[0].Content, want)
				}
			}
			if runs != tc.wantRuns {
				t.Errorf("tool ran %d times, want %d", runs, tc.wantRuns)
			}
		})
	}
}

func TestToolRoundCap(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		obeysNone bool // the model answers when tool_choice is "none"
		wantErr   error
	}{
		"final answer forced": {obeysNone: true},
		"model keeps calling": {obeysNone: false, wantErr: ErrToolRounds},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t, fakellm.Config{})
			n := 0
			f.AddRule(fakellm.Rule{Respond: func(r fakellm.Request) fakellm.Reply {
				if r.ToolChoice == "none" && tc.obeysNone {
					return fakellm.Reply{Text: "final answer"}
				}
				n++ // distinct arguments, so the repeat guard stays out of it
				return fakellm.Reply{ToolCalls: []fakellm.ToolCall{fakellm.Call("lookup", map[string]int{"n": n})}}
			}})
			runs := 0
			c := newTestClient(t, f, func(o *Options) { o.MaxToolRounds = 2 })
			s := c.NewSession("sys", []Tool{staticTool("lookup", "more", nil, &runs)})
			reply, err := s.Ask(context.Background(), Label{Task: "t"}, "investigate")
			reqs := f.Requests()
			if runs != 2 || len(reqs) != 4 {
				t.Errorf("tool runs = %d, requests = %d; want 2 rounds run, then the refused round and one final request", runs, len(reqs))
			}
			final := reqs[len(reqs)-1]
			if final.ToolChoice != "none" || !strings.Contains(final.ToolResults()[2].Content, "limit of 2 tool rounds") {
				t.Errorf("final request: tool_choice %q, results %+v", final.ToolChoice, final.ToolResults())
			}
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("Ask error = %v, want %v", err, tc.wantErr)
				}
				return
			}
			if err != nil || reply.Text != "final answer" || reply.ToolCalls != 3 {
				t.Errorf("Ask = %+v, %v", reply, err)
			}
		})
	}
}

func TestRepeatedIdenticalCallsAreStopped(t *testing.T) {
	t.Parallel()
	f := newFake(t, fakellm.Config{})
	// The first task makes the same call three times (the last with its
	// keys reordered), then answers; the second task makes it once more.
	for _, args := range []string{`{"path":"a","line":1}`, `{"path":"a","line":1}`, `{"line":1,"path":"a"}`} {
		f.AddRule(fakellm.Rule{LastUser: "first", Times: 1, Reply: fakellm.Reply{ToolCalls: []fakellm.ToolCall{fakellm.Call("lookup", args)}}})
	}
	f.AddRule(fakellm.Rule{LastUser: "first", Reply: fakellm.Reply{Text: "ok, answering"}})
	f.AddRule(fakellm.Rule{LastUser: "second", LastRole: "user", Reply: fakellm.Reply{ToolCalls: []fakellm.ToolCall{fakellm.Call("lookup", `{"path":"a","line":1}`)}}})
	f.AddRule(fakellm.Rule{LastUser: "second", LastRole: "tool", Reply: fakellm.Reply{Text: "again"}})
	runs := 0
	s := newTestClient(t, f, nil).NewSession("sys", []Tool{staticTool("lookup", "same result", nil, &runs)})
	ctx := context.Background()
	reply, err := s.Ask(ctx, Label{Task: "t"}, "first task")
	if err != nil || reply.Text != "ok, answering" || reply.ToolCalls != 3 {
		t.Fatalf("Ask = %+v, %v", reply, err)
	}
	if runs != 2 {
		t.Errorf("tool ran %d times, want 2", runs)
	}
	last, _ := f.LastRequest()
	results := last.ToolResults()
	if len(results) != 3 || !strings.Contains(results[2].Content, "already called 2 times with these same arguments") {
		t.Errorf("tool results = %+v, want the third refused", results)
	}

	// The guard is per Ask: the next task may make the same call again.
	if _, err := s.Ask(ctx, Label{Task: "t2"}, "second task"); err != nil {
		t.Fatalf("second Ask: %v", err)
	}
	if runs != 3 {
		t.Errorf("tool ran %d times in the second Ask, want 1", runs-2)
	}
}

func TestSessionReusesPrefix(t *testing.T) {
	t.Parallel()
	f := newFake(t, fakellm.Config{CacheMinTokens: 16, CacheBlockTokens: 8})
	f.AddRule(fakellm.Rule{LastRole: "user", LastUser: "first", Reply: fakellm.Reply{ToolCalls: []fakellm.ToolCall{fakellm.Call("lookup", `{"path":"go.mod"}`)}}})
	f.AddRule(fakellm.Rule{LastRole: "tool", Reply: fakellm.Reply{Text: "first answer"}})
	f.AddRule(fakellm.Rule{LastUser: "second", Reply: fakellm.Reply{Text: "second answer"}})
	system := strings.Repeat("Repository context line.\n", 40)
	s := newTestClient(t, f, nil).NewSession(system, []Tool{staticTool("lookup", "module example", nil, nil)})

	ctx := context.Background()
	if _, err := s.Ask(ctx, Label{Task: "question"}, "first task"); err != nil {
		t.Fatal(err)
	}
	second, err := s.Ask(ctx, Label{Task: "review"}, "second task")
	if err != nil {
		t.Fatal(err)
	}
	reqs := f.Requests()
	if len(reqs) != 3 {
		t.Fatalf("requests = %d, want 3", len(reqs))
	}
	// The second task's request is the prefix and its own prompt: nothing
	// of the first task (prompt, tool call, result, answer) is paid again.
	msgs := reqs[2].Messages
	if len(msgs) != 2 || !reflect.DeepEqual(msgs[0], reqs[0].Messages[0]) || msgs[0].Role != "system" {
		t.Fatalf("second task's messages = %+v, want the system prompt and the second prompt", msgs)
	}
	if u := msgs[1]; u.Role != "user" || u.Content != "second task" || reqs[2].Contains("first") {
		t.Errorf("second task's request = %+v, want only the second prompt after the prefix", msgs)
	}
	if !reflect.DeepEqual(reqs[2].Tools, reqs[0].Tools) {
		t.Errorf("tools changed between requests")
	}
	got := reqs[2].Usage
	if got.CachedTokens == 0 || second.Usage.CachedTokens != got.CachedTokens || second.Usage.Uncached() >= got.PromptTokens/2 {
		t.Errorf("second task usage = %+v (server: %+v), want most of the prompt cached", second.Usage, got)
	}
}

func TestSubSharesContextAndUsage(t *testing.T) {
	t.Parallel()
	f := newFake(t, fakellm.Config{CacheMinTokens: 16, CacheBlockTokens: 8})
	f.AddRule(fakellm.Rule{Reply: fakellm.Reply{Text: "ok"}})
	s := newTestClient(t, f, nil).NewSession("system prompt", nil)
	chunk := strings.Repeat("diff line\n", 200)
	sub := s.sub(chunk)
	ctx := context.Background()
	for _, p := range []string{"pass one", "pass two"} {
		if _, err := sub.Ask(ctx, Label{Task: "review", Step: p}, p); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Ask(ctx, Label{Task: "question"}, "a question"); err != nil {
		t.Fatal(err)
	}
	reqs := f.Requests()
	if len(reqs) != 3 {
		t.Fatalf("requests = %d, want 3", len(reqs))
	}
	for i, r := range reqs[:2] {
		if len(r.Messages) != 3 || r.Messages[0].Role != "system" || r.Messages[1].Content != chunk {
			t.Errorf("request %d = %+v, want system, the shared block, the prompt", i, r.Messages)
		}
	}
	if len(reqs[2].Messages) != 2 || reqs[2].Contains("diff line") {
		t.Errorf("the parent's turn carries the Sub's block: %+v", reqs[2].Messages)
	}
	if reqs[1].Usage.CachedTokens < reqs[1].Usage.PromptTokens/2 {
		t.Errorf("second pass usage = %+v, want the shared block served from the cache", reqs[1].Usage)
	}
	if n := len(s.TaskUsage()); n != 3 || len(sub.TaskUsage()) != 3 {
		t.Errorf("TaskUsage: session %d, sub %d entries, want 3 each (one ledger)", n, len(sub.TaskUsage()))
	}
}

func TestUsagePerTask(t *testing.T) {
	t.Parallel()
	f := newFake(t, fakellm.Config{CacheMinTokens: 8, CacheBlockTokens: 4})
	f.AddRule(fakellm.Rule{LastUser: "one", LastRole: "user", Reply: fakellm.Reply{ToolCalls: []fakellm.ToolCall{fakellm.Call("lookup", `{}`)}}})
	f.AddRule(fakellm.Rule{LastUser: "one", Reply: fakellm.Reply{Text: "answer one"}})
	f.AddRule(fakellm.Rule{LastUser: "two", Reply: fakellm.Reply{Text: "answer two, which is a little longer"}})
	f.AddRule(fakellm.Rule{LastUser: "three", Reply: fakellm.Reply{Error: &fakellm.APIError{Status: 400, Message: "prompt too long"}}})
	s := newTestClient(t, f, nil).NewSession(strings.Repeat("context ", 50), []Tool{staticTool("lookup", "x", nil, nil)})
	ctx := context.Background()
	for _, p := range []string{"task one", "task two"} {
		if _, err := s.Ask(ctx, Label{Task: p}, p); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Ask(ctx, Label{Task: "task three"}, "task three"); !errors.Is(err, ErrRejected) {
		t.Fatalf("third Ask error = %v, want ErrRejected", err)
	}

	reqs := f.Requests()
	want := map[string]Usage{}
	var order []string
	var total Usage
	for _, r := range reqs {
		task := "task " + strings.Fields(r.LastUser())[1]
		if _, ok := want[task]; !ok {
			order = append(order, task)
		}
		u := Usage{PromptTokens: r.Usage.PromptTokens, CachedTokens: r.Usage.CachedTokens, CompletionTokens: r.Usage.CompletionTokens}
		if r.Status == 200 {
			u.Requests = 1
		}
		want[task] = want[task].Add(u)
		total = total.Add(u)
	}
	got := s.TaskUsage()
	if len(got) != 3 {
		t.Fatalf("TaskUsage = %+v, want 3 entries", got)
	}
	for i, tu := range got {
		if tu.Task != order[i] || tu.Usage != want[tu.Task] {
			t.Errorf("TaskUsage[%d] = %+v, want %s %+v", i, tu, order[i], want[order[i]])
		}
	}
	if s.Usage() != total || total.Requests != 3 || total.CachedTokens == 0 {
		t.Errorf("Usage = %+v, want %+v with cached tokens", s.Usage(), total)
	}
	if u := got[1].Usage; u.Uncached() != u.PromptTokens-u.CachedTokens {
		t.Errorf("Uncached = %d for %+v", u.Uncached(), u)
	}
}

func TestFailedAskLeavesHistoryUnchanged(t *testing.T) {
	t.Parallel()
	f := newFake(t, fakellm.Config{})
	f.AddRule(fakellm.Rule{LastUser: "doomed", Reply: fakellm.Reply{ToolCalls: []fakellm.ToolCall{fakellm.Call("lookup", `{}`)}}, Times: 1})
	f.AddRule(fakellm.Rule{LastUser: "doomed", Reply: fakellm.Reply{Error: &fakellm.APIError{Status: 404, Message: "model not found"}}})
	f.AddRule(fakellm.Rule{Reply: fakellm.Reply{Text: "fine"}})
	s := newTestClient(t, f, nil).NewSession("sys", []Tool{staticTool("lookup", "x", nil, nil)})
	ctx := context.Background()
	if _, err := s.Ask(ctx, Label{Task: "a"}, "doomed task"); !errors.Is(err, ErrRejected) || !strings.Contains(err.Error(), `task "a"`) {
		t.Fatalf("Ask error = %v, want ErrRejected naming the task", err)
	}
	if _, err := s.Ask(ctx, Label{Task: "b"}, "next task"); err != nil {
		t.Fatalf("next Ask: %v", err)
	}
	last, _ := f.LastRequest()
	if len(last.Messages) != 2 || last.Contains("doomed") {
		t.Errorf("next request = %+v, want only the system prompt and the new task", last.Messages)
	}
}

func TestSessionRejectsBadInput(t *testing.T) {
	t.Parallel()
	noRun := Tool{Name: "x"}
	tests := map[string]struct {
		tools   []Tool
		prompt  string
		wantErr string
	}{
		"bad tool name":    {tools: []Tool{staticTool("read file", "", nil, nil)}, prompt: "p", wantErr: `name "read file" must match`},
		"duplicate tool":   {tools: []Tool{staticTool("a", "", nil, nil), staticTool("a", "", nil, nil)}, prompt: "p", wantErr: `"a" is used twice`},
		"tool without Run": {tools: []Tool{noRun}, prompt: "p", wantErr: `tool "x" has no Run function`},
		"empty prompt":     {prompt: "  ", wantErr: "empty prompt"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t, fakellm.Config{})
			s := newTestClient(t, f, nil).NewSession("sys", tc.tools)
			_, err := s.Ask(context.Background(), Label{Task: "t"}, tc.prompt)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("Ask error = %v, want %q", err, tc.wantErr)
			}
			if n := len(f.Requests()); n != 0 {
				t.Errorf("%d requests sent for invalid input", n)
			}
		})
	}
}

func TestBadAnswers(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		reply      fakellm.Reply
		wantDetail string
	}{
		"empty":   {reply: fakellm.Reply{Text: ""}, wantDetail: "empty answer"},
		"refusal": {reply: fakellm.Reply{Refusal: "I can't help with that"}, wantDetail: "refused: I can't help with that"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t, fakellm.Config{})
			f.SetDefault(tc.reply)
			_, err := newTestClient(t, f, nil).NewSession("", nil).Ask(context.Background(), Label{Task: "t"}, "p")
			if !errors.Is(err, ErrBadResponse) || !strings.Contains(err.Error(), tc.wantDetail) {
				t.Fatalf("Ask error = %v, want ErrBadResponse with %q", err, tc.wantDetail)
			}
		})
	}
}

func ExampleSession_Ask() {
	f := fakellm.New(fakellm.Config{})
	defer f.Close()
	f.AddRule(fakellm.Rule{LastRole: "user", Reply: fakellm.Reply{ToolCalls: []fakellm.ToolCall{fakellm.Call("count_lines", `{"path":"main.go"}`)}}})
	f.AddRule(fakellm.Rule{LastRole: "tool", Respond: func(r fakellm.Request) fakellm.Reply {
		return fakellm.Reply{Text: "main.go has " + r.ToolResults()[0].Content + " lines."}
	}})

	c, err := New(Options{BaseURL: f.BaseURL(), APIKey: f.APIKey(), Model: "any/model"})
	if err != nil {
		fmt.Println(err)
		return
	}
	countLines := Tool{
		Name:       "count_lines",
		Parameters: map[string]any{"type": "object", "properties": map[string]any{"path": map[string]any{"type": "string"}}},
		Run: func(ctx context.Context, args json.RawMessage) (string, error) {
			return "42", nil
		},
	}
	s := c.NewSession("You answer questions about a repository.", []Tool{countLines})
	reply, err := s.Ask(context.Background(), Label{Task: "question"}, "How long is main.go?")
	fmt.Println(reply.Text, reply.ToolCalls, err)
	// Output: main.go has 42 lines. 1 <nil>
}

// A prompt over the model's window is refused as ErrContextLength (and
// ErrRejected), with the provider's message, and is not retried.
func TestContextLengthRefusal(t *testing.T) {
	t.Parallel()
	f := newFake(t, fakellm.Config{ContextTokens: 100})
	f.AddRule(fakellm.Rule{Reply: fakellm.Reply{Text: "ok"}})
	s := newTestClient(t, f, nil).NewSession("sys", nil)
	if _, err := s.Ask(context.Background(), Label{Task: "small"}, "short prompt"); err != nil {
		t.Fatal(err)
	}
	_, err := s.Ask(context.Background(), Label{Task: "big"}, strings.Repeat("word ", 200))
	if !errors.Is(err, ErrContextLength) || !errors.Is(err, ErrRejected) || !strings.Contains(err.Error(), "maximum context length is 100 tokens") {
		t.Fatalf("error = %v, want ErrContextLength with the provider's message", err)
	}
	if n := len(f.Requests()); n != 2 {
		t.Errorf("requests = %d, want 2 (a refusal for length is not retried)", n)
	}
}
