package reviewsforagent

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/review-my-code-bot/rmc/inbox"
)

// inboxFixture is a store holding one open review of testdata/changes.diff
// for a repository root in a temp dir.
func inboxFixture(t *testing.T) (store *inbox.Store, root string, id string) {
	t.Helper()
	text, err := os.ReadFile(filepath.Join("testdata", "changes.diff"))
	if err != nil {
		t.Fatal(err)
	}
	root = t.TempDir()
	store, err = inbox.Open(filepath.Join(t.TempDir(), "reviews.jsonl"), inbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewChanges(root, "HEAD (abc1234)", string(text))
	if err != nil {
		t.Fatal(err)
	}
	rec, err := store.Create(context.Background(), requestOf(context.Background(), c, root, nil, "Look at the handler.", ""), c.Diff)
	if err != nil {
		t.Fatal(err)
	}
	return store, root, rec.ID
}

func TestInboxServer(t *testing.T) {
	t.Parallel()
	store, root, id := inboxFixture(t)
	ctx := context.Background()
	cancelled, err := store.Create(ctx, inbox.Request{Root: root, Base: "HEAD"}, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.Cancel(ctx, cancelled.ID); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(NewInboxServer(store, Options{Now: fixedNow, Token: testToken}))
	t.Cleanup(srv.Close)
	api := "/api/reviews/" + id

	client := *srv.Client()
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/review", nil)
	req.Header.Set(TokenHeader, testToken)
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound || resp.Header.Get("Location") != "/review/"+id {
		t.Errorf("GET /review = %d to %q, want the newest open review", resp.StatusCode, resp.Header.Get("Location"))
	}

	tests := map[string]struct {
		req        request
		wantStatus int
		wantBody   string
	}{
		"page":              {req: request{method: "GET", path: "/review/" + id}, wantStatus: 200, wantBody: `src="/assets/review.js"`},
		"info":              {req: request{method: "GET", path: api + "/info"}, wantStatus: 200, wantBody: `"message":"Look at the handler.","status":"open"`},
		"diff":              {req: request{method: "GET", path: api + "/diff"}, wantStatus: 200, wantBody: "diff --git a/src/api/handler.ts"},
		"health":            {req: request{method: "GET", path: "/api/health"}, wantStatus: 200, wantBody: `"mode":"serve","store":"` + store.Path() + `"`},
		"unknown review":    {req: request{method: "GET", path: "/api/reviews/zzzzzzzz/info"}, wantStatus: 404, wantBody: "no such review"},
		"default is newest": {req: request{method: "GET", path: "/api/info"}, wantStatus: 200, wantBody: `"id":"` + id + `"`},
		"cancelled review": {req: request{method: "POST", path: "/api/reviews/" + cancelled.ID + "/comments", body: `{"globalComment":"x","comments":[]}`},
			wantStatus: 409, wantBody: "cancelled"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			resp, body := do(t, srv, tc.req)
			if resp.StatusCode != tc.wantStatus || !strings.Contains(body, tc.wantBody) {
				t.Errorf("%s %s = %d %s, want %d with %q", tc.req.method, tc.req.path, resp.StatusCode, body, tc.wantStatus, tc.wantBody)
			}
		})
	}
}

func TestInboxServerSubmit(t *testing.T) {
	t.Parallel()
	store, root, id := inboxFixture(t)
	srv := httptest.NewServer(NewInboxServer(store, Options{Now: fixedNow, Token: testToken}))
	t.Cleanup(srv.Close)
	api := "/api/reviews/" + id

	resp, body := do(t, srv, request{method: "POST", path: api + "/comments", body: goodSubmission})
	if resp.StatusCode != 200 {
		t.Fatalf("POST = %d: %s", resp.StatusCode, body)
	}
	var got submitResult
	if err := json.Unmarshal([]byte(body), &got); err != nil {
		t.Fatal(err)
	}
	if got.ID != id || got.Inbox != "reviews-for-agent inbox get "+id || !strings.HasPrefix(got.MD, "rfa/comments_") {
		t.Errorf("result = %+v", got)
	}
	// The files are written as the start command writes them, the
	// Markdown under a header that names the review and how to settle it.
	b, err := os.ReadFile(filepath.Join(root, got.JSON))
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "submit.json.golden", b)
	md, err := os.ReadFile(filepath.Join(root, got.MD))
	if err != nil {
		t.Fatal(err)
	}
	header := "# Code Review Comments\n\nReview " + id + " from the reviews-for-agent inbox, of the uncommitted changes against HEAD (abc1234).\n" +
		"Before you work on it: `reviews-for-agent inbox claim " + id + " --by NAME`.\n" +
		"When you have addressed it: `reviews-for-agent inbox resolve " + id + " --by NAME --note \"what you did\"`.\n"
	body, ok := strings.CutPrefix(string(md), header)
	if !ok {
		t.Errorf("%s does not start with the review's header:\n%s", got.MD, md)
	}
	checkGolden(t, "submit.md.golden", []byte("# Code Review Comments\n"+body))
	if got.Review == nil || len(got.Review.Comments) != 4 || got.Warning != "" {
		t.Errorf("result review = %+v, warning %q", got.Review, got.Warning)
	}
	rec, err := store.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Status != inbox.StatusSubmitted || rec.Submission == nil || rec.Submission.MDPath != got.MD || rec.ResultSummary.CommentCount != 5 {
		t.Errorf("stored record = %+v", rec)
	}
	// A second submission is refused and writes nothing more.
	resp, body = do(t, srv, request{method: "POST", path: api + "/comments", body: goodSubmission})
	if resp.StatusCode != http.StatusConflict || !strings.Contains(body, got.MD) {
		t.Errorf("second POST = %d %s", resp.StatusCode, body)
	}
	if n := countEntries(t, root); n != 2 {
		t.Errorf("rfa/ holds %d files, want 2", n)
	}
	_, info := do(t, srv, request{method: "GET", path: api + "/info"})
	if !strings.Contains(info, `"status":"submitted"`) || !strings.Contains(info, `"inbox":"reviews-for-agent inbox get `+id+`"`) {
		t.Errorf("info after submitting: %s", info)
	}
	// Bad comments are checked against the stored diff.
	_, other := inboxFixtureSecond(t, store, root)
	if resp, body := do(t, srv, request{method: "POST", path: "/api/reviews/" + other + "/comments", body: lineComment("src/api/handler.ts", 60, 60, "right")}); resp.StatusCode != 400 {
		t.Errorf("bad line = %d %s", resp.StatusCode, body)
	}
}

// inboxFixtureSecond adds another open review of the same diff.
func inboxFixtureSecond(t *testing.T, store *inbox.Store, root string) (*inbox.Store, string) {
	t.Helper()
	text, _ := os.ReadFile(filepath.Join("testdata", "changes.diff"))
	rec, err := store.Create(context.Background(), inbox.Request{Root: root, Base: "HEAD (abc1234)", Files: []string{"x"}}, string(text))
	if err != nil {
		t.Fatal(err)
	}
	return store, rec.ID
}

// An open review outlives the server that showed it: a new server on the
// same store serves it and takes its submission.
func TestInboxServerRestart(t *testing.T) {
	t.Parallel()
	store, _, id := inboxFixture(t)
	for round := range 2 {
		ctx, cancel := context.WithCancel(context.Background())
		ready := make(chan string, 1)
		done := make(chan error, 1)
		go func() {
			done <- Serve(ctx, ServeOptions{Store: store, Port: 0, StrictPort: true, Token: testToken, Ready: func(u string) { ready <- u }})
		}()
		var base string
		select {
		case base = <-ready:
		case err := <-done:
			t.Fatalf("round %d: Serve ended: %v", round, err)
		case <-time.After(10 * time.Second):
			t.Fatal("server not ready")
		}
		if code, body := call(t, "GET", base+"/api/reviews/"+id+"/info", testToken, ""); code != 200 {
			t.Fatalf("round %d: info = %d %s", round, code, body)
		}
		if round == 1 {
			if code, body := call(t, "POST", base+"/api/reviews/"+id+"/comments", testToken, goodSubmission); code != 200 {
				t.Fatalf("submit after restart = %d %s", code, body)
			}
		}
		cancel()
		if err := <-done; err != nil {
			t.Fatalf("round %d: Serve: %v", round, err)
		}
	}
	if rec, _ := store.Get(context.Background(), id); rec.Status != inbox.StatusSubmitted {
		t.Errorf("status after the restart and submission: %s", rec.Status)
	}
}

func TestServeStopsWhenIdle(t *testing.T) {
	t.Parallel()
	store, _, id := inboxFixture(t)
	run := func() chan error {
		done := make(chan error, 1)
		go func() {
			done <- Serve(context.Background(), ServeOptions{Store: store, Port: 0, StrictPort: true, Idle: 50 * time.Millisecond})
		}()
		return done
	}
	// An open review keeps it up.
	done := run()
	select {
	case err := <-done:
		t.Fatalf("Serve stopped with a review open: %v", err)
	case <-time.After(400 * time.Millisecond):
	}
	if _, err := store.Cancel(context.Background(), id); err != nil {
		t.Fatal(err)
	}
	for _, d := range []chan error{done, run()} {
		select {
		case err := <-d:
			if err != nil {
				t.Errorf("Serve: %v", err)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("Serve did not stop once idle with no review open")
		}
	}
}

// start records its review in the inbox when given a store: submitted when
// the person submits, cancelled when they stop without.
func TestRunRecordsInInbox(t *testing.T) {
	t.Parallel()
	for name, submit := range map[string]bool{"submitted": true, "stopped": false} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := newRepo(t, map[string]string{"a.txt": "a\n"})
			writeFile(t, dir, "a.txt", "b\n")
			store, err := inbox.Open(filepath.Join(t.TempDir(), "reviews.jsonl"), inbox.Options{})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			ready := make(chan string, 1)
			done := make(chan error, 1)
			out := &syncBuffer{}
			go func() {
				done <- Run(ctx, RunOptions{Dir: dir, Port: 0, StrictPort: true, Out: out, Store: store, Ready: func(u string) { ready <- u }})
			}()
			page := <-ready
			if submit {
				u, tok := splitPage(t, page)
				if code, body := call(t, "POST", strings.TrimSuffix(u, "/review")+"/api/comments", tok,
					`{"globalComment":null,"comments":[{"file":"a.txt","startLine":1,"endLine":1,"side":"right","body":"Why b?"}]}`); code != 200 {
					t.Fatalf("submit = %d %s", code, body)
				}
			}
			cancel()
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			snap, err := store.Load(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			recs := snap.Records()
			want := map[bool]inbox.Status{true: inbox.StatusSubmitted, false: inbox.StatusCancelled}[submit]
			if len(recs) != 1 || recs[0].Status != want || !strings.Contains(out.String(), "Recorded as review "+recs[0].ID) {
				t.Fatalf("records %+v, want one %s\n%s", recs, want, out)
			}
			if submit {
				// The file the person may paste names the review and how
				// to settle it, so an agent polling the inbox and one that
				// was handed the file do not both act on it.
				rec, err := store.Get(context.Background(), recs[0].ID)
				if err != nil {
					t.Fatal(err)
				}
				md, err := os.ReadFile(filepath.Join(dir, rec.Submission.MDPath))
				if err != nil {
					t.Fatal(err)
				}
				for _, w := range []string{"Review " + rec.ID + " from the reviews-for-agent inbox", "inbox resolve " + rec.ID + " --by NAME"} {
					if !strings.Contains(string(md), w) {
						t.Errorf("%s lacks %q:\n%s", rec.Submission.MDPath, w, md)
					}
				}
			}
		})
	}
}

// A server runs the store's retention when it starts, before it takes a
// request: an open review stays, opened or not; a cancelled one past the
// window goes. Its log never holds the token.
func TestServeRunsRetention(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	now := time.Date(2026, 1, 2, 10, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	path := filepath.Join(t.TempDir(), "reviews.jsonl")
	store, err := inbox.Open(path, inbox.Options{Now: clock, Retention: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	text, _ := os.ReadFile(filepath.Join("testdata", "changes.diff"))
	old, err := store.Create(ctx, inbox.Request{Root: t.TempDir(), Base: "HEAD", Files: []string{"x"}}, string(text))
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := store.Create(ctx, inbox.Request{Root: t.TempDir(), Base: "HEAD", Files: []string{"x"}}, string(text))
	if err != nil {
		t.Fatal(err)
	}
	withdrawn, err := store.Create(ctx, inbox.Request{Root: t.TempDir(), Base: "HEAD", Files: []string{"x"}}, string(text))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.Cancel(ctx, withdrawn.ID); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(NewInboxServer(store, Options{Token: testToken}))
	t.Cleanup(srv.Close)
	if code, body := call(t, "GET", srv.URL+"/api/reviews/"+fresh.ID+"/info", testToken, ""); code != 200 {
		t.Fatalf("info = %d %s", code, body)
	}
	if r, err := store.Get(ctx, fresh.ID); err != nil || r.ViewedAt == nil {
		t.Fatalf("opened review = %+v, %v", r, err)
	}
	mu.Lock()
	now = now.Add(2 * time.Hour)
	mu.Unlock()

	out := &syncBuffer{}
	base := make(chan string, 1)
	srvCtx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		done <- Serve(srvCtx, ServeOptions{Store: store, Port: 0, StrictPort: true, Token: testToken, Out: out, Ready: func(u string) { base <- u }})
	}()
	select {
	case <-base:
	case err := <-done:
		t.Fatalf("Serve ended: %v", err)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if _, err := store.Get(ctx, old.ID); err != nil {
		t.Errorf("the open review nobody opened was dropped: %v", err)
	}
	if _, err := store.Get(ctx, fresh.ID); err != nil {
		t.Errorf("the opened review was dropped: %v", err)
	}
	if _, err := store.Get(ctx, withdrawn.ID); !errors.Is(err, inbox.ErrExpired) {
		t.Errorf("the cancelled review past the window = %v, want expired", err)
	}
	if !strings.Contains(out.String(), "kept 2 reviews, dropped 1; stored diffs: 2 kept, 1 removed.") {
		t.Errorf("output:\n%s", out)
	}
	if strings.Contains(out.String(), testToken) || strings.Contains(out.String(), "#token=") {
		t.Errorf("the server's log holds its token:\n%s", out)
	}
}

// An open review keeps an idle server up while someone may still come to
// it: within the retention window of its last change, not for ever.
func TestHasOpenWithinRetention(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	start := time.Date(2026, 1, 2, 10, 0, 0, 0, time.UTC)
	store, err := inbox.Open(filepath.Join(t.TempDir(), "reviews.jsonl"), inbox.Options{Now: func() time.Time { return start }, Retention: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.Create(ctx, inbox.Request{Root: t.TempDir(), Files: []string{"x"}}, "diff --git a/x b/x\n"); err != nil {
		t.Fatal(err)
	}
	tests := map[string]struct {
		at   time.Time
		want bool
	}{
		"just made":                  {at: start, want: true},
		"at the window's end":        {at: start.Add(time.Hour), want: true},
		"past the window, untouched": {at: start.Add(time.Hour + time.Second), want: false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if got, err := hasOpen(ctx, store, tc.at); err != nil || got != tc.want {
				t.Errorf("hasOpen at %s = %v, %v; want %v", tc.at, got, err, tc.want)
			}
		})
	}
}
