package localreview

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/review-my-code-bot/rmc/inbox"
)

// The inbox server's page: /review leads to the newest open review, which
// shows the agent's note and, once submitted, tells the person that no
// paste is needed.
func TestBrowserInboxReview(t *testing.T) {
	t.Parallel()
	dir := newRepo(t, map[string]string{"a.txt": "one\ntwo\n"})
	writeFile(t, dir, "a.txt", "one\n2\n")
	ctx := context.Background()
	store, err := inbox.Open(filepath.Join(t.TempDir(), "reviews.jsonl"), inbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := LoadChanges(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := store.Create(ctx, requestOf(ctx, c, dir, nil, "Is the numeral right?", ""), c.Diff)
	if err != nil {
		t.Fatal(err)
	}

	srvCtx, cancel := context.WithCancel(ctx)
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- Serve(srvCtx, ServeOptions{Store: store, Port: 0, StrictPort: true, Token: testToken, Ready: func(u string) { ready <- u }})
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	var base string
	select {
	case base = <-ready:
	case err := <-done:
		t.Fatalf("Serve ended: %v", err)
	case <-time.After(30 * time.Second):
		t.Fatal("server not ready")
	}

	b := newBrowser(t, time.Minute)
	b.do(t, "load the page", chromedp.Navigate(base+"/review?token="+testToken), chromedp.WaitVisible(lineCell(0, "right", 2)))
	if loc := get(t, b, "read the address", chromedp.Location()); loc != base+"/review/"+rec.ID {
		t.Errorf("the page is at %s, want the review's own address", loc)
	}
	if msg := get(t, b, "read the note", chromedp.Text(chromedp.CSS(`#rfa-message`))); msg != "Note from the agent: Is the numeral right?" {
		t.Errorf("note = %q", msg)
	}
	b.do(t, "comment and submit",
		chromedp.Click(lineCell(0, "right", 2)),
		comment("Spell it out."),
		chromedp.Click(chromedp.CSS(`#rfa-submit`)),
		chromedp.WaitVisible(chromedp.CSS(`#rfa-result-inbox`)),
	)
	if cmd := get(t, b, "read the inbox command", chromedp.Text(chromedp.CSS(`#rfa-inbox-cmd`))); cmd != "reviews-for-agent inbox get "+rec.ID {
		t.Errorf("inbox command = %q", cmd)
	}
	got, err := store.Get(ctx, rec.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != inbox.StatusSubmitted || got.Submission == nil || len(got.Submission.Comments) != 1 ||
		!strings.HasPrefix(got.Submission.MDPath, "rfa/comments_") {
		t.Errorf("stored review = %+v", got)
	}
	// Reloaded, the page shows the review as submitted and read-only.
	b.do(t, "reload", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(`#rfa-result`)))
	b.checkLocalOnly(t, base)
}
