package reviewsforagent

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// At 1,400 px the split view gives both panes' line numbers the same
// narrow column, whatever row comes first (a hunk's head spans three
// columns), and a long added line is all there, scrolled to rather than
// clipped on the right.
func TestBrowserSplitColumns(t *testing.T) {
	t.Parallel()
	long := "var s = \"" + strings.Repeat("0123456789", 24) + "\" // END"
	dir := newRepo(t, map[string]string{"a.go": "package a\n\nvar x = 1\n"})
	writeFile(t, dir, "a.go", "package a\n\nvar x = 2\n"+long+"\n")
	page, _ := startServer(t, dir)
	b := newBrowser(t, time.Minute)
	b.do(t, "load at 1,400 px", chromedp.EmulateViewport(1400, 900), chromedp.Navigate(page), chromedp.WaitVisible(lineCell(0, "right", 4)))
	b.do(t, "switch to the split view",
		chromedp.Click(chromedp.CSS(`#rfa-view button[data-view="side-by-side"]`)),
		chromedp.WaitVisible(chromedp.CSS(`.rfa-split-table`)))
	get(t, b, "wait for the long line", chromedp.Poll[bool](`Array.from(document.querySelectorAll('.rfa-split-table .d2h-code-line-ctn')).some(c => c.textContent.endsWith('// END'))`))
	type widths struct {
		Left, Right, Clip int
	}
	w := get(t, b, "measure the columns", chromedp.Evaluate[widths](`(() => {
		const row = Array.from(document.querySelectorAll('.rfa-split-table tr.rfa-r')).find(r => r.textContent.includes('// END'));
		const cells = row.querySelectorAll(':scope > td');
		const code = cells[3];
		return {left: Math.round(cells[0].getBoundingClientRect().width), right: Math.round(cells[2].getBoundingClientRect().width),
			clip: code.scrollWidth - code.clientWidth};
	})()`))
	if w.Right > 80 || w.Right < 20 || w.Left != w.Right {
		t.Errorf("line-number columns: left %d px, right %d px; want the same narrow width (at most 80 px)", w.Left, w.Right)
	}
	if w.Clip > 0 {
		t.Errorf("the long line's cell hides %d px of it on the right", w.Clip)
	}
	b.checkLocalOnly(t, baseOf(t, page))
}
