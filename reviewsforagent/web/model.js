// The rows of a file's diff, as the page lays them out: parsed from the
// file's section of the diff (with diff2html's parser) when the file first
// comes near the screen, highlighted and word-diffed a line at a time when
// the line is drawn. Nothing here touches the DOM.

// parseHunks reads the hunks of one file's section of a git diff: for
// each, its header line, where it starts, and its lines with their
// numbers. diff2html's parser did this first; on a 50,000-line file it
// held the page for half a second, where this loop takes a few
// milliseconds: the section is git's own output, of one known shape.
const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;
export function parseHunks(section) {
  const blocks = [];
  let b = null;
  let oldNo = 0;
  let newNo = 0;
  let oldLeft = 0;
  let newLeft = 0;
  const lines = section.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (oldLeft > 0 || newLeft > 0) {
      const c = l[0];
      if (c === '\\') { continue; } // "\ No newline at end of file"
      if (c === '+') {
        b.lines.push({ type: 'insert', oldNumber: 0, newNumber: newNo++, text: l.slice(1) });
        newLeft--;
      } else if (c === '-') {
        b.lines.push({ type: 'delete', oldNumber: oldNo++, newNumber: 0, text: l.slice(1) });
        oldLeft--;
      } else {
        // A context line; one that lost its leading space is still one.
        b.lines.push({ type: 'context', oldNumber: oldNo++, newNumber: newNo++, text: l.slice(c === ' ' ? 1 : 0) });
        oldLeft--;
        newLeft--;
      }
      continue;
    }
    const m = HUNK.exec(l);
    if (!m) { continue; }
    oldNo = Number(m[1]);
    newNo = Number(m[3]);
    oldLeft = m[2] === undefined ? 1 : Number(m[2]);
    newLeft = m[4] === undefined ? 1 : Number(m[4]);
    b = { header: l.replace(/\r$/, ''), oldStartLine: oldNo, newStartLine: newNo, lines: [] };
    blocks.push(b);
  }
  return blocks;
}

// A unified row is { t, line, hunk } or a hunk header { t: 'h', text, hunk };
// t is 'c' (context), 'a' (added) or 'd' (deleted). A line is
// { t, old, new, text, pair }: pair is the line it replaced or that
// replaced it, for the word diff. A split row is { t: 's', l, r, hunk }
// with either side null, or a header.

// parseFile returns the file's rows in both layouts and, per layout, a
// Map from "side:line" to the row a comment on that line sits under.
export function parseFile(section) {
  const blocks = parseHunks(section || '');
  const unified = [];
  const split = [];
  let oldEnd = 0;
  let newEnd = 0;
  blocks.forEach((b, hunk) => {
    // Above each hunk, the unchanged lines since the one before it may be
    // shown ("expand context"): old lines gapFrom..gapTo, each delta
    // lower than its new number.
    const head = { t: 'h', text: b.header, hunk, gapFrom: oldEnd + 1, gapTo: b.oldStartLine - 1, delta: b.newStartLine - b.oldStartLine };
    unified.push(head);
    split.push(head);
    let dels = [];
    let adds = [];
    const flush = () => {
      for (let i = 0; i < Math.max(dels.length, adds.length); i++) {
        const l = dels[i] || null;
        const r = adds[i] || null;
        if (l && r) { l.pair = r; r.pair = l; }
        split.push({ t: 's', l, r, hunk });
      }
      dels = [];
      adds = [];
    };
    b.lines.forEach((x) => {
      const t = x.type === 'insert' ? 'a' : x.type === 'delete' ? 'd' : 'c';
      const line = { t, old: x.oldNumber || 0, new: x.newNumber || 0, text: x.text, pair: null, html: null };
      oldEnd = Math.max(oldEnd, line.old);
      newEnd = Math.max(newEnd, line.new);
      unified.push({ t, line, hunk });
      if (t === 'd') {
        if (adds.length > 0) { flush(); } // a deletion after additions starts a new change
        dels.push(line);
        return;
      }
      if (t === 'a') { adds.push(line); return; }
      flush();
      split.push({ t: 's', l: line, r: line, hunk });
    });
    flush();
  });
  if (blocks.length > 0 && oldEnd > 0) {
    // Below the last hunk: the rest of the file, length unknown.
    const tail = { t: 'x', hunk: blocks.length, gapFrom: oldEnd + 1, gapTo: Infinity, delta: newEnd - oldEnd };
    unified.push(tail);
    split.push(tail);
  }
  const m = { unified, split, hunks: blocks.length };
  reindex(m);
  return m;
}

// reindex maps the lines to their rows again, after rows were added.
export function reindex(m) {
  m.index = { unified: indexRows(m.unified), split: indexRows(m.split) };
}

// addContext puts unchanged lines (text of old lines from, from+1, ...)
// next to the gap row g: under a hunk header (the lines just above its
// hunk), or above the tail row (the lines after the last hunk).
export function addContext(m, g, from, texts) {
  const lines = texts.map((text, j) => ({ t: 'c', old: from + j, new: from + j + g.delta, text, pair: null, html: null, extra: true }));
  const hunk = g.t === 'h' ? g.hunk : g.hunk - 1;
  ['unified', 'split'].forEach((layout) => {
    const rows = m[layout];
    const at = rows.indexOf(g) + (g.t === 'h' ? 1 : 0);
    const add = lines.map((line) => (layout === 'split' ? { t: 's', l: line, r: line, hunk } : { t: 'c', line, hunk }));
    rows.splice(at, 0, ...add);
  });
  if (g.t === 'h') {
    g.gapTo = from - 1;
  } else {
    g.gapFrom = from + texts.length;
  }
  reindex(m);
}

// A comment on a deleted line is on the left (old) side, on its old
// number; on an added or context line, on the right side, on the new one.
function indexRows(rows) {
  const m = new Map();
  rows.forEach((row, i) => {
    if (row.t === 'h' || row.t === 'x') { return; }
    const lines = row.t === 's' ? [row.l, row.r] : [row.line];
    lines.forEach((l) => {
      if (!l || l.extra) { return; } // shown for context, not part of the diff
      if (l.t === 'd') { m.set('left:' + l.old, i); } else { m.set('right:' + l.new, i); }
    });
  });
  return m;
}

// ------------------------------------------------------------------ line HTML

const escapes = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => escapes[c]);
}

let hljs = null;
function highlighter() {
  if (hljs === null) {
    // The slim bundle carries highlight.js with the common languages; its
    // UI class holds it.
    try { hljs = new Diff2HtmlUI(document.createElement('div'), [], {}).hljs || false; } catch (err) { hljs = false; }
  }
  return hljs;
}

// languageOf is highlight.js's name for a path's language, or "".
export function languageOf(path) {
  const h = highlighter();
  if (!h) { return ''; }
  const base = path.slice(path.lastIndexOf('/') + 1);
  const ext = base.includes('.') ? base.slice(base.lastIndexOf('.') + 1).toLowerCase() : base.toLowerCase();
  return h.getLanguage(ext) ? ext : '';
}

// Lines longer than this are shown without highlighting or a word diff:
// both cost more than they help on a minified line.
const LONG_LINE = 1000;

// lineHTML is the line's code as HTML: highlighted in lang, with the part
// that differs from its pair marked. Computed once per line, when first
// drawn. Every character of the text is escaped, by highlight.js or here.
export function lineHTML(line, lang) {
  if (line.html !== null) { return line.html; }
  const text = line.text;
  let html = null;
  if (lang && text.length <= LONG_LINE) {
    try { html = highlighter().highlight(text, { language: lang, ignoreIllegals: true }).value; } catch (err) { html = null; }
  }
  if (html === null) { html = esc(text); }
  if (line.pair && text.length <= LONG_LINE && line.pair.text.length <= LONG_LINE) {
    const [from, to] = changedSpan(text, line.pair.text);
    if (from < to && to - from < text.length) {
      html = markSpan(html, from, to, line.t === 'a' ? 'ins' : 'del');
    }
  }
  line.html = html;
  return html;
}

// changedSpan is where a differs from b: between their common prefix and
// common suffix, in a's characters.
export function changedSpan(a, b) {
  let p = 0;
  const n = Math.min(a.length, b.length);
  while (p < n && a[p] === b[p]) { p++; }
  let s = 0;
  while (s < n - p && a[a.length - 1 - s] === b[b.length - 1 - s]) { s++; }
  return [p, a.length - s];
}

// markSpan wraps the text characters from..to of html (escaped text and
// tags, as highlight.js writes it) in <tag>, closing and reopening it
// around the tags it crosses so the markup stays well nested.
function markSpan(html, from, to, tag) {
  let out = '';
  let pos = 0; // text characters passed
  let open = false;
  const toggle = () => {
    const want = pos >= from && pos < to;
    if (want !== open) { out += want ? '<' + tag + '>' : '</' + tag + '>'; open = want; }
  };
  for (let i = 0; i < html.length;) {
    if (html[i] === '<') {
      const end = html.indexOf('>', i) + 1;
      if (open) { out += '</' + tag + '>'; open = false; }
      out += html.slice(i, end);
      i = end;
      continue;
    }
    toggle();
    const end = html[i] === '&' ? html.indexOf(';', i) + 1 : i + 1;
    out += html.slice(i, end);
    i = end;
    pos++;
  }
  if (open) { out += '</' + tag + '>'; }
  return out;
}
