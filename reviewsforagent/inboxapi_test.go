package reviewsforagent

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/review-my-code-bot/rmc/agentmd"
	"github.com/review-my-code-bot/rmc/inbox"
)

// The inbox API answers as the command line does, with the same rules:
// a claim held by another is a conflict, only the claimant resolves, and
// refusals carry the command line's kind names.
func TestInboxAPI(t *testing.T) {
	t.Parallel()
	store, _, id := inboxFixture(t)
	ctx := context.Background()
	_, open := inboxFixtureSecond(t, store, "/repo")
	if _, err := store.Submit(ctx, id, inbox.Submission{Submission: mustDecode(t, goodSubmission)}); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(NewInboxServer(store, Options{Now: fixedNow, Token: testToken}))
	t.Cleanup(srv.Close)
	api := "/api/review/submissions"

	steps := []struct {
		name       string
		req        request
		wantStatus int
		wantBody   []string
	}{
		{"list submitted", request{method: "GET", path: api}, 200, []string{`"id":"` + id + `"`, `"status":"submitted"`}},
		{"list open", request{method: "GET", path: api + "?status=open"}, 200, []string{`"id":"` + open + `"`}},
		{"list bad status", request{method: "GET", path: api + "?status=lost"}, 400, []string{`"kind":"invalid_input"`}},
		{"get", request{method: "GET", path: api + "/" + id}, 200, []string{`"markdown":"# Code Review Comments\n\nReview ` + id, "Scope the grant to the resource."}},
		{"get unknown", request{method: "GET", path: api + "/zzzzzzzz"}, 404, []string{`"kind":"not_found"`}},
		{"get not an id", request{method: "GET", path: api + "/..%2fetc"}, 400, []string{`"kind":"invalid_input"`}},
		{"claim without a name", request{method: "POST", path: api + "/" + id + "/claim", body: `{}`}, 400, []string{`"kind":"invalid_input"`}},
		{"claim open", request{method: "POST", path: api + "/" + open + "/claim", body: `{"by":"alpha"}`}, 409, []string{`"kind":"invalid_state"`}},
		{"claim as form", request{method: "POST", path: api + "/" + id + "/claim", body: `by=alpha`, header: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}}, 400, []string{"application/json"}},
		{"claim unknown field", request{method: "POST", path: api + "/" + id + "/claim", body: `{"by":"alpha","as":"root"}`}, 400, []string{`unknown field`}},
		{"claim", request{method: "POST", path: api + "/" + id + "/claim", body: `{"by":"alpha"}`}, 200, []string{`"status":"claimed"`, `"claimedBy":"alpha"`, `"claimExpiresAt":`}},
		{"claim taken", request{method: "POST", path: api + "/" + id + "/claim", body: `{"by":"beta"}`}, 409, []string{`"kind":"conflict"`, "already claimed by alpha"}},
		{"list mine", request{method: "GET", path: api + "?claimedBy=alpha"}, 200, []string{`"claimedBy":"alpha"`}},
		{"list another's", request{method: "GET", path: api + "?claimedBy=beta"}, 200, []string{`"items":[]`}},
		{"resolve by another", request{method: "POST", path: api + "/" + id + "/resolve", body: `{"by":"beta","note":"mine"}`}, 409, []string{`"kind":"conflict"`, "claimed by alpha"}},
		{"resolve by the claimant", request{method: "POST", path: api + "/" + id + "/resolve", body: `{"by":"alpha","note":"Scoped it."}`}, 200,
			[]string{`"status":"resolved"`, `"resolvedBy":"alpha"`, `"note":"Scoped it."`, `"resolvedAt":`}},
		{"resolve again", request{method: "POST", path: api + "/" + id + "/resolve", body: `{"by":"beta"}`}, 200, []string{`"resolvedBy":"alpha"`}},
		{"GET claim", request{method: "GET", path: api + "/" + id + "/claim"}, 405, nil},
		{"no token", request{method: "GET", path: api, noToken: true}, 403, nil},
	}
	for _, st := range steps {
		resp, body := do(t, srv, st.req)
		if resp.StatusCode != st.wantStatus {
			t.Errorf("%s: %s %s = %d %s, want %d", st.name, st.req.method, st.req.path, resp.StatusCode, body, st.wantStatus)
			continue
		}
		for _, w := range st.wantBody {
			if !strings.Contains(body, w) {
				t.Errorf("%s: body %s lacks %s", st.name, body, w)
			}
		}
	}
	// Resolving over a claim with force is the API's too.
	other, err := store.Create(ctx, inbox.Request{Root: "/repo", Base: "HEAD (abc1234)", Files: []string{"x"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.Submit(ctx, other.ID, inbox.Submission{Submission: mustDecode(t, `{"globalComment":"x","comments":[]}`)}); err != nil {
		t.Fatal(err)
	}
	do(t, srv, request{method: "POST", path: api + "/" + other.ID + "/claim", body: `{"by":"alpha"}`})
	resp, body := do(t, srv, request{method: "POST", path: api + "/" + other.ID + "/resolve", body: `{"by":"beta","force":true}`})
	var it inbox.Item
	if err := json.Unmarshal([]byte(body), &it); resp.StatusCode != 200 || err != nil || it.ResolvedBy != "beta" {
		t.Errorf("forced resolve = %d %s", resp.StatusCode, body)
	}
}

// A start server whose store could not be opened has no inbox to offer.
func TestInboxAPIWithoutStore(t *testing.T) {
	t.Parallel()
	srv, _, _ := testServer(t)
	resp, body := do(t, srv, request{method: "GET", path: "/api/review/submissions"})
	if resp.StatusCode != 404 || !strings.Contains(body, "no inbox") {
		t.Errorf("list without a store = %d %s", resp.StatusCode, body)
	}
}

func mustDecode(t *testing.T, s string) agentmd.Submission {
	t.Helper()
	sub, err := agentmd.DecodeSubmission(strings.NewReader(s))
	if err != nil {
		t.Fatal(err)
	}
	return sub
}
