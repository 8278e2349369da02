package reviewsforagent

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// A diff of hundreds of files keeps only the files near the screen in
// the page, and the tree only the rows in its view; the rest are spacers
// as tall as they would be. Everything that goes to a file does so by its
// index, not by an element: the tree, n/p, j/k, find, and a form left
// open on a file scrolled away.
func TestBrowserManyFilesWindowed(t *testing.T) {
	t.Parallel()
	const small = 400
	base := map[string]string{"a/big.go": numbered(2000)}
	for i := range small {
		base[fmt.Sprintf("pkg/d%02d/f%03d.go", i/20, i)] = "one\ntwo\nthree\n"
	}
	dir := newRepo(t, base)
	writeFile(t, dir, "a/big.go", strings.ReplaceAll(numbered(2000), "line", "LINE")) // one hunk of 4,000 rows
	for i := range small {
		body := fmt.Sprintf("one\nfile %d\nthree\n", i)
		if i == 333 {
			body = "one\nthe Needle is here\nthree\n"
		}
		writeFile(t, dir, fmt.Sprintf("pkg/d%02d/f%03d.go", i/20, i), body)
	}
	page, _ := startServer(t, dir)
	b := newBrowser(t, 2*time.Minute)
	wrappers := chromedp.Evaluate[int](`document.querySelectorAll('.d2h-file-wrapper').length`)
	treeRows := chromedp.Evaluate[int](`document.querySelectorAll('#rfa-tree-list li').length`)
	focusedFile := chromedp.Evaluate[string](`(document.activeElement.closest('.d2h-file-wrapper') || {dataset: {}}).dataset.rfaFile || ''`)
	bounded := func(step string) {
		t.Helper()
		if n := get(t, b, "count the files in the page", wrappers); n < 1 || n > 60 {
			t.Errorf("%s: %d of %d files in the page", step, n, small+1)
		}
		if n := get(t, b, "count the tree's rows", treeRows); n < 1 || n > 120 {
			t.Errorf("%s: %d rows of the tree in the page (%d files, 21 directories)", step, n, small+1)
		}
	}

	b.do(t, "load", chromedp.Navigate(page), chromedp.WaitVisible(lineCell(0, "left", 5)))
	bounded("loaded")
	if h := get(t, b, "page height", chromedp.Evaluate[int](`document.documentElement.scrollHeight`)); h < 4000*20+small*100 {
		t.Errorf("the page is %d px high: the files out of the page take no room", h)
	}

	// j from the big file's only hunk goes to the next file's, which is
	// 80,000 px below, out of the page until then.
	b.do(t, "next hunk into a file out of the page",
		chromedp.Focus(lineCell(0, "left", 5)), chromedp.KeyEvent("k"), chromedp.KeyEvent("j"))
	if f := get(t, b, "which file has the focus", focusedFile); f != "1" {
		t.Errorf("after j from the big file's hunk the focus is in file %q, want 1", f)
	}
	if txt := get(t, b, "read the focused hunk", chromedp.Evaluate[string](`document.activeElement.textContent`)); !strings.Contains(txt, "@@ -1,3 +1,3 @@") {
		t.Errorf("after j the focus is on %q, want file 1's hunk", txt)
	}

	// A form left open on a file, scrolled far away and back, keeps its
	// text.
	b.do(t, "open a form on file 2", chromedp.Click(lineCell(2, "right", 2)), chromedp.WaitVisible(formText),
		chromedp.SendKeys(formText, "Kept while away."))
	b.do(t, "scroll to the end", chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, document.documentElement.scrollHeight)`))
	get(t, b, "wait for the last file", chromedp.Poll[bool](fmt.Sprintf(`!!document.querySelector('.d2h-file-wrapper[data-rfa-file="%d"]')`, small)))
	bounded("at the end")
	if get(t, b, "is file 2 in the page", chromedp.Evaluate[bool](`!!document.querySelector('.d2h-file-wrapper[data-rfa-file="2"]')`)) {
		t.Error("file 2, far above the screen, is still in the page")
	}
	// The tree goes to a file out of the page; its rows come as it scrolls.
	b.do(t, "scroll the tree to the top", chromedp.Evaluate[chromedp.Void](`document.getElementById('rfa-tree').scrollTop = 0`))
	get(t, b, "wait for file 2's row", chromedp.Poll[bool](`!!document.querySelector('#rfa-tree-list li[data-rfa-file="2"]')`))
	b.do(t, "go to file 2 from the tree", chromedp.Click(chromedp.CSS(`#rfa-tree-list li[data-rfa-file="2"] a`)))
	if f := get(t, b, "which file has the focus", focusedFile); f != "2" {
		t.Errorf("after the tree's click the focus is in file %q, want 2", f)
	}
	get(t, b, "wait for the form", chromedp.Poll[bool](`!!document.querySelector('.d2h-file-wrapper[data-rfa-file="2"] .rfa-form textarea')`))
	if v := get(t, b, "read the form", chromedp.Value(formText)); v != "Kept while away." {
		t.Errorf("the form came back with %q", v)
	}
	b.do(t, "save it", chromedp.Click(formSave), chromedp.WaitNotPresent(formText))
	if n := get(t, b, "read the tree's count", chromedp.Text(chromedp.CSS(`#rfa-tree-list li[data-rfa-file="2"] .rfa-tree-count`))); n != "1" {
		t.Errorf("file 2's row counts %q comments", n)
	}

	// n and p go from file to file by index, past the page's edge.
	b.do(t, "next file", chromedp.Focus(lineCell(2, "right", 2)), chromedp.KeyEvent("n"), chromedp.KeyEvent("n"))
	if f := get(t, b, "which file has the focus", focusedFile); f != "4" {
		t.Errorf("after n n from file 2 the focus is in file %q, want 4", f)
	}
	b.do(t, "previous file", chromedp.KeyEvent("p"))
	if f := get(t, b, "which file has the focus", focusedFile); f != "3" {
		t.Errorf("after p the focus is in file %q, want 3", f)
	}

	// Find goes to a match in a file out of the page.
	b.do(t, "find", chromedp.KeyEvent("f", chromedp.KeyModifiers(chromedp.ModifierCtrl)), chromedp.WaitVisible(chromedp.CSS(`#rfa-find-input`)),
		chromedp.SendKeys(chromedp.CSS(`#rfa-find-input`), "needle"))
	get(t, b, "wait for the match", chromedp.Poll[bool](`document.getElementById('rfa-find-count').textContent === '1 of 1'`,
		chromedp.WithPollingTimeout(30*time.Second)))
	get(t, b, "wait for the match drawn", chromedp.Poll[bool](`!!document.querySelector('mark.rfa-found-now')`))
	if f := get(t, b, "where the match is", chromedp.Evaluate[string](`document.querySelector('mark.rfa-found-now').closest('.d2h-file-wrapper').dataset.rfaFile`)); f != "334" {
		t.Errorf("the match is drawn in file %s, want 334 (pkg/d16/f333.go)", f)
	}
	b.do(t, "close the find box", chromedp.KeyEvent("\x1b"))
	bounded("after find")

	// The filter narrows the diff and the tree; the spacers follow.
	b.do(t, "filter", chromedp.SendKeys(chromedp.CSS(`#rfa-tree-filter`), "d19/"))
	get(t, b, "wait for the filter", chromedp.Poll[bool](`document.getElementById('rfa-tree-shown').textContent === '20 of 401 files'`))
	b.do(t, "scroll to the top", chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`))
	get(t, b, "wait for the first file kept", chromedp.Poll[bool](`(document.querySelector('.d2h-file-wrapper .d2h-file-name') || {}).textContent === 'pkg/d19/f380.go'`))
	got := get(t, b, "list the files in the page", chromedp.Evaluate[string](`Array.from(document.querySelectorAll('.d2h-file-wrapper .d2h-file-name'), (n) => n.textContent).join(',')`))
	if strings.Contains(strings.ReplaceAll(got, "pkg/d19/", ""), "/") {
		t.Errorf("filtered, the page shows files the filter hides: %s", got)
	}
	b.checkLocalOnly(t, baseOf(t, page))
}
