package reviewsforagent

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/review-my-code-bot/rmc/agentmd"
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
	b.do(t, "load the page", chromedp.Navigate(base+"/review#token="+testToken), chromedp.WaitVisible(lineCell(0, "right", 2)))
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

// The inbox page lists open, submitted and resolved reviews with who
// claimed and resolved them; what agents wrote shows as text.
func TestBrowserInboxPage(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store, err := inbox.Open(filepath.Join(t.TempDir(), "reviews.jsonl"), inbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	g := "Fine."
	sub := inbox.Submission{Submission: agentmd.Submission{GlobalComment: &g}}
	mk := func(msg string) string {
		rec, err := store.Create(ctx, inbox.Request{Root: "/repo", Base: "HEAD (abc1234)", Files: []string{"a.txt"}, Message: msg}, "")
		if err != nil {
			t.Fatal(err)
		}
		return rec.ID
	}
	open := mk(`<img src=x onerror="document.body.dataset.pwned=1">`)
	submitted, claimed, resolved := mk("s"), mk("c"), mk("r")
	for _, id := range []string{submitted, claimed, resolved} {
		if _, err := store.Submit(ctx, id, sub); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := store.Claim(ctx, claimed, "alpha", false); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Claim(ctx, resolved, "beta", false); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Resolve(ctx, resolved, inbox.ResolveOptions{By: "beta", Note: "Done."}); err != nil {
		t.Fatal(err)
	}
	base := serveInbox(t, store)

	b := newBrowser(t, time.Minute)
	b.do(t, "open the inbox", chromedp.Navigate(base+"/#token="+testToken), chromedp.WaitVisible(chromedp.CSS(`#rfa-resolved .rfa-inbox-item`)))
	ids := func(list string) string {
		return get(t, b, "read "+list, chromedp.Evaluate[string](`Array.from(document.querySelectorAll('#`+list+` .rfa-inbox-item')).map(li => li.dataset.rfaId).join(',')`))
	}
	if got := ids("rfa-open"); got != open {
		t.Errorf("open list = %q, want %s", got, open)
	}
	if got := ids("rfa-submitted"); got != submitted+","+claimed && got != claimed+","+submitted {
		t.Errorf("submitted list = %q", got)
	}
	if got := ids("rfa-resolved"); got != resolved {
		t.Errorf("resolved list = %q", got)
	}
	badges := func(id string) string {
		return get(t, b, "read the badges of "+id, chromedp.Text(chromedp.CSS(`li[data-rfa-id="`+id+`"] .rfa-inbox-head`)))
	}
	if got := badges(claimed); !strings.Contains(got, "claimed by alpha until") {
		t.Errorf("claimed badges = %q", got)
	}
	if got := badges(resolved); !strings.Contains(got, "resolved by beta") {
		t.Errorf("resolved badges = %q", got)
	}
	if got := get(t, b, "read the note", chromedp.Text(chromedp.CSS(`li[data-rfa-id="`+resolved+`"] .rfa-inbox-note`))); got != "Note: Done." {
		t.Errorf("note = %q", got)
	}
	if pwned := get(t, b, "check for injected markup", chromedp.Evaluate[bool](`!!document.body.dataset.pwned || !!document.querySelector('.rfa-inbox img')`)); pwned {
		t.Error("the agent's message was rendered as HTML")
	}
	// The open review's link leads to its page.
	b.do(t, "follow the open review", chromedp.Click(chromedp.CSS(`li[data-rfa-id="`+open+`"] a`)), chromedp.WaitVisible(chromedp.CSS(`#rfa-notice, #rfa-diff`)))
	if loc := get(t, b, "read the address", chromedp.Location()); loc != base+"/review/"+open {
		t.Errorf("link led to %s", loc)
	}
	// A submitted review opens too, read-only, as it was submitted.
	b.do(t, "back to the inbox", chromedp.Navigate(base+"/inbox"), chromedp.WaitVisible(chromedp.CSS(`li[data-rfa-id="`+submitted+`"] a`)))
	b.do(t, "open the submitted review", chromedp.Click(chromedp.CSS(`li[data-rfa-id="`+submitted+`"] a`)), chromedp.WaitVisible(chromedp.CSS(`#rfa-result`)))
	ro := get(t, b, "read the overall comment", chromedp.Evaluate[[]any](`[document.getElementById('rfa-global').value, document.getElementById('rfa-global').disabled, document.getElementById('rfa-submit').disabled]`))
	if ro[0] != "Fine." || ro[1] != true || ro[2] != true {
		t.Errorf("the submitted review shows [comment, box disabled, submit disabled] = %v", ro)
	}
	b.checkLocalOnly(t, base)
}

// serveInbox runs an inbox server on store until the test ends.
func serveInbox(t *testing.T, store *inbox.Store) string {
	t.Helper()
	srvCtx, cancel := context.WithCancel(context.Background())
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
	select {
	case base := <-ready:
		return base
	case err := <-done:
		t.Fatalf("Serve ended: %v", err)
	case <-time.After(30 * time.Second):
		t.Fatal("server not ready")
	}
	return ""
}
