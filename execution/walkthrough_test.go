package execution

import (
	"fmt"
	"maps"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/detector"
	"github.com/review-my-code-bot/rmc/internal/golden"
	"github.com/review-my-code-bot/rmc/llm"
	"github.com/review-my-code-bot/rmc/review"
	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/sanitize"
	"github.com/review-my-code-bot/rmc/settings"
	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/state"
)

// The walkthrough is relayed model text: no live mention or HTML, only the
// PR's own paths (a forgotten file still listed), and a diagram only when
// asked for, a sequence diagram, without directives, links or fences.
func TestWalkthroughRender(t *testing.T) {
	t.Parallel()
	es := []walkEntry{{Path: "limiter/bucket.go", Status: "added", Add: 6, Note: "the bucket and its refill, cc @carol"}, {Path: "limiter/bucket_test.go", Status: "added", Add: 20, Note: "table tests"},
		{Path: "README.md", Status: "modified", Add: 1, Del: 1}, {Path: "vendor/x.go", Status: "added", Why: "matches ignore_paths in the base branch's configuration"},
		{Path: "fixtures/rows.csv", Status: "added", Private: true}}
	ans := walkthroughAnswer{
		Summary: "Adds a token bucket. cc @security-team <img src=x onerror=alert(1)>",
		Groups: groupList{
			{Purpose: "Rate limiting", Files: pathList{"limiter/bucket.go", "../../etc/passwd", "fixtures/"}},
			{Purpose: "Tests @bob", Files: pathList{"limiter/", "vendor/"}},
		},
		IssueFit:  "Yes: #12 asks for a per-client limit and Take enforces one.",
		Effort:    4,
		EffortWhy: "concurrency in the refill goroutine",
		Diagram:   "sequenceDiagram\n%%{init: {'theme': 'dark'}}%%\nlink API: Docs @ https://evil.example\nparticipant API\nparticipant Limiter\nAPI->>Limiter: Take(k)\nLimiter-->>API: ok",
	}
	x := &walkthroughRunner{env: env{poster: poster{log: &testLog{}}}, Diagram: true, issues: true}
	got := x.render(ans, es, "1111111111111111111111111111111111111111", 0)
	golden.Assert(t, "walkthrough.golden", got)
	for _, bad := range []string{"@security-team", "@bob", "@carol", "<img", "passwd", "evil.example", "%%{"} {
		if strings.Contains(got, bad) {
			t.Errorf("the walkthrough shows %q", bad)
		}
	}
	x.Diagram, x.issues = false, false
	if got := x.render(ans, es, "1111111", 0); strings.Contains(got, "mermaid") || strings.Contains(got, "#12") {
		t.Error("a diagram was drawn with walkthrough_diagram off, or an issue line without issues")
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
	answer := `{"summary":"Adds a token bucket.","groups":[{"purpose":"Rate limiting","files":["limiter/bucket.go"]}],"effort":2,"effort_why":"small","issue_fit":"","diagram":""}`
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

// At any size, the walkthrough is one call, its prompt and answer are
// bounded, and the comment lists every file or counts it in a group, and
// fits GitHub's limit with its block; a push rewrites only the lines of
// the files its review read.
func TestWalkthroughAtAnySize(t *testing.T) {
	t.Parallel()
	for _, n := range []int{3, 300, 3000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			t.Parallel()
			var files []snapshot.ChangedFile
			read := map[string]string{}
			for i := range n {
				p := fmt.Sprintf("svc%d/handler_%04d.go", i%7, i)
				files = append(files, snapshot.ChangedFile{Path: p, Status: "modified", Additions: 3, Deletions: 1, Patch: "@@ -1 +1,3 @@\n-a\n+b\n+c\n+d"})
				read[p] = fmt.Sprintf("handler %d now checks the caller's token before it reads the body", i)
			}
			answer := `{"summary":"Checks tokens.","groups":[{"purpose":"Services 0-2","files":["svc0/","svc1/","svc2/"]},{"purpose":"Service 3","files":["svc3/"]}],"effort":3,"effort_why":"wide","issue_fit":"","diagram":""}`
			gh := &recorder{files: files}
			rig := newTestExecutor(gh, &testLog{})
			sess := &fakeSession{answers: []string{answer}}
			rig.Session = sess
			r := rig.run()
			maps.Copy(r.read, read)
			o := runTask(newWalkthroughRunner(r), "walkthrough-1", &detector.WalkthroughTask{HeadSHA: "1111111111111111111111111111111111111111"})
			if o.Err != nil || len(sess.prompts) != 1 {
				t.Fatalf("err %v, %d calls; want one", o.Err, len(sess.prompts))
			}
			if len(sess.prompts[0]) > maxPromptFiles+maxPromptDirs*80+4000 {
				t.Errorf("the prompt is %d characters", len(sess.prompts[0]))
			}
			body := gh.calls[0].Body
			if len([]rune(body)) > sanitize.MaxBody {
				t.Errorf("the comment is %d characters, over GitHub's limit", len([]rune(body)))
			}
			listed := strings.Count(body, "\n- `svc")
			counted := 0
			for _, m := range regexp.MustCompile(`… and (\d+) more in this group`).FindAllStringSubmatch(body, -1) {
				k, _ := strconv.Atoi(m[1])
				counted += k
			}
			if listed+counted != n || listed > maxShownFiles {
				t.Errorf("%d listed + %d counted, want %d files (at most %d listed)", listed, counted, n, maxShownFiles)
			}
			if counted > 0 && !strings.Contains(body, fmt.Sprintf("%d of %d files are counted, not listed", counted, n)) {
				t.Error("the comment does not say it counted files")
			}
			t.Logf("%d files: %d characters, %d listed, %d counted, %d characters of prompt", n, len([]rune(body)), listed, counted, len(sess.prompts[0]))
			blocks := rmcoc.All[rmcoc.Walkthrough](body)
			if len(blocks) != 1 || len(blocks[0].Files) == 0 {
				t.Fatalf("the block did not parse back, or keeps no line: %d blocks", len(blocks))
			}
			kept := blocks[0].Files
			if n <= 100 && len(kept) != n {
				t.Errorf("the block keeps %d of %d lines", len(kept), n)
			}
			if len(kept) < n && !strings.Contains(body, fmt.Sprintf("The lines of %d files did not fit", n-len(kept))) {
				t.Error("the comment does not say which lines it could not keep")
			}

			// A push whose review read one file: only its line is new.
			next := newTestExecutor(&recorder{files: files}, &testLog{})
			next.State.WalkthroughFiles = kept
			next.Session = &fakeSession{answers: []string{answer}}
			r = next.run()
			r.read[kept[0].Path] = "now also logs the caller"
			es := newWalkthroughRunner(r).entries(files)
			for i, e := range es[:len(kept)] {
				want := kept[i].Change
				if i == 0 {
					want = "now also logs the caller"
				}
				if e.Note != want {
					t.Fatalf("after the push, %s's line is %q, want %q", e.Path, e.Note, want)
				}
			}
		})
	}
}
