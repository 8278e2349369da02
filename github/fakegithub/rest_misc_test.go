package fakegithub

import (
	"fmt"
	"net/http"
	"slices"
	"testing"
)

func TestReactions(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		kind string // issues or pulls
	}{
		"issue comment":  {kind: "issues"},
		"review comment": {kind: "pulls"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := newFixture(t)
			id := s.AddIssueComment("o/r", 1, "alice", "please review").ID
			if tc.kind == "pulls" {
				_, id = s.AddThread("o/r", 1, ThreadSpec{Path: "main.go", Line: 4, Author: "alice", Body: "why?"})
			}
			path := fmt.Sprintf("/repos/o/r/%s/comments/%d/reactions", tc.kind, id)
			first := do(t, s, tokInstall, "POST", path, map[string]string{"content": "eyes"})
			again := do(t, s, tokInstall, "POST", path, map[string]string{"content": "eyes"})
			if first.status != http.StatusCreated || again.status != http.StatusOK {
				t.Fatalf("statuses = %d then %d, want 201 then 200", first.status, again.status)
			}
			var a, b struct{ ID int64 }
			first.decode(t, &a)
			again.decode(t, &b)
			if a.ID != b.ID {
				t.Errorf("re-posting made a new reaction: %d vs %d", a.ID, b.ID)
			}
			if bad := do(t, s, tokInstall, "POST", path, map[string]string{"content": "thumbsup"}); bad.status != 422 {
				t.Errorf("unknown content: status %d, want 422", bad.status)
			}
			var list []struct{ Content string }
			do(t, s, tokInstall, "GET", path+"?content=eyes", nil).decode(t, &list)
			if len(list) != 1 {
				t.Errorf("listed %d eyes reactions, want 1", len(list))
			}
			if del := do(t, s, tokInstall, "DELETE", fmt.Sprintf("%s/%d", path, a.ID), nil); del.status != http.StatusNoContent {
				t.Errorf("delete: status %d, want 204", del.status)
			}
			want := []string{fmt.Sprintf("o/r#1:reaction:eyes:%d", id), fmt.Sprintf("o/r#1:reaction:delete:eyes:%d", id)}
			if got := s.Writes(); !slices.Equal(got, want) {
				t.Errorf("Writes = %v, want %v", got, want)
			}
			if n := len(s.Reactions(id)); n != 0 {
				t.Errorf("%d reactions left after delete", n)
			}
		})
	}
}

func TestStatuses(t *testing.T) {
	t.Parallel()
	s := newFixture(t)
	pr, _ := s.PR("o/r", 1)
	post := func(state, context string) response {
		return do(t, s, tokInstall, "POST", "/repos/o/r/statuses/"+pr.HeadSHA,
			map[string]string{"state": state, "context": context, "description": "checked"})
	}
	for _, st := range []struct{ state, context string }{
		{"pending", "rmc/merge-gate"}, {"success", "ci"}, {"failure", "rmc/merge-gate"},
	} {
		if r := post(st.state, st.context); r.status != http.StatusCreated {
			t.Fatalf("posting %v: %d %s", st, r.status, r.body)
		}
	}
	tests := map[string]struct {
		path  string
		check func(t *testing.T, r response)
	}{
		"list is newest first": {path: "/repos/o/r/commits/" + pr.HeadSHA + "/statuses", check: func(t *testing.T, r response) {
			var list []struct{ State, Context string }
			r.decode(t, &list)
			if len(list) != 3 || list[0].State != "failure" || list[2].State != "pending" {
				t.Errorf("list = %+v", list)
			}
		}},
		"combined takes the newest per context": {path: "/repos/o/r/commits/" + pr.HeadSHA + "/status", check: func(t *testing.T, r response) {
			var c struct {
				State      string
				TotalCount int `json:"total_count"`
			}
			r.decode(t, &c)
			if c.State != "failure" || c.TotalCount != 2 {
				t.Errorf("combined = %+v, want failure over 2 contexts", c)
			}
		}},
		"branch names resolve": {path: "/repos/o/r/commits/" + pr.HeadRef + "/statuses", check: func(t *testing.T, r response) {
			var list []any
			r.decode(t, &list)
			if len(list) != 3 {
				t.Errorf("by branch: %d statuses, want 3", len(list))
			}
		}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			tc.check(t, do(t, s, tokInstall, "GET", tc.path, nil))
		})
	}
	if got := s.Writes()[2]; got != "o/r@"+pr.HeadSHA+":status:rmc/merge-gate:failure" {
		t.Errorf("write = %q", got)
	}
	if r := do(t, s, tokInstall, "POST", "/repos/o/r/statuses/0000000000000000000000000000000000000000", map[string]string{"state": "success"}); r.status != 422 {
		t.Errorf("status on unknown commit: %d, want 422", r.status)
	}
}

func TestRequestedReviewers(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		reviewer   string
		wantStatus int
		wantWrites []string
	}{
		"collaborator":     {reviewer: "bob", wantStatus: 201, wantWrites: []string{"o/r#1:reviewers:request:bob"}},
		"pr author":        {reviewer: "alice", wantStatus: 422},
		"not collaborator": {reviewer: "mallory", wantStatus: 422},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := newFixture(t)
			s.SetPermission("o/r", "bob", "write")
			s.SetPermission("o/r", "alice", "write")
			s.AddUser("mallory", false)
			r := do(t, s, tokInstall, "POST", "/repos/o/r/pulls/1/requested_reviewers", map[string][]string{"reviewers": {tc.reviewer}})
			if r.status != tc.wantStatus {
				t.Fatalf("status %d, want %d: %s", r.status, tc.wantStatus, r.body)
			}
			if got := s.Writes(); !slices.Equal(got, tc.wantWrites) {
				t.Errorf("Writes = %v, want %v", got, tc.wantWrites)
			}
		})
	}
}
