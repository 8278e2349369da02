// Highlighting, away from the page's thread: highlight.js (as diff2html's
// bundle carries it) is set up here, so its setup and its work never hold
// up a click or a key. The page sends a batch of lines of one file,
// { id, ext, texts }, and gets back { id, html }: each line's HTML, or
// null where the language is unknown or highlighting failed.
importScripts('/assets/vendor/diff2html-ui-slim.min.js');

let hljs = null;
try {
  // The bundle's UI class holds its highlight.js; made with a diff of no
  // files, it touches no DOM.
  hljs = new self.Diff2HtmlUI({}, [], {}).hljs || null;
} catch (err) {
  hljs = null;
}

self.onmessage = (ev) => {
  const { id, ext, texts } = ev.data;
  const lang = hljs && ext && hljs.getLanguage(ext) ? ext : '';
  const html = texts.map((text) => {
    if (!lang) { return null; }
    try { return hljs.highlight(text, { language: lang, ignoreIllegals: true }).value; } catch (err) { return null; }
  });
  self.postMessage({ id, html });
};
