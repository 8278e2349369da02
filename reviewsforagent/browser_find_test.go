package reviewsforagent

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Only the rows near the screen are in the page, so the browser's own
// find would miss the rest: Ctrl+F in the diff opens the page's find box,
// which finds in every line, goes from match to match with Enter and
// Shift+Enter, drawing rows far from the screen, and closes with Escape.
// In a text box Ctrl+F stays the browser's.
func TestBrowserFind(t *testing.T) {
	t.Parallel()
	goFile := func(n int, needles ...int) string {
		var s strings.Builder
		s.WriteString("package a\n\nfunc f() {\n")
		for i := 4; i < n; i++ {
			note := "step"
			for _, at := range needles {
				if i == at {
					note = "the Needle is here"
				}
			}
			fmt.Fprintf(&s, "\tx := %d // %s\n", i, note)
		}
		s.WriteString("}\n")
		return s.String()
	}
	dir := newRepo(t, map[string]string{"keep.txt": "k\n"})
	writeFile(t, dir, "a.go", goFile(3000, 10, 2000))
	writeFile(t, dir, "b.go", goFile(3000, 2500))
	page, _ := startServer(t, dir)
	b := newBrowser(t, 2*time.Minute)

	findBox := chromedp.CSS(`#rfa-find-input`)
	count := func(want string) chromedp.Action[bool] {
		return chromedp.Poll[bool](`document.getElementById('rfa-find-count').textContent === '`+want+`'`,
			chromedp.WithPollingTimeout(30*time.Second))
	}
	// Where the current match is: its file, its line, and whether it is
	// on screen.
	current := chromedp.Evaluate[[]any](`(() => {
		const m = document.querySelector('mark.rfa-found-now');
		if (!m) { return ['', '', false]; }
		const r = m.getBoundingClientRect();
		return [m.closest('.d2h-file-wrapper').dataset.rfaFile, m.closest('tr').querySelector('td[data-rfa-line]').dataset.rfaLine,
			r.top >= 0 && r.bottom <= window.innerHeight, m.textContent];
	})()`)
	expect := func(step, want string, file, line string) {
		t.Helper()
		if _, err := chromedp.Run(b.ctx, count(want)); err != nil {
			t.Fatalf("%s: the count never read %q: %v", step, want, err)
		}
		got := get(t, b, "where the match is", current)
		if got[0] != file || got[1] != line || got[2] != true || got[3] != "Needle" {
			t.Errorf("%s: the current match is %v, want file %s line %s, on screen, marking Needle", step, got, file, line)
		}
	}

	b.do(t, "load", chromedp.Navigate(page), chromedp.WaitReady(lineCell(0, "right", 5)))
	b.do(t, "open the find box from the diff",
		chromedp.Focus(lineCell(0, "right", 5)),
		chromedp.KeyEvent("f", chromedp.KeyModifiers(chromedp.ModifierCtrl)),
		chromedp.WaitVisible(findBox))
	if id := get(t, b, "what has the focus", chromedp.Evaluate[string](`document.activeElement.id`)); id != "rfa-find-input" {
		t.Fatalf("after Ctrl+F the focus is on %q, not the find box", id)
	}
	b.do(t, "type what to find", chromedp.SendKeys(findBox, "nEEDLE"))
	expect("typed", "1 of 3", "0", "10")
	b.do(t, "next", chromedp.KeyEvent("\r"))
	expect("Enter", "2 of 3", "0", "2000")
	b.do(t, "next", chromedp.KeyEvent("\r"))
	expect("Enter again", "3 of 3", "1", "2500")
	b.do(t, "next, round to the first", chromedp.KeyEvent("\r"))
	expect("Enter at the last", "1 of 3", "0", "10")
	b.do(t, "previous, round to the last", chromedp.KeyEvent("\r", chromedp.KeyModifiers(chromedp.ModifierShift)))
	expect("Shift+Enter at the first", "3 of 3", "1", "2500")
	if n := get(t, b, "count the marks drawn", chromedp.Evaluate[int](`document.querySelectorAll('mark.rfa-found').length`)); n != 1 {
		t.Errorf("%d matches marked near line 2500 of b.go, want 1", n)
	}

	b.do(t, "close", chromedp.KeyEvent("\x1b"), chromedp.WaitNotVisible(chromedp.CSS(`#rfa-find`)))
	if n := get(t, b, "count the marks", chromedp.Evaluate[int](`document.querySelectorAll('mark.rfa-found').length`)); n != 0 {
		t.Errorf("%d matches still marked after Escape", n)
	}

	b.do(t, "find nothing", chromedp.Focus(lineCell(1, "right", 2500)),
		chromedp.KeyEvent("f", chromedp.KeyModifiers(chromedp.ModifierCtrl)), chromedp.WaitVisible(findBox),
		chromedp.SendKeys(findBox, "zzz"))
	if _, err := chromedp.Run(b.ctx, count("No matches")); err != nil {
		t.Errorf("a text in no line: %v", err)
	}
	b.do(t, "close", chromedp.KeyEvent("\x1b"), chromedp.WaitNotVisible(chromedp.CSS(`#rfa-find`)))

	// In a comment, Ctrl+F is the browser's: the find box stays shut.
	b.do(t, "open a comment", chromedp.Click(lineCell(1, "right", 2500)), chromedp.WaitVisible(formText),
		chromedp.Focus(formText), chromedp.KeyEvent("f", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
	get(t, b, "let it settle", settle)
	if get(t, b, "is the find box open", chromedp.Evaluate[bool](`!document.getElementById('rfa-find').hidden`)) {
		t.Error("Ctrl+F in a comment opened the find box")
	}
	b.checkLocalOnly(t, baseOf(t, page))
}
