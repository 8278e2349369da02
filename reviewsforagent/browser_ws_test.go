package reviewsforagent

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// "Ignore whitespace" (the button, or w) shows the lines whose change is
// whitespace only as unchanged, as git diff -w does, and shows them again;
// the comments stay on the lines they were written on in either view, and
// the export names the diff's real lines.
func TestBrowserIgnoreWhitespace(t *testing.T) {
	t.Parallel()
	before := "package a\n\nfunc f() {\nx := 1\ny := 2\n}\n\nvar v = 1\n"
	after := "package a\n\nfunc f() {\n\tx := 1\n\ty  :=  2\n}\n\nvar v = 2\n"
	dir := newRepo(t, map[string]string{"a.go": before})
	writeFile(t, dir, "a.go", after)
	page, _ := startServer(t, dir)
	b := newBrowser(t, time.Minute)
	changed := chromedp.Evaluate[[]any](`[document.querySelectorAll('td.rfa-code.d2h-del').length, document.querySelectorAll('td.rfa-code.d2h-ins').length]`)
	ws := chromedp.CSS(`#rfa-ws`)
	pressed := chromedp.Evaluate[string](`document.getElementById('rfa-ws').getAttribute('aria-pressed')`)
	expect := func(step string, dels, ins int, press string) {
		t.Helper()
		if got := get(t, b, "count the changed lines", changed); got[0] != float64(dels) || got[1] != float64(ins) {
			t.Errorf("%s: %v deleted and added lines shown, want %d and %d", step, got, dels, ins)
		}
		if got := get(t, b, "read the button", pressed); got != press {
			t.Errorf("%s: the button says aria-pressed=%s", step, got)
		}
	}

	b.do(t, "load", chromedp.Navigate(page), chromedp.WaitVisible(lineCell(0, "left", 4)))
	expect("loaded", 3, 3, "false")
	b.do(t, "comment on the old x", chromedp.Click(lineCell(0, "left", 4)), comment("Old x."))

	b.do(t, "ignore whitespace", chromedp.Click(ws))
	get(t, b, "wait for the new reading", chromedp.Poll[bool](`document.querySelectorAll('td.rfa-code.d2h-del').length === 1`))
	expect("ignoring whitespace", 1, 1, "true")
	// The re-indented lines are one line each, with both numbers; the
	// comment on the old x sits under it.
	if got := get(t, b, "read line 4's numbers", chromedp.Text(lineCell(0, "right", 4))); strings.Join(strings.Fields(got), " ") != "4 4" {
		t.Errorf("the re-indented line's numbers read %q, want 4 4", got)
	}
	if got := get(t, b, "what the card is under", chromedp.Evaluate[string](
		`document.querySelector('.rfa-card').closest('tr').previousElementSibling.querySelector('td[data-rfa-line]').dataset.rfaLine`)); got != "4" {
		t.Errorf("the comment on the old x is under line %s, want 4", got)
	}
	b.do(t, "comment on the re-indented y", chromedp.Click(lineCell(0, "right", 5)), chromedp.WaitVisible(formText))
	if got := get(t, b, "read the form's title", chromedp.Text(formTitle)); got != "Comment on line 5" {
		t.Errorf("form title = %q", got)
	}
	b.do(t, "save it with the keys", chromedp.SendKeys(formText, "Why the spaces?"),
		chromedp.KeyEvent("\r", chromedp.KeyModifiers(chromedp.ModifierCtrl)), chromedp.WaitNotPresent(formText))

	b.do(t, "show whitespace again with w", chromedp.Focus(lineCell(0, "right", 8)), chromedp.KeyEvent("w"))
	get(t, b, "wait for the new reading", chromedp.Poll[bool](`document.querySelectorAll('td.rfa-code.d2h-del').length === 3`))
	expect("showing whitespace", 3, 3, "false")
	get(t, b, "wait for both cards", cardsAtLeast(2))
	if got := get(t, b, "which lines the cards are under", chromedp.Evaluate[string](
		`Array.from(document.querySelectorAll('.rfa-card'), (c) => { const td = c.closest('tr').previousElementSibling.querySelector('td[data-rfa-line]'); return td.dataset.rfaSide + ':' + td.dataset.rfaLine; }).join(',')`)); got != "left:4,right:5" {
		t.Errorf("the cards are under %s, want left:4,right:5", got)
	}
	// Typed in a comment, w is a letter.
	b.do(t, "type w in a comment", chromedp.Click(lineCell(0, "right", 8)), chromedp.WaitVisible(formText), chromedp.SendKeys(formText, "w"))
	expect("typing w", 3, 3, "false")
	b.do(t, "cancel it", chromedp.Click(chromedp.CSS(`.rfa-form button[data-rfa-action="cancel"]`)), chromedp.WaitNotPresent(formText))

	b.do(t, "submit", chromedp.Click(chromedp.CSS(`#rfa-submit`)), chromedp.WaitVisible(chromedp.CSS(`#rfa-result`)))
	rel := get(t, b, "read the export's name", chromedp.Text(chromedp.CSS(`#rfa-result-json`)))
	raw, err := os.ReadFile(filepath.Join(dir, rel))
	if err != nil {
		t.Fatalf("read the export: %v", err)
	}
	var got struct {
		Comments []struct {
			StartLine, EndLine int
			Side, Body         string
		}
	}
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatalf("the export %s: %v", rel, err)
	}
	var lines []string
	for _, c := range got.Comments {
		lines = append(lines, fmt.Sprintf("%s:%d-%d:%s", c.Side, c.StartLine, c.EndLine, c.Body))
	}
	if want := "left:4-4:Old x.|right:5-5:Why the spaces?"; strings.Join(lines, "|") != want {
		t.Errorf("exported %q, want %q", strings.Join(lines, "|"), want)
	}
	b.checkLocalOnly(t, baseOf(t, page))
}

// With whitespace ignored, a hunk whose changes are all whitespace is left
// out, as git diff -w leaves it out, unless a comment is on it; the choice
// is kept for the review across a reload, and w brings the hunk back.
func TestBrowserIgnoreWhitespaceHunks(t *testing.T) {
	t.Parallel()
	dir := newRepo(t, map[string]string{"a.go": numberedGo(40), "b.go": numberedGo(20), "c.go": numberedGo(20)})
	// a.go: a re-indented line in one hunk, a real change in another.
	a := strings.Replace(numberedGo(40), "\tstep(6)\n", "\t\tstep(6)\n", 1)
	writeFile(t, dir, "a.go", strings.Replace(a, "\tstep(34)\n", "\tstep(34, x)\n", 1))
	// b.go: only a re-indented line, which gets a comment.
	writeFile(t, dir, "b.go", strings.Replace(numberedGo(20), "\tstep(6)\n", "  \tstep(6)\n", 1))
	// c.go: only trailing spaces, no comment: its header stays, no hunk.
	writeFile(t, dir, "c.go", strings.Replace(numberedGo(20), "\tstep(9)\n", "\tstep(9)  \n", 1))
	page, _ := startServer(t, dir)
	b := newBrowser(t, time.Minute)
	const heads = `Array.from(document.querySelectorAll('td[data-rfa-hunk-head]'), (td) => td.closest('.d2h-file-wrapper').dataset.rfaFile + ':' + td.dataset.rfaHunkHead).join(',')`
	pressed := chromedp.Evaluate[string](`document.getElementById('rfa-ws').getAttribute('aria-pressed')`)
	expect := func(step, want, press string) {
		t.Helper()
		// The hunks are drawn a slice a frame: wait for the heads wanted,
		// then read them, so a wrong set fails with what it was.
		_, _ = chromedp.Run(b.ctx, chromedp.Poll[bool](fmt.Sprintf(`%s === %q`, heads, want), chromedp.WithPollingTimeout(30*time.Second)))
		if got := get(t, b, "read the hunks", chromedp.Evaluate[string](heads)); got != want {
			t.Errorf("%s: hunks shown %q, want %q", step, got, want)
		}
		if got := get(t, b, "read the button", pressed); got != press {
			t.Errorf("%s: the button says aria-pressed=%s, want %s", step, got, press)
		}
	}
	press := func(step string) {
		t.Helper()
		b.do(t, step, chromedp.Focus(lineCell(0, "right", 34)), chromedp.KeyEvent("w"))
	}

	b.do(t, "load", chromedp.Navigate(page), chromedp.WaitVisible(lineCell(1, "right", 6)))
	expect("loaded", "0:0,0:1,1:0,2:0", "false")
	b.do(t, "comment on b's re-indented line", chromedp.Click(lineCell(1, "right", 6)), comment("Why indent?"))

	press("ignore whitespace with w")
	expect("ignoring whitespace", "0:1,1:0", "true")
	if n := get(t, b, "look for a's line 6", chromedp.Evaluate[float64](`document.querySelectorAll('.d2h-file-wrapper[data-rfa-file="0"] td[data-rfa-line="6"]').length`)); n != 0 {
		t.Errorf("a's whitespace-only hunk still shows line 6 (%v cells)", n)
	}
	get(t, b, "b's comment is still shown", cardsAtLeast(1))
	if n := get(t, b, "c's header", chromedp.Evaluate[float64](`document.querySelectorAll('.d2h-file-wrapper[data-rfa-file="2"] .rfa-file-header').length`)); n != 1 {
		t.Errorf("c.go, whitespace only, shows %v headers, want 1", n)
	}
	// The lines of the hunk left out are reached by "show more lines" above
	// the next one: twenty, then the rest up to the top of the file.
	more := chromedp.CSS(`.d2h-file-wrapper[data-rfa-file="0"] button[data-rfa-action="expand"][data-rfa-hunk="1"]`)
	b.do(t, "show the lines above a's hunk", chromedp.Click(more))
	get(t, b, "wait for them", chromedp.Poll[bool](`document.querySelectorAll('.d2h-file-wrapper[data-rfa-file="0"] tr.rfa-r').length >= 27`))
	b.do(t, "and the rest", chromedp.Click(more))
	get(t, b, "a's line 6 is reached", chromedp.Poll[bool](`Array.from(document.querySelectorAll('.d2h-file-wrapper[data-rfa-file="0"] tr.rfa-r')).some((tr) => tr.textContent.includes('step(6)'))`,
		chromedp.WithPollingTimeout(30*time.Second)))

	b.do(t, "reload", chromedp.Reload(), chromedp.WaitVisible(lineCell(0, "right", 34)))
	expect("reloaded", "0:1,1:0", "true")
	get(t, b, "b's comment is still shown after the reload", cardsAtLeast(1))

	press("show whitespace again with w")
	expect("showing whitespace", "0:0,0:1,1:0,2:0", "false")
	b.do(t, "reload again", chromedp.Reload(), chromedp.WaitVisible(lineCell(0, "right", 6)))
	expect("reloaded again", "0:0,0:1,1:0,2:0", "false")
}
