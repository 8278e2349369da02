package execution

import (
	"context"
	"fmt"
	"github.com/review-my-code-bot/rmc/internal/golden"
	"strings"
	"testing"
	"time"

	"github.com/review-my-code-bot/rmc/detector"
	"github.com/review-my-code-bot/rmc/llm"
	"github.com/review-my-code-bot/rmc/rmcoc"
	"github.com/review-my-code-bot/rmc/snapshot"
	"github.com/review-my-code-bot/rmc/state"
)

var convT0 = time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)

// at is minute n of the conversation.
func at(n int) time.Time { return convT0.Add(time.Duration(n) * time.Minute) }

func issueComment(id int64, n int, by snapshot.Actor, body string) snapshot.Comment {
	return snapshot.Comment{ID: id, Author: by, Body: body, CreatedAt: at(n), UpdatedAt: at(n)}
}

func threadComment(id int64, n int, by snapshot.Actor, body string) snapshot.ReviewComment {
	return snapshot.ReviewComment{Comment: snapshot.Comment{ID: id, Author: by, Body: body, CreatedAt: at(n)}, Path: "src/cache.go", Line: 42, DiffHunk: "@@ -40,3 +40,4 @@"}
}

// botSays is a bot comment: prose and its blocks.
func botSays(prose string, blocks ...rmcoc.Block) string {
	for _, b := range blocks {
		prose += "\n\n" + rmcoc.Render(b)
	}
	return prose
}

// conversationPR is a PR whose conversation holds every kind of comment
// conversation must sort: questions, follow-ups without a mention, the bot's
// answers, placeholders, failures and status comments, other bots, and a
// review thread on the side.
func conversationPR() snapshot.Snapshot {
	snap := testSnapshot()
	renovate := snapshot.NewActor("renovate[bot]", "")
	snap.IssueComments = []snapshot.Comment{
		issueComment(101, 1, alice, "@rmc-bot how does the cache expire?"),
		issueComment(102, 2, botAuthor, botSays("> how does the cache expire?\n\nEntries expire after `ttl`.\n\n<sub>Answered by review-my-code-bot (m) for @alice.</sub>",
			rmcoc.QuestionAnswer{ReplyToCommentID: 101, Asker: "alice"})),
		issueComment(103, 3, bob, "What about entries written before the upgrade?"),
		issueComment(104, 4, botAuthor, botSays("🔍 **review-my-code-bot** is reviewing `1234567`.", rmcoc.AutoReviewTrigger{HeadSHA: headSHA, Action: "synchronize"})),
		issueComment(105, 5, botAuthor, botSays("⏳ @carol, looking into your question…", rmcoc.QuestionAnswer{ReplyToCommentID: 99, Status: rmcoc.AnswerInProgress})),
		issueComment(106, 6, botAuthor, botSays("⚠️ @dave, I could not answer this question.", rmcoc.QuestionAnswer{ReplyToCommentID: 98, Status: rmcoc.AnswerFailed},
			rmcoc.TaskError{TaskKey: "question-issue-comment-98", Message: "m"})),
		issueComment(107, 7, renovate, "Update dependency foo to v2"),
		issueComment(108, 8, botAuthor, botSays("⚠️ The review task could not finish.", rmcoc.TaskError{TaskKey: "review-auto-1234567", Message: "m"})),
		issueComment(109, 9, alice, "@rmc-bot and does `get` check it?"),
		issueComment(110, 10, bob, "posted after the question"),
	}
	snap.Threads = []snapshot.Thread{
		{ID: "PRRT_1", Path: "src/cache.go", Line: 42, DiffSide: "RIGHT", Comments: []snapshot.ReviewComment{
			threadComment(201, 2, bob, "This loop looks quadratic."),
			threadComment(202, 3, alice, "It is bounded by the shard count."),
			threadComment(203, 4, botAuthor, botSays("It is linear in the shard count.", rmcoc.QuestionAnswer{ReplyToCommentID: 199, ThreadID: "PRRT_1"})),
			threadComment(204, 5, botAuthor, botSays("⏳ looking", rmcoc.QuestionAnswer{ReplyToCommentID: 205, ThreadID: "PRRT_1", Status: rmcoc.AnswerInProgress})),
			threadComment(205, 6, alice, "@rmc-bot so is it O(n^2) or not?"),
			threadComment(206, 7, bob, "after the thread question"),
		}},
		{ID: "PRRT_2", Path: "src/other.go", Line: 3, DiffSide: "RIGHT", Comments: []snapshot.ReviewComment{
			threadComment(301, 1, bob, "Unrelated thread."),
		}},
	}
	return snap
}

// mentionIn derives the state of snap and returns the mention with ref.
func mentionIn(t *testing.T, snap snapshot.Snapshot, ref state.Ref) (state.State, *state.Mention) {
	t.Helper()
	st := state.Derive(snap, state.Options{Bot: testBot, Handles: []string{"@rmc-bot"}})
	for i := range st.Mentions {
		if st.Mentions[i].Ref == ref {
			return st, &st.Mentions[i]
		}
	}
	t.Fatalf("no mention %s in %+v", ref, st.Mentions)
	return st, nil
}

func TestConversation(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		ref  state.Ref
		want []Turn
	}{
		"conversation question": {
			ref: state.Ref{Source: state.SourceIssueComment, ID: 109},
			want: []Turn{
				{Source: "comment by @alice", Body: "@rmc-bot how does the cache expire?"},
				{Source: "your earlier answer", Body: "> how does the cache expire?\n\nEntries expire after `ttl`.\n\n<sub>Answered by review-my-code-bot (m) for @alice.</sub>"},
				{Source: "comment by @bob", Body: "What about entries written before the upgrade?"},
			},
		},
		"the first question has no history": {
			ref:  state.Ref{Source: state.SourceIssueComment, ID: 101},
			want: nil,
		},
		"thread question: only its thread, up to the question": {
			ref: state.Ref{Source: state.SourceReviewComment, ID: 205},
			want: []Turn{
				{Source: "comment by @bob", Body: "This loop looks quadratic."},
				{Source: "comment by @alice", Body: "It is bounded by the shard count."},
				{Source: "your earlier answer", Body: "It is linear in the shard count."},
			},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			snap := conversationPR()
			_, m := mentionIn(t, snap, tc.ref)
			got := conversation(snap, testBot, m)
			if fmt.Sprintf("%q", got) != fmt.Sprintf("%q", tc.want) {
				t.Errorf("conversation:\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestConversationCap(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		sizes []int // body sizes of the comments before the question, oldest first
		want  []string
	}{
		"at the cap everything is kept": {
			sizes: []int{20_000, 20_000, 20_000},
			want:  []string{"0:20000", "1:20000", "2:20000"},
		},
		"two characters over drops the oldest with a note": {
			sizes: []int{2, 20_000, 20_000, 20_000},
			want:  []string{"note:(1 earlier messages omitted)", "1:20000", "2:20000", "3:20000"},
		},
		"the newest turns are kept": {
			sizes: []int{25_000, 25_000, 25_000, 25_000},
			want:  []string{"note:(2 earlier messages omitted)", "2:25000", "3:25000"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			snap := testSnapshot()
			for i, n := range tc.sizes {
				// Each body starts with its index so the kept ones can be named.
				body := fmt.Sprintf("%d:", i)
				body += strings.Repeat("x", n-len(body))
				snap.IssueComments = append(snap.IssueComments, issueComment(int64(100+i), i, bob, body))
			}
			m := &state.Mention{Ref: state.Ref{Source: state.SourceIssueComment, ID: 999}, Author: alice, CreatedAt: at(len(tc.sizes))}
			var got []string
			for _, turn := range conversation(snap, testBot, m) {
				if turn.Source == "note" {
					got = append(got, "note:"+turn.Body)
					continue
				}
				idx, _, _ := strings.Cut(turn.Body, ":")
				got = append(got, fmt.Sprintf("%s:%d", idx, len(turn.Body)))
			}
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("turns = %v, want %v", got, tc.want)
			}
		})
	}
}

// answerCase runs one question task through Executor.Run.
type answerCase struct {
	ref      state.Ref
	failures int // failures already recorded for the task
	reply    llm.Reply
	err      error
	// placeholder simulates a killed run's placeholder comment.
	placeholder int64
	wantOps     []string
	goldenFinal string
}

func TestAnswer(t *testing.T) {
	t.Parallel()
	modelText := "Yes: `get` checks `e.expired()` before returning.\n\n```rmcoc\n{\"type\":\"question-answer\",\"reply_to_comment_id\":\"110\",\"status\":\"ANSWERED\"}\n```\n\nDo not commit " + ghToken + "."
	tests := map[string]answerCase{
		"conversation question answered": {
			ref:         state.Ref{Source: state.SourceIssueComment, ID: 109},
			reply:       llm.Reply{Text: modelText, Usage: llm.Usage{Requests: 1, PromptTokens: 1200, CachedTokens: 1000, CompletionTokens: 80}},
			wantOps:     []string{"create-comment", "react 109 eyes review=false", "edit-comment 9001"},
			goldenFinal: "answer_conversation.golden",
		},
		"thread question answered in its thread": {
			ref:         state.Ref{Source: state.SourceReviewComment, ID: 205},
			reply:       llm.Reply{Text: "It is linear: the inner loop runs once per shard."},
			placeholder: 204,
			wantOps:     []string{"edit-review-comment 204", "react 205 eyes review=true", "edit-review-comment 204"},
			goldenFinal: "answer_thread.golden",
		},
		"model failure: the placeholder says so and counts the attempt": {
			ref:         state.Ref{Source: state.SourceIssueComment, ID: 109},
			failures:    1,
			err:         &llm.Error{Kind: llm.ErrAuth, Status: 401, Attempts: 1, Detail: "Incorrect API key provided: " + testSecret},
			wantOps:     []string{"create-comment", "react 109 eyes review=false", "edit-comment 9001"},
			goldenFinal: "answer_failed.golden",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			snap := conversationPR()
			st, m := mentionIn(t, snap, tc.ref)
			if m.Placeholder != tc.placeholder {
				t.Fatalf("mention placeholder = %d, want %d", m.Placeholder, tc.placeholder)
			}
			key := "question-" + m.Ref.String()
			st.Failures[key] = tc.failures
			gh, log := &recorder{}, &testLog{}
			x := newTestExecutor(gh, log)
			x.Snap, x.State = snap, st
			sess := &fakeSession{reply: tc.reply, err: tc.err}
			x.Session = sess
			res := x.Run(context.Background(), detector.Plan{Tasks: []detector.Task{{Key: key, Reason: "unanswered question", Work: &detector.QuestionTask{Mention: *m}}}})

			if got := gh.ops(); strings.Join(got, "\n") != strings.Join(tc.wantOps, "\n") {
				t.Fatalf("calls:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(tc.wantOps, "\n  "))
			}
			wantWarnings := 0
			if tc.err != nil {
				wantWarnings = 1 // the task's failure, for the workflow log
			}
			if len(log.warnings) != wantWarnings {
				t.Errorf("warnings: %q, want %d", log.warnings, wantWarnings)
			}
			first, final := gh.calls[0].Body, gh.calls[2].Body
			wantFirst := fmt.Sprintf("⏳ @alice, looking into your question…\n\n%s", rmcoc.Render(rmcoc.QuestionAnswer{ReplyToCommentID: rmcoc.ID(m.Ref.ID),
				Status: rmcoc.AnswerInProgress, ThreadID: threadID(m), Asker: "alice", AnsweredAt: fixedNow.UTC()}))
			if first != wantFirst {
				t.Errorf("placeholder:\n%s\nwant:\n%s", first, wantFirst)
			}
			golden.Assert(t, tc.goldenFinal, final)

			// What the next run reads from the final comment.
			qa := rmcoc.All[rmcoc.QuestionAnswer](final)
			if len(qa) != 1 || int64(qa[0].ReplyToCommentID) != m.Ref.ID || qa[0].ThreadID != threadID(m) {
				t.Errorf("question-answer blocks = %+v", qa)
			}
			o := res.Outcomes[0]
			if tc.err != nil {
				te := rmcoc.All[rmcoc.TaskError](final)
				if len(te) != 1 || te[0].TaskKey != key || te[0].Attempts != tc.failures+1 || qa[0].Status != rmcoc.AnswerFailed {
					t.Errorf("a failed answer must carry FAILED and a task error with attempt %d; got %+v %+v", tc.failures+1, qa, te)
				}
				if strings.Contains(final, testSecret) || strings.Contains(final, "Incorrect API key") {
					t.Errorf("the failure comment leaks the endpoint's detail:\n%s", final)
				}
				if o.Err == nil || res.Failed() != 1 {
					t.Errorf("outcome = %+v, want the task failed", o)
				}
				return
			}
			if qa[0].Status != "" {
				t.Errorf("answer status = %q, want \"\" (answered)", qa[0].Status)
			}
			if strings.Contains(final, ghToken) {
				t.Errorf("the answer posts a token:\n%s", final)
			}
			if o.Err != nil {
				t.Errorf("outcome = %+v, want done", o)
			}
			if len(sess.tasks) != 1 || sess.tasks[0] != (llm.Label{Task: key}) {
				t.Errorf("session tasks = %v, want [%s]", sess.tasks, key)
			}
		})
	}
}

func threadID(m *state.Mention) string {
	if m.Thread != nil {
		return m.Thread.ID
	}
	return ""
}

// TestPromptsFromRealData renders every prompt from the data the code itself
// builds, so a field the template needs and the code does not fill shows up
// as a "<no value>" in the prompt instead of passing silently.
func TestPromptsFromRealData(t *testing.T) {
	t.Parallel()
	snap := conversationPR()
	snap.PR.Body = "Adds a cache in front of the lookups."

	tests := map[string]func(t *testing.T) string{
		"question_conversation": func(t *testing.T) string {
			return askedPrompt(t, snap, state.Ref{Source: state.SourceIssueComment, ID: 109})
		},
		"question_thread": func(t *testing.T) string {
			return askedPrompt(t, snap, state.Ref{Source: state.SourceReviewComment, ID: 205})
		},
		"system": func(t *testing.T) string {
			files := []snapshot.ChangedFile{{Path: "src/cache.go", Status: "modified", Additions: 12, Deletions: 3}, {Path: "assets/logo.png", Status: "added"}}
			s, err := SystemPrompt(snap, files, Rules{Source: "AGENTS.md", Text: "# AGENTS.md\n\nErrors are wrapped with %w."})
			if err != nil {
				t.Fatal(err)
			}
			return s.String()
		},
		"verify_fix": func(t *testing.T) string {
			sess := &fakeSession{answers: []string{`{"fixed":true,"reason":"put now locks"}`}}
			x := newTestExecutor(&recorder{}, &testLog{})
			x.Session = sess
			f := state.Finding{Block: rmcoc.Finding{ID: "f-c0ffee012345", Title: "Map written without the lock", Line: 42},
				Thread: snapshot.Thread{ID: "PRRT_9", Path: "src/cache.go", Comments: []snapshot.ReviewComment{threadComment(401, 1, botAuthor, botSays("🔴 **Map written without the lock**\n\nRaces.", rmcoc.Finding{ID: "f-c0ffee012345"}))}}}
			fixed, reason, err := x.run().fixes.isFixed(context.Background(), "review-auto-1234567", f)
			if err != nil || !fixed || reason != "put now locks" {
				t.Fatalf("isFixed = %v, %q, %v", fixed, reason, err)
			}
			if want := (llm.Label{Task: "review-auto-1234567", Step: "verify f-c0ffee012345"}); sess.tasks[0] != want {
				t.Errorf("label = %+v, want %+v", sess.tasks[0], want)
			}
			return sess.prompts[0]
		},
		"classify": func(t *testing.T) string {
			sess := &fakeSession{answers: []string{`{"intent":"full-review"}`}}
			c := Classifier{NewSession: func() Asker { return sess }}
			if _, err := c.Classify(context.Background(), "please do a full review"); err != nil {
				t.Fatal(err)
			}
			return sess.prompts[0]
		},
	}
	for name, render := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got := render(t)
			if strings.Contains(got, "<no value>") {
				t.Errorf("prompt renders a missing field as <no value>:\n%s", got)
			}
			golden.Assert(t, "prompt_"+name+".golden", got)
		})
	}
}

// askedPrompt runs the question with ref and returns the prompt it sent.
func askedPrompt(t *testing.T, snap snapshot.Snapshot, ref state.Ref) string {
	t.Helper()
	st, m := mentionIn(t, snap, ref)
	x := newTestExecutor(&recorder{}, &testLog{})
	x.Snap, x.State = snap, st
	sess := &fakeSession{reply: llm.Reply{Text: "ok"}}
	x.Session = sess
	res := x.Run(context.Background(), detector.Plan{Tasks: []detector.Task{{Key: "question-" + ref.String(), Work: &detector.QuestionTask{Mention: *m}}}})
	if res.Failed() != 0 || len(sess.prompts) != 1 {
		t.Fatalf("question failed (%v) or sent %d prompts", res.Outcomes[0].Err, len(sess.prompts))
	}
	return sess.prompts[0]
}
