package reviewsforagent

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// A reviewer can work from the keyboard: line numbers are focusable and
// labelled, c comments on the focused one, Ctrl+Enter saves, n and j move
// between files and hunks. Viewed files stay folded across a reload.
func TestBrowserKeyboardAndViewed(t *testing.T) {
	t.Parallel()
	dir := newRepo(t, map[string]string{"a.txt": numbered(40), "b.txt": "x\n"})
	a := strings.Replace(numbered(40), "line 5\n", "line five\n", 1)
	a = strings.Replace(a, "line 30\n", "line thirty\n", 1)
	writeFile(t, dir, "a.txt", a)
	writeFile(t, dir, "b.txt", "y\n")
	page, _ := startServer(t, dir)
	b := newBrowser(t, time.Minute)

	b.do(t, "load", chromedp.Navigate(page), chromedp.WaitVisible(lineCell(0, "right", 5)))
	attrs := get(t, b, "read a line number's attributes", chromedp.Evaluate[[]any](
		`(c => [c.tabIndex, c.getAttribute('role'), c.getAttribute('aria-label')])(document.querySelector('.d2h-file-wrapper[data-rfa-file="0"] td[data-rfa-side="right"][data-rfa-line="5"]'))`))
	if attrs[0] != float64(0) || attrs[1] != "button" || attrs[2] != "Comment on line 5" {
		t.Errorf("line number attributes = %v", attrs)
	}
	b.do(t, "comment from the keyboard",
		chromedp.Focus(lineCell(0, "right", 5)),
		chromedp.KeyEvent("c"),
		chromedp.WaitVisible(formText),
		chromedp.SendKeys(formText, "Spell it as a number."),
		chromedp.KeyEvent("\r", chromedp.KeyModifiers(chromedp.ModifierCtrl)),
		chromedp.WaitNotPresent(formText),
	)
	if txt := get(t, b, "read the card", chromedp.Text(chromedp.CSS(`.rfa-card`))); !strings.Contains(txt, "Line 5") || !strings.Contains(txt, "Spell it as a number.") {
		t.Errorf("card = %q", txt)
	}
	// From the first file's line, n goes to the next file; j from there
	// to the next hunk, in b.txt.
	b.do(t, "next file", chromedp.Focus(lineCell(0, "right", 5)), chromedp.KeyEvent("n"))
	if f := get(t, b, "which file has the focus", chromedp.Evaluate[string](`document.activeElement.closest('.d2h-file-wrapper').dataset.rfaFile`)); f != "1" {
		t.Errorf("after n the focus is in file %s, want 1", f)
	}
	// k from a line goes to its hunk's header, then to the hunk before.
	b.do(t, "previous hunk", chromedp.Focus(lineCell(1, "right", 1)), chromedp.KeyEvent("k"))
	if txt := get(t, b, "read the focused hunk", chromedp.Evaluate[string](`document.activeElement.textContent`)); !strings.Contains(txt, "@@ -1 +1 @@") {
		t.Errorf("after k the focus is on %q, want the hunk of b.txt", txt)
	}
	b.do(t, "previous hunk again", chromedp.KeyEvent("k"))
	if txt := get(t, b, "read the focused hunk", chromedp.Evaluate[string](`document.activeElement.textContent`)); !strings.Contains(txt, "@@ -27,") {
		t.Errorf("after k again the focus is on %q, want the second hunk of a.txt", txt)
	}
	b.do(t, "next hunk", chromedp.KeyEvent("j"))
	if txt := get(t, b, "read the focused hunk", chromedp.Evaluate[string](`document.activeElement.textContent`)); !strings.Contains(txt, "@@ -1 +1 @@") {
		t.Errorf("after j the focus is on %q, want the hunk of b.txt", txt)
	}

	b.do(t, "mark b.txt viewed", chromedp.Click(chromedp.CSS(`.d2h-file-wrapper[data-rfa-file="1"] .d2h-file-collapse`)))
	get(t, b, "wait for the count", chromedp.Poll[bool](`document.getElementById('rfa-viewed').textContent === '1 of 2 viewed'`))
	if !get(t, b, "is it folded", chromedp.Evaluate[bool](`!!document.querySelector('.d2h-file-wrapper[data-rfa-file="1"] .d2h-file-diff.d2h-d-none')`)) {
		t.Error("b.txt, marked viewed, still shows its diff")
	}
	b.do(t, "reload", chromedp.Reload(), chromedp.WaitVisible(lineCell(0, "right", 5)))
	folded := get(t, b, "read the folding", chromedp.Evaluate[[]any](`[
		document.querySelector('.d2h-file-wrapper[data-rfa-file="1"] .d2h-file-collapse-input').checked,
		!!document.querySelector('.d2h-file-wrapper[data-rfa-file="1"] .d2h-file-diff.d2h-d-none'),
		!!document.querySelector('.d2h-file-wrapper[data-rfa-file="0"] .d2h-file-diff.d2h-d-none'),
		document.getElementById('rfa-viewed').textContent]`))
	if folded[0] != true || folded[1] != true || folded[2] != false || folded[3] != "1 of 2 viewed" {
		t.Errorf("after the reload: checked, folded, first folded, count = %v", folded)
	}
	b.checkLocalOnly(t, baseOf(t, page))
}

// The page follows the system's dark mode, the diff included.
func TestBrowserDarkMode(t *testing.T) {
	t.Parallel()
	dir := newRepo(t, map[string]string{"a.go": "package a\n\nvar x = 1\n"})
	writeFile(t, dir, "a.go", "package a\n\nvar x = 2\n")
	page, _ := startServer(t, dir)
	b := newBrowser(t, time.Minute)
	// Backgrounds of the page, a file header and a context line, and the
	// colour of code text inverted (dark text in light mode reads as light).
	colors := `(() => {
		// The colour an element's background shows: its own, else the
		// nearest ancestor's that is not transparent.
		const bg = (el) => {
			for (; el; el = el.parentElement) {
				const c = getComputedStyle(el).backgroundColor;
				if (c !== 'rgba(0, 0, 0, 0)' && c !== 'transparent') { return c; }
			}
			return 'rgb(255, 255, 255)';
		};
		const inv = (c) => { const [r, g, b] = c.match(/\d+/g).map(Number); return 'rgb(' + (255 - r) + ', ' + (255 - g) + ', ' + (255 - b) + ')'; };
		return [bg(document.body), bg(document.querySelector('.d2h-file-header')),
			bg(document.querySelector('td.d2h-cntx:not(.d2h-code-linenumber)')),
			inv(getComputedStyle(document.querySelector('.d2h-code-line-ctn')).color)];
	})()`
	dark := func(rgb any) bool {
		var r, g, bl int
		s, _ := rgb.(string)
		if _, err := fmtSscanf(s, &r, &g, &bl); err != nil {
			return false
		}
		return r+g+bl < 3*90
	}
	b.do(t, "load in light mode", chromedp.Navigate(page), chromedp.WaitVisible(lineCell(0, "right", 3)))
	for i, c := range get(t, b, "read the light colours", chromedp.Evaluate[[]any](colors)) {
		if dark(c) {
			t.Errorf("light mode: colour %d is dark: %v", i, c)
		}
	}
	if _, err := chromedp.Call(b.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}}); err != nil {
		t.Fatalf("emulate dark mode: %v", err)
	}
	b.do(t, "reload in dark mode", chromedp.Reload(), chromedp.WaitVisible(lineCell(0, "right", 3)))
	for i, c := range get(t, b, "read the dark colours", chromedp.Evaluate[[]any](colors)) {
		if !dark(c) {
			t.Errorf("dark mode: colour %d is light: %v", i, c)
		}
	}
	saveScreenshot(t, "review-dark.png", get(t, b, "screenshot in dark mode", chromedp.FullScreenshot(100)))
	b.checkLocalOnly(t, baseOf(t, page))
}

// fmtSscanf reads "rgb(r, g, b)" or "rgba(r, g, b, a)".
func fmtSscanf(s string, r, g, b *int) (int, error) {
	s = strings.TrimPrefix(strings.TrimPrefix(s, "rgba("), "rgb(")
	return fmt.Sscanf(s, "%d, %d, %d", r, g, b)
}

// Lock files and other folded files show why, and their diff on request;
// a restored comment on a folded file's line unfolds it.
func TestBrowserFoldedFiles(t *testing.T) {
	t.Parallel()
	dir := newRepo(t, map[string]string{"a.txt": "a\n", "go.sum": "x v1 h1:old\n"})
	writeFile(t, dir, "a.txt", "b\n")
	writeFile(t, dir, "go.sum", "x v1 h1:new\n")
	page, _ := startServer(t, dir)
	b := newBrowser(t, time.Minute)
	// Files by path: a.txt 0, go.sum 1.
	b.do(t, "load", chromedp.Navigate(page), chromedp.WaitVisible(chromedp.CSS(`.d2h-file-wrapper[data-rfa-file="1"] .rfa-folded`)))
	if txt := get(t, b, "read the notice", chromedp.Text(chromedp.CSS(`.rfa-folded`))); !strings.Contains(txt, "Diff not shown: a lock file.") {
		t.Errorf("notice = %q", txt)
	}
	if n := get(t, b, "count go.sum's lines", chromedp.Evaluate[int](`document.querySelectorAll('.d2h-file-wrapper[data-rfa-file="1"] td[data-rfa-line]').length`)); n != 0 {
		t.Errorf("the folded file shows %d line numbers", n)
	}
	b.do(t, "load its diff", chromedp.Click(chromedp.CSS(`.d2h-file-wrapper[data-rfa-file="1"] button[data-rfa-action="load-diff"]`)),
		chromedp.WaitVisible(lineCell(1, "right", 1)))
	b.do(t, "comment on it", chromedp.Click(lineCell(1, "right", 1)), comment("Why the new hash?"))
	get(t, b, "wait for the draft to be saved", chromedp.Poll[bool](`document.getElementById('rfa-draft-status').textContent === 'Draft saved.'`))
	b.do(t, "reload", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(`.d2h-file-wrapper[data-rfa-file="1"] .rfa-card`)))
	if n := get(t, b, "count notices", chromedp.Evaluate[int](`document.querySelectorAll('.rfa-folded').length`)); n != 0 {
		t.Errorf("the commented file is still folded (%d notices)", n)
	}
	b.checkLocalOnly(t, baseOf(t, page))
}

// Only the rows near the screen are in the page, highlighted (by a
// worker, so soon after) as they are drawn: a 6,000-line diff has a few
// hundred rows in the DOM at the top, and after scrolling to the end, the
// last lines (highlighted) instead of the first.
func TestBrowserVirtualRows(t *testing.T) {
	t.Parallel()
	goFile := func(n int) string {
		var s strings.Builder
		s.WriteString("package a\n\nfunc f() {\n")
		for i := 4; i < n; i++ {
			fmt.Fprintf(&s, "\tx := %d // step\n", i)
		}
		s.WriteString("}\n")
		return s.String()
	}
	dir := newRepo(t, map[string]string{"keep.txt": "k\n"})
	writeFile(t, dir, "a.go", goFile(3000))
	writeFile(t, dir, "b.go", goFile(3000))
	page, _ := startServer(t, dir)
	b := newBrowser(t, 2*time.Minute)
	firstSel := `.d2h-file-wrapper[data-rfa-file="0"] td[data-rfa-side="right"][data-rfa-line="5"]`
	lastSel := `.d2h-file-wrapper[data-rfa-file="1"] td[data-rfa-side="right"][data-rfa-line="2999"]`
	present := func(sel string) chromedp.Action[bool] {
		return chromedp.Evaluate[bool](`!!document.querySelector('` + sel + `')`)
	}
	rows := chromedp.Evaluate[int](`document.querySelectorAll('tr.rfa-r').length`)
	tokens := func(sel string) chromedp.Action[bool] {
		return chromedp.Poll[bool](`document.querySelector('`+sel+`').closest('tr').querySelectorAll('.hljs-comment, .hljs-number').length > 0`,
			chromedp.WithPollingTimeout(30*time.Second))
	}
	b.do(t, "load", chromedp.Navigate(page), chromedp.WaitReady(chromedp.CSS(firstSel)))
	if get(t, b, "is the last line drawn", present(lastSel)) {
		t.Error("the last line, far off screen, is in the page")
	}
	if n := get(t, b, "count rows", rows); n < 20 || n > 500 {
		t.Errorf("%d rows in the page at the top of a 6,000-row diff", n)
	}
	if _, err := chromedp.Run(b.ctx, tokens(firstSel)); err != nil {
		t.Errorf("the first line has no highlighted tokens: %v", err)
	}
	// Where a row is drawn is arithmetic: every row is exactly ROW (20)
	// pixels high, its line numbers in cells of their own.
	heights := get(t, b, "row heights", chromedp.Evaluate[[]any](`Array.from(new Set(Array.from(document.querySelectorAll('tr.rfa-r, tr.rfa-h'), (tr) => tr.getBoundingClientRect().height)))`))
	if len(heights) != 1 || heights[0] != float64(20) {
		t.Errorf("rows are %v pixels high, want all 20", heights)
	}
	if h := get(t, b, "page height", chromedp.Evaluate[int](`document.documentElement.scrollHeight`)); h < 5900*20 {
		t.Errorf("the page is %d px high: the undrawn rows take no room", h)
	}
	b.do(t, "scroll to the end", chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, document.documentElement.scrollHeight)`))
	get(t, b, "wait for the last line", chromedp.Poll[bool](`!!document.querySelector('`+lastSel+`')`))
	if _, err := chromedp.Run(b.ctx, tokens(lastSel)); err != nil {
		t.Errorf("the last line has no highlighted tokens: %v", err)
	}
	if get(t, b, "is the first line still drawn", present(firstSel)) {
		t.Error("the first line, now far off screen, is still in the page")
	}
	if n := get(t, b, "count rows", rows); n > 500 {
		t.Errorf("%d rows in the page at the end", n)
	}
	b.checkLocalOnly(t, baseOf(t, page))
}
