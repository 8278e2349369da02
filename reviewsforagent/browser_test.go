package reviewsforagent

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// These tests drive the real page in headless Chromium (Debian's chromium
// package). Without it they skip on a developer's machine, but fail in CI
// (CI set), so a missing browser cannot pass unnoticed.

func chromiumPath(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("a browser test: not in -short (make test runs it)")
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("chromium is not installed: the browser tests need it in CI; install the Debian package: apt-get install -y chromium")
	}
	t.Skip("chromium is not installed (apt-get install -y chromium); skipping the browser test")
	return ""
}

// artifactsDir is where screenshots go: $RFA_ARTIFACTS, or the test's own
// temp dir.
func artifactsDir(t testing.TB) string {
	t.Helper()
	if d := os.Getenv("RFA_ARTIFACTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatalf("create artifacts dir: %v", err)
		}
		return d
	}
	return t.TempDir()
}

// browser starts headless Chromium with a fresh profile and records every
// request the page makes and every script error it throws.
type browser struct {
	ctx      context.Context
	mu       sync.Mutex
	requests []string
	errors   []string
	dialogs  []string // the kinds of dialog the page opened, each accepted
	close    func()   // ends the browser; the test's cleanup does too
}

func newBrowser(t testing.TB, timeout time.Duration) *browser {
	t.Helper()
	home := t.TempDir()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromiumPath(t)),
		chromedp.NoSandbox, // the tests may run as root
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-sync", true),
		chromedp.NoFirstRun,
		// Everything the browser writes goes under the test's temp
		// directory, which the test removes: the profile, and the crash
		// reports and caches it would put in the user's home.
		chromedp.Flag("disable-breakpad", true),
		chromedp.Flag("disable-crash-reporter", true),
		chromedp.UserDataDir(filepath.Join(home, "profile")),
		chromedp.Env("HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "XDG_CACHE_HOME="+filepath.Join(home, ".cache")),
		chromedp.WindowSize(1280, 1000),
	)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(allocCtx)
	ctx, cancelTimeout := context.WithTimeout(ctx, timeout)
	closed := sync.OnceFunc(func() { cancelTimeout(); cancelCtx(); cancelAlloc() })
	t.Cleanup(closed)

	b := &browser{ctx: ctx, close: closed}
	err := chromedp.Listen(ctx, func(ev any) {
		b.mu.Lock()
		defer b.mu.Unlock()
		switch ev := ev.(type) {
		case *network.EventRequestWillBeSent:
			b.requests = append(b.requests, ev.Request.URL)
		case *runtime.EventExceptionThrown:
			msg := ev.ExceptionDetails.Text
			if ex := ev.ExceptionDetails.Exception; ex != nil {
				msg += " " + ex.Description
			}
			b.errors = append(b.errors, msg)
		case *page.EventJavascriptDialogOpening:
			b.dialogs = append(b.dialogs, string(ev.Type))
			go func() {
				// Accept it, as a person leaving the page would. The
				// listener must not block on the browser it listens to.
				if _, err := chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: true}); err != nil && ctx.Err() == nil {
					t.Errorf("accept the %s dialog: %v", ev.Type, err)
				}
			}()
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError {
				b.errors = append(b.errors, fmt.Sprintf("console.error with %d arguments", len(ev.Args)))
			}
		}
	})
	if err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatalf("watch the network: %v", err)
	}
	if _, err := chromedp.Call(ctx, runtime.Enable, cdp.Empty{}); err != nil {
		t.Fatalf("watch for script errors: %v", err)
	}
	return b
}

// do runs steps that return nothing; step names what failed.
func (b *browser) do(t testing.TB, step string, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(b.ctx, steps...); err != nil {
		t.Fatalf("%s: %v", step, err)
	}
}

// get runs one action that returns a value.
func get[T any](t testing.TB, b *browser, step string, a chromedp.Action[T]) T {
	t.Helper()
	v, err := chromedp.Run(b.ctx, a)
	if err != nil {
		t.Fatalf("%s: %v", step, err)
	}
	return v
}

// checkLocalOnly fails for any request to anything but the local server.
func (b *browser) checkLocalOnly(t testing.TB, base string) {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.requests) == 0 {
		t.Error("no requests were recorded: is network monitoring working?")
	}
	for _, u := range b.requests {
		if !strings.HasPrefix(u, base+"/") {
			t.Errorf("the page requested %s, outside %s", u, base)
		}
	}
	for _, e := range b.errors {
		t.Errorf("script error on the page: %s", e)
	}
}

// startServer runs the whole start command's server on dir at a free port.
// Start it before the browser: cleanups run last-in first-out, so the
// browser then goes before the server, as it would for a person.
func startServer(t testing.TB, dir string) (page string, out *syncBuffer) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out = &syncBuffer{}
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, RunOptions{Dir: dir, Port: 0, StrictPort: true, Out: out, Ready: func(u string) { ready <- u }})
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	})
	select {
	case page = <-ready:
		return page, out
	case err := <-done:
		t.Fatalf("server ended early: %v\n%s", err, out)
	case <-time.After(30 * time.Second):
		t.Fatal("server not ready after 30s")
	}
	return "", nil
}

// baseOf is the server's address in a page URL it printed.
func baseOf(t testing.TB, page string) string {
	bare, _ := splitPage(t, page)
	return strings.TrimSuffix(bare, "/review")
}

// lineCell selects the line number cell of a file (by its index on the
// page) for line on side.
func lineCell(file int, side string, line int) chromedp.CSS {
	return chromedp.CSS(fmt.Sprintf(`.d2h-file-wrapper[data-rfa-file="%d"] td[data-rfa-side="%s"][data-rfa-line="%d"]`, file, side, line))
}

const (
	formText  = chromedp.CSS(`.rfa-form textarea`)
	formSave  = chromedp.CSS(`.rfa-form button[data-rfa-action="save"]`)
	formTitle = chromedp.CSS(`.rfa-form .rfa-card-title`)
	cardCount = `document.querySelectorAll('.rfa-card:not(.rfa-form)').length`
)

// cardsAtLeast waits until the page shows n comment cards or more: a new
// drawing fills in a slice a frame, so a count follows this wait.
func cardsAtLeast(n int) chromedp.Action[bool] {
	return chromedp.Poll[bool](fmt.Sprintf("%s >= %d", cardCount, n))
}

// comment types body into the open form and saves it.
func comment(body string) chromedp.Action[chromedp.Void] {
	return chromedp.Steps(
		chromedp.WaitVisible(formText),
		chromedp.SendKeys(formText, body),
		chromedp.Click(formSave),
		chromedp.WaitNotPresent(formText),
	)
}

func TestBrowserReview(t *testing.T) {
	t.Parallel()
	dir := newRepo(t, map[string]string{"src/app.go": numberedGo(30)})
	// A modified file (one changed line, three added) and an untracked one.
	app := strings.Replace(numberedGo(30), "\tstep(10)\n", "\tstep(10, retry)\n", 1)
	app = strings.Replace(app, "\tstep(20)\n", "\tstep(20)\n\tcheck(20)\n\tcheck(21)\n\tcheck(22)\n", 1)
	writeFile(t, dir, "src/app.go", app)
	writeFile(t, dir, "notes/todo.md", "# Todo\n\n- ship it\n")

	page, out := startServer(t, dir)
	b := newBrowser(t, 90*time.Second)
	base := baseOf(t, page)

	// Files are sorted by path: notes/todo.md is file 0, src/app.go file 1.
	b.do(t, "load the page", chromedp.Navigate(page), chromedp.WaitVisible(lineCell(1, "right", 10)))
	b.do(t, "comment on a line", chromedp.Click(lineCell(1, "right", 10)), comment("Why retry here?"))

	// A plain click, then a shift-click on the last line of the range.
	b.do(t, "start a range", chromedp.Click(lineCell(1, "right", 21)), chromedp.WaitVisible(formText))
	end := get(t, b, "find the range end", chromedp.Nodes(lineCell(1, "right", 23)))
	b.do(t, "shift-click the range end", chromedp.MouseClickNode(end[0], chromedp.ButtonModifiers(chromedp.ModifierShift)))
	get(t, b, "wait for the range form", chromedp.Poll[bool](`document.querySelector('.rfa-form .rfa-card-title').textContent.includes('23')`))
	if title := get(t, b, "read the range form", chromedp.Text(formTitle)); title != "Comment on lines 21\u201323" {
		t.Fatalf("range form title = %q", title)
	}
	b.do(t, "comment on the range", comment("These checks belong in one helper."))

	b.do(t, "comment on a file",
		chromedp.Click(chromedp.CSS(`.d2h-file-wrapper[data-rfa-file="0"] button[data-rfa-action="file-comment"]`)),
		comment("Move this to the issue tracker."),
		chromedp.SendKeys(chromedp.CSS(`#rfa-global`), "Good start; see the notes."),
	)
	// Edit the first comment: select its text and type over it.
	b.do(t, "edit a comment",
		chromedp.Click(chromedp.CSS(`.rfa-card[data-rfa-id="1"] button[data-rfa-action="edit"]`)),
		chromedp.WaitVisible(formText),
		chromedp.Focus(formText),
		chromedp.KeyEvent("a", chromedp.KeyModifiers(chromedp.ModifierCtrl)),
		comment("Retrying hides the real error: return it instead."),
	)
	if n := get(t, b, "count cards", chromedp.Evaluate[int](cardCount)); n != 3 {
		t.Fatalf("%d comment cards after editing, want 3", n)
	}

	// The split view has cells of its own and is a new drawing: the cards
	// must come back, and its line numbers must take comments too.
	b.do(t, "switch to the split view",
		chromedp.Click(chromedp.CSS(`#rfa-view button[data-view="side-by-side"]`)),
		chromedp.WaitVisible(chromedp.CSS(`.rfa-split-table`)),
	)
	get(t, b, "wait for the cards", cardsAtLeast(3))
	if n := get(t, b, "count cards", chromedp.Evaluate[int](cardCount)); n != 3 {
		t.Fatalf("%d comment cards in the split view, want 3", n)
	}
	b.do(t, "comment on an old line in the split view", chromedp.Click(lineCell(1, "left", 10)), comment("The old call had no retry."))
	saveScreenshot(t, "review-split.png", get(t, b, "screenshot the split view", chromedp.FullScreenshot(100)))
	b.do(t, "switch back",
		chromedp.Click(chromedp.CSS(`#rfa-view button[data-view="line-by-line"]`)),
		chromedp.WaitNotPresent(chromedp.CSS(`.rfa-split-table`)),
	)
	get(t, b, "wait for the cards", cardsAtLeast(4))
	if n := get(t, b, "count cards", chromedp.Evaluate[int](cardCount)); n != 4 {
		t.Fatalf("%d comment cards back in the unified view, want 4", n)
	}
	if badge := get(t, b, "read the badge", chromedp.Text(chromedp.CSS(`#rfa-count`))); badge != "5" {
		t.Errorf("badge = %q, want 5 (four comments and the overall one)", badge)
	}
	saveScreenshot(t, "review-comments.png", get(t, b, "screenshot with comments", chromedp.FullScreenshot(100)))

	b.do(t, "submit", chromedp.Click(chromedp.CSS(`#rfa-submit`)), chromedp.WaitVisible(chromedp.CSS(`#rfa-result`)))
	prompt := get(t, b, "read the prompt", chromedp.Text(chromedp.CSS(`#rfa-prompt`)))
	label := get(t, b, "read the button", chromedp.Text(chromedp.CSS(`#rfa-submit-label`)))
	disabled := get(t, b, "read the button state", chromedp.Evaluate[bool](`document.getElementById('rfa-submit').disabled`))
	saveScreenshot(t, "review-submitted.png", get(t, b, "screenshot after submitting", chromedp.FullScreenshot(100)))
	if label != "Review submitted" || !disabled {
		t.Errorf("after submitting, the button says %q and disabled is %v", label, disabled)
	}
	md, ok := strings.CutPrefix(prompt, "Address the review comments in ")
	if !ok || !strings.HasPrefix(md, "rfa/comments_") || !strings.HasSuffix(md, ".md") {
		t.Fatalf("prompt = %q", prompt)
	}
	jsonPath := strings.TrimSuffix(md, ".md") + ".json"
	// What was reviewed names the commit, whose id changes with the time
	// the test made it; the blobs' ids depend on the content alone.
	head := strings.NewReplacer(strings.TrimSpace(runGit(t, dir, "rev-parse", "HEAD")), "<HEAD>",
		strings.TrimSpace(runGit(t, dir, "rev-parse", "--short", "HEAD")), "<HEAD>")
	for _, f := range []struct{ rel, golden string }{{jsonPath, "browser.json.golden"}, {md, "browser.md.golden"}} {
		got, err := os.ReadFile(filepath.Join(dir, f.rel))
		if err != nil {
			t.Fatalf("read written file: %v", err)
		}
		checkGolden(t, f.golden, []byte(head.Replace(string(got))))
	}
	wantLog := "Wrote comments to " + jsonPath + " and " + md + ". Provide the MD file to your AI agent to have it address the comments.\n"
	if !strings.Contains(out.String(), wantLog) {
		t.Errorf("terminal output lacks %q:\n%s", wantLog, out)
	}
	b.checkLocalOnly(t, base)
}

// numberedGo is a Go function body of n numbered steps.
func numberedGo(n int) string {
	var s strings.Builder
	s.WriteString("package app\n\nfunc run() {\n")
	for i := 4; i <= n; i++ {
		fmt.Fprintf(&s, "\tstep(%d)\n", i)
	}
	s.WriteString("}\n")
	return s.String()
}

func saveScreenshot(t *testing.T, name string, png []byte) {
	t.Helper()
	path := filepath.Join(artifactsDir(t), name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatalf("save screenshot: %v", err)
	}
	t.Logf("screenshot: %s", path)
}

// largeRepo makes a change of files*edits*8 diff lines: files files
// f00.txt, f01.txt, ... of edits*20 lines each, with a one-line edit in
// every 20 (a hunk of 8 lines each). No file is long enough to be folded.
// largeRepo(t, 10, 250) is 20,000 lines.
func largeRepo(t testing.TB, files, edits int) string {
	t.Helper()
	n := edits * 20
	base := map[string]string{}
	for f := range files {
		base[fmt.Sprintf("f%02d.txt", f)] = numbered(n)
	}
	dir := newRepo(t, base)
	var b strings.Builder
	for i := 1; i <= n; i++ {
		if i%20 == 10 {
			fmt.Fprintf(&b, "line %d changed\n", i)
		} else {
			fmt.Fprintf(&b, "line %d\n", i)
		}
	}
	for f := range files {
		writeFile(t, dir, fmt.Sprintf("f%02d.txt", f), b.String())
	}
	return dir
}

// settle waits two frames, so that chunks scrolled into view are drawn
// and the page stops moving before the next click.
var settle = chromedp.Evaluate[bool](`new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`, chromedp.EvalAwaitPromise)

// A 20,000-line diff renders, takes a comment, keeps it through the split
// view and submits. How fast is BenchmarkBrowserTable's to say: a test
// on a loaded machine cannot judge time.
func TestBrowserLargeDiff(t *testing.T) {
	t.Parallel()
	dir := largeRepo(t, 10, 250)
	c, err := LoadChanges(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if lines := diffLines(c); lines != 20000 {
		t.Fatalf("the diff has %d lines, want 20000", lines)
	}

	page, _ := startServer(t, dir)
	b := newBrowser(t, 3*time.Minute)
	last := lineCell(9, "right", 4990)
	b.do(t, "load the page", chromedp.Navigate(page), chromedp.WaitReady(lineCell(0, "right", 10)))
	// Only the rows near the screen are drawn: the end comes with scrolling.
	b.do(t, "scroll to the end", chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, document.documentElement.scrollHeight)`))
	b.do(t, "wait for the last lines", chromedp.WaitReady(last), chromedp.ScrollIntoView(last))
	get(t, b, "let the page settle", settle)
	b.do(t, "click a line, type and save a comment", chromedp.Click(last), comment("Last change."))
	// The layout buttons are at the top of the page: the click scrolls
	// there, and the comment comes back on scrolling down again.
	b.do(t, "switch to the split view",
		chromedp.Click(chromedp.CSS(`#rfa-view button[data-view="side-by-side"]`)),
		chromedp.WaitReady(chromedp.CSS(`.rfa-split-table`)),
		chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, document.documentElement.scrollHeight)`),
		chromedp.WaitReady(chromedp.CSS(`.rfa-split-table .rfa-card`)),
	)
	if n := get(t, b, "count cards", chromedp.Evaluate[int](cardCount)); n != 1 {
		t.Fatalf("%d cards in the split view, want 1", n)
	}
	b.do(t, "submit", chromedp.Click(chromedp.CSS(`#rfa-submit`)), chromedp.WaitVisible(chromedp.CSS(`#rfa-result`)))
	b.checkLocalOnly(t, baseOf(t, page))
}

func diffLines(c Changes) int {
	var lines int
	for _, f := range c.Files {
		for _, h := range f.Hunks {
			lines += len(h.Lines)
		}
	}
	return lines
}

// A binary file shows as binary and takes only a file comment; a range
// cannot reach into another file.
func TestBrowserBinaryFileAndBadRange(t *testing.T) {
	t.Parallel()
	dir := newRepo(t, map[string]string{"a.txt": "a\nb\n", "b.txt": "x\n"})
	writeFile(t, dir, "a.txt", "a\nB\n")
	writeFile(t, dir, "b.txt", "y\n")
	writeFile(t, dir, "logo.png", "\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR")
	page, _ := startServer(t, dir)
	b := newBrowser(t, time.Minute)

	// Files by path: a.txt 0, b.txt 1, logo.png 2.
	b.do(t, "load the page", chromedp.Navigate(page), chromedp.WaitVisible(lineCell(0, "right", 2)))
	if n := get(t, b, "count binary line cells", chromedp.Evaluate[int](
		`document.querySelectorAll('.d2h-file-wrapper[data-rfa-file="2"] td[data-rfa-line]').length`)); n != 0 {
		t.Errorf("the binary file has %d commentable line numbers", n)
	}
	if txt := get(t, b, "read the binary file", chromedp.Text(chromedp.CSS(`.d2h-file-wrapper[data-rfa-file="2"] .d2h-file-diff`))); !strings.Contains(txt, "Binary file") {
		t.Errorf("binary file shows %q", txt)
	}
	b.do(t, "comment on the binary file",
		chromedp.Click(chromedp.CSS(`.d2h-file-wrapper[data-rfa-file="2"] button[data-rfa-action="file-comment"]`)),
		comment("Is this the final logo?"),
	)

	b.do(t, "start a range in a.txt", chromedp.Click(lineCell(0, "right", 2)), chromedp.WaitVisible(formText))
	other := get(t, b, "find a line of b.txt", chromedp.Nodes(lineCell(1, "right", 1)))
	b.do(t, "shift-click into b.txt",
		chromedp.MouseClickNode(other[0], chromedp.ButtonModifiers(chromedp.ModifierShift)),
		chromedp.WaitVisible(chromedp.CSS(`#rfa-toast`)),
	)
	if msg := get(t, b, "read the toast", chromedp.Text(chromedp.CSS(`#rfa-toast`))); msg != "A range must stay within one file." {
		t.Errorf("toast = %q", msg)
	}
	// The toast text is replaced, not appended: wait for the new one.
	oldLine := get(t, b, "find an old line of a.txt", chromedp.Nodes(lineCell(0, "left", 2)))
	b.do(t, "shift-click the old side", chromedp.MouseClickNode(oldLine[0], chromedp.ButtonModifiers(chromedp.ModifierShift)))
	get(t, b, "wait for the side toast", chromedp.Poll[bool](`document.getElementById('rfa-toast').textContent.includes('one side')`))
	b.do(t, "finish the line comment", comment("Capital B?"))

	// A comment that is deleted again leaves no trace in the files.
	b.do(t, "comment and delete",
		chromedp.Click(lineCell(1, "right", 1)),
		comment("Never mind."),
		chromedp.Click(chromedp.CSS(`.rfa-card[data-rfa-id="3"] button[data-rfa-action="delete"]`)),
		chromedp.WaitNotPresent(chromedp.CSS(`.rfa-card[data-rfa-id="3"]`)),
	)
	if badge := get(t, b, "read the badge", chromedp.Text(chromedp.CSS(`#rfa-count`))); badge != "2" {
		t.Errorf("badge = %q after deleting, want 2", badge)
	}
	b.do(t, "submit", chromedp.Click(chromedp.CSS(`#rfa-submit`)), chromedp.WaitVisible(chromedp.CSS(`#rfa-result`)))
	md := strings.TrimPrefix(get(t, b, "read the prompt", chromedp.Text(chromedp.CSS(`#rfa-prompt`))), "Address the review comments in ")
	got, err := os.ReadFile(filepath.Join(dir, md))
	if err != nil {
		t.Fatal(err)
	}
	want := "# Code Review Comments\n\n## a.txt\n\n### Line 2\nIn `@@ -1,2 +1,2 @@`:\n```\n  1  a\n    -b\n> 2 +B\n```\n```\nCapital B?\n```\n" +
		"\n## logo.png (file-level)\n```\nIs this the final logo?\n```\n"
	// Then what was reviewed, which TestBrowserReview's golden file shows.
	if !strings.HasPrefix(string(got), want+"\n## What was reviewed\n") {
		t.Errorf("%s =\n%s\nwant\n%s", md, got, want)
	}
	b.checkLocalOnly(t, baseOf(t, page))
}
