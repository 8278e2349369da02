package reviewsforagent

import (
	"bytes"
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

var fixedNow = func() time.Time { return time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC) }

// syncBuffer is a log the server writes from its own goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// testServer serves testdata/changes.diff (real git output) for a repo
// root in a temp dir.
func testServer(t *testing.T) (srv *httptest.Server, root string, log *syncBuffer) {
	t.Helper()
	text, err := os.ReadFile(filepath.Join("testdata", "changes.diff"))
	if err != nil {
		t.Fatal(err)
	}
	root = t.TempDir()
	c, err := NewChanges(root, "HEAD (abc1234)", string(text))
	if err != nil {
		t.Fatal(err)
	}
	log = &syncBuffer{}
	srv = httptest.NewServer(NewServer(c, Options{Now: fixedNow, Log: log, Token: testToken}))
	t.Cleanup(srv.Close)
	return srv, root, log
}

type request struct {
	method, path string
	host         string // default: the server's 127.0.0.1:port
	header       map[string]string
	body         string
	noToken      bool // send no token
}

func do(t *testing.T, srv *httptest.Server, r request) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(r.method, srv.URL+r.path, strings.NewReader(r.body))
	if err != nil {
		t.Fatal(err)
	}
	if r.host != "" {
		req.Host = r.host
	}
	if r.method == http.MethodPost || r.method == http.MethodPut {
		req.Header.Set("Content-Type", "application/json")
	}
	if !r.noToken {
		req.Header.Set(TokenHeader, testToken)
	}
	for k, v := range r.header {
		req.Header.Set(k, v)
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(b)
}

func port(srv *httptest.Server) string {
	u, _ := url.Parse(srv.URL)
	return u.Port()
}

func TestServerPages(t *testing.T) {
	t.Parallel()
	srv, _, _ := testServer(t)
	text, _ := os.ReadFile(filepath.Join("testdata", "changes.diff"))
	tests := map[string]struct {
		path        string
		wantType    string
		wantContain string
		wantExact   string
	}{
		"diff":          {path: "/api/diff", wantType: "text/plain; charset=utf-8", wantExact: string(text)},
		"page":          {path: "/review", wantType: "text/html; charset=utf-8", wantContain: `<script type="module" src="/assets/review.js">`},
		"one script":    {path: "/assets/review.js", wantType: "text/javascript; charset=utf-8", wantContain: "// ---- app.js\n"},
		"script":        {path: "/assets/app.js", wantType: "text/javascript; charset=utf-8", wantContain: "drawComments"},
		"diff2html":     {path: "/assets/vendor/diff2html-ui-slim.min.js", wantType: "text/javascript; charset=utf-8", wantContain: "Diff2HtmlUI"},
		"diff2html css": {path: "/assets/vendor/diff2html.min.css", wantType: "text/css; charset=utf-8", wantContain: ".d2h-file-wrapper"},
		"highlighter":   {path: "/assets/highlight-worker.js", wantType: "text/javascript; charset=utf-8", wantContain: "importScripts('/assets/vendor/diff2html-ui-slim.min.js')"},
		"info": {path: "/api/info", wantType: "application/json",
			wantContain: `{"path":"src/legacy.ts","oldPath":"src/legacy.ts","status":"deleted","binary":false,"lines":2,"added":0,"deleted":2,"hunks":1,"splitRows":2,"width":24}`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			resp, body := do(t, srv, request{method: http.MethodGet, path: tc.path})
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("GET %s = %d: %s", tc.path, resp.StatusCode, body)
			}
			if got := resp.Header.Get("Content-Type"); got != tc.wantType {
				t.Errorf("Content-Type = %q, want %q", got, tc.wantType)
			}
			if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") {
				t.Errorf("Content-Security-Policy = %q", csp)
			}
			if tc.wantExact != "" && body != tc.wantExact {
				t.Errorf("body differs from the diff")
			}
			if !strings.Contains(body, tc.wantContain) {
				t.Errorf("body lacks %q", tc.wantContain)
			}
		})
	}
}

func TestServerRedirectsRoot(t *testing.T) {
	t.Parallel()
	srv, _, _ := testServer(t)
	client := *srv.Client()
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/", nil)
	req.Header.Set(TokenHeader, testToken)
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound || resp.Header.Get("Location") != "/review" {
		t.Errorf("GET / = %d to %q, want 302 to /review", resp.StatusCode, resp.Header.Get("Location"))
	}
}

// Requests for another host name are what a DNS-rebinding page sends.
func TestServerRejectsForeignHostsAndOrigins(t *testing.T) {
	t.Parallel()
	srv, root, log := testServer(t)
	p := port(srv)
	valid := `{"globalComment":"ok","comments":[]}`
	tests := map[string]struct {
		req  request
		want int
	}{
		"localhost":            {req: request{method: http.MethodGet, path: "/api/diff", host: "localhost:" + p}, want: http.StatusOK},
		"127.0.0.1":            {req: request{method: http.MethodGet, path: "/api/diff", host: "127.0.0.1:" + p}, want: http.StatusOK},
		"rebound name":         {req: request{method: http.MethodGet, path: "/api/diff", host: "attacker.example:" + p}, want: http.StatusForbidden},
		"no port":              {req: request{method: http.MethodGet, path: "/api/diff", host: "localhost"}, want: http.StatusForbidden},
		"other port":           {req: request{method: http.MethodGet, path: "/review", host: "localhost:1"}, want: http.StatusForbidden},
		"ipv6 loopback":        {req: request{method: http.MethodGet, path: "/api/diff", host: "[::1]:" + p}, want: http.StatusForbidden},
		"post, foreign origin": {req: request{method: http.MethodPost, path: "/api/comments", header: map[string]string{"Origin": "http://attacker.example"}, body: valid}, want: http.StatusForbidden},
		"post, other port":     {req: request{method: http.MethodPost, path: "/api/comments", header: map[string]string{"Origin": "http://localhost:1"}, body: valid}, want: http.StatusForbidden},
		"post, null origin":    {req: request{method: http.MethodPost, path: "/api/comments", header: map[string]string{"Origin": "null"}, body: valid}, want: http.StatusForbidden},
		"post, https origin":   {req: request{method: http.MethodPost, path: "/api/comments", header: map[string]string{"Origin": "https://localhost:" + p}, body: valid}, want: http.StatusForbidden},
		"post, foreign host":   {req: request{method: http.MethodPost, path: "/api/comments", host: "attacker.example:" + p, body: valid}, want: http.StatusForbidden},
		"put, foreign origin":  {req: request{method: http.MethodPut, path: "/api/draft", header: map[string]string{"Origin": "http://attacker.example"}, body: `{}`}, want: http.StatusForbidden},
		// A page elsewhere that learnt the token must not read the diff,
		// the draft or the health either: every method is checked.
		"get diff, foreign origin":     {req: request{method: http.MethodGet, path: "/api/diff", header: map[string]string{"Origin": "http://attacker.example"}}, want: http.StatusForbidden},
		"get draft, null origin":       {req: request{method: http.MethodGet, path: "/api/draft", header: map[string]string{"Origin": "null"}}, want: http.StatusForbidden},
		"get health, other port":       {req: request{method: http.MethodGet, path: "/api/health", header: map[string]string{"Origin": "http://127.0.0.1:1"}}, want: http.StatusForbidden},
		"get page, foreign origin":     {req: request{method: http.MethodGet, path: "/review", header: map[string]string{"Origin": "http://attacker.example"}}, want: http.StatusForbidden},
		"head diff, foreign origin":    {req: request{method: http.MethodHead, path: "/api/diff", header: map[string]string{"Origin": "http://attacker.example"}}, want: http.StatusForbidden},
		"get diff, own origin":         {req: request{method: http.MethodGet, path: "/api/diff", header: map[string]string{"Origin": "http://127.0.0.1:" + p}}, want: http.StatusOK},
		"get diff, own origin by name": {req: request{method: http.MethodGet, path: "/api/diff", host: "localhost:" + p, header: map[string]string{"Origin": "http://localhost:" + p}}, want: http.StatusOK},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			resp, body := do(t, srv, tc.req)
			if resp.StatusCode != tc.want {
				t.Fatalf("%s %s (Host %q) = %d, want %d: %s", tc.req.method, tc.req.path, tc.req.host, resp.StatusCode, tc.want, body)
			}
		})
	}
	t.Cleanup(func() {
		if entries, _ := os.ReadDir(filepath.Join(root, OutputDir)); len(entries) > 0 {
			t.Errorf("a rejected request wrote %d files", len(entries))
		}
		if !strings.Contains(log.String(), `Rejected a request for host "attacker.example:`) {
			t.Errorf("log does not report the rejection:\n%s", log.String())
		}
	})
}

func TestServerRejectsBadSubmissions(t *testing.T) {
	t.Parallel()
	srv, root, _ := testServer(t)
	tests := map[string]struct {
		body        string
		contentType string
		want        int
		wantError   string
	}{
		"malformed json":   {body: `{"comments": [`, want: 400, wantError: "decode review submission"},
		"not json":         {body: `comments=1`, want: 400, wantError: "invalid character"},
		"unknown field":    {body: `{"comments":[],"approve":true}`, want: 400, wantError: `unknown field "approve"`},
		"wrong type":       {body: `{"comments":[{"file":"src/api/handler.ts","startLine":"42"}]}`, want: 400, wantError: "cannot unmarshal"},
		"empty review":     {body: `{"globalComment":null,"comments":[]}`, want: 400, wantError: "the review is empty"},
		"form post":        {body: `{"globalComment":"x","comments":[]}`, contentType: "application/x-www-form-urlencoded", want: 415, wantError: "application/json"},
		"too large":        {body: `{"globalComment":"` + strings.Repeat("x", MaxBodyBytes) + `","comments":[]}`, want: 413, wantError: "larger than 1 MiB"},
		"line not in diff": {body: lineComment("src/api/handler.ts", 60, 60, "right"), want: 400, wantError: "line 60 is not in the diff on the right side (nearest line there: 45)"},
		"range across hunks": {body: lineComment("src/api/handler.ts", 42, 80, "right"), want: 400,
			wantError: "lines 42-80 span more than one hunk"},
		"range across files": {body: lineComment("src/utils/parse.ts", 2, 42, "right"), want: 400,
			wantError: "line 42 is not in the diff"},
		"range across sides": {body: lineComment("src/legacy.ts", 1, 2, "right"), want: 400,
			wantError: "shows no lines on the right side"},
		"binary line":  {body: lineComment("assets/logo.png", 1, 1, "right"), want: 400, wantError: "binary"},
		"unknown file": {body: lineComment("README.md", 1, 1, "right"), want: 400, wantError: `file "README.md" is not in the diff`},
		"bad side":     {body: lineComment("src/api/handler.ts", 42, 42, "middle"), want: 400, wantError: `side "middle"`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			req := request{method: http.MethodPost, path: "/api/comments", body: tc.body}
			if tc.contentType != "" {
				req.header = map[string]string{"Content-Type": tc.contentType}
			}
			resp, body := do(t, srv, req)
			if resp.StatusCode != tc.want {
				t.Fatalf("POST = %d, want %d: %s", resp.StatusCode, tc.want, body)
			}
			var e struct{ Error string }
			if err := json.Unmarshal([]byte(body), &e); err != nil || !strings.Contains(e.Error, tc.wantError) {
				t.Fatalf("error = %q (%v), want one containing %q", e.Error, err, tc.wantError)
			}
		})
	}
	t.Cleanup(func() {
		if entries, _ := os.ReadDir(filepath.Join(root, OutputDir)); len(entries) > 0 {
			t.Errorf("a rejected submission wrote %d files", len(entries))
		}
	})
}

func lineComment(file string, start, end int, side string) string {
	b, _ := json.Marshal(map[string]any{
		"globalComment": nil,
		"comments":      []map[string]any{{"file": file, "startLine": start, "endLine": end, "side": side, "body": "x"}},
	})
	return string(b)
}

func TestServerMethodNotAllowed(t *testing.T) {
	t.Parallel()
	srv, _, _ := testServer(t)
	resp, _ := do(t, srv, request{method: http.MethodGet, path: "/api/comments"})
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("GET /api/comments = %d, want 405", resp.StatusCode)
	}
}

const goodSubmission = `{
  "globalComment": "Nearly there.",
  "comments": [
    {"file": "src/utils/parse.ts", "startLine": null, "endLine": null, "side": "right", "body": "Needs a test."},
    {"file": "src/api/handler.ts", "startLine": 78, "endLine": 85, "side": "right", "body": "Scope the grant to the resource."},
    {"file": "src/api/handler.ts", "startLine": 42, "endLine": 42, "side": "left", "body": "Why was this not awaited?"},
    {"file": "assets/logo.png", "startLine": null, "endLine": null, "side": "right", "body": "Intended?"}
  ]
}`

func TestServerSubmitWritesBothFiles(t *testing.T) {
	t.Parallel()
	srv, root, log := testServer(t)
	resp, body := do(t, srv, request{method: http.MethodPost, path: "/api/comments", body: goodSubmission,
		header: map[string]string{"Origin": "http://127.0.0.1:" + port(srv)}})
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("POST = %d: %s", resp.StatusCode, body)
	}
	var got submitResult
	if err := json.Unmarshal([]byte(body), &got); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(got.JSON, "rfa/comments_") || !strings.HasSuffix(got.JSON, ".json") ||
		strings.TrimSuffix(got.JSON, ".json") != strings.TrimSuffix(got.MD, ".md") || len(got.JSON) != len("rfa/comments_12345678.json") {
		t.Fatalf("paths = %q, %q", got.JSON, got.MD)
	}
	if got.Prompt != "Address the review comments in "+got.MD {
		t.Errorf("prompt = %q", got.Prompt)
	}
	for _, f := range []struct{ rel, golden string }{{got.JSON, "submit.json.golden"}, {got.MD, "submit.md.golden"}} {
		b, err := os.ReadFile(filepath.Join(root, f.rel))
		if err != nil {
			t.Fatal(err)
		}
		checkGolden(t, f.golden, b)
	}
	entries, err := os.ReadDir(filepath.Join(root, OutputDir))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 2 {
		t.Errorf("rfa holds %d entries, want just the two files (no temporary files)", len(entries))
	}
	wantLog := "Wrote comments to " + got.JSON + " and " + got.MD + ". Provide the MD file to your AI agent to have it address the comments.\n"
	if log.String() != wantLog {
		t.Errorf("log = %q, want %q", log.String(), wantLog)
	}

	// One round per run: a second submission is refused and writes nothing.
	resp, body = do(t, srv, request{method: http.MethodPost, path: "/api/comments", body: goodSubmission})
	if resp.StatusCode != http.StatusConflict || !strings.Contains(body, got.MD) {
		t.Errorf("second POST = %d: %s; want 409 naming %s", resp.StatusCode, body, got.MD)
	}
	// A reloaded page learns the review is in.
	_, info := do(t, srv, request{method: http.MethodGet, path: "/api/info"})
	if !strings.Contains(info, `"submitted":{"json":"`+got.JSON+`"`) {
		t.Errorf("info does not report the submission: %s", info)
	}
}

// When the files cannot be written, the person hears why and nothing is
// left behind half-way.
func TestServerSubmitWriteFailure(t *testing.T) {
	t.Parallel()
	srv, root, log := testServer(t)
	// A file where the output directory should be.
	if err := os.WriteFile(filepath.Join(root, OutputDir), []byte("in the way"), 0o644); err != nil {
		t.Fatal(err)
	}
	resp, body := do(t, srv, request{method: http.MethodPost, path: "/api/comments", body: goodSubmission})
	if resp.StatusCode != http.StatusInternalServerError || !strings.Contains(body, "could not write the comments: create output directory") {
		t.Fatalf("POST = %d: %s", resp.StatusCode, body)
	}
	if !strings.Contains(log.String(), "Could not write the comments") {
		t.Errorf("log = %q", log.String())
	}
	// The failure does not use up the run's one submission.
	if err := os.Remove(filepath.Join(root, OutputDir)); err != nil {
		t.Fatal(err)
	}
	if resp, body := do(t, srv, request{method: http.MethodPost, path: "/api/comments", body: goodSubmission}); resp.StatusCode != http.StatusOK {
		t.Fatalf("retry = %d: %s", resp.StatusCode, body)
	}
}

// Concurrent submissions from two tabs: exactly one is written.
func TestServerSubmitOnce(t *testing.T) {
	t.Parallel()
	srv, root, _ := testServer(t)
	var wg sync.WaitGroup
	codes := make(chan int, 4)
	for range 4 {
		wg.Go(func() {
			req, _ := http.NewRequest(http.MethodPost, srv.URL+"/api/comments", strings.NewReader(goodSubmission))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set(TokenHeader, testToken)
			resp, err := srv.Client().Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
			codes <- resp.StatusCode
		})
	}
	wg.Wait()
	close(codes)
	var ok int
	for c := range codes {
		if c == http.StatusOK {
			ok++
		}
	}
	entries, _ := os.ReadDir(filepath.Join(root, OutputDir))
	if ok != 1 || len(entries) != 2 {
		t.Errorf("%d submissions accepted and %d files written, want 1 and 2", ok, len(entries))
	}
}

// Another local user can reach 127.0.0.1 but does not know the token:
// every API request without it is refused and shows nothing. The page and
// its scripts load without it (they hold no secret), and no cookie ever
// lets anyone in: cookies go to every port of 127.0.0.1.
func TestServerRequiresToken(t *testing.T) {
	t.Parallel()
	srv, root, _ := testServer(t)
	text, _ := os.ReadFile(filepath.Join("testdata", "changes.diff"))
	p := port(srv)
	tests := map[string]request{
		"diff":         {method: "GET", path: "/api/diff", noToken: true},
		"info":         {method: "GET", path: "/api/info", noToken: true},
		"health":       {method: "GET", path: "/api/health", noToken: true},
		"draft":        {method: "GET", path: "/api/draft", noToken: true},
		"save draft":   {method: "PUT", path: "/api/draft", body: `{"comments":[]}`, noToken: true},
		"submit":       {method: "POST", path: "/api/comments", body: goodSubmission, noToken: true},
		"cancel":       {method: "POST", path: "/api/cancel", body: `{}`, noToken: true},
		"wrong header": {method: "GET", path: "/api/diff", noToken: true, header: map[string]string{TokenHeader: strings.Repeat("0", 32)}},
		"query token":  {method: "GET", path: "/api/diff?token=" + testToken, noToken: true},
		"cookie":       {method: "GET", path: "/api/diff", noToken: true, header: map[string]string{"Cookie": "rfa_token_" + p + "=" + testToken}},
		"inbox api":    {method: "GET", path: "/api/review/submissions", noToken: true},
		"markdown":     {method: "POST", path: "/api/markdown", body: `{"bodies":["x"]}`, noToken: true},
		"HEAD api":     {method: "HEAD", path: "/api/diff", noToken: true},
	}
	for name, req := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			resp, body := do(t, srv, req)
			if resp.StatusCode != http.StatusForbidden || strings.Contains(body, "diff --git") || strings.Contains(body, "handler.ts") {
				t.Errorf("%s %s = %d: %.200s", req.method, req.path, resp.StatusCode, body)
			}
		})
	}
	for _, path := range []string{"/review", "/inbox", "/assets/app.js", pageScript} {
		resp, body := do(t, srv, request{method: "GET", path: path, noToken: true})
		if resp.StatusCode != http.StatusOK || strings.Contains(body, testToken) || len(resp.Cookies()) > 0 {
			t.Errorf("GET %s without the token = %d, %d cookies", path, resp.StatusCode, len(resp.Cookies()))
		}
	}
	if resp, body := do(t, srv, request{method: "GET", path: "/api/diff"}); resp.StatusCode != 200 || body != string(text) {
		t.Errorf("with the token header: %d", resp.StatusCode)
	}
	t.Cleanup(func() {
		if entries, _ := os.ReadDir(filepath.Join(root, OutputDir)); len(entries) > 0 {
			t.Errorf("a refused request wrote %d files", len(entries))
		}
	})
}

// The browser the command opens gets a one-time code, not the token: the
// page trades it once for the token; a second trade, a wrong code and an
// expired one are refused.
func TestServerOneTimeCode(t *testing.T) {
	t.Parallel()
	now := fixedNow()
	clock := func() time.Time { return now }
	c, err := NewChanges(t.TempDir(), "HEAD", "")
	if err != nil {
		t.Fatal(err)
	}
	s := NewServer(c, Options{Now: clock, Token: testToken})
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	trade := func(code string) (int, string) {
		resp, body := do(t, srv, request{method: "POST", path: "/api/session", body: `{"code":"` + code + `"}`, noToken: true})
		return resp.StatusCode, body
	}
	code := s.NewCode()
	if code == testToken || len(code) < 32 {
		t.Fatalf("code %q", code)
	}
	if st, body := trade(code); st != 200 || !strings.Contains(body, testToken) {
		t.Fatalf("first trade = %d %s", st, body)
	}
	if st, body := trade(code); st != http.StatusForbidden || strings.Contains(body, testToken) {
		t.Errorf("second trade = %d %s", st, body)
	}
	if st, _ := trade(strings.Repeat("0", 32)); st != http.StatusForbidden {
		t.Errorf("unknown code = %d", st)
	}
	late := s.NewCode()
	now = now.Add(codeLife + time.Second)
	if st, body := trade(late); st != http.StatusForbidden || strings.Contains(body, testToken) {
		t.Errorf("expired code = %d %s", st, body)
	}
}

// Comment bodies render as Markdown without raw HTML and without
// script links: what a person wrote cannot run in the page.
func TestServerMarkdownIsSafe(t *testing.T) {
	t.Parallel()
	srv, _, _ := testServer(t)
	bodies := []string{
		"<script>alert(1)</script>",
		`<img src=x onerror="alert(1)">`,
		"[click](javascript:alert(1))",
		"[data](data:text/html;base64,PHNjcmlwdD4=)",
		"**bold** and `code`\n\n```suggestion\nvar x = 2\n```\n",
	}
	in, _ := json.Marshal(map[string][]string{"bodies": bodies})
	resp, body := do(t, srv, request{method: "POST", path: "/api/markdown", body: string(in)})
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("POST /api/markdown = %d %s", resp.StatusCode, body)
	}
	var out struct{ HTML []string }
	if err := json.Unmarshal([]byte(body), &out); err != nil || len(out.HTML) != len(bodies) {
		t.Fatalf("answer %s: %v", body, err)
	}
	for i, h := range out.HTML[:4] {
		low := strings.ToLower(h)
		for _, bad := range []string{"<script", "<img", "onerror", "javascript:", "data:text"} {
			if strings.Contains(low, bad) {
				t.Errorf("%q rendered as %q", bodies[i], h)
			}
		}
	}
	for _, want := range []string{"<strong>bold</strong>", "<code>code</code>", `<code class="language-suggestion">var x = 2`} {
		if !strings.Contains(out.HTML[4], want) {
			t.Errorf("Markdown %q lacks %q", out.HTML[4], want)
		}
	}
}

// Expanding context takes a file by index and a range of old lines, and
// says plainly what it cannot show.
func TestServerContextRefusals(t *testing.T) {
	t.Parallel()
	srv, _, _ := testServer(t) // its root is no repository: nothing to read
	for q, want := range map[string]int{
		"":                         http.StatusBadRequest,
		"?file=x&from=1&to=2":      http.StatusBadRequest,
		"?file=99&from=1&to=2":     http.StatusBadRequest,
		"?file=1&from=0&to=2":      http.StatusBadRequest,
		"?file=1&from=5&to=4":      http.StatusBadRequest,
		"?file=1&from=1&to=100000": http.StatusBadRequest,
		"?file=0&from=1&to=2":      http.StatusNotFound, // the binary logo
		"?file=1&from=1&to=2":      http.StatusNotFound, // no repository to read the old version from
	} {
		if resp, body := do(t, srv, request{method: "GET", path: "/api/context" + q}); resp.StatusCode != want || !strings.Contains(body, `"error"`) {
			t.Errorf("GET /api/context%s = %d %s, want %d", q, resp.StatusCode, body, want)
		}
	}
}

// The page sizes a file's table from its longest line before it reads the
// lines: counted as JavaScript counts a string, a tab as four.
func TestLineWidth(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]int{
		"":             0,
		"abc":          3,
		"\tx := 1":     10,
		"héllo":        5,
		"a\U0001F600b": 4,
	} {
		if got := lineWidth(text); got != want {
			t.Errorf("lineWidth(%q) = %d, want %d", text, got, want)
		}
	}
}

// The repository's .gitattributes folds the files it marks generated or
// vendored, as the action skips them; one linking out of the repository
// is not read.
func TestServerInfoFoldsAttributes(t *testing.T) {
	t.Parallel()
	collapsed := func(info string) map[string]string {
		t.Helper()
		var got struct {
			Files []struct{ Path, Collapsed string }
		}
		if err := json.Unmarshal([]byte(info), &got); err != nil {
			t.Fatalf("info: %v", err)
		}
		out := map[string]string{}
		for _, f := range got.Files {
			if f.Collapsed != "" {
				out[f.Path] = f.Collapsed
			}
		}
		return out
	}
	tests := map[string]struct {
		attrs string // written to the root's .gitattributes
		link  bool   // .gitattributes links to a file outside holding attrs
		want  map[string]string
	}{
		"none":       {"", false, map[string]string{}},
		"generated":  {"src/utils/*.ts linguist-generated\n", false, map[string]string{"src/utils/parse.ts": "marked generated in .gitattributes"}},
		"vendored":   {"src/api/** linguist-vendored\n", false, map[string]string{"src/api/handler.ts": "marked generated in .gitattributes"}},
		"a link out": {"src/utils/*.ts linguist-generated\n", true, map[string]string{}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv, root, _ := testServer(t)
			if tc.attrs != "" {
				target := filepath.Join(root, ".gitattributes")
				if tc.link {
					target = filepath.Join(t.TempDir(), "attributes")
				}
				if err := os.WriteFile(target, []byte(tc.attrs), 0o644); err != nil {
					t.Fatal(err)
				}
				if tc.link {
					if err := os.Symlink(target, filepath.Join(root, ".gitattributes")); err != nil {
						t.Skipf("no symlinks here: %v", err)
					}
				}
			}
			_, info := do(t, srv, request{method: http.MethodGet, path: "/api/info"})
			if got := collapsed(info); !maps.Equal(got, tc.want) {
				t.Errorf("folded = %v, want %v", got, tc.want)
			}
		})
	}
}
