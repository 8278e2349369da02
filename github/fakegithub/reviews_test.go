package fakegithub

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
)

func TestCreateReview(t *testing.T) {
	t.Parallel()
	unprocessable := func(msg string) string {
		return `{"message":"Unprocessable Entity","errors":["` + msg + `"],"documentation_url":"https://docs.github.com/rest/pulls/reviews#create-a-review-for-a-pull-request","status":"422"}`
	}
	type comment = map[string]any
	tests := map[string]struct {
		token      string
		event      string
		body       string
		comments   []comment
		wantStatus int
		wantBody   string // exact, when set
		wantState  string
		check      func(t *testing.T, threads []Thread)
	}{
		"line outside the diff": {
			event: "COMMENT", comments: []comment{{"path": "main.go", "line": 9, "body": "x"}},
			wantStatus: 422, wantBody: unprocessable(msgLineNotInDiff),
		},
		"one bad comment rejects the whole review": {
			event: "REQUEST_CHANGES", body: "see inline",
			comments: []comment{
				{"path": "main.go", "line": 4, "body": "fine"},
				{"path": "main.go", "line": 3, "side": "LEFT", "body": "fine"},
				{"path": "main.go", "line": 11, "body": "context line 11 is outside both hunks"},
			},
			wantStatus: 422, wantBody: unprocessable(msgLineNotInDiff),
		},
		"removed line asked for on the right": {
			event: "COMMENT", comments: []comment{{"path": "main.go", "line": 10, "side": "RIGHT", "body": "x"}},
			wantStatus: 422, wantBody: unprocessable(msgLineNotInDiff),
		},
		"unknown path": {
			event: "COMMENT", comments: []comment{{"path": "nope.go", "line": 1, "body": "x"}},
			wantStatus: 422, wantBody: unprocessable(msgPathNotResolved),
		},
		"own pull request, request changes": {
			token: tokAlice, event: "REQUEST_CHANGES", body: "no",
			wantStatus: 422, wantBody: unprocessable(msgOwnRequestChanges),
		},
		"own pull request, approve": {
			token: tokAlice, event: "APPROVE",
			wantStatus: 422, wantBody: unprocessable(msgOwnApprove),
		},
		"own pull request, comment is fine": {
			token: tokAlice, event: "COMMENT", body: "note to self", wantStatus: 200, wantState: "COMMENTED",
		},
		"start line in another hunk": {
			event: "COMMENT", comments: []comment{{"path": "main.go", "start_line": 4, "line": 13, "body": "x"}},
			wantStatus: 422, wantBody: unprocessable(msgStartNotInHunk),
		},
		"start line after end line": {
			event: "COMMENT", comments: []comment{{"path": "main.go", "start_line": 5, "line": 4, "body": "x"}},
			wantStatus: 422, wantBody: unprocessable(msgStartAfterEnd),
		},
		"comment needs a body or inline comments": {
			event: "COMMENT", wantStatus: 422, wantBody: unprocessable(msgBodyRequired),
		},
		"approve by someone else": {
			token: tokPAT, event: "APPROVE", wantStatus: 200, wantState: "APPROVED",
		},
		"inline comments become threads": {
			event: "REQUEST_CHANGES", body: "two things",
			comments: []comment{
				{"path": "main.go", "line": 4, "body": "added line"},
				{"path": "main.go", "line": 3, "side": "LEFT", "body": "removed line"},
				{"path": "main.go", "start_line": 12, "line": 14, "body": "range"},
				{"path": "README.md", "position": 2, "body": "legacy position"},
			},
			wantStatus: 200, wantState: "CHANGES_REQUESTED",
			check: func(t *testing.T, threads []Thread) {
				if len(threads) != 4 {
					t.Fatalf("%d threads, want 4", len(threads))
				}
				got := make([]string, len(threads))
				for i, th := range threads {
					root := th.Comments[0]
					got[i] = fmt.Sprintf("%s:%d-%d:%s:pos%d", th.Path, th.StartLine, th.Line, th.Side, root.Position)
				}
				want := []string{"main.go:0-4:RIGHT:pos5", "main.go:0-3:LEFT:pos3", "main.go:12-14:RIGHT:pos12", "README.md:0-2:RIGHT:pos2"}
				if !slices.Equal(got, want) {
					t.Errorf("threads = %v\nwant      %v", got, want)
				}
				if hunk := threads[0].Comments[0].DiffHunk; hunk != "@@ -1,5 +1,7 @@\n package main\n \n-import \"fmt\"\n+import (\n+\t\"fmt\"" {
					t.Errorf("diff hunk = %q", hunk)
				}
			},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := newFixture(t)
			token := tc.token
			if token == "" {
				token = tokInstall
			}
			in := map[string]any{"event": tc.event, "body": tc.body}
			if tc.comments != nil {
				in["comments"] = tc.comments
			}
			r := do(t, s, token, "POST", "/repos/o/r/pulls/1/reviews", in)
			if r.status != tc.wantStatus {
				t.Fatalf("status %d, want %d: %s", r.status, tc.wantStatus, r.body)
			}
			if tc.wantBody != "" && r.body != tc.wantBody {
				t.Errorf("body = %s\nwant   %s", r.body, tc.wantBody)
			}
			reviews, threads := s.Reviews("o/r", 1), s.Threads("o/r", 1)
			if tc.wantStatus != http.StatusOK {
				if len(reviews) != 0 || len(threads) != 0 || len(s.Writes()) != 0 {
					t.Errorf("a rejected review left %d reviews, %d threads, writes %v", len(reviews), len(threads), s.Writes())
				}
				return
			}
			if len(reviews) != 1 || reviews[0].State != tc.wantState {
				t.Fatalf("reviews = %+v, want one %s", reviews, tc.wantState)
			}
			want := fmt.Sprintf("o/r#1:review:create:%d:%s:%d", reviews[0].ID, tc.event, len(tc.comments))
			if got := s.Writes(); !slices.Equal(got, []string{want}) {
				t.Errorf("Writes = %v, want [%s]", got, want)
			}
			if tc.check != nil {
				tc.check(t, threads)
			}
		})
	}
}

func TestRepliesAndReviewComments(t *testing.T) {
	t.Parallel()
	s := newFixture(t)
	threadID, root := s.AddThread("o/r", 1, ThreadSpec{Path: "main.go", Line: 4, Author: "alice", Body: "why?"})
	seeded := s.AddReply("o/r", 1, root, "bob", "agreed")

	r := do(t, s, tokInstall, "POST", fmt.Sprintf("/repos/o/r/pulls/1/comments/%d/replies", seeded), map[string]string{"body": "because"})
	if r.status != http.StatusCreated {
		t.Fatalf("reply: %d %s", r.status, r.body)
	}
	var reply struct {
		ID          int64
		InReplyToID int64  `json:"in_reply_to_id"`
		ReviewID    int64  `json:"pull_request_review_id"`
		Line        int    `json:"line"`
		DiffHunk    string `json:"diff_hunk"`
		User        struct{ Login string }
	}
	r.decode(t, &reply)
	tests := map[string]struct {
		got, want any
	}{
		"replies point at the thread root": {reply.InReplyToID, root},
		"reply keeps the anchor":           {reply.Line, 4},
		"reply author is the token's":      {reply.User.Login, "github-actions[bot]"},
		"reply has its own review":         {reply.ReviewID != 0 && reply.ReviewID != s.Threads("o/r", 1)[0].Comments[0].ReviewID, true},
		"thread holds all three":           {len(s.Threads("o/r", 1)[0].Comments), 3},
		"thread id":                        {s.Threads("o/r", 1)[0].ID, threadID},
		"reviews: seed, seeded reply, api": {len(s.Reviews("o/r", 1)), 3},
		"write log":                        {s.Writes()[0], fmt.Sprintf("o/r#1:review-comment:reply:%d", reply.ID)},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if tc.got != tc.want {
				t.Errorf("got %v, want %v", tc.got, tc.want)
			}
		})
	}

	var list []struct{ ID int64 }
	do(t, s, tokInstall, "GET", "/repos/o/r/pulls/1/comments", nil).decode(t, &list)
	if len(list) != 3 || list[0].ID != root {
		t.Errorf("listed %+v", list)
	}
	if d := do(t, s, tokInstall, "DELETE", fmt.Sprintf("/repos/o/r/pulls/comments/%d", reply.ID), nil); d.status != 204 {
		t.Errorf("delete: %d", d.status)
	}
	if n := len(s.Threads("o/r", 1)[0].Comments); n != 2 {
		t.Errorf("%d comments after delete, want 2", n)
	}
}

func TestCreateSingleReviewComment(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		in         map[string]any
		wantStatus int
		wantBody   string
		wantWrite  string // prefix
	}{
		"on a line in the diff": {
			in:         map[string]any{"commit_id": "{head}", "path": "main.go", "line": 4, "side": "RIGHT", "body": "x"},
			wantStatus: 201, wantWrite: "o/r#1:review-comment:create:",
		},
		"outside the diff": {
			in:         map[string]any{"commit_id": "{head}", "path": "main.go", "line": 9, "body": "x"},
			wantStatus: 422,
			wantBody: `{"message":"Validation Failed","errors":[{"resource":"PullRequestReviewComment","code":"custom","field":"pull_request_review_thread.line",` +
				`"message":"pull_request_review_thread.line must be part of the diff"}],"documentation_url":"` + docCreateReviewComment + `","status":"422"}`,
		},
		"reply via in_reply_to": {
			in:         map[string]any{"in_reply_to": "{root}", "body": "thanks"},
			wantStatus: 201, wantWrite: "o/r#1:review-comment:reply:",
		},
		"commit id required": {
			in:         map[string]any{"path": "main.go", "line": 4, "body": "x"},
			wantStatus: 422,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := newFixture(t)
			_, root := s.AddThread("o/r", 1, ThreadSpec{Path: "main.go", Line: 5, Body: "root"})
			pr, _ := s.PR("o/r", 1)
			in := map[string]any{}
			for k, v := range tc.in {
				switch v {
				case "{head}":
					v = pr.HeadSHA
				case "{root}":
					v = root
				}
				in[k] = v
			}
			r := do(t, s, tokInstall, "POST", "/repos/o/r/pulls/1/comments", in)
			if r.status != tc.wantStatus {
				t.Fatalf("status %d, want %d: %s", r.status, tc.wantStatus, r.body)
			}
			if tc.wantBody != "" && r.body != tc.wantBody {
				t.Errorf("body = %s\nwant   %s", r.body, tc.wantBody)
			}
			w := s.Writes()
			if tc.wantWrite == "" && len(w) != 0 || tc.wantWrite != "" && (len(w) != 1 || !strings.HasPrefix(w[0], tc.wantWrite)) {
				t.Errorf("Writes = %v, want one starting %q", w, tc.wantWrite)
			}
		})
	}
}
