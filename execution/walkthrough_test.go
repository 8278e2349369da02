package execution

import (
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/detector"
	"github.com/review-my-code-bot/rmc/internal/golden"
	"github.com/review-my-code-bot/rmc/llm"
	"github.com/review-my-code-bot/rmc/review"
	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/settings"
	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/state"
)

// The walkthrough is relayed model text: no live mention or HTML, only the
// PR's own paths (a forgotten file still listed), and a diagram only when
// asked for, a sequence diagram, without directives, links or fences.
func TestWalkthroughRender(t *testing.T) {
	t.Parallel()
	files := []snapshot.ChangedFile{{Path: "limiter/bucket.go", Status: "added"}, {Path: "limiter/bucket_test.go", Status: "added"}, {Path: "README.md", Status: "modified"}}
	ans := walkthroughAnswer{
		Summary: "Adds a token bucket. cc @security-team <img src=x onerror=alert(1)>",
		Groups: groupList{
			{Purpose: "Rate limiting", Files: fileLineList{{Path: "limiter/bucket.go", Change: "the bucket and its refill"}, {Path: "../../etc/passwd", Change: "made up"}}},
			{Purpose: "Tests @bob", Files: fileLineList{{Path: "limiter/bucket_test.go", Change: "table tests"}, {Path: "limiter/bucket.go", Change: "listed twice"}}},
		},
		Effort:    4,
		EffortWhy: "concurrency in the refill goroutine",
		Diagram:   "sequenceDiagram\n%%{init: {'theme': 'dark'}}%%\nlink API: Docs @ https://evil.example\nparticipant API\nparticipant Limiter\nAPI->>Limiter: Take(k)\nLimiter-->>API: ok",
	}
	x := &walkthroughRunner{env: env{poster: poster{log: &testLog{}}}, Diagram: true}
	got := x.render(ans, files, "1111111111111111111111111111111111111111")
	golden.Assert(t, "walkthrough.golden", got)
	for _, bad := range []string{"@security-team", "@bob", "<img", "passwd", "evil.example", "%%{", "listed twice"} {
		if strings.Contains(got, bad) {
			t.Errorf("the walkthrough shows %q", bad)
		}
	}
	x.Diagram = false
	if got := x.render(ans, files, "1111111"); strings.Contains(got, "mermaid") {
		t.Error("a diagram was drawn with walkthrough_diagram off")
	}
}

func TestWalkthroughDiagram(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"sequenceDiagram\nA->>B: call":                         "sequenceDiagram\nA->>B: call",
		"graph TD\nA-->B":                                      "",
		"sequenceDiagram":                                      "",
		"sequenceDiagram\nA->>B: x\n```\n@bob hi\n```":         "",
		"sequenceDiagram\nclick A href\nA->>B: x":              "sequenceDiagram\nA->>B: x",
		"sequenceDiagram\n" + strings.Repeat("A->>B: x\n", 70): "",
	} {
		if got := diagram(in); got != want {
			t.Errorf("diagram(%q) = %q, want %q", in, got, want)
		}
	}
}

// usedSession is a session that has spent a fixed number of tokens.
type usedSession struct {
	fakeSession
	used llm.Usage
}

func (s *usedSession) Usage() llm.Usage { return s.used }

// The walkthrough keeps to the run's token ceiling, the review's
// max_run_tokens over the whole session's usage.
func TestWalkthroughCeiling(t *testing.T) {
	t.Parallel()
	sess := &usedSession{used: llm.Usage{PromptTokens: 900, CompletionTokens: 100}}
	capped := review.DefaultSettings()
	capped.MaxRunTokens = 1_500
	w := newWalkthroughRunner(&run{Session: sess, Options: Options{Run: settings.Run{Review: capped}}})
	if !w.ceiling.Over(501) || w.ceiling.Over(500) {
		t.Errorf("with 1,000 of 1,500 tokens spent: over 501 %v, over 500 %v", w.ceiling.Over(501), w.ceiling.Over(500))
	}
	w = newWalkthroughRunner(&run{Session: sess, Options: Options{Run: settings.Run{Review: review.DefaultSettings()}}})
	if w.ceiling.Over(1 << 30) {
		t.Error("max_run_tokens 0 stopped the walkthrough")
	}
}

// The walkthrough runner writes the walkthrough of the task's head and
// answers the summary commands it serves; without a model, an automatic
// review's walkthrough is a warning, a summary command's a failure that
// stays pending.
func TestWalkthroughRunner(t *testing.T) {
	t.Parallel()
	const head = "2222222222222222222222222222222222222222"
	answer := `{"summary":"Adds a token bucket.","groups":[{"purpose":"Rate limiting","files":[{"path":"limiter/bucket.go","change":"the bucket"}]}],"effort":2,"effort_why":"small","diagram":""}`
	command := mentionOf(state.SourceIssueComment, 55, bob)
	command.Command = state.CommandSummary
	for name, tc := range map[string]struct {
		commands []state.Mention
		session  bool
		ops      string
		err      bool
	}{
		"with the automatic review": {session: true, ops: "create-comment"},
		"for a summary command":     {commands: []state.Mention{command}, session: true, ops: "create-comment create-comment"},
		"no model, automatic":       {ops: ""},
		"no model, a command":       {commands: []state.Mention{command}, ops: "create-comment", err: true},
	} {
		gh := &recorder{files: []snapshot.ChangedFile{{Path: "limiter/bucket.go", Status: "added", Patch: "@@ -0,0 +1 @@\n+package limiter\n"}}}
		rig := newTestExecutor(gh, &testLog{})
		if tc.session {
			rig.Session = &fakeSession{answers: []string{answer}}
		}
		o := runTask(newWalkthroughRunner(rig.run()), "walkthrough-2222222", &detector.WalkthroughTask{HeadSHA: head, Commands: tc.commands})
		if got := strings.Join(gh.ops(), " "); got != tc.ops || (o.Err != nil) != tc.err || o.Warned != (!tc.session && !tc.err) {
			t.Errorf("%s: wrote %q, err %v, warned %v; want %q", name, got, o.Err, o.Warned, tc.ops)
		}
		if !tc.session {
			continue
		}
		if b := rmcoc.All[rmcoc.Walkthrough](gh.calls[0].Body); len(b) != 1 || b[0].HeadSHA != head || !strings.Contains(o.Note, "walkthrough of 2222222 written") {
			t.Errorf("%s: walkthrough blocks %+v, note %q", name, b, o.Note)
		}
		if len(tc.commands) > 0 && !strings.Contains(gh.calls[1].Body, "`2222222`") {
			t.Errorf("%s: the command's answer does not name the head:\n%s", name, gh.calls[1].Body)
		}
	}
}
