package fakegithub

import (
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestTokens(t *testing.T) {
	t.Parallel()
	const (
		integration = `{"message":"Resource not accessible by integration","documentation_url":"https://docs.github.com/rest/users/users#get-the-authenticated-user","status":"403"}`
		badCreds    = `{"message":"Bad credentials","documentation_url":"https://docs.github.com/rest","status":"401"}`
	)
	tests := map[string]struct {
		auth       string
		wantStatus int
		wantBody   string
		wantLogin  string
	}{
		"installation token is not a user": {auth: "Bearer " + tokInstall, wantStatus: 403, wantBody: integration},
		"app token is not a user":          {auth: "Bearer " + tokApp, wantStatus: 403, wantBody: integration},
		"personal token is a user":         {auth: "Bearer " + tokPAT, wantStatus: 200, wantLogin: "octocat"},
		"token scheme works too":           {auth: "token " + tokPAT, wantStatus: 200, wantLogin: "octocat"},
		"missing token":                    {auth: "", wantStatus: 401, wantBody: badCreds},
		"unknown token":                    {auth: "Bearer ghp_nope", wantStatus: 401, wantBody: badCreds},
		"unsupported scheme":               {auth: "Basic " + tokPAT, wantStatus: 401, wantBody: badCreds},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := newFixture(t)
			req, _ := http.NewRequest(http.MethodGet, s.URL+"/user", nil)
			if tc.auth != "" {
				req.Header.Set("Authorization", tc.auth)
			}
			resp, err := s.Client().Do(req)
			if err != nil {
				t.Fatalf("GET /user: %v", err)
			}
			defer resp.Body.Close()
			r := response{status: resp.StatusCode, header: resp.Header, body: readAll(t, resp)}
			if r.status != tc.wantStatus {
				t.Fatalf("status = %d, want %d (body %s)", r.status, tc.wantStatus, r.body)
			}
			if tc.wantBody != "" && r.body != tc.wantBody {
				t.Errorf("body = %s\nwant   %s", r.body, tc.wantBody)
			}
			if tc.wantLogin != "" {
				var u struct{ Login, Type string }
				r.decode(t, &u)
				if u.Login != tc.wantLogin || u.Type != "User" {
					t.Errorf("user = %+v, want login %s type User", u, tc.wantLogin)
				}
			}
		})
	}
}

func TestRESTSpellsBotsWithSuffix(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		token     string
		wantLogin string
		wantType  string
	}{
		"GITHUB_TOKEN": {token: tokInstall, wantLogin: "github-actions[bot]", wantType: "Bot"},
		"app token":    {token: tokApp, wantLogin: "my-app[bot]", wantType: "Bot"},
		"user token":   {token: tokPAT, wantLogin: "octocat", wantType: "User"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := newFixture(t)
			r := do(t, s, tc.token, "POST", "/repos/o/r/issues/1/comments", map[string]string{"body": "hi"})
			if r.status != http.StatusCreated {
				t.Fatalf("create: status %d body %s", r.status, r.body)
			}
			var list []struct {
				User struct{ Login, Type string }
			}
			do(t, s, tc.token, "GET", "/repos/o/r/issues/1/comments", nil).decode(t, &list)
			if len(list) != 1 || list[0].User.Login != tc.wantLogin || list[0].User.Type != tc.wantType {
				t.Errorf("listed = %+v, want one comment by %s (%s)", list, tc.wantLogin, tc.wantType)
			}
			if got := s.IssueComments("o/r", 1)[0].Author; got != tc.wantLogin {
				t.Errorf("stored author = %q, want %q", got, tc.wantLogin)
			}
		})
	}
}

func TestPaginationLinkHeader(t *testing.T) {
	t.Parallel()
	s := newFixture(t)
	for i := range 250 {
		s.AddIssueComment("o/r", 1, "alice", fmt.Sprintf("comment %d", i))
	}
	base := s.URL + "/repos/o/r/issues/1/comments?per_page=100&page="
	tests := map[string]struct {
		query     string
		wantCount int
		wantLink  string
	}{
		"first page": {query: "?per_page=100", wantCount: 100,
			wantLink: `<` + base + `2>; rel="next", <` + base + `3>; rel="last"`},
		"middle page": {query: "?per_page=100&page=2", wantCount: 100,
			wantLink: `<` + base + `1>; rel="prev", <` + base + `3>; rel="next", <` + base + `3>; rel="last", <` + base + `1>; rel="first"`},
		"last page": {query: "?per_page=100&page=3", wantCount: 50,
			wantLink: `<` + base + `2>; rel="prev", <` + base + `1>; rel="first"`},
		"default page size": {query: "", wantCount: 30,
			wantLink: `<` + s.URL + `/repos/o/r/issues/1/comments?page=2>; rel="next", <` + s.URL + `/repos/o/r/issues/1/comments?page=9>; rel="last"`},
		"page size capped at 100": {query: "?per_page=500", wantCount: 100,
			wantLink: `<` + s.URL + `/repos/o/r/issues/1/comments?per_page=500&page=2>; rel="next", <` + s.URL + `/repos/o/r/issues/1/comments?per_page=500&page=3>; rel="last"`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r := do(t, s, tokInstall, "GET", "/repos/o/r/issues/1/comments"+tc.query, nil)
			var list []map[string]any
			r.decode(t, &list)
			if len(list) != tc.wantCount {
				t.Errorf("got %d comments, want %d", len(list), tc.wantCount)
			}
			if got := r.header.Get("Link"); got != tc.wantLink {
				t.Errorf("Link = %s\nwant   %s", got, tc.wantLink)
			}
		})
	}
}

func TestSinglePageHasNoLink(t *testing.T) {
	t.Parallel()
	s := newFixture(t)
	s.AddIssueComment("o/r", 1, "alice", "only")
	r := do(t, s, tokInstall, "GET", "/repos/o/r/issues/1/comments", nil)
	if link := r.header.Get("Link"); link != "" {
		t.Errorf("Link = %q, want none for a single page", link)
	}
}

func TestBodyTooLong(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é", maxBodyChars+1) // characters, not bytes, count
	tests := map[string]struct {
		method, path string
		body         any
		resource     string
		doc          string
	}{
		"issue comment": {method: "POST", path: "/repos/o/r/issues/1/comments", body: map[string]string{"body": long},
			resource: "IssueComment", doc: docCreateIssueComment},
		"issue comment edit": {method: "PATCH", path: "/repos/o/r/issues/comments/{issue}", body: map[string]string{"body": long},
			resource: "IssueComment", doc: docUpdateIssueComment},
		"reply": {method: "POST", path: "/repos/o/r/pulls/1/comments/{root}/replies", body: map[string]string{"body": long},
			resource: "PullRequestReviewComment", doc: docCreateReply},
		"review body": {method: "POST", path: "/repos/o/r/pulls/1/reviews", body: map[string]any{"event": "COMMENT", "body": long},
			resource: "PullRequestReview", doc: docCreateReview},
		"inline comment": {method: "POST", path: "/repos/o/r/pulls/1/reviews", body: map[string]any{
			"event": "COMMENT", "comments": []map[string]any{{"path": "main.go", "line": 4, "body": long}}},
			resource: "PullRequestReviewComment", doc: docCreateReview},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := newFixture(t)
			issue := s.AddIssueComment("o/r", 1, "github-actions[bot]", "short")
			_, root := s.AddThread("o/r", 1, ThreadSpec{Path: "main.go", Line: 4, Body: "root"})
			path := strings.NewReplacer("{issue}", fmt.Sprint(issue.ID), "{root}", fmt.Sprint(root)).Replace(tc.path)
			before := s.Writes()
			r := do(t, s, tokInstall, tc.method, path, tc.body)
			want := `{"message":"Validation Failed","errors":[{"resource":"` + tc.resource +
				`","code":"custom","field":"body","message":"body is too long (maximum is 65536 characters)"}],"documentation_url":"` +
				tc.doc + `","status":"422"}`
			if r.status != http.StatusUnprocessableEntity || r.body != want {
				t.Errorf("got %d %s\nwant 422 %s", r.status, r.body, want)
			}
			if after := s.Writes(); len(after) != len(before) {
				t.Errorf("writes changed: %v", after)
			}
		})
	}
}

func TestContentsDiffAndCompare(t *testing.T) {
	t.Parallel()
	s := newFixture(t)
	s.SetContents("o/r", "main", ".github/rmc.yml", "model: small\n")
	s.SetCompare("o/r", "aaa", "bbb", []File{{Path: "x.go", Patch: "@@ -1 +1 @@\n-a\n+b"}})
	tests := map[string]struct {
		path, accept string
		wantStatus   int
		check        func(t *testing.T, r response)
	}{
		"file content": {path: "/repos/o/r/contents/.github/rmc.yml?ref=main", wantStatus: 200, check: func(t *testing.T, r response) {
			var c struct{ Content, Encoding string }
			r.decode(t, &c)
			raw, err := base64.StdEncoding.DecodeString(strings.ReplaceAll(c.Content, "\n", ""))
			if err != nil || string(raw) != "model: small\n" || c.Encoding != "base64" {
				t.Errorf("content = %q (%v)", raw, err)
			}
		}},
		"default branch": {path: "/repos/o/r/contents/.github/rmc.yml", wantStatus: 200},
		"directory":      {path: "/repos/o/r/contents/.github", wantStatus: 200},
		"absent file":    {path: "/repos/o/r/contents/nope.yml", wantStatus: 404},
		"other ref":      {path: "/repos/o/r/contents/.github/rmc.yml?ref=dev", wantStatus: 404},
		"raw diff": {path: "/repos/o/r/pulls/1", accept: "application/vnd.github.v3.diff", wantStatus: 200, check: func(t *testing.T, r response) {
			if !strings.HasPrefix(r.body, "diff --git a/main.go b/main.go\n") || !strings.Contains(r.body, mainPatch) ||
				!strings.HasPrefix(r.header.Get("Content-Type"), "text/plain") {
				t.Errorf("diff = %q (%s)", r.body, r.header.Get("Content-Type"))
			}
		}},
		"compare":         {path: "/repos/o/r/compare/aaa...bbb", wantStatus: 200},
		"unknown compare": {path: "/repos/o/r/compare/aaa...ccc", wantStatus: 404},
		"files": {path: "/repos/o/r/pulls/1/files", wantStatus: 200, check: func(t *testing.T, r response) {
			var files []struct {
				Filename  string
				Additions int
			}
			r.decode(t, &files)
			if len(files) != 2 || files[0].Filename != "main.go" || files[0].Additions != 4 {
				t.Errorf("files = %+v", files)
			}
		}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			req, _ := http.NewRequest(http.MethodGet, s.URL+tc.path, nil)
			req.Header.Set("Authorization", "token "+tokInstall)
			if tc.accept != "" {
				req.Header.Set("Accept", tc.accept)
			}
			resp, err := s.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			r := response{status: resp.StatusCode, header: resp.Header, body: readAll(t, resp)}
			if r.status != tc.wantStatus {
				t.Fatalf("status %d, want %d: %s", r.status, tc.wantStatus, r.body)
			}
			if tc.check != nil {
				tc.check(t, r)
			}
		})
	}
	assertClean(t, s)
}

func TestUnhandledRoute(t *testing.T) {
	t.Parallel()
	s := newFixture(t)
	r := do(t, s, tokInstall, "GET", "/repos/o/r/branches", nil)
	want := `{"message":"Not Found","documentation_url":"https://docs.github.com/rest","status":"404"}`
	if r.status != 404 || r.body != want {
		t.Errorf("got %d %s", r.status, r.body)
	}
	if got := s.Unhandled(); !slices.Equal(got, []string{"GET /repos/o/r/branches"}) {
		t.Errorf("Unhandled = %v", got)
	}
}

func TestRateLimitHeaders(t *testing.T) {
	t.Parallel()
	reset := time.Date(2026, 1, 1, 1, 0, 0, 0, time.UTC)
	exhausted := `{"message":"API rate limit exceeded for installation ID 1.","documentation_url":"https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-primary-rate-limits","status":"403"}`
	tests := map[string]struct {
		remaining    int
		path         string
		wantStatus   int
		wantRemain   string
		wantResource string
		wantBody     string
	}{
		"spends one":         {remaining: 10, path: "/repos/o/r", wantStatus: 200, wantRemain: "9", wantResource: "core"},
		"spends the last":    {remaining: 1, path: "/repos/o/r", wantStatus: 200, wantRemain: "0", wantResource: "core"},
		"exhausted":          {remaining: 0, path: "/repos/o/r", wantStatus: 403, wantRemain: "0", wantResource: "core", wantBody: exhausted},
		"graphql is its own": {remaining: 0, path: "/graphql", wantStatus: 200, wantRemain: "4999", wantResource: "graphql"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := newFixture(t)
			s.SetRateLimit("core", 100, tc.remaining, reset)
			method, body := "GET", any(nil)
			if tc.path == "/graphql" {
				method, body = "POST", map[string]string{"query": "{ viewer { login } }"}
			}
			r := do(t, s, tokInstall, method, tc.path, body)
			if r.status != tc.wantStatus {
				t.Fatalf("status %d, want %d: %s", r.status, tc.wantStatus, r.body)
			}
			h := r.header
			if h.Get("X-RateLimit-Remaining") != tc.wantRemain || h.Get("X-RateLimit-Resource") != tc.wantResource {
				t.Errorf("remaining %q resource %q, want %q %q", h.Get("X-RateLimit-Remaining"), h.Get("X-RateLimit-Resource"), tc.wantRemain, tc.wantResource)
			}
			for _, k := range []string{"X-RateLimit-Limit", "X-RateLimit-Used", "X-RateLimit-Reset", "X-GitHub-Request-Id"} {
				if h.Get(k) == "" {
					t.Errorf("missing %s", k)
				}
			}
			if tc.wantResource == "core" && h.Get("X-RateLimit-Reset") != fmt.Sprint(reset.Unix()) {
				t.Errorf("reset = %s, want %d", h.Get("X-RateLimit-Reset"), reset.Unix())
			}
			if tc.wantBody != "" && r.body != tc.wantBody {
				t.Errorf("body = %s", r.body)
			}
		})
	}
}

func TestClockAndWritesLog(t *testing.T) {
	t.Parallel()
	s := newFixture(t)
	s.SetNow(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	r := do(t, s, tokInstall, "POST", "/repos/o/r/issues/1/comments", map[string]string{"body": "v1"})
	var c struct {
		ID        int64
		CreatedAt string `json:"created_at"`
	}
	r.decode(t, &c)
	do(t, s, tokInstall, "PATCH", fmt.Sprintf("/repos/o/r/issues/comments/%d", c.ID), map[string]string{"body": "v2"})
	do(t, s, tokInstall, "PATCH", fmt.Sprintf("/repos/o/r/issues/comments/%d", c.ID), map[string]string{"body": "v2"})
	do(t, s, tokInstall, "DELETE", fmt.Sprintf("/repos/o/r/issues/comments/%d", c.ID), nil)
	if c.CreatedAt != "2026-03-01T12:00:00Z" {
		t.Errorf("created_at = %s", c.CreatedAt)
	}
	want := []string{
		fmt.Sprintf("o/r#1:issue-comment:create:%d", c.ID),
		fmt.Sprintf("o/r#1:issue-comment:edit:%d", c.ID),
		fmt.Sprintf("o/r#1:issue-comment:delete:%d", c.ID),
	}
	if got := s.Writes(); !slices.Equal(got, want) {
		t.Errorf("Writes = %v, want %v", got, want)
	}
	if s.WriteCount() != 4 || s.ReadCount() != 0 {
		t.Errorf("counts: %d writes, %d reads", s.WriteCount(), s.ReadCount())
	}
	if got := s.Now(); !got.Equal(time.Date(2026, 3, 1, 12, 0, 2, 0, time.UTC)) {
		t.Errorf("clock = %v, want two ticks past the start", got)
	}
}

func readAll(t *testing.T, resp *http.Response) string {
	t.Helper()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("reading response: %v", err)
	}
	return string(b)
}
