package reviewsforagent

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The page is served on 127.0.0.1, printed as such, and only with the
// token: a program on [::1] at the same port gets nothing from the
// browser, and the address without the token shows no diff.
func TestBrowserTokenAndAddress(t *testing.T) {
	t.Parallel()
	dir := newRepo(t, map[string]string{"a.txt": "one\n"})
	writeFile(t, dir, "a.txt", "secret change\n")

	// Something else on [::1] at the port the server will use, as a
	// browser tries [::1] first for "localhost".
	port := freePort(t)
	impostorHit := make(chan string, 10)
	if ln, err := net.Listen("tcp", net.JoinHostPort("::1", strconv.Itoa(port))); err == nil {
		impostor := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			impostorHit <- r.URL.String()
			w.Write([]byte("<p>impostor</p>"))
		})}
		go impostor.Serve(ln)
		t.Cleanup(func() { impostor.Close() })
	} else {
		t.Logf("no IPv6 loopback here (%v): checking the address without the impostor", err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, RunOptions{Dir: dir, Port: port, StrictPort: true, Out: &syncBuffer{}, Ready: func(u string) { ready <- u }})
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	})
	var page string
	select {
	case page = <-ready:
	case err := <-done:
		t.Fatalf("Run ended: %v", err)
	case <-time.After(30 * time.Second):
		t.Fatal("server not ready")
	}
	bare, tok := splitPage(t, page)
	if want := "http://127.0.0.1:" + strconv.Itoa(port) + "/review"; bare != want {
		t.Fatalf("page = %s, want %s with a token", page, want)
	}

	b := newBrowser(t, time.Minute)
	b.do(t, "open the address without the token", chromedp.Navigate(bare), chromedp.WaitVisible(chromedp.CSS(`#rfa-notice`)))
	if txt := get(t, b, "read the refusal", chromedp.Text(chromedp.CSS(`body`))); strings.Contains(txt, "secret") || !strings.Contains(txt, "token") {
		t.Errorf("without the token the browser shows %q", txt)
	}
	b.do(t, "open the printed URL", chromedp.Navigate(page), chromedp.WaitVisible(lineCell(0, "right", 1)))
	if loc := get(t, b, "read the address", chromedp.Location()); loc != bare {
		t.Errorf("the page is at %s, want %s (the token taken out of the address bar)", loc, bare)
	}
	if cookies := get(t, b, "read the cookies", chromedp.Evaluate[string](`document.cookie`)); cookies != "" {
		t.Errorf("the page has cookies %q", cookies)
	}

	select {
	case u := <-impostorHit:
		t.Errorf("the browser asked the program on [::1] for %s", u)
	default:
	}
	b.checkLocalOnly(t, strings.TrimSuffix(bare, "/review"))

	// Another server on 127.0.0.1, at another port: cookies do not
	// separate ports, so anything secret in one would reach it.
	var seen strings.Builder
	var seenMu sync.Mutex
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seenMu.Lock()
		fmt.Fprintf(&seen, "%s %s\n", r.Method, r.URL)
		for k, v := range r.Header {
			fmt.Fprintf(&seen, "%s: %s\n", k, strings.Join(v, ", "))
		}
		seenMu.Unlock()
		w.Write([]byte("<p>another server</p>"))
	}))
	t.Cleanup(other.Close)
	b.do(t, "visit the other server", chromedp.Navigate(other.URL+"/x"), chromedp.WaitVisible(chromedp.CSS(`p`)))
	seenMu.Lock()
	got := seen.String()
	seenMu.Unlock()
	if !strings.Contains(got, "GET /x") {
		t.Fatalf("the other server saw no visit:\n%s", got)
	}
	if strings.Contains(got, tok) || strings.Contains(strings.ToLower(got), "cookie") {
		t.Errorf("the other server on 127.0.0.1 received the token or a cookie:\n%s", got)
	}
	// The tab keeps its token for the page, and only for it.
	b.do(t, "come back", chromedp.Navigate(bare), chromedp.WaitVisible(lineCell(0, "right", 1)))
}

// Comments are saved as they are written: a reload restores them, the
// open form's text and the overall comment included; leaving with unsent
// comments asks first; after submitting, a reload shows what was sent,
// read-only.
func TestBrowserDraftsAndSubmittedView(t *testing.T) {
	t.Parallel()
	dir := newRepo(t, map[string]string{"a.txt": "a\nb\nc\n", "b.txt": "x\n"})
	writeFile(t, dir, "a.txt", "a\nB\nc\nd\n")
	writeFile(t, dir, "b.txt", "y\n")
	page, _ := startServer(t, dir)
	b := newBrowser(t, 2*time.Minute)
	saved := chromedp.Poll[bool](`document.getElementById('rfa-draft-status').textContent === 'Draft saved.'`)
	secondFileCard := chromedp.Poll[bool](`document.querySelector('.d2h-file-wrapper[data-rfa-file="1"] .rfa-card:not(.rfa-form)') !== null`)

	b.do(t, "load", chromedp.Navigate(page), chromedp.WaitVisible(lineCell(0, "right", 2)))
	b.do(t, "comment on a line", chromedp.Click(lineCell(0, "right", 2)), comment("Why capital?"))
	b.do(t, "comment on a file",
		chromedp.Click(chromedp.CSS(`.d2h-file-wrapper[data-rfa-file="1"] button[data-rfa-action="file-comment"]`)),
		comment("Is y right?"),
		chromedp.SendKeys(chromedp.CSS(`#rfa-global`), "Mostly fine."),
		chromedp.Click(lineCell(0, "right", 4)),
		chromedp.WaitVisible(formText),
		chromedp.SendKeys(formText, "Half a thought"),
	)
	get(t, b, "wait for the draft to be saved", saved)

	b.do(t, "reload", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(`.rfa-form textarea`)))
	if got := b.dialogKinds(); len(got) != 1 || got[0] != "beforeunload" {
		t.Errorf("leaving with unsent comments opened dialogs %v, want one beforeunload", got)
	}
	// Files after the first screen are drawn a slice a frame: the count
	// waits for the second file's card, then must be exact.
	get(t, b, "wait for the second file's card", secondFileCard)
	if n := get(t, b, "count restored cards", chromedp.Evaluate[int](cardCount)); n != 2 {
		t.Errorf("%d comment cards after the reload, want 2", n)
	}
	if v := get(t, b, "read the overall comment", chromedp.Value(chromedp.CSS(`#rfa-global`))); v != "Mostly fine." {
		t.Errorf("overall comment after the reload = %q", v)
	}
	if v := get(t, b, "read the form", chromedp.Value(formText)); v != "Half a thought" {
		t.Errorf("open form after the reload = %q", v)
	}
	if title := get(t, b, "read the form title", chromedp.Text(formTitle)); title != "Comment on line 4" {
		t.Errorf("form title = %q", title)
	}
	b.do(t, "finish the comment", chromedp.SendKeys(formText, ", done."), chromedp.Click(formSave), chromedp.WaitNotPresent(formText))
	get(t, b, "wait for the draft to be saved", saved)

	b.do(t, "submit", chromedp.Click(chromedp.CSS(`#rfa-submit`)), chromedp.WaitVisible(chromedp.CSS(`#rfa-result`)))
	b.do(t, "reload after submitting", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(`#rfa-result`)))
	if got := b.dialogKinds(); len(got) != 1 {
		t.Errorf("a submitted review asked before leaving: dialogs %v", got)
	}
	get(t, b, "wait for the second file's card", secondFileCard)
	if n := get(t, b, "count submitted cards", chromedp.Evaluate[int](cardCount)); n != 3 {
		t.Errorf("%d comment cards after submitting and reloading, want 3", n)
	}
	if n := get(t, b, "count edit buttons", chromedp.Evaluate[int](`document.querySelectorAll('[data-rfa-action="edit"], [data-rfa-action="delete"]').length`)); n != 0 {
		t.Errorf("the submitted review offers %d edit or delete buttons", n)
	}
	if txt := get(t, b, "read a submitted card", chromedp.Text(chromedp.CSS(`.d2h-file-wrapper[data-rfa-file="0"] .rfa-card`))); !strings.Contains(txt, "Why capital?") {
		t.Errorf("submitted card = %q", txt)
	}
	global := get(t, b, "read the overall comment", chromedp.Evaluate[[]any](`[document.getElementById('rfa-global').value, document.getElementById('rfa-global').disabled]`))
	if global[0] != "Mostly fine." || global[1] != true {
		t.Errorf("overall comment after submitting = %v", global)
	}
	b.checkLocalOnly(t, baseOf(t, page))
}

func (b *browser) dialogKinds() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.dialogs...)
}
