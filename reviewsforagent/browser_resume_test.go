package reviewsforagent

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/review-my-code-bot/rmc/inbox"
)

// runStart runs the start command's server on dir with store until the
// returned stop is called, as Ctrl+C would.
func runStart(t *testing.T, dir string, store *inbox.Store) (page string, out *syncBuffer, stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out = &syncBuffer{}
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, RunOptions{Dir: dir, Port: 0, StrictPort: true, Out: out, Store: store, Ready: func(u string) { ready <- u }})
	}()
	stopped := false
	stop = func() {
		if stopped {
			return
		}
		stopped = true
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	}
	t.Cleanup(stop)
	select {
	case page = <-ready:
	case err := <-done:
		t.Fatalf("Run ended early: %v\n%s", err, out)
	case <-time.After(30 * time.Second):
		t.Fatal("server not ready")
	}
	return page, out, stop
}

// Comments written and not submitted survive stopping start (Ctrl+C): the
// next start in the repository shows them again. Only "Discard review"
// throws them away.
func TestBrowserDraftSurvivesStop(t *testing.T) {
	t.Parallel()
	dir := newRepo(t, map[string]string{"a.txt": "one\ntwo\nthree\n"})
	writeFile(t, dir, "a.txt", "one\n2\nthree\n")
	store, err := inbox.Open(filepath.Join(t.TempDir(), "reviews.jsonl"), inbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	page, out, stop := runStart(t, dir, store)
	b := newBrowser(t, 2*time.Minute)
	saved := chromedp.Poll[bool](`document.getElementById('rfa-draft-status').textContent === 'Draft saved.'`)
	b.do(t, "load", chromedp.Navigate(page), chromedp.WaitVisible(lineCell(0, "right", 2)))
	b.do(t, "comment", chromedp.Click(lineCell(0, "right", 2)), comment("Spell it out: `two`."))
	get(t, b, "wait for the draft to be saved", saved)
	stop() // Ctrl+C
	if !strings.Contains(out.String(), "Your unsent comments are kept") {
		t.Errorf("stopping says nothing of the draft:\n%s", out)
	}

	page2, out2, _ := runStart(t, dir, store)
	if !strings.Contains(out2.String(), "Your unsent comments from ") {
		t.Errorf("the second start says nothing of the draft:\n%s", out2)
	}
	if first, second := recordedID(t, out.String()), recordedID(t, out2.String()); first != second {
		t.Errorf("the second start is review %s, the first was %s: the id printed first went stale", second, first)
	}
	b.do(t, "load the second start", chromedp.Navigate(page2), chromedp.WaitVisible(chromedp.CSS(`.rfa-card`)))
	if txt := get(t, b, "read the card", chromedp.Text(chromedp.CSS(`.rfa-card .rfa-card-body`))); !strings.Contains(txt, "Spell it out") {
		t.Errorf("restored card = %q", txt)
	}
	// The body is Markdown: the inline code is code, not backticks.
	get(t, b, "wait for the Markdown", chromedp.Poll[bool](`!!document.querySelector('.rfa-card .rfa-card-body code')`))
	if txt := get(t, b, "read the code", chromedp.Text(chromedp.CSS(`.rfa-card .rfa-card-body code`))); txt != "two" {
		t.Errorf("code = %q", txt)
	}

	b.do(t, "discard", chromedp.Click(chromedp.CSS(`#rfa-discard`)), chromedp.WaitVisible(chromedp.CSS(`#rfa-notice`)))
	if txt := get(t, b, "read the notice", chromedp.Text(chromedp.CSS(`#rfa-notice`))); !strings.Contains(txt, "discarded") {
		t.Errorf("notice = %q", txt)
	}
	b.mu.Lock()
	dialogs := strings.Join(b.dialogs, ",")
	b.mu.Unlock()
	if !strings.Contains(dialogs, "confirm") {
		t.Errorf("discarding asked nothing first (dialogs %q)", dialogs)
	}
	snap, err := store.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	open := 0
	for _, r := range snap.Records() {
		if r.Status == inbox.StatusOpen {
			open++
		}
	}
	if open != 0 {
		t.Errorf("%d reviews still open after discarding", open)
	}
	entries, _ := os.ReadDir(filepath.Join(dir, OutputDir))
	if len(entries) != 0 {
		t.Errorf("discarding wrote %d files", len(entries))
	}
}

// A comment can suggest a change: the form puts the line in a suggestion
// block, the card shows it as a suggested change, raw HTML in a comment
// shows as nothing, and the .md export keeps the block for the agent.
func TestBrowserMarkdownSuggestion(t *testing.T) {
	t.Parallel()
	dir := newRepo(t, map[string]string{"a.go": "package a\n\nvar x = 1\n"})
	writeFile(t, dir, "a.go", "package a\n\nvar x = 2\n")
	page, _ := startServer(t, dir)
	b := newBrowser(t, time.Minute)
	b.do(t, "load", chromedp.Navigate(page), chromedp.WaitVisible(lineCell(0, "right", 3)))
	b.do(t, "open a form", chromedp.Click(lineCell(0, "right", 3)), chromedp.WaitVisible(formText))
	b.do(t, "suggest", chromedp.Click(chromedp.CSS(`.rfa-form button[data-rfa-action="suggest"]`)))
	if v := get(t, b, "read the form", chromedp.Value(formText)); v != "```suggestion\nvar x = 2\n```\n" {
		t.Fatalf("form = %q", v)
	}
	b.do(t, "edit the suggestion and add HTML",
		chromedp.Evaluate[chromedp.Void](`(() => { const ta = document.querySelector('.rfa-form textarea'); ta.value = ta.value.replace('x = 2', 'x = two'); ta.dispatchEvent(new Event('input', {bubbles: true})); })()`),
		chromedp.SendKeys(formText, `<img src=x onerror="document.body.dataset.pwned=1"> **Why?**`),
		chromedp.Click(chromedp.CSS(`.rfa-form button[data-rfa-action="preview"]`)),
	)
	get(t, b, "wait for the preview", chromedp.Poll[bool](`!!document.querySelector('.rfa-preview .rfa-suggestion')`))
	b.do(t, "save", chromedp.Click(formSave), chromedp.WaitNotPresent(formText))
	get(t, b, "wait for the card", chromedp.Poll[bool](`!!document.querySelector('.rfa-card .rfa-suggestion')`))
	if txt := get(t, b, "read the suggestion", chromedp.Text(chromedp.CSS(`.rfa-card .rfa-suggestion`))); !strings.Contains(txt, "Suggested change") || !strings.Contains(txt, "var x = two") {
		t.Errorf("suggestion = %q", txt)
	}
	if bad := get(t, b, "look for injected markup", chromedp.Evaluate[bool](`!!document.body.dataset.pwned || !!document.querySelector('.rfa-card img')`)); bad {
		t.Error("HTML in a comment was rendered")
	}
	if strong := get(t, b, "read the bold text", chromedp.Text(chromedp.CSS(`.rfa-card strong`))); strong != "Why?" {
		t.Errorf("bold = %q", strong)
	}
	b.do(t, "submit", chromedp.Click(chromedp.CSS(`#rfa-submit`)), chromedp.WaitVisible(chromedp.CSS(`#rfa-result`)))
	md := strings.TrimPrefix(get(t, b, "read the prompt", chromedp.Text(chromedp.CSS(`#rfa-prompt`))), "Address the review comments in ")
	got, err := os.ReadFile(filepath.Join(dir, md))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(got), "```suggestion\nvar x = two\n```") {
		t.Errorf("%s lacks the suggestion block:\n%s", md, got)
	}
	// The result folds away to one line.
	b.do(t, "hide the details", chromedp.Click(chromedp.CSS(`#rfa-result-toggle`)), chromedp.WaitNotVisible(chromedp.CSS(`#rfa-result-details`)))
	b.checkLocalOnly(t, baseOf(t, page))
}

// The file tree lists the files under their directories, with their
// comment counts; a directory's row folds it; the filter narrows the tree
// and the diff; a click goes to the file.
func TestBrowserFileTree(t *testing.T) {
	t.Parallel()
	files := map[string]string{}
	for _, name := range []string{"cmd/main.go", "pkg/a.go", "pkg/b.go", "docs/readme.md"} {
		files[name] = "one\ntwo\n"
	}
	dir := newRepo(t, files)
	for name := range files {
		writeFile(t, dir, name, "one\n2\n")
	}
	page, _ := startServer(t, dir)
	b := newBrowser(t, time.Minute)
	visible := chromedp.Evaluate[string](`Array.from(document.querySelectorAll('.d2h-file-wrapper')).filter(w => !w.hidden).map(w => w.querySelector('.d2h-file-name').textContent).join(',')`)
	listed := chromedp.Evaluate[string](`Array.from(document.querySelectorAll('#rfa-tree-list li[data-rfa-file]')).filter(li => !li.hidden).map(li => li.querySelector('a').title).join(',')`)
	b.do(t, "load", chromedp.Navigate(page), chromedp.WaitVisible(chromedp.CSS(`#rfa-tree-list li[data-rfa-file]`)))
	if got := get(t, b, "list the tree", listed); got != "cmd/main.go,docs/readme.md,pkg/a.go,pkg/b.go" {
		t.Errorf("tree = %q", got)
	}
	// Files by path: pkg/b.go is file 3.
	b.do(t, "comment on pkg/b.go", chromedp.Click(lineCell(3, "right", 2)), comment("Why 2?"))
	if n := get(t, b, "read the count", chromedp.Text(chromedp.CSS(`#rfa-tree-list li[data-rfa-file="3"] .rfa-tree-count`))); n != "1" {
		t.Errorf("pkg/b.go shows %q comments", n)
	}
	// Directories have rows of their own, which fold what is under them.
	folders := chromedp.Evaluate[string](`Array.from(document.querySelectorAll('#rfa-tree-list li.rfa-tree-folder')).filter(li => !li.hidden).map(li => li.textContent).join(',')`)
	if got := get(t, b, "list the directories", folders); got != "cmd/,docs/,pkg/" {
		t.Errorf("directories = %q", got)
	}
	pkg := chromedp.CSS(`#rfa-tree-list li[data-rfa-dir="pkg/"] button`)
	b.do(t, "fold pkg/", chromedp.Click(pkg))
	if got := get(t, b, "list the tree", listed); got != "cmd/main.go,docs/readme.md" {
		t.Errorf("with pkg/ folded the tree lists %q", got)
	}
	if got := get(t, b, "read pkg/'s state", chromedp.Evaluate[string](`document.querySelector('#rfa-tree-list li[data-rfa-dir="pkg/"] button').getAttribute('aria-expanded')`)); got != "false" {
		t.Errorf("folded pkg/ says aria-expanded=%s", got)
	}
	b.do(t, "unfold pkg/", chromedp.Click(pkg))
	if got := get(t, b, "list the tree", listed); got != "cmd/main.go,docs/readme.md,pkg/a.go,pkg/b.go" {
		t.Errorf("with pkg/ unfolded again the tree lists %q", got)
	}
	b.do(t, "filter", chromedp.SendKeys(chromedp.CSS(`#rfa-tree-filter`), "pkg"))
	get(t, b, "wait for the filter", chromedp.Poll[bool](`document.getElementById('rfa-tree-shown').textContent === '2 of 4 files'`))
	if got := get(t, b, "list the tree", listed); got != "pkg/a.go,pkg/b.go" {
		t.Errorf("filtered tree = %q", got)
	}
	if got := get(t, b, "list the diff", visible); got != "pkg/a.go,pkg/b.go" {
		t.Errorf("filtered diff = %q", got)
	}
	if got := get(t, b, "list the directories", folders); got != "pkg/" {
		t.Errorf("filtered directories = %q", got)
	}
	b.do(t, "go to pkg/b.go", chromedp.Click(chromedp.CSS(`#rfa-tree-list li[data-rfa-file="3"] a`)))
	if f := get(t, b, "which file has the focus", chromedp.Evaluate[string](`document.activeElement.closest('.d2h-file-wrapper').dataset.rfaFile`)); f != "3" {
		t.Errorf("after the click the focus is in file %s, want 3", f)
	}
	b.checkLocalOnly(t, baseOf(t, page))
}

// "Expand context" shows the unchanged lines above a hunk and below the
// last one, twenty at a time, from the version the diff is against; they
// are shown, not commented on.
func TestBrowserExpandContext(t *testing.T) {
	t.Parallel()
	dir := newRepo(t, map[string]string{"a.txt": numbered(60)})
	writeFile(t, dir, "a.txt", strings.Replace(numbered(60), "line 30\n", "line thirty\n", 1))
	page, _ := startServer(t, dir)
	b := newBrowser(t, time.Minute)
	codeLines := chromedp.Evaluate[string](`Array.from(document.querySelectorAll('.d2h-file-wrapper[data-rfa-file="0"] tr.rfa-r .d2h-code-line-ctn')).map(c => c.textContent).join('|')`)
	b.do(t, "load", chromedp.Navigate(page), chromedp.WaitVisible(lineCell(0, "right", 30)))
	if got := get(t, b, "read the lines", codeLines); got != "line 27|line 28|line 29|line 30|line thirty|line 31|line 32|line 33" {
		t.Fatalf("lines = %q", got)
	}
	up := chromedp.CSS(`.d2h-file-wrapper[data-rfa-file="0"] button[data-rfa-action="expand"][data-rfa-hunk="0"]`)
	down := chromedp.CSS(`.d2h-file-wrapper[data-rfa-file="0"] button[data-rfa-action="expand"][data-rfa-hunk="1"]`)
	b.do(t, "show more above", chromedp.Click(up))
	get(t, b, "wait for the lines above", chromedp.Poll[bool](`Array.from(document.querySelectorAll('.d2h-code-line-ctn')).some(c => c.textContent === 'line 7')`))
	got := get(t, b, "read the lines", codeLines)
	if !strings.HasPrefix(got, "line 7|line 8|") || strings.Contains(got, "line 6|") || !strings.Contains(got, "line 26|line 27|") {
		t.Errorf("after one expand above: %q", got)
	}
	if n := get(t, b, "count commentable lines", chromedp.Evaluate[int](`document.querySelectorAll('.d2h-file-wrapper[data-rfa-file="0"] td[data-rfa-line]').length`)); n != 8 {
		t.Errorf("%d commentable lines, want the diff's 8 only", n)
	}
	b.do(t, "show more above again", chromedp.Click(up))
	get(t, b, "wait for line 1", chromedp.Poll[bool](`Array.from(document.querySelectorAll('.d2h-code-line-ctn')).some(c => c.textContent === 'line 1')`))
	if n := get(t, b, "count the buttons above", chromedp.Evaluate[int](`document.querySelectorAll('button[data-rfa-action="expand"][data-rfa-hunk="0"]').length`)); n != 0 {
		t.Errorf("the top of the file reached, %d buttons above remain", n)
	}
	b.do(t, "show more below", chromedp.Click(down))
	get(t, b, "wait for line 53", chromedp.Poll[bool](`Array.from(document.querySelectorAll('.d2h-code-line-ctn')).some(c => c.textContent === 'line 53')`))
	b.do(t, "show the rest below", chromedp.Click(down))
	get(t, b, "wait for the end", chromedp.Poll[bool](`document.querySelectorAll('button[data-rfa-action="expand"]').length === 0`))
	if got := get(t, b, "read the lines", codeLines); !strings.HasSuffix(got, "|line 59|line 60") {
		t.Errorf("after expanding to the end: %q", got)
	}
	b.checkLocalOnly(t, baseOf(t, page))
}
