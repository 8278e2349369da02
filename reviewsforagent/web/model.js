// The rows of a file's diff, as the page lays them out. A file's section
// of the diff is read a piece at a time: as far as the rows on screen
// need when it is drawn, the rest in the background, in slices short
// enough that the page never stops answering. A line is highlighted (in
// a worker: highlight.js) and word-diffed when it is drawn. Nothing here
// touches the DOM.

// A unified row is { t, line, hunk } or a hunk header { t: 'h', text, hunk };
// t is 'c' (context), 'a' (added) or 'd' (deleted). A line is
// { t, old, new, text, pair, hl, html }: pair is the line it replaced or
// that replaced it, for the word diff; hl its highlighted HTML (undefined:
// not asked for yet, false: asked for, null: none). A split row is
// { t: 's', l, r, hunk } with either side null, or a header.

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

// newModel is the model of a file's section with nothing read yet. With
// ignoreWs, a deleted line and an added one of the same change that
// differ only in whitespace (git diff -w) are one unchanged line, shown
// with both its numbers: the lines keep their numbers in the diff, so a
// comment stays on the line it was written on, in either view. A hunk
// whose changes are all whitespace is then left out, as git diff -w
// leaves it out, unless keep(oldLines, newLines) says a comment is on it
// (each [first, last]): a comment is never hidden by a view.
export function newModel(section, ignoreWs, keep) {
  return {
    text: section || '', at: 0, done: false, hunks: 0, unified: [], split: [], ignoreWs: !!ignoreWs,
    keep: keep || null,
    index: newIndex(),
    // Where the reading is: the next numbers, what is left of the hunk,
    // the change not yet laid out (deletions, then additions).
    oldNo: 0, newNo: 0, oldLeft: 0, newLeft: 0, oldEnd: 0, newEnd: 0, dels: [], adds: []
  };
}

// readRows reads until the layout has n rows, or the section ends.
export function readRows(m, layout, n) {
  while (!m.done && m[layout].length < n) { readLine(m); }
}

// readFor reads for about ms milliseconds; it reports whether the whole
// section is read.
export function readFor(m, ms) {
  const end = performance.now() + ms;
  while (!m.done) {
    for (let k = 0; k < 500 && !m.done; k++) { readLine(m); }
    if (performance.now() >= end) { break; }
  }
  return m.done;
}

// readLine reads one line of the section: a hunk header, a line of a
// hunk, or a line around them (the file's header, "\ No newline").
// The lines are those split('\n') gives: the last one may be empty.
function readLine(m) {
  const s = m.text;
  if (m.at > s.length) { finish(m); return; }
  let nl = s.indexOf('\n', m.at);
  if (nl < 0) { nl = s.length; }
  const l = s.slice(m.at, nl);
  m.at = nl + 1;
  if (m.oldLeft > 0 || m.newLeft > 0) {
    hunkLine(m, l);
    return;
  }
  const h = HUNK.exec(l);
  if (!h) { return; }
  const at = { unified: m.unified.length, split: m.split.length, oldEnd: m.oldEnd, newEnd: m.newEnd };
  startHunk(m, l, h);
  if (m.ignoreWs) { wholeHunk(m, at); }
}

// wholeHunk reads the rest of the hunk just started, whose rows begin at
// at, and takes them out again if its changes are all whitespace and no
// comment is on it. A hunk is read whole while whitespace is ignored, so
// no row of one about to go is ever drawn. The hunk numbers stay those of
// the diff (a range stays within one of them, which the server checks),
// and the unchanged lines above the next hunk start where they did above
// this one: "show more lines" reaches every line of the file.
function wholeHunk(m, at) {
  const oldLines = [m.oldNo, m.oldNo + m.oldLeft - 1];
  const newLines = [m.newNo, m.newNo + m.newLeft - 1];
  while ((m.oldLeft > 0 || m.newLeft > 0) && m.at <= m.text.length) { readLine(m); }
  flush(m);
  for (let r = at.unified + 1; r < m.unified.length; r++) {
    if (m.unified[r].t !== 'c') { return; }
  }
  if (m.keep && m.keep(oldLines, newLines)) { return; }
  m.unified.length = at.unified;
  m.split.length = at.split;
  m.oldEnd = at.oldEnd;
  m.newEnd = at.newEnd;
}

function startHunk(m, l, h) {
  flush(m);
  const hunk = m.hunks++;
  m.oldNo = Number(h[1]);
  m.newNo = Number(h[3]);
  m.oldLeft = h[2] === undefined ? 1 : Number(h[2]);
  m.newLeft = h[4] === undefined ? 1 : Number(h[4]);
  // Above each hunk, the unchanged lines since the one before it may be
  // shown ("expand context"): old lines gapFrom..gapTo, each delta lower
  // than its new number.
  const head = { t: 'h', text: l.replace(/\r$/, ''), hunk, gapFrom: m.oldEnd + 1, gapTo: m.oldNo - 1, delta: m.newNo - m.oldNo };
  m.unified.push(head);
  m.split.push(head);
}

function hunkLine(m, l) {
  const c = l[0];
  if (c === '\\') { return; } // "\ No newline at end of file"
  let line;
  if (c === '+') {
    line = newLine('a', 0, m.newNo++, l.slice(1));
    m.newLeft--;
  } else if (c === '-') {
    line = newLine('d', m.oldNo++, 0, l.slice(1));
    m.oldLeft--;
  } else {
    // A context line; one that lost its leading space is still one.
    line = newLine('c', m.oldNo++, m.newNo++, l.slice(c === ' ' ? 1 : 0));
    m.oldLeft--;
    m.newLeft--;
  }
  const hunk = m.hunks - 1;
  m.oldEnd = Math.max(m.oldEnd, line.old);
  m.newEnd = Math.max(m.newEnd, line.new);
  if (line.t === 'd') {
    if (m.adds.length > 0) { flush(m); } // a deletion after additions starts a new change
    m.dels.push(line);
  } else if (line.t === 'a') {
    m.adds.push(line);
  } else {
    flush(m);
    m.unified.push({ t: 'c', line, hunk });
    m.split.push({ t: 's', l: line, r: line, hunk });
  }
  if (m.oldLeft <= 0 && m.newLeft <= 0) { flush(m); } // the hunk is read
}

function newLine(t, old, nw, text) {
  return { t, old, new: nw, text, pair: null, hl: undefined, html: null };
}

// flush lays out the change read so far: in the unified layout its
// deletions then its additions, in the split layout the deletions on the
// left beside the additions on the right, paired for the word diff. With
// ignoreWs, the pairs that differ only in whitespace are unchanged lines
// between the parts of the change around them.
function flush(m) {
  const { dels, adds } = m;
  if (dels.length === 0 && adds.length === 0) { return; }
  const hunk = m.hunks - 1;
  let d = 0;
  let a = 0;
  if (m.ignoreWs) {
    sameButSpace(dels, adds).forEach(([i, j]) => {
      change(m, dels.slice(d, i), adds.slice(a, j), hunk);
      const line = Object.assign(newLine('c', dels[i].old, adds[j].new, adds[j].text), { ws: true });
      m.unified.push({ t: 'c', line, hunk });
      m.split.push({ t: 's', l: line, r: line, hunk });
      d = i + 1;
      a = j + 1;
    });
  }
  change(m, dels.slice(d), adds.slice(a), hunk);
  m.dels = [];
  m.adds = [];
}

function change(m, dels, adds, hunk) {
  dels.forEach((line) => m.unified.push({ t: 'd', line, hunk }));
  adds.forEach((line) => m.unified.push({ t: 'a', line, hunk }));
  for (let i = 0; i < Math.max(dels.length, adds.length); i++) {
    const l = dels[i] || null;
    const r = adds[i] || null;
    if (l && r) { l.pair = r; r.pair = l; }
    m.split.push({ t: 's', l, r, hunk });
  }
}

// sameButSpace pairs, in order, each deleted line with the first added
// line after the last one paired whose text is the same but for
// whitespace: [deleted index, added index], both increasing.
export function sameButSpace(dels, adds) {
  const at = new Map(); // text without whitespace → the added lines' indexes, in order
  adds.forEach((l, j) => {
    const k = l.text.replace(/\s+/g, '');
    if (!at.has(k)) { at.set(k, []); }
    at.get(k).push(j);
  });
  const next = new Map(); // text → how far its list is used
  const pairs = [];
  let after = 0;
  dels.forEach((l, i) => {
    const k = l.text.replace(/\s+/g, '');
    const list = at.get(k);
    if (!list) { return; }
    let p = next.get(k) || 0;
    while (p < list.length && list[p] < after) { p++; }
    next.set(k, p);
    if (p < list.length) {
      pairs.push([i, list[p]]);
      after = list[p] + 1;
      next.set(k, p + 1);
    }
  });
  return pairs;
}

function finish(m) {
  flush(m);
  if (m.hunks > 0 && m.oldEnd > 0) {
    // Below the last hunk: the rest of the file, length unknown.
    const tail = { t: 'x', hunk: m.hunks, gapFrom: m.oldEnd + 1, gapTo: Infinity, delta: m.newEnd - m.oldEnd };
    m.unified.push(tail);
    m.split.push(tail);
  }
  m.done = true;
  m.text = '';
}

// ------------------------------------------------------------------ lines to rows

// A comment on a deleted line is on the left (old) side, on its old
// number; on an added or context line, on the right side, on the new one.
// The index from side and number to row is built as it is asked for.
function newIndex() {
  const ix = () => ({ upTo: 0, left: new Map(), right: new Map() });
  return { unified: ix(), split: ix() };
}

// rowOf is the row of the layout a comment on side:line sits under,
// reading the section as far as that line; undefined when the diff does
// not have the line.
export function rowOf(m, layout, side, line) {
  while (!m.done && !passed(m, side, line)) { readLine(m); }
  const ix = m.index[layout];
  const rows = m[layout];
  // Numbers only grow down the rows: the index stops past the line.
  while (ix.upTo < rows.length && !ix[side].has(line) && numberAt(rows[ix.upTo], side) <= line) {
    const row = rows[ix.upTo];
    if (row.t === 's') {
      indexLine(ix, row.l, ix.upTo);
      indexLine(ix, row.r, ix.upTo);
    } else if (row.line) {
      indexLine(ix, row.line, ix.upTo);
    }
    ix.upTo++;
  }
  return ix[side].get(line);
}

// numberAt is the row's line number on side, or 0 (a header, an empty
// side, an added line on the left).
function numberAt(row, side) {
  const l = row.t === 's' ? (side === 'left' ? row.l : row.r) : row.line;
  if (!l) { return 0; }
  return side === 'left' ? l.old : l.new;
}

function indexLine(ix, l, i) {
  if (!l || l.extra) { return; } // shown for context, not part of the diff
  if (l.t === 'd') { ix.left.set(l.old, i); } else { ix.right.set(l.new, i); }
  // A deleted line that differs from its added one only in whitespace: a
  // comment on it sits on the one line that shows both.
  if (l.ws) { ix.left.set(l.old, i); }
}

// passed says whether the reading is past side:line, in both layouts.
function passed(m, side, line) {
  const next = side === 'left' ? m.oldNo : m.newNo;
  return m.hunks > 0 && next > line && m.dels.length === 0 && m.adds.length === 0;
}

// addContext puts unchanged lines (text of old lines from, from+1, ...)
// next to the gap row g: under a hunk header (the lines just above its
// hunk), or above the tail row (the lines after the last hunk).
export function addContext(m, g, from, texts) {
  const lines = texts.map((text, j) => Object.assign(newLine('c', from + j, from + j + g.delta, text), { extra: true }));
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
  m.added = (m.added || 0) + lines.length;
  m.extraWidth = texts.reduce((n, t) => Math.max(n, t.replace(/\t/g, '    ').length), m.extraWidth || 0);
  m.index = newIndex(); // rows moved
}

// ------------------------------------------------------------------ line HTML

const escapes = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => escapes[c]);
}

// Lines longer than this are shown without highlighting or a word diff:
// both cost more than they help on a minified line.
const LONG_LINE = 1000;

// wantsHighlight says whether the line's highlighting is yet to be asked
// for.
export function wantsHighlight(line) {
  if (line.hl !== undefined) { return false; }
  if (line.text.length > LONG_LINE) {
    line.hl = null;
    return false;
  }
  return true;
}

// lineHTML is the line's code as HTML: highlighted once the highlighting
// has come, with the part that differs from its pair marked. Kept once
// final. Every character of the text is escaped, by highlight.js or here.
export function lineHTML(line) {
  if (line.html !== null) { return line.html; }
  const text = line.text;
  let html = typeof line.hl === 'string' ? line.hl : esc(text);
  if (line.pair && text.length <= LONG_LINE && line.pair.text.length <= LONG_LINE) {
    const [from, to] = changedSpan(text, line.pair.text);
    if (from < to && to - from < text.length) {
      const tag = line.t === 'a' ? 'ins' : 'del';
      html = markSpan(html, from, to, '<' + tag + '>', '</' + tag + '>');
    }
  }
  if (line.hl !== undefined && line.hl !== false) { line.html = html; }
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

// found lists where the lower-case q occurs in the line's text: the
// start of each occurrence, not overlapping.
export function found(line, q) {
  if (line.lower === undefined) { line.lower = line.text.toLowerCase(); }
  const at = [];
  for (let i = line.lower.indexOf(q); i >= 0; i = line.lower.indexOf(q, i + q.length)) { at.push(i); }
  return at;
}

// markFound marks in html (the line's HTML) the occurrences of the
// lower-case q; the one at now (a start), if any, as the current match.
export function markFound(html, line, q, now) {
  // Lower-casing keeps the length of almost every text; where it does
  // not, positions would be wrong, and nothing is marked.
  if (line.lower === undefined) { line.lower = line.text.toLowerCase(); }
  if (line.lower.length !== line.text.length) { return html; }
  found(line, q).forEach((at) => {
    const open = at === now ? '<mark class="rfa-found rfa-found-now">' : '<mark class="rfa-found">';
    html = markSpan(html, at, at + q.length, open, '</mark>');
  });
  return html;
}

// markSpan wraps the text characters from..to of html (escaped text and
// tags, as highlight.js writes it) in open and close tags, closing and
// reopening them around the tags it crosses so the markup stays well
// nested.
function markSpan(html, from, to, open, close) {
  let out = '';
  let pos = 0; // text characters passed
  let inside = false;
  const toggle = () => {
    const want = pos >= from && pos < to;
    if (want !== inside) { out += want ? open : close; inside = want; }
  };
  for (let i = 0; i < html.length;) {
    if (html[i] === '<') {
      const end = html.indexOf('>', i) + 1;
      if (inside) { out += close; inside = false; }
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
  if (inside) { out += close; }
  return out;
}
