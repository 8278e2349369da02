package reviewsforagent

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// loadWatch runs in the page before its scripts: it records whether the
// unseen box of fonts was put in the page while the diff was fetched, and,
// when the first file comes into the page, how many rows the tree had and
// where the diff's left edge was.
const loadWatch = `
window.rfaLoad = { warmed: false, treeRows: -1, left: -1 };
new MutationObserver((ms) => {
  if (document.querySelector('.rfa-warm')) { rfaLoad.warmed = true; }
  if (rfaLoad.treeRows >= 0 || !document.querySelector('.d2h-file-wrapper')) { return; }
  rfaLoad.treeRows = document.querySelectorAll('#rfa-tree-list li').length;
  rfaLoad.left = document.getElementById('rfa-diff').getBoundingClientRect().left;
}).observe(document, { childList: true, subtree: true });
`

// The page is drawn in steps, each a task of its own: the files' headers
// first, in the room the tree takes beside them, the tree's rows once
// the first rows are painted, and the highlighting a slice a frame until
// every line on screen has it. The fonts are found while the diff is
// fetched, in a box that is gone once it has come.
func TestBrowserLoadInSteps(t *testing.T) {
	t.Parallel()
	dir := newRepo(t, map[string]string{"cmd/main.go": numberedGo(120), "pkg/util.go": "package pkg\n"})
	writeFile(t, dir, "cmd/main.go", strings.ReplaceAll(numberedGo(120), "step(", "next("))
	writeFile(t, dir, "pkg/util.go", "package pkg\n\nvar x = 1\n")
	pageURL, _ := startServer(t, dir)
	b := newBrowser(t, 2*time.Minute)
	if _, err := chromedp.Call(b.ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: loadWatch}); err != nil {
		t.Fatalf("install the watcher: %v", err)
	}
	b.do(t, "load", chromedp.Navigate(pageURL), chromedp.WaitVisible(lineCell(0, "left", 5)))
	if n := get(t, b, "tree rows with the first file", chromedp.Evaluate[int](`rfaLoad.treeRows`)); n != 0 {
		t.Errorf("the tree had %d rows when the first file came into the page, want 0: they come in a later task", n)
	}
	get(t, b, "wait for the tree's rows", chromedp.Poll[bool](`document.querySelectorAll('#rfa-tree-list li[data-rfa-file]').length === 2`))
	before := get(t, b, "the diff's left edge then", chromedp.Evaluate[float64](`rfaLoad.left`))
	if now := get(t, b, "the diff's left edge now", chromedp.Evaluate[float64](`document.getElementById('rfa-diff').getBoundingClientRect().left`)); now != before || now < 200 {
		t.Errorf("the diff's left edge was at %v px and is at %v px once the tree has rows: the tree's room must be there first", before, now)
	}
	if !get(t, b, "was the font box there", chromedp.Evaluate[bool](`rfaLoad.warmed`)) {
		t.Error("no box of fonts was laid out while the diff was fetched")
	}
	if n := get(t, b, "count the font boxes", chromedp.Evaluate[int](`document.querySelectorAll('.rfa-warm').length`)); n != 0 {
		t.Errorf("%d boxes of fonts are still in the page", n)
	}
	// More lines are on screen than two slices paint (PAINT in draw.js):
	// the slices go on until none waits.
	if n := get(t, b, "count the lines drawn", chromedp.Evaluate[int](`document.querySelectorAll('.rfa-code .d2h-code-line-ctn').length`)); n <= 2*24 {
		t.Fatalf("%d lines drawn, want more than two slices' worth", n)
	}
	get(t, b, "wait for every line's highlighting", chromedp.Poll[bool](`document.querySelectorAll('.rfa-hl-wait').length === 0 && document.querySelectorAll('.rfa-code .hljs-number').length > 2 * 24`,
		chromedp.WithPollingTimeout(20*time.Second)))
	// The page's modules come as one script, run once.
	scripts := get(t, b, "list the scripts fetched", chromedp.Evaluate[[]string](`performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname)
		.filter((p) => p.endsWith('.js') && !p.startsWith('/assets/vendor/') && p !== '/assets/highlight-worker.js')`))
	if len(scripts) != 1 || scripts[0] != pageScript {
		t.Errorf("the page fetched the scripts %q, want only %s", scripts, pageScript)
	}
	b.checkLocalOnly(t, baseOf(t, pageURL))
}

// readPieces reads a diff given to the page's stream reader in pieces of
// every size from 1 to 16 bytes, and says for which sizes its sections
// differ from those of the whole text split at once.
const readPieces = `(async (text) => {
  const m = await import('/assets/page.js');
  const bytes = new TextEncoder().encode(text);
  const want = JSON.stringify(m.splitSections(text));
  const bad = [];
  for (let size = 1; size <= 16; size++) {
    const body = new ReadableStream({ start(c) {
      for (let i = 0; i < bytes.length; i += size) { c.enqueue(bytes.slice(i, i + size)); }
      c.close();
    } });
    const got = JSON.stringify(await m.readSections(new Response(body)));
    if (got !== want) { bad.push(size + ': ' + got); }
  }
  return { sections: m.splitSections(text).length, bad: bad };
})`

// The page reads the diff as it comes, a piece at a time: a file's
// boundary or a character of several bytes cut between two pieces still
// gives the sections the whole text gives.
func TestBrowserDiffReadInPieces(t *testing.T) {
	t.Parallel()
	dir := newRepo(t, map[string]string{"a.txt": "a\n"})
	writeFile(t, dir, "a.txt", "b\n")
	pageURL, _ := startServer(t, dir)
	b := newBrowser(t, 2*time.Minute)
	b.do(t, "load", chromedp.Navigate(pageURL), chromedp.WaitReady(`#rfa-diff`))
	tests := map[string]struct {
		text     string
		sections int
	}{
		"empty":          {"", 0},
		"one file":       {"diff --git a/x b/x\n+é\n", 1},
		"three files":    {"diff --git a/x b/x\n+é€\ndiff --git a/y b/y\n+z\n\ndiff --git a/w b/w\n-ü", 3},
		"mark mid-line":  {"diff --git a/x b/x\n+x diff --git a/y b/y\n diff --git \n", 1},
		"no end of line": {"diff --git a/x b/x\n-1\ndiff --git a/😀 b/😀\n+2", 2},
	}
	for name, tt := range tests {
		arg, err := json.Marshal(tt.text)
		if err != nil {
			t.Fatal(err)
		}
		type result struct {
			Sections int      `json:"sections"`
			Bad      []string `json:"bad"`
		}
		got := get(t, b, "read "+name, chromedp.Evaluate[result](readPieces+"("+string(arg)+")", chromedp.EvalAwaitPromise))
		if got.Sections != tt.sections {
			t.Errorf("%s: the whole text splits into %d sections, want %d", name, got.Sections, tt.sections)
		}
		if len(got.Bad) > 0 {
			t.Errorf("%s: read in pieces, the sections differ from the whole text's: %q", name, got.Bad)
		}
	}
}
