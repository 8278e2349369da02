package reviewsforagent

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/inbox"
)

const testDraft = `{"globalComment":"So far so good.","comments":[{"file":"src/api/handler.ts","startLine":42,"endLine":42,"side":"left","body":"Why?"}],` +
	`"form":{"file":"src/utils/parse.ts","startLine":null,"endLine":null,"side":"right","body":"half-typed","editing":null}}`

// Drafts are kept by the server as they are written, so a reload restores
// them: in the store for a review there, in the server otherwise. Once
// the review is submitted they are refused.
func TestDrafts(t *testing.T) {
	t.Parallel()
	store, _, id := inboxFixture(t)
	inboxSrv := httptest.NewServer(NewInboxServer(store, Options{Now: fixedNow, Token: testToken}))
	t.Cleanup(inboxSrv.Close)
	single, _, _ := testServer(t)
	for name, tc := range map[string]struct {
		srv *httptest.Server
		api string
	}{
		"in the store": {inboxSrv, "/api/reviews/" + id},
		"single":       {single, "/api"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv := tc.srv
			if _, body := do(t, srv, request{method: "GET", path: tc.api + "/draft"}); strings.TrimSpace(body) != "{}" {
				t.Errorf("draft before any = %s", body)
			}
			bad := map[string]struct {
				body string
				want int
			}{
				"not json":      {`{"comments":[`, 400},
				"unknown field": {`{"comments":[],"approve":true}`, 400},
				"trailing data": {`{} {}`, 400},
				"too large":     {`{"globalComment":"` + strings.Repeat("x", MaxBodyBytes) + `"}`, 413},
			}
			for what, b := range bad {
				if resp, body := do(t, srv, request{method: "PUT", path: tc.api + "/draft", body: b.body}); resp.StatusCode != b.want {
					t.Errorf("%s: PUT = %d %s, want %d", what, resp.StatusCode, body, b.want)
				}
			}
			if resp, body := do(t, srv, request{method: "PUT", path: tc.api + "/draft", body: testDraft}); resp.StatusCode != 200 {
				t.Fatalf("PUT draft = %d %s", resp.StatusCode, body)
			}
			_, body := do(t, srv, request{method: "GET", path: tc.api + "/draft"})
			var got, want draft
			if err := json.Unmarshal([]byte(body), &got); err != nil {
				t.Fatal(err)
			}
			json.Unmarshal([]byte(testDraft), &want)
			if *got.GlobalComment != *want.GlobalComment || len(got.Comments) != 1 || got.Comments[0].Body != "Why?" ||
				got.Form == nil || got.Form.Body != "half-typed" || got.Form.Editing != nil {
				t.Errorf("draft read back = %s", body)
			}
			if resp, body := do(t, srv, request{method: "POST", path: tc.api + "/comments", body: goodSubmission}); resp.StatusCode != 200 {
				t.Fatalf("submit = %d %s", resp.StatusCode, body)
			}
			if resp, body := do(t, srv, request{method: "PUT", path: tc.api + "/draft", body: testDraft}); resp.StatusCode != http.StatusConflict {
				t.Errorf("PUT draft after submitting = %d %s, want 409", resp.StatusCode, body)
			}
		})
	}
	t.Cleanup(func() {
		if d, err := store.Draft(context.Background(), id); err != nil || d != nil {
			t.Errorf("the store keeps the draft of a submitted review: %q, %v", d, err)
		}
	})
}

// The store is written before the repository: a repository that cannot be
// written loses nothing, and the person and the page are told.
func TestInboxSubmitUnwritableRepository(t *testing.T) {
	t.Parallel()
	store, root, id := inboxFixture(t)
	if err := os.WriteFile(filepath.Join(root, OutputDir), []byte("in the way"), 0o644); err != nil {
		t.Fatal(err)
	}
	log := &syncBuffer{}
	srv := httptest.NewServer(NewInboxServer(store, Options{Now: fixedNow, Token: testToken, Log: log}))
	t.Cleanup(srv.Close)
	api := "/api/reviews/" + id
	resp, body := do(t, srv, request{method: "POST", path: api + "/comments", body: goodSubmission})
	if resp.StatusCode != 200 {
		t.Fatalf("submit = %d %s", resp.StatusCode, body)
	}
	var res submitResult
	if err := json.Unmarshal([]byte(body), &res); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Warning, "in the inbox, but its files could not be written") || !strings.Contains(res.Warning, "inbox get "+id) {
		t.Errorf("warning = %q", res.Warning)
	}
	rec, err := store.Get(context.Background(), id)
	if err != nil || rec.Status != inbox.StatusSubmitted || len(rec.Submission.Comments) != 4 {
		t.Fatalf("stored = %+v, %v", rec, err)
	}
	if !strings.Contains(log.String(), "Review "+id+" is in the inbox all the same.") {
		t.Errorf("log = %s", log)
	}
	// A reload still says so, and shows what was submitted.
	_, info := do(t, srv, request{method: "GET", path: api + "/info"})
	if !strings.Contains(info, `"warning":"The review is in the inbox`) || !strings.Contains(info, `"body":"Scope the grant to the resource."`) {
		t.Errorf("info = %s", info)
	}
	// The agent reads it from the inbox.
	d, err := (&inbox.Service{Store: store}).Get(context.Background(), id)
	if err != nil || !strings.Contains(d.Markdown, "Scope the grant to the resource.") {
		t.Errorf("inbox get = %+v, %v", d, err)
	}
}
