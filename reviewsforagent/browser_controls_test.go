package reviewsforagent

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// center is the middle of the element sel selects, in the viewport.
func center(t *testing.T, b *browser, sel string) (x, y float64) {
	t.Helper()
	p := get(t, b, "locate "+sel, chromedp.Evaluate[[]float64](`(r => [r.left + r.width / 2, r.top + r.height / 2])(document.querySelector('`+sel+`').getBoundingClientRect())`))
	return p[0], p[1]
}

// Pressing on one line number and letting go on another comments on the
// lines between, as shift-click does (which still works); a drag across
// files is refused as a shift-click is.
func TestBrowserDragRange(t *testing.T) {
	t.Parallel()
	dir := newRepo(t, map[string]string{"a.txt": numbered(20)})
	writeFile(t, dir, "a.txt", strings.Replace(strings.Replace(numbered(20), "line 4\n", "line four\n", 1), "line 8\n", "line eight\n", 1))
	page, _ := startServer(t, dir)
	b := newBrowser(t, time.Minute)
	b.do(t, "load", chromedp.Navigate(page), chromedp.WaitVisible(lineCell(0, "right", 9)))
	cell := func(n string) string {
		return `.d2h-file-wrapper[data-rfa-file="0"] td[data-rfa-side="right"][data-rfa-line="` + n + `"]`
	}
	x1, y1 := center(t, b, cell("3"))
	x2, y2 := center(t, b, cell("9"))
	b.do(t, "drag from line 3 to line 9",
		chromedp.MouseEvent(chromedp.MouseMoved, x1, y1),
		chromedp.MouseEvent(chromedp.MousePressed, x1, y1, chromedp.ButtonLeft, chromedp.ClickCount(1)),
		chromedp.MouseEvent(chromedp.MouseMoved, (x1+x2)/2, (y1+y2)/2, chromedp.ButtonLeft),
		chromedp.MouseEvent(chromedp.MouseMoved, x2, y2, chromedp.ButtonLeft),
		chromedp.MouseEvent(chromedp.MouseReleased, x2, y2, chromedp.ButtonLeft, chromedp.ClickCount(1)),
		chromedp.WaitVisible(formText))
	if title := get(t, b, "read the form's title", chromedp.Text(formTitle)); title != "Comment on lines 3\u20139" {
		t.Errorf("after a drag the form is %q, want lines 3–9", title)
	}
	b.do(t, "save", chromedp.SendKeys(formText, "One loop."), chromedp.Click(formSave), chromedp.WaitNotPresent(formText))
	// A click on one line stays a one-line comment.
	b.do(t, "click line 5", chromedp.Click(chromedp.CSS(cell("5"))), chromedp.WaitVisible(formText))
	if title := get(t, b, "read the form's title", chromedp.Text(formTitle)); title != "Comment on line 5" {
		t.Errorf("a click opened %q", title)
	}
	end := get(t, b, "find line 7", chromedp.Nodes(chromedp.CSS(cell("7"))))
	b.do(t, "shift-click line 7", chromedp.MouseClickNode(end[0], chromedp.ButtonModifiers(chromedp.ModifierShift)))
	get(t, b, "wait for the range form", chromedp.Poll[bool](`document.querySelector('.rfa-form .rfa-card-title').textContent.includes('7')`))
	if title := get(t, b, "read the form's title", chromedp.Text(formTitle)); title != "Comment on lines 5\u20137" {
		t.Errorf("shift-click made %q", title)
	}
	if sel := get(t, b, "read the selection", chromedp.Evaluate[string](`String(window.getSelection())`)); sel != "" {
		t.Errorf("the drag left text selected: %q", sel)
	}
	b.checkLocalOnly(t, baseOf(t, page))
}

// ? shows every shortcut and the mouse's ways; ? or Escape hides it; in a
// comment's text box ? is a question mark.
func TestBrowserShortcutHelp(t *testing.T) {
	t.Parallel()
	dir := newRepo(t, map[string]string{"a.txt": "one\ntwo\n"})
	writeFile(t, dir, "a.txt", "one\n2\n")
	page, _ := startServer(t, dir)
	b := newBrowser(t, time.Minute)
	help := chromedp.CSS(`#rfa-shortcuts`)
	b.do(t, "load", chromedp.Navigate(page), chromedp.WaitVisible(lineCell(0, "right", 2)))
	b.do(t, "press ?", chromedp.KeyEvent("?"), chromedp.WaitVisible(help))
	txt := get(t, b, "read the help", chromedp.Text(help))
	for _, want := range []string{"next or previous file", "next or previous hunk", "Drag across line numbers", "find in the whole diff", "save the comment", "ignore changes of whitespace only"} {
		if !strings.Contains(txt, want) {
			t.Errorf("the help lacks %q:\n%s", want, txt)
		}
	}
	b.do(t, "Escape", chromedp.KeyEvent("\x1b"), chromedp.WaitNotVisible(help))
	b.do(t, "press ? again", chromedp.KeyEvent("?"), chromedp.WaitVisible(help))
	b.do(t, "and again", chromedp.KeyEvent("?"), chromedp.WaitNotVisible(help))
	b.do(t, "type ? in a comment", chromedp.Click(lineCell(0, "right", 2)), chromedp.SendKeys(formText, "Why?"))
	if v := get(t, b, "read the form", chromedp.Value(formText)); v != "Why?" {
		t.Errorf("form = %q", v)
	}
	if shown := get(t, b, "is the help shown", chromedp.Evaluate[bool](`!document.getElementById('rfa-shortcuts').hidden`)); shown {
		t.Error("typing ? in a comment opened the help")
	}
	b.do(t, "the ? button", chromedp.Click(chromedp.CSS(`#rfa-shortcuts-open`)), chromedp.WaitVisible(help))
	b.checkLocalOnly(t, baseOf(t, page))
}

// "Copy as prompt" puts one comment, with the lines it is on, on the
// clipboard; "Copy all as prompt" every comment and the overall one.
func TestBrowserCopyAsPrompt(t *testing.T) {
	t.Parallel()
	dir := newRepo(t, map[string]string{"a.txt": "one\ntwo\nthree\n", "b.txt": "x\n"})
	writeFile(t, dir, "a.txt", "one\n2\nthree\n")
	writeFile(t, dir, "b.txt", "y\n")
	page, _ := startServer(t, dir)
	b := newBrowser(t, time.Minute)
	b.do(t, "load", chromedp.Navigate(page), chromedp.WaitVisible(lineCell(1, "right", 1)))
	// What the page hands the clipboard is kept to read back; the
	// clipboard itself is written too (the toast says so).
	b.do(t, "watch the clipboard", chromedp.Evaluate[chromedp.Void](`(() => {
		const write = navigator.clipboard.writeText.bind(navigator.clipboard);
		navigator.clipboard.writeText = (text) => { window.rfaCopied = text; return write(text); };
	})()`))
	b.do(t, "comment on a.txt", chromedp.Click(lineCell(0, "right", 2)), comment("Use words: `two`."))
	b.do(t, "comment on b.txt", chromedp.Click(lineCell(1, "right", 1)), comment("Why y?"))
	copied := chromedp.Poll[string](`window.rfaCopied || ''`)
	b.do(t, "copy one", chromedp.Click(chromedp.CSS(`.rfa-card[data-rfa-id="1"] button[data-rfa-action="copy-prompt"]`)))
	one := get(t, b, "read what was copied", copied)
	if want := "In `a.txt`, line 2:\n```diff\n+2\n```\nUse words: `two`.\n"; one != want {
		t.Errorf("copied %q, want %q", one, want)
	}
	if toast := get(t, b, "read the toast", chromedp.Poll[string](`document.getElementById('rfa-toast').textContent`)); toast != "Copied as a prompt." {
		t.Errorf("toast = %q", toast)
	}
	b.do(t, "write an overall comment", chromedp.SendKeys(chromedp.CSS(`#rfa-global`), "Close."),
		chromedp.Evaluate[chromedp.Void](`window.rfaCopied = ''`), chromedp.Click(chromedp.CSS(`#rfa-copy-all`)))
	all := get(t, b, "read what was copied", copied)
	for _, want := range []string{"Overall:\nClose.\n", "In `a.txt`, line 2:\n```diff\n+2\n```\nUse words", "In `b.txt`, line 1:\n```diff\n+y\n```\nWhy y?"} {
		if !strings.Contains(all, want) {
			t.Errorf("all comments copied lack %q:\n%s", want, all)
		}
	}
	if strings.Index(all, "a.txt") > strings.Index(all, "b.txt") {
		t.Errorf("comments are not in file order:\n%s", all)
	}
	b.checkLocalOnly(t, baseOf(t, page))
}
