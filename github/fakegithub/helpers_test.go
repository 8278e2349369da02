package fakegithub

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// Tokens every fixture registers.
const (
	tokInstall = "ghs_installation_token"
	tokApp     = "ghs_app_token"
	tokPAT     = "ghp_octocat_token"
	tokAlice   = "ghp_alice_token"
)

// mainPatch changes main.go in two hunks. RIGHT lines in the diff: 1-7 and
// 12-15; LEFT lines: 1-5 and 10-12. Positions run 1-8, then 10-13 (the
// second "@@" is position 9).
const mainPatch = "@@ -1,5 +1,7 @@\n" +
	" package main\n" +
	" \n" +
	"-import \"fmt\"\n" +
	"+import (\n" +
	"+\t\"fmt\"\n" +
	"+)\n" +
	" \n" +
	" func main() {\n" +
	"@@ -10,3 +12,4 @@ func main() {\n" +
	" \tfmt.Println(\"a\")\n" +
	"+\tfmt.Println(\"b\")\n" +
	" \tfmt.Println(\"c\")\n" +
	" }"

// newFixture starts a server with the usual tokens and o/r#1, opened by
// alice, changing main.go and adding README.md.
func newFixture(t *testing.T) *Server {
	t.Helper()
	s := New()
	t.Cleanup(s.Close)
	s.AddToken(tokInstall, Identity{Login: "github-actions[bot]", Kind: TokenInstallation})
	s.AddToken(tokApp, Identity{Login: "my-app[bot]", Kind: TokenApp})
	s.AddToken(tokPAT, Identity{Login: "octocat", Kind: TokenPAT})
	s.AddToken(tokAlice, Identity{Login: "alice", Kind: TokenPAT})
	s.AddPR("o/r", PR{Title: "Add greeting", Body: "Adds a greeting.", Author: "alice"})
	s.SetFiles("o/r", 1, []File{
		{Path: "main.go", Patch: mainPatch},
		{Path: "README.md", Status: "added", Patch: "@@ -0,0 +1,2 @@\n+# Hello\n+world"},
	})
	return s
}

// response is a decoded answer from the fake.
type response struct {
	status int
	header http.Header
	body   string
}

// do sends one request with a token ("" for none) and an optional JSON body.
func do(t *testing.T, s *Server, token, method, path string, body any) response {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatalf("encoding body for %s %s: %v", method, path, err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, s.URL+path, rd)
	if err != nil {
		t.Fatalf("building %s %s: %v", method, path, err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	req.Header.Set("Accept", "application/vnd.github+json")
	resp, err := s.Client().Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("reading %s %s: %v", method, path, err)
	}
	return response{status: resp.StatusCode, header: resp.Header, body: string(b)}
}

// decode unmarshals a response body, failing the test on bad JSON.
func (r response) decode(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(r.body), v); err != nil {
		t.Fatalf("decoding %q: %v", r.body, err)
	}
}

// gql posts a GraphQL document and returns the raw response.
func gql(t *testing.T, s *Server, token, query string, vars map[string]any) response {
	t.Helper()
	return do(t, s, token, http.MethodPost, "/graphql", map[string]any{"query": query, "variables": vars})
}

// gqlData runs a query that must succeed and decodes its data.
func gqlData(t *testing.T, s *Server, token, query string, vars map[string]any, into any) {
	t.Helper()
	r := gql(t, s, token, query, vars)
	var out struct {
		Data   json.RawMessage `json:"data"`
		Errors []gqlError      `json:"errors"`
	}
	r.decode(t, &out)
	if r.status != http.StatusOK || len(out.Errors) > 0 {
		t.Fatalf("query failed: status %d, body %s", r.status, r.body)
	}
	if err := json.Unmarshal(out.Data, into); err != nil {
		t.Fatalf("decoding data %s: %v", out.Data, err)
	}
}

// assertClean fails when a client hit a route or field the fake lacks.
func assertClean(t *testing.T, s *Server) {
	t.Helper()
	if u := s.Unhandled(); len(u) > 0 {
		t.Errorf("unhandled requests: %s", strings.Join(u, "; "))
	}
}
