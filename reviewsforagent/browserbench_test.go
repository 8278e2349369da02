package reviewsforagent

import (
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// BenchmarkBrowserTable drives the review page in Chromium as a person
// would and prints what they feel, measured by the browser itself: the
// Long Tasks API for when the page is busy, the Event Timing API for how
// long a click or a key takes from input to the next paint. A key's time
// to the next paint includes the wait for the browser's next frame, so
// the same text is also typed into a bare page's text box: that is the
// least any page gets here. Run it with
//
//	go test -run '^$' -bench BrowserTable -benchtime 3x ./reviewsforagent/
//
// It logs one table row per measure: the median over the rounds, and the
// range, with the machine's load beside. Each round is cold: a new
// browser, with no cache.
func BenchmarkBrowserTable(bm *testing.B) {
	many := manyFilesRepo(bm, 25, 1000)   // ±25,000 lines, 75,000 rows
	single := manyFilesRepo(bm, 1, 25000) // one 50,000-line file: 75,000 rows, folded
	thousands := manyFilesRepo(bm, 3000, 2)
	manyPage, _ := startServer(bm, many)
	singlePage, _ := startServer(bm, single)
	thousandsPage, _ := startServer(bm, thousands)
	rows := map[string][]float64{}
	add := func(name string, v float64) { rows[name] = append(rows[name], v) }
	var loads []string
	for bm.Loop() {
		loads = append(loads, loadAverage())
		b := newBrowser(bm, 20*time.Minute)
		if _, err := chromedp.Call(b.ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: benchObservers}); err != nil {
			bm.Fatalf("install the observers: %v", err)
		}
		benchManyFiles(bm, b, manyPage, add)
		benchThousands(bm, b, thousandsPage, add)
		benchSingleFile(bm, b, singlePage, add)
		benchBareTextBox(bm, b, add)
		b.close()
	}
	// Printed whole: a benchmark's log is cut short.
	fmt.Print(benchTable(rows))
	fmt.Printf("load average (1, 5, 15 min) at the start of each round: %s\n", strings.Join(loads, "; "))
}

// loadAverage is the machine's load, as /proc/loadavg says it ("?"
// elsewhere).
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

// benchThousands is the page of 3,000 small files: every file's header and
// tree entry, few rows each.
func benchThousands(bm *testing.B, b *browser, pageURL string, add func(string, float64)) {
	cell := chromedp.CSS(`.d2h-file-wrapper[data-rfa-file="0"] td[data-rfa-side="right"][data-rfa-line="2"]`)
	b.do(bm, "load the 3,000-file diff", chromedp.Navigate(pageURL), chromedp.WaitReady(cell))
	get(bm, b, "wait for the first screen", chromedp.Poll[bool](`rfaBench.firstScreen > 0`))
	add("3,000 files: first screen (ms)", get(bm, b, "read", chromedp.Evaluate[float64](`rfaBench.firstScreen`)))
	last := get(bm, b, "wait for the page to go quiet", chromedp.Evaluate[float64](benchQuiet, chromedp.EvalAwaitPromise))
	add("3,000 files: fully interactive, first screen or last long task, the later (ms)", last)
	add("3,000 files: longest task until then (ms)", get(bm, b, "read", chromedp.Evaluate[float64](benchLongest)))
	add("3,000 files: long tasks until then", get(bm, b, "read", chromedp.Evaluate[float64](`rfaBench.tasks.filter((t) => t[1] > 100).length`)))
	add("3,000 files: line click → form (ms)", interaction(bm, b, "click a line", chromedp.Click(cell), chromedp.WaitVisible(formText)))
	key, _ := typing(bm, b, formText)
	add("3,000 files: typing in a comment, slowest key (ms)", key)
	add("3,000 files: split toggle (ms)", interaction(bm, b, "switch to split",
		chromedp.Click(chromedp.CSS(`#rfa-view button[data-view="side-by-side"]`)), chromedp.WaitVisible(chromedp.CSS(`#rfa-view button[data-view="side-by-side"][aria-pressed="true"]`))))
	b.do(bm, "cancel", chromedp.Click(chromedp.CSS(`.rfa-form button[data-rfa-action="cancel"]`)))
	add("3,000 files: find, longest task (ms)", finding(bm, b, "computeAgain"))
}

// finding opens the find box with Ctrl+F, looks for q and goes to the
// next match, and returns the longest task meanwhile.
func finding(bm *testing.B, b *browser, q string) float64 {
	mark := get(bm, b, "mark", chromedp.Evaluate[float64](benchNow))
	b.do(bm, "find "+q, chromedp.KeyEvent("f", chromedp.KeyModifiers(chromedp.ModifierCtrl)), chromedp.WaitVisible(chromedp.CSS(`#rfa-find-input`)),
		chromedp.SendKeys(chromedp.CSS(`#rfa-find-input`), q), chromedp.KeyEvent("\r"))
	get(bm, b, "wait for the count", chromedp.Poll[bool](`/ of /.test(document.getElementById('rfa-find-count').textContent)`))
	get(bm, b, "settle", chromedp.Evaluate[float64](`new Promise((r) => setTimeout(() => r(0), 1000))`, chromedp.EvalAwaitPromise))
	longest := get(bm, b, "read", chromedp.Evaluate[float64](fmt.Sprintf(`rfaBench.tasks.filter((t) => t[0] >= %f).reduce((m, t) => Math.max(m, t[1]), 0)`, mark)))
	b.do(bm, "close the find box", chromedp.KeyEvent("\x1b"))
	return longest
}

// manyFilesRepo changes files files of 2*pairs lines each: every second
// line is replaced, so each file's diff is pairs deleted, pairs added and
// pairs context lines.
func manyFilesRepo(t testing.TB, files, pairs int) string {
	t.Helper()
	base := map[string]string{}
	var before, after strings.Builder
	for i := 1; i <= 2*pairs; i++ {
		fmt.Fprintf(&before, "\tvalue%d := compute(%d) // line %d\n", i, i, i)
		if i%2 == 0 {
			fmt.Fprintf(&after, "\tvalue%d := computeAgain(%d, %d) // changed\n", i, i, i*3)
		} else {
			fmt.Fprintf(&after, "\tvalue%d := compute(%d) // line %d\n", i, i, i)
		}
	}
	for f := range files {
		base[fmt.Sprintf("pkg/f%02d.go", f)] = before.String()
	}
	dir := newRepo(t, base)
	for f := range files {
		writeFile(t, dir, fmt.Sprintf("pkg/f%02d.go", f), after.String())
	}
	return dir
}

// benchObservers runs in the page before its own scripts.
const benchObservers = `
window.rfaBench = { tasks: [], events: [], firstScreen: 0 };
new PerformanceObserver((l) => l.getEntries().forEach((e) => rfaBench.tasks.push([e.startTime, e.duration])))
  .observe({ type: 'longtask', buffered: true });
new PerformanceObserver((l) => l.getEntries().forEach((e) => rfaBench.events.push([e.name, e.startTime, e.duration, e.processingEnd - e.startTime])))
  .observe({ type: 'event', buffered: true, durationThreshold: 16 });
new MutationObserver((ms, obs) => {
  if (!document.querySelector('td[data-rfa-line]')) { return; }
  obs.disconnect();
  requestAnimationFrame(() => requestAnimationFrame(() => { rfaBench.firstScreen = performance.now(); }));
}).observe(document, { childList: true, subtree: true });
`

// Page-side helpers: when the page has had no long task for quiet ms.
const (
	benchQuiet = `new Promise((resolve) => {
  const check = () => {
    const last = rfaBench.tasks.reduce((m, t) => Math.max(m, t[0] + t[1]), 0);
    // Interactive once the first screen is up and no long task follows:
    // the later of the two.
    if (rfaBench.firstScreen && performance.now() - Math.max(last, rfaBench.firstScreen) > 3000) { resolve(Math.max(last, rfaBench.firstScreen)); return; }
    setTimeout(check, 250);
  };
  check();
})`
	benchLongest = `rfaBench.tasks.reduce((m, t) => Math.max(m, t[1]), 0)`
	// The slowest event of the interactions since mark (click, keys,
	// input): its duration to the next paint, or (work) from the input to
	// the end of the page's handlers.
	benchEventSince = `((mark, names) => rfaBench.events.filter((e) => e[1] >= mark && names.includes(e[0])).reduce((m, e) => Math.max(m, e[2]), 0))`
	benchWorkSince  = `((mark, names) => rfaBench.events.filter((e) => e[1] >= mark && names.includes(e[0])).reduce((m, e) => Math.max(m, e[3]), 0))`
	benchTyped      = "This name says nothing; call it total."
	benchNow        = `performance.now()`
	benchFirstCell  = `td[data-rfa-line]`
)

func benchManyFiles(bm *testing.B, b *browser, pageURL string, add func(string, float64)) {
	cell := chromedp.CSS(`.d2h-file-wrapper[data-rfa-file="0"] td[data-rfa-side="right"][data-rfa-line="4"]`)
	b.do(bm, "load the 25-file diff", chromedp.Navigate(pageURL), chromedp.WaitReady(cell))
	get(bm, b, "wait for the first screen", chromedp.Poll[bool](`rfaBench.firstScreen > 0`))
	add("25 files: first screen (ms)", get(bm, b, "read", chromedp.Evaluate[float64](`rfaBench.firstScreen`)))
	clicked := interaction(bm, b, "click a line while drawing", chromedp.Click(cell), chromedp.WaitVisible(formText))
	add("25 files: line click → form, while drawing (ms)", clicked)
	last := get(bm, b, "wait for the page to go quiet", chromedp.Evaluate[float64](benchQuiet, chromedp.EvalAwaitPromise))
	add("25 files: fully interactive, first screen or last long task, the later (ms)", last)
	add("25 files: longest task until then (ms)", get(bm, b, "read", chromedp.Evaluate[float64](benchLongest)))
	other := chromedp.CSS(`.d2h-file-wrapper[data-rfa-file="0"] td[data-rfa-side="right"][data-rfa-line="8"]`)
	add("25 files: line click → form, after (ms)", interaction(bm, b, "click a line after drawing", chromedp.Click(other), chromedp.WaitVisible(formText)))
	key, work := typing(bm, b, formText)
	add("25 files: typing in a comment, slowest key (ms)", key)
	add("25 files: typing in a comment, slowest key, input to handlers done (ms)", work)
	add("25 files: split toggle (ms)", interaction(bm, b, "switch to split",
		chromedp.Click(chromedp.CSS(`#rfa-view button[data-view="side-by-side"]`)), chromedp.WaitVisible(chromedp.CSS(`#rfa-view button[data-view="side-by-side"][aria-pressed="true"]`))))
	add("25 files: unified toggle (ms)", interaction(bm, b, "switch to unified",
		chromedp.Click(chromedp.CSS(`#rfa-view button[data-view="line-by-line"]`)), chromedp.WaitVisible(chromedp.CSS(`#rfa-view button[data-view="line-by-line"][aria-pressed="true"]`))))
	add("25 files: longest task, whole visit (ms)", get(bm, b, "read", chromedp.Evaluate[float64](benchLongest)))
	// Leave without the unload prompt: drop the form.
	b.do(bm, "cancel", chromedp.Click(chromedp.CSS(`.rfa-form button[data-rfa-action="cancel"]`)))
	add("25 files: find, longest task (ms)", finding(bm, b, "computeAgain"))
}

func benchSingleFile(bm *testing.B, b *browser, pageURL string, add func(string, float64)) {
	load := chromedp.CSS(`button[data-rfa-action="load-diff"]`)
	b.do(bm, "load the one-file diff", chromedp.Navigate(pageURL), chromedp.WaitVisible(load))
	get(bm, b, "settle", chromedp.Evaluate[float64](`new Promise((r) => setTimeout(() => r(0), 1000))`, chromedp.EvalAwaitPromise))
	mark := get(bm, b, "mark", chromedp.Evaluate[float64](benchNow))
	add("one 50,000-line file: Load diff, click (ms)", interaction(bm, b, "load its diff", chromedp.Click(load), chromedp.WaitReady(chromedp.CSS(benchFirstCell))))
	get(bm, b, "wait for the page to go quiet", chromedp.Evaluate[float64](benchQuiet, chromedp.EvalAwaitPromise))
	add("one 50,000-line file: longest task after Load diff (ms)", get(bm, b, "read", chromedp.Evaluate[float64](
		fmt.Sprintf(`rfaBench.tasks.filter((t) => t[0] >= %f).reduce((m, t) => Math.max(m, t[1]), 0)`, mark))))
}

// benchBareTextBox types the same text into a page of nothing but a text
// box: the least a key takes in this browser on this machine, now.
func benchBareTextBox(bm *testing.B, b *browser, add func(string, float64)) {
	box := chromedp.CSS(`#box`)
	b.do(bm, "open a bare page", chromedp.Navigate(`data:text/html,<textarea id="box" aria-label="box"></textarea>`), chromedp.WaitVisible(box))
	b.do(bm, "focus its box", chromedp.Click(box))
	key, _ := typing(bm, b, box)
	add("bare text box (the browser alone): slowest key (ms)", key)
}

// typing types into box and returns the slowest key's time to the next
// paint, and the longest any key took from input to the end of the
// page's handlers.
func typing(bm *testing.B, b *browser, box chromedp.CSS) (float64, float64) {
	names := `['keydown', 'keypress', 'keyup', 'input', 'beforeinput']`
	mark := get(bm, b, "mark", chromedp.Evaluate[float64](benchNow))
	b.do(bm, "type", chromedp.SendKeys(box, benchTyped))
	get(bm, b, "let events report", chromedp.Evaluate[float64](`new Promise((r) => setTimeout(() => r(0), 500))`, chromedp.EvalAwaitPromise))
	key := get(bm, b, "read the events", chromedp.Evaluate[float64](fmt.Sprintf(`%s(%f, %s)`, benchEventSince, mark, names)))
	work := get(bm, b, "read the events", chromedp.Evaluate[float64](fmt.Sprintf(`%s(%f, %s)`, benchWorkSince, mark, names)))
	return key, work
}

// interaction runs steps and returns the slowest input event they caused,
// from input to the next paint, as the Event Timing API reports it; 0
// means every event took under its 16 ms threshold.
func interaction(bm *testing.B, b *browser, step string, steps ...chromedp.Action[chromedp.Void]) float64 {
	mark := get(bm, b, "mark", chromedp.Evaluate[float64](benchNow))
	b.do(bm, step, steps...)
	// Entries arrive after the paint that ends them.
	get(bm, b, "let events report", chromedp.Evaluate[float64](`new Promise((r) => setTimeout(() => r(0), 500))`, chromedp.EvalAwaitPromise))
	return get(bm, b, "read the events", chromedp.Evaluate[float64](fmt.Sprintf(
		`%s(%f, ['pointerdown', 'pointerup', 'mousedown', 'mouseup', 'click', 'keydown', 'keypress', 'keyup', 'input', 'beforeinput'])`, benchEventSince, mark)))
}

func benchTable(rows map[string][]float64) string {
	names := make([]string, 0, len(rows))
	for n := range rows {
		names = append(names, n)
	}
	slices.Sort(names)
	var s strings.Builder
	s.WriteString("| measured | median | min | max |\n|---|---|---|---|\n")
	for _, n := range names {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, v := range rows[n] {
			lo, hi = min(lo, v), max(hi, v)
		}
		fmt.Fprintf(&s, "| %s | %s | %s | %s |\n", n, ms(median(rows[n])), ms(lo), ms(hi))
	}
	s.WriteString("(0: nothing reported: the browser reports no event under 16 ms and no task under 50 ms)\n")
	return s.String()
}

func ms(v float64) string { return fmt.Sprintf("%.0f", v) }

// median is the middle value, or the mean of the two middle ones.
func median(vs []float64) float64 {
	s := slices.Clone(vs)
	slices.Sort(s)
	if len(s) == 0 {
		return math.NaN()
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
