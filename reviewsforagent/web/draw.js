// Drawing the diff, virtualised: every file has its header and a body as
// tall as its rows would be, but only the rows near the viewport are in
// the DOM, drawn again as the page scrolls. A row is ROW pixels high (code
// does not wrap), so where any row sits is arithmetic; comment cards, of
// any height, are measured once drawn. A file's diff is read as far as
// the rows drawn need when it first comes near the screen, and the rest
// of it in the background; a line is highlighted and word-diffed when
// drawn.
//
// Layout is read before the DOM is written, never in between, so a draw
// costs the browser one layout. Nothing keeps references into the rows
// across draws but the lines waiting for their highlighting: comments
// live in state, and every draw puts them back.
import { newModel, readRows, readFor, rowOf, lineHTML, wantsHighlight, markFound, esc, addContext } from './model.js';
import { highlight, extOf } from './highlight.js';
import { commentCard, formCard, fileHeader, foldNotice } from './render.js';
import { state, container, updateCount, idle } from './page.js';
import { scheduleSave } from './drafts.js';
import { viewedFiles, showViewed, setFolded } from './nav.js';
import { treeCounts, fileShown } from './tree.js';
import { startFiles, placeFiles, showFile, forgetHeights } from './files.js';

export const ROW = 20; // px; .rfa-vtable rows in app.css
const CARD_GUESS = 96; // px, a card not measured yet
const FORM_GUESS = 170;

// ------------------------------------------------------------------ layout

function model(f) {
  if (!f.model) { f.model = newModel(f.section, state.ignoreWs, (oldLines, newLines) => commentedIn(f, oldLines, newLines)); }
  return f.model;
}

// commentedIn says whether a comment, or the open form, of file f is on
// its old lines or its new lines (each [first, last]).
function commentedIn(f, oldLines, newLines) {
  const i = state.files.indexOf(f);
  const on = (c) => c.file === i && c.startLine !== null &&
    (c.side === 'left' ? oldLines : newLines)[0] <= c.endLine && c.startLine <= (c.side === 'left' ? oldLines : newLines)[1];
  return state.comments.some(on) || (state.draft !== null && on(state.draft));
}

// rowCount is the rows of f in the current layout, known before they are
// read: a header per hunk, the lines, and the row below the last hunk
// (not in a new file's diff).
export function rowCount(f) {
  const m = f.model;
  if (m && m.done) { return m[view()].length; }
  const meta = f.meta;
  const tail = meta.hunks > 0 && meta.status !== 'added' ? 1 : 0;
  return meta.hunks + tail + (state.view === 'side-by-side' ? meta.splitRows : meta.lines) + ((m && m.added) || 0);
}

function view() { return state.view === 'side-by-side' ? 'split' : 'unified'; }

// cardsOf lists the cards of file i by the row they sit under: saved
// comments and the open form, each with the rows it covers.
function cardsOf(i) {
  const f = state.files[i];
  const byRow = new Map();
  if (!f.model) { return byRow; }
  const d = state.draft;
  const items = state.comments.filter((c) => c.file === i && c.startLine !== null);
  if (d && d.file === i && d.startLine !== null && d.editing === null) { items.push(d); }
  for (const c of items) {
    const first = rowOf(f.model, view(), c.side, c.startLine);
    const last = rowOf(f.model, view(), c.side, c.endLine);
    if (first === undefined || last === undefined) { continue; }
    const isForm = c === d || (d && d.editing === c.id);
    const key = isForm ? 'form' : 'c' + c.id;
    if (!byRow.has(last)) { byRow.set(last, []); }
    byRow.get(last).push({ c, key, isForm, first, last });
  }
  return byRow;
}

// extras is, in row order, the height the cards under each row add.
function extras(f, byRow) {
  const out = [];
  byRow.forEach((cards, row) => {
    const h = cards.reduce((n, k) => n + (f.cardH.get(k.key) || (k.isForm ? FORM_GUESS : CARD_GUESS)), 0);
    out.push({ row, h });
  });
  return out.sort((a, b) => a.row - b.row);
}

function offsetOf(ex, row) {
  let y = row * ROW;
  for (const e of ex) {
    if (e.row >= row) { break; }
    y += e.h;
  }
  return y;
}

// rowAt is the row at height y of the body (a card counts as its row).
function rowAt(ex, y) {
  let acc = 0;
  for (const e of ex) {
    const end = (e.row + 1) * ROW + acc;
    if (y < end) { break; }
    if (y < end + e.h) { return e.row; }
    acc += e.h;
  }
  return Math.max(0, Math.floor((y - acc) / ROW));
}

// ------------------------------------------------------------------ files

// anchor is what is at the top of the screen: a file and a line in it,
// which the other layout also has.
export function anchor() {
  for (let i = 0; i < state.files.length; i++) {
    const f = state.files[i];
    if (!f.body || !f.model || f.wrapper.getBoundingClientRect().bottom <= 0) { continue; }
    const r = f.body.getBoundingClientRect();
    if (r.bottom <= 0 || r.height === 0) { continue; }
    if (r.top > 0) { return null; }
    const rows = f.model[view()];
    const row = rows[Math.min(rows.length - 1, rowAt(extras(f, cardsOf(i)), -r.top))];
    const l = row && (row.line || row.r || row.l);
    if (!l || l.extra) { return null; }
    return l.t === 'd' ? { i, side: 'left', line: l.old } : { i, side: 'right', line: l.new };
  }
  return null;
}

// toAnchor scrolls the anchor's line back to the top of the screen.
export function toAnchor(a) {
  if (!a) { return; }
  const f = state.files[a.i];
  const row = f.body && f.model ? rowOf(f.model, view(), a.side, a.line) : undefined;
  if (row === undefined) { return; }
  window.scrollTo(0, rowTop(a.i, row));
  placeWindow(f, a.i, true);
}

// drawDiff lays the files out afresh, their bodies empty: only the files
// near the screen are in the page (files.js keeps that window), and their
// rows come when the bodies are reported near the screen.
export function drawDiff() {
  container.classList.toggle('rfa-split', state.view === 'side-by-side');
  const viewed = viewedFiles();
  state.files.forEach((f) => {
    f.win = null;
    f.waiting = null;
    f.cardH = f.cardH || new Map();
    f.wrapper = null;
    f.body = null;
    f.viewed = viewed.has(f.meta.path);
  });
  startFiles();
  drawComments(false);
}

// afterFrame runs fn once the next frame is painted.
function afterFrame(fn) {
  requestAnimationFrame(() => setTimeout(fn, 0));
}

// makeFile is file i's wrapper: its header, its comment area and its body
// (empty), or why it has none.
export function makeFile(i) {
  const f = state.files[i];
  const wrapper = fileHeader(f.meta, i);
  f.wrapper = wrapper;
  if (f.folded) {
    wrapper.appendChild(foldNotice(f.meta.collapsed));
  } else if (f.meta.binary) {
    const b = document.createElement('div');
    b.className = 'd2h-file-diff rfa-binary';
    b.textContent = 'Binary file not shown.';
    wrapper.appendChild(b);
  } else {
    wrapper.appendChild(makeBody(f, i));
  }
  showViewed(wrapper, f);
  fileCards(f, i, state.draft);
  return wrapper;
}

// dropFile forgets the elements of file f, just taken out of the page;
// its model and the heights of its cards stay.
export function dropFile(f) {
  if (f.body) {
    near.unobserve(f.body);
    nearBodies.delete(f.body);
  }
  f.win = null;
  f.waiting = null;
  f.wrapper = null;
  f.body = null;
  f.table = null;
}

// switchView draws the files' bodies afresh, empty, in the layout just
// chosen; their headers and comment areas stay as they are.
export function switchView() {
  container.classList.toggle('rfa-split', state.view === 'side-by-side');
  state.files.forEach((f, i) => {
    if (!f.body) { return; }
    const old = f.body;
    near.unobserve(old);
    nearBodies.delete(old);
    f.win = null;
    f.waiting = null;
    old.replaceWith(makeBody(f, i));
    setFolded(f.wrapper, f.wrapper.querySelector('.d2h-file-collapse-input').checked);
  });
  forgetHeights(); // the files out of the page are as tall as the new layout makes them
  drawComments(false);
}

// switchWhitespace reads every file again, ignoring whitespace or not as
// state.ignoreWs says, and draws the bodies afresh; comments are on line
// numbers, which both readings share.
export function switchWhitespace() {
  reading.clear();
  state.files.forEach((f) => { f.model = null; });
  switchView();
}

// fillScreen draws the rows of every body on screen now, not waiting for
// the observer, which reports a new body only after the next layout. It
// reads where every body is first, then draws.
export function fillScreen() {
  const at = [];
  state.files.forEach((f, i) => { if (f.body && !f.folded && nearScreen(f)) { at.push([f, i, f.body.getBoundingClientRect()]); } });
  at.forEach(([f, i, rect]) => placeWindow(f, i, false, rect));
}

// nearScreen says whether f's file is within a screen of the viewport,
// from its wrapper's box.
function nearScreen(f) {
  const r = f.wrapper.getBoundingClientRect();
  const h = window.innerHeight;
  return r.bottom > -h && r.top < 2 * h;
}

function makeBody(f, i) {
  const body = document.createElement('div');
  body.className = 'd2h-file-diff rfa-vbody';
  body.dataset.rfaFile = String(i);
  const table = document.createElement('table');
  const split = state.view === 'side-by-side';
  table.className = 'rfa-vtable d2h-diff-table' + (split ? ' rfa-split-table' : '');
  // A fixed table takes its columns' widths from its first row, which is
  // often a hunk's head spanning three of them: the columns say their
  // widths themselves, so the new side's numbers stay narrow and its code
  // gets the half it needs.
  const cols = document.createElement('colgroup');
  (split ? ['num', 'code', 'num', 'code'] : ['nums', 'code']).forEach((k) => {
    const col = document.createElement('col');
    col.className = 'rfa-col-' + k;
    cols.appendChild(col);
  });
  table.appendChild(cols);
  table.appendChild(document.createElement('tbody'));
  body.appendChild(table);
  f.body = body;
  f.table = table;
  body.style.height = rowCount(f) * ROW + 'px';
  near.observe(body);
  return body;
}

// unfold shows the files with these indexes in place, their rows drawn
// when on screen; it reports whether any was folded.
export function unfold(indexes) {
  let any = false;
  indexes.forEach((i) => {
    const f = state.files[i];
    if (!f || !f.folded) { return; }
    f.folded = false;
    any = true;
    if (!f.wrapper) { return; }
    const notice = f.wrapper.querySelector('.rfa-folded');
    const body = makeBody(f, i);
    if (notice) { notice.replaceWith(body); } else { f.wrapper.appendChild(body); }
    setFolded(f.wrapper, f.wrapper.querySelector('.d2h-file-collapse-input').checked);
  });
  if (any) { drawComments(false); }
  return any;
}

// unfoldCommented unfolds the files that line comments are on, so that
// restored or submitted comments have their lines to sit on.
export function unfoldCommented() {
  unfold(state.comments.concat(state.draft ? [state.draft] : []).filter((c) => c.startLine !== null).map((c) => c.file));
}

// ------------------------------------------------------------------ the window

// Bodies within a screen of the viewport; only these are looked at on
// scroll.
const nearBodies = new Set();
const near = new IntersectionObserver((entries) => {
  entries.forEach((e) => {
    if (e.isIntersecting) { nearBodies.add(e.target); return; }
    nearBodies.delete(e.target);
    // Far from the screen: its rows go, unless the person is typing in
    // them.
    const f = state.files[Number(e.target.dataset.rfaFile)];
    if (f && f.body === e.target && f.win && !f.table.contains(document.activeElement)) {
      f.table.tBodies[0].textContent = '';
      f.win = null;
      f.waiting = null;
    }
  });
  // Reported after a layout: where the bodies are costs nothing to read
  // now, and the rows drawn are laid out in the next frame, not this one.
  update();
}, { rootMargin: '100% 0px' });

// schedule draws what a scroll brings into view before the next frame
// paints; after a draw, growLater adds to it once the next frame is
// painted, when where the bodies are is known without a layout.
let frame = 0;
function schedule() {
  if (!frame) { frame = requestAnimationFrame(() => { frame = 0; update(); }); }
}

let growing = false;
function growLater() {
  if (growing) { return; }
  growing = true;
  afterFrame(() => { growing = false; update(); });
}
window.addEventListener('scroll', schedule, { passive: true });
window.addEventListener('resize', schedule);

// update draws, in each body near the screen, the rows the viewport
// needs, unless they are drawn already.
export function update() {
  placeFiles(false);
  const at = [];
  nearBodies.forEach((body) => {
    const i = Number(body.dataset.rfaFile);
    const f = state.files[i];
    if (!f || f.body !== body) { nearBodies.delete(body); return; }
    at.push([f, i, body.getBoundingClientRect()]);
  });
  at.forEach(([f, i, rect]) => placeWindow(f, i, false, rect));
}

// The rows drawn are those on screen and about a screen more each way.
// A file first drawn (or drawn afresh) gets the rows on screen and a few
// more, then grows by GROW rows a side each frame, so no one frame lays
// out hundreds of rows; a scroll adds the rows it brings and drops the
// ones it leaves.
const FIRST = 5;
const GROW = 20;

// placeWindow draws the rows of f around the viewport, unless those
// drawn cover it (or force); rect is where its body is, if known.
function placeWindow(f, i, force, rect) {
  const r = rect || f.body.getBoundingClientRect();
  const h = window.innerHeight;
  const top = -r.top;
  if (r.height === 0 || top > r.height + h || top + 2 * h < 0) { return; }
  const m = model(f);
  let byRow = cardsOf(i);
  let ex = extras(f, byRow);
  const clamp = (n) => Math.max(0, Math.min(rowCount(f), n));
  const need = [clamp(rowAt(ex, top - h / 2)), clamp(rowAt(ex, top + 1.5 * h) + 1)];
  const w = f.win;
  if (!force && w && w[0] <= need[0] && w[1] >= need[1]) { return; }
  if (!m.done && m[view()].length <= rowAt(ex, top + 2 * h)) {
    readRows(m, view(), rowAt(ex, top + 2 * h) + 1);
    byRow = cardsOf(i); // the cards on the lines just read
    ex = extras(f, byRow);
  }
  const want = [clamp(rowAt(ex, top - h)), clamp(rowAt(ex, top + 2 * h) + 1)];
  const vis = [clamp(rowAt(ex, top)), clamp(rowAt(ex, top + h) + 1)];
  let from;
  let to;
  if (force || !w || vis[0] >= w[1] || vis[1] <= w[0] || signature(byRow) !== f.sig) {
    from = Math.max(want[0], vis[0] - FIRST);
    to = Math.min(want[1], vis[1] + FIRST);
    render(f, i, from, to, byRow, ex);
  } else {
    from = w[0] <= need[0] ? Math.max(w[0], want[0]) : Math.max(want[0], Math.min(vis[0], w[0] - GROW));
    to = w[1] >= need[1] ? Math.min(w[1], want[1]) : Math.min(want[1], Math.max(vis[1], w[1] + GROW));
    slide(f, i, from, to, byRow, ex);
  }
  if (from > need[0] || to < need[1]) { growLater(); }
  if (!m.done) { readLater(f, i); }
}

// ------------------------------------------------------------------ reading in the background

// The rest of a drawn file is read in slices of SLICE ms when the page is
// idle, so a scroll far down finds its rows ready.
const SLICE = 8;
const reading = new Map(); // file → its index

function readLater(f, i) {
  if (reading.has(f)) { return; }
  reading.set(f, i);
  if (reading.size === 1) { idle(readSlice); }
}

function readSlice() {
  const [f, i] = reading.entries().next().value;
  if (readFor(f.model, SLICE)) {
    reading.delete(f);
    resize(f, i); // the rows counted before reading may differ by the last one
  }
  if (reading.size > 0) { idle(readSlice); }
}

// render draws rows from..to of f, with their cards, keeping the focus.
function render(f, i, from, to, byRow, ex) {
  const tbody = f.table.tBodies[0];
  const drawn = { cards: [], waiting: [], ask: new Set() };
  const focus = rememberFocus(f.table);
  tbody.replaceChildren(buildRows(f, tbody, from, to, byRow, drawn));
  f.waiting = drawn.waiting;
  restoreFocus(f.table, focus);
  finishDraw(f, i, from, to, byRow, ex, drawn);
}

// slide moves the window of rows drawn to from..to, which overlaps it:
// the rows it leaves go, those it comes to are added; the rest stay as
// they are, with their cards and the focus.
function slide(f, i, from, to, byRow, ex) {
  const [a, b] = f.win;
  const tbody = f.table.tBodies[0];
  const drawn = { cards: [], waiting: [], ask: new Set() };
  if (from > a) { dropFirst(tbody, from - a); }
  if (to < b) { dropLast(tbody, b - to); }
  if (from < a) { tbody.prepend(buildRows(f, tbody, from, a, byRow, drawn)); }
  if (to > b) { tbody.append(buildRows(f, tbody, b, to, byRow, drawn)); }
  f.waiting = (f.waiting || []).filter(([, span]) => span.isConnected).concat(drawn.waiting);
  finishDraw(f, i, from, to, byRow, ex, drawn);
}

// recard puts the cards in the window drawn afresh, and marks the rows
// they cover; the rows stay.
function recard(f, i, byRow, ex) {
  const [a, b] = f.win;
  const tbody = f.table.tBodies[0];
  const focus = rememberFocus(f.table);
  Array.from(tbody.children).forEach((tr) => { if (tr.classList.contains('rfa-row')) { tr.remove(); } });
  const trs = Array.from(tbody.children);
  const marks = rangeMarks(byRow);
  trs.forEach((tr, k) => {
    if (!tr.classList.contains('rfa-r')) { return; }
    const mark = marks.get(a + k);
    const cls = mark ? 'rfa-r ' + mark : 'rfa-r';
    if (tr.className !== cls) { tr.className = cls; }
  });
  const drawn = { cards: [], waiting: [], ask: new Set() };
  addCards(trs, a, b, byRow, drawn);
  restoreFocus(f.table, focus);
  finishDraw(f, i, a, b, byRow, ex, drawn);
}

// addCards puts the cards of rows a..b after their rows, trs.
function addCards(trs, a, b, byRow, drawn) {
  byRow.forEach((cards, row) => {
    let at = trs[row - a];
    if (row < a || row >= b || !at) { return; }
    cards.forEach((k) => {
      const tr = cardRow(k);
      at.after(tr);
      at = tr;
      drawn.cards.push([k, tr]);
    });
  });
}

// dropFirst takes the first n rows and their cards out of tbody;
// dropLast the last n.
function dropFirst(tbody, n) {
  while (tbody.firstElementChild && (n > 0 || tbody.firstElementChild.classList.contains('rfa-row'))) {
    if (!tbody.firstElementChild.classList.contains('rfa-row')) { n--; }
    tbody.firstElementChild.remove();
  }
}

function dropLast(tbody, n) {
  while (tbody.lastElementChild && n > 0) {
    if (!tbody.lastElementChild.classList.contains('rfa-row')) { n--; }
    tbody.lastElementChild.remove();
  }
}

// buildRows is rows a..b of f, with their cards, as a fragment of tbody;
// drawn gathers the cards, and the lines drawn plain for now.
function buildRows(f, tbody, a, b, byRow, drawn) {
  const rows = model(f)[view()];
  const marks = rangeMarks(byRow);
  const lines = { ask: drawn.ask, waiting: [] };
  const html = [];
  for (let r = a; r < b && r < rows.length; r++) {
    html.push(state.view === 'side-by-side' ? splitRow(rows[r], lines, marks.get(r)) : unifiedRow(rows[r], lines, marks.get(r)));
  }
  const range = document.createRange();
  range.selectNodeContents(tbody);
  const frag = range.createContextualFragment(html.join(''));
  const spans = frag.querySelectorAll('.rfa-hl-wait');
  lines.waiting.forEach((line, k) => drawn.waiting.push([line, spans[k]]));
  addCards(Array.from(frag.children), a, b, byRow, drawn);
  return frag;
}

// finishDraw places the window drawn, sizes the body, watches the new
// cards' heights and asks for the new lines' highlighting.
function finishDraw(f, i, from, to, byRow, ex, drawn) {
  f.win = [from, to];
  f.sig = signature(byRow);
  f.table.style.width = tableWidth(f, model(f));
  f.table.style.top = offsetOf(ex, from) + 'px';
  f.body.style.height = (rowCount(f) * ROW + ex.reduce((n, e) => n + e.h, 0)) + 'px';
  drawn.cards.forEach(([k, tr]) => measure(f, i, k.key, tr));
  if (f.ext === undefined) { f.ext = extOf(f.meta.path); }
  highlight(Array.from(drawn.ask), f.ext, () => paintHighlight(f));
}

// paintHighlight puts the highlighted HTML of f's lines in, PAINT lines a
// frame: a screen of lines painted at once, and laid out again, was one
// long task.
const PAINT = 24;
function paintHighlight(f) {
  if (!f.waiting || f.painting) { return; }
  let n = 0;
  f.waiting = f.waiting.filter(([line, span]) => {
    if (!span || !span.isConnected) { return false; }
    if (line.hl === undefined || line.hl === false || n >= PAINT) { return true; }
    span.innerHTML = codeHTML(line);
    span.classList.remove('rfa-hl-wait');
    n++;
    return false;
  });
  if (n < PAINT) { return; }
  f.painting = true;
  afterFrame(() => {
    f.painting = false;
    paintHighlight(f);
  });
}

// tableWidth fits the longest line (the server counted the diff's, the
// model those shown around it), so long lines scroll the file sideways
// rather than wrap (a row has one height) or hide.
function tableWidth(f, m) {
  const ch = Math.max(f.meta.width || 0, m.extraWidth || 0) + 4;
  return state.view === 'side-by-side' ? 'max(100%, calc(' + (2 * ch) + 'ch + 14em))' : 'max(100%, calc(' + ch + 'ch + 10em))';
}

// signature is what the cards under the rows are: a window drawn with
// other cards is drawn again.
const formIds = new WeakMap();
let formCount = 0;
function signature(byRow) {
  const d = state.draft;
  if (d && !formIds.has(d)) { formIds.set(d, ++formCount); }
  let s = state.done ? 'done|' : '';
  byRow.forEach((cards, row) => cards.forEach((k) => {
    s += row + ':' + k.first + ':' + (k.isForm ? 'form' + formIds.get(d) : k.key + ':' + k.c.body) + '|';
  }));
  return s;
}

// rangeMarks maps each row a comment or the form covers to its class.
function rangeMarks(byRow) {
  const marks = new Map();
  byRow.forEach((cards) => cards.forEach((k) => {
    for (let r = k.first; r <= k.last; r++) {
      if (k.isForm || !marks.has(r)) { marks.set(r, k.isForm ? 'rfa-selected' : 'rfa-commented'); }
    }
  }));
  return marks;
}

function cardRow(k) {
  const tr = document.createElement('tr');
  tr.className = 'rfa-row';
  const td = document.createElement('td');
  td.colSpan = state.view === 'side-by-side' ? 4 : 2;
  td.appendChild(k.isForm ? formElement() : commentCard(k.c, state.done));
  tr.appendChild(td);
  return tr;
}

// The open form is one element for as long as it is open, so redrawing
// the rows around it keeps what is typed, the selection and undo.
let form = { draft: null, el: null };
export function formElement() {
  if (form.draft !== state.draft || !form.el) {
    form = { draft: state.draft, el: formCard(state.draft) };
  }
  return form.el;
}

// A card's height is learnt once it is drawn, and again whenever it
// changes (a textarea resized, a preview shown); the body follows.
const sized = new ResizeObserver((entries) => {
  let changed = false;
  entries.forEach((e) => {
    const s = e.target.rfaSize;
    if (!s || !e.target.isConnected) { return; }
    const h = e.target.offsetHeight;
    if (h > 0 && s.f.cardH.get(s.key) !== h) { s.f.cardH.set(s.key, h); changed = true; }
  });
  if (changed) { relayout(); }
});

function measure(f, i, key, tr) {
  tr.rfaSize = { f, key };
  sized.observe(tr);
}

// relayout puts the drawn rows where the new card heights say.
function relayout() {
  state.files.forEach((f, i) => { if (f.win) { resize(f, i); } });
}

function resize(f, i) {
  if (!f.body || !f.win) { return; }
  const ex = extras(f, cardsOf(i));
  f.table.style.top = offsetOf(ex, f.win[0]) + 'px';
  f.body.style.height = (rowCount(f) * ROW + ex.reduce((n, e) => n + e.h, 0)) + 'px';
}

function rememberFocus(table) {
  const a = document.activeElement;
  if (!a || !table.contains(a)) { return null; }
  if (a.matches('textarea')) { return { ta: a, sel: [a.selectionStart, a.selectionEnd] }; }
  if (a.dataset.rfaLine) { return { cell: 'td[data-rfa-side="' + a.dataset.rfaSide + '"][data-rfa-line="' + a.dataset.rfaLine + '"]' }; }
  if (a.dataset.rfaHunkHead) { return { cell: 'td[data-rfa-hunk-head="' + a.dataset.rfaHunkHead + '"]' }; }
  return null;
}

function restoreFocus(table, focus) {
  if (!focus) { return; }
  if (focus.ta) {
    if (focus.ta.isConnected) {
      focus.ta.focus({ preventScroll: true });
      focus.ta.setSelectionRange(focus.sel[0], focus.sel[1]);
    }
    return;
  }
  const cell = table.querySelector(focus.cell);
  if (cell) { cell.focus({ preventScroll: true }); }
}

// ------------------------------------------------------------------ rows

function numberCell(cls, side, line, hunk, inner) {
  if (!line) { return '<td class="' + cls + '">' + inner + '</td>'; }
  const label = side === 'left' ? 'Comment on old line ' + line : 'Comment on line ' + line;
  return '<td class="' + cls + '" data-rfa-side="' + side + '" data-rfa-line="' + line + '" data-rfa-hunk="' + hunk +
    '" tabindex="0" role="button" title="' + label + '" aria-label="' + label + '">' + inner + '</td>';
}

const kindClass = { a: 'd2h-ins', d: 'd2h-del', c: 'd2h-cntx' };
const prefix = { a: '+', d: '-', c: ' ' };

// codeCell is a line's code, plain until its highlighting comes: lines
// notes it among those to ask for, or to wait for.
function codeCell(line, lines) {
  if (wantsHighlight(line)) { lines.ask.add(line); }
  const wait = line.hl === undefined || line.hl === false;
  if (wait) { lines.waiting.push(line); }
  return '<td class="rfa-code ' + kindClass[line.t] + '"><span class="d2h-code-line-prefix">' + prefix[line.t] +
    '</span><span class="d2h-code-line-ctn hljs' + (wait ? ' rfa-hl-wait' : '') + '">' + codeHTML(line) + '</span></td>';
}

// codeHTML is the line's HTML with what the find box found marked.
function codeHTML(line) {
  const html = lineHTML(line);
  const q = state.find.q;
  if (!q) { return html; }
  const now = state.find.now;
  return markFound(html, line, q, now && now.line === line ? now.at : -1);
}

function headRow(row, cols) {
  const open = row.gapFrom <= row.gapTo;
  const more = open ? '<button type="button" class="rfa-expand" data-rfa-action="expand" data-rfa-hunk="' + row.hunk +
    '" title="' + (row.t === 'h' ? 'Show the lines above' : 'Show the lines below') + '">' + (row.t === 'h' ? '\u2191' : '\u2193') + '</button>' : '';
  const nums = '<td class="' + (cols === 4 ? 'd2h-code-side-linenumber' : 'd2h-code-linenumber') + ' d2h-info">' + more + '</td>';
  if (row.t === 'x') {
    return '<tr class="rfa-h">' + nums + '<td class="d2h-info rfa-code" colspan="' + (cols - 1) + '"></td></tr>';
  }
  return '<tr class="rfa-h">' + nums + '<td class="d2h-info rfa-code" colspan="' + (cols - 1) + '" tabindex="-1" data-rfa-hunk-head="' +
    row.hunk + '">' + esc(row.text) + '</td></tr>';
}

function unifiedRow(row, lines, mark) {
  if (row.t === 'h' || row.t === 'x') { return headRow(row, 2); }
  const l = row.line;
  const side = l.t === 'd' ? 'left' : 'right';
  const nums = '<span class="line-num1">' + String(l.old || '').padStart(5) + '</span> <span class="line-num2">' +
    String(l.new || '').padStart(5) + '</span>';
  return '<tr class="rfa-r' + (mark ? ' ' + mark : '') + '">' +
    numberCell('d2h-code-linenumber ' + kindClass[l.t], side, l.extra ? 0 : side === 'left' ? l.old : l.new, row.hunk, nums) +
    codeCell(l, lines) + '</tr>';
}

function splitRow(row, lines, mark) {
  if (row.t === 'h' || row.t === 'x') { return headRow(row, 4); }
  const half = (l, pane) => {
    if (!l) { return '<td class="d2h-code-side-linenumber d2h-code-side-emptyplaceholder d2h-emptyplaceholder"></td><td class="rfa-code d2h-code-side-emptyplaceholder d2h-emptyplaceholder"></td>'; }
    // A context line is commented on its new number, from either pane.
    const side = l.t === 'd' ? 'left' : 'right';
    const shown = pane === 'left' ? l.old : l.new;
    return numberCell('d2h-code-side-linenumber ' + kindClass[l.t], side, l.extra ? 0 : side === 'left' ? l.old : l.new, row.hunk, String(shown)) + codeCell(l, lines);
  };
  return '<tr class="rfa-r' + (mark ? ' ' + mark : '') + '">' + half(row.l, 'left') + half(row.r, 'right') + '</tr>';
}

// ------------------------------------------------------------------ comments

// drawComments puts the file comments in their areas and draws again
// the windows whose cards changed. The open form takes the focus, unless
// focus is false.
export function drawComments(focus) {
  const d = state.draft;
  if (d && d.startLine !== null) { revealForm(d); } // reads layout: first
  const files = new Set(fileAreas);
  state.comments.forEach((c) => { if (c.startLine === null) { files.add(c.file); } });
  if (d && d.startLine === null) { files.add(d.file); }
  files.forEach((i) => { if (state.files[i] && state.files[i].wrapper) { fileCards(state.files[i], i, d); } });
  state.files.forEach((f, i) => {
    if (!f.win) { return; }
    const byRow = cardsOf(i);
    if (signature(byRow) !== f.sig) { recard(f, i, byRow, extras(f, byRow)); }
  });
  growLater(); // cards of a new height move the rows: then the window follows
  updateCount();
  treeCounts();
  scheduleSave();
  const ta = container.querySelector('.rfa-form textarea');
  if (ta && focus !== false && document.activeElement !== ta) {
    ta.focus({ preventScroll: true });
    ta.selectionStart = ta.selectionEnd = ta.value.length;
  }
}

// fileCards puts the comments on file i as a whole, and a form for one,
// in its area. fileAreas are the files whose areas have cards.
const fileAreas = new Set();
function fileCards(f, i, d) {
  const area = f.wrapper.querySelector('.rfa-file-comments');
  area.textContent = '';
  fileAreas.delete(i);
  const cards = state.comments.filter((c) => c.file === i && c.startLine === null);
  if (d && d.file === i && d.startLine === null && d.editing === null) { cards.push(d); }
  cards.forEach((c) => {
    const isForm = c === d || (d && d.editing === c.id);
    area.appendChild(isForm ? formElement() : commentCard(c, state.done));
  });
  if (cards.length) { fileAreas.add(i); }
}

// revealForm makes sure the form's rows are drawn: a form opened by a key
// or restored from a draft may be off the rows drawn so far.
function revealForm(d) {
  const f = state.files[d.file];
  if (f && !f.wrapper && !f.folded) { showFile(d.file); }
  if (!f || !f.body || f.folded) { return; }
  const last = rowOf(model(f), view(), d.side, d.endLine);
  if (last === undefined) { return; }
  // A line drawn is one just clicked or keyed: where it is need not be
  // read, which would cost a layout.
  if (f.win && last >= f.win[0] && last < f.win[1]) { return; }
  const top = rowTop(d.file, last) - window.scrollY;
  if (top < 0 || top > window.innerHeight - ROW) {
    scrollToRow(d.file, last);
  } else if (!f.win) {
    placeWindow(f, d.file, true);
  }
}

// scrollToRow scrolls file i's row into view and draws it there.
export function scrollToRow(i, row) {
  const f = state.files[i];
  const ex = extras(f, cardsOf(i));
  const y = f.body.getBoundingClientRect().top + window.scrollY + offsetOf(ex, row);
  window.scrollTo(0, Math.max(0, y - window.innerHeight / 3));
  placeWindow(f, i, true);
}

// hunkFrom is the row of file i's first hunk header below the page
// height y (dir 1), or of its last one above it (dir -1), for the j/k
// keys; undefined when it has none there. It reads the file only as far
// as it must.
export function hunkFrom(i, y, dir) {
  const f = state.files[i];
  if (!f.body || f.folded || !f.wrapper || f.wrapper.hidden || f.body.classList.contains('d2h-d-none')) { return undefined; }
  const r = f.body.getBoundingClientRect();
  const top = r.top + window.scrollY;
  if (dir > 0 ? top + r.height <= y + 1 : top >= y - 1) { return undefined; }
  const m = model(f);
  const rows = m[view()];
  const ex = extras(f, cardsOf(i));
  const start = rowAt(ex, y - top);
  const isHunk = (row) => rows[row].t === 'h' && (dir > 0 ? top + offsetOf(ex, row) > y + 1 : top + offsetOf(ex, row) < y - 1);
  if (dir < 0) {
    readRows(m, view(), start + 1);
    for (let row = Math.min(rows.length - 1, start); row >= 0; row--) { if (isHunk(row)) { return row; } }
    return undefined;
  }
  for (let row = start; ; row++) {
    if (row >= rows.length) { readRows(m, view(), row + 500); }
    if (row >= rows.length) { return undefined; }
    if (isHunk(row)) { return row; }
  }
}

// edgeHunk is the row of the first hunk header of file i (dir 1), or of
// its last one (dir -1), for the j/k keys to go to a file out of the
// page; undefined when the file shows no hunks.
export function edgeHunk(i, dir) {
  const f = state.files[i];
  if (f.folded || f.meta.binary || f.viewed || !fileShown(i) || f.meta.hunks === 0) { return undefined; }
  const m = model(f);
  const rows = m[view()];
  if (dir > 0) {
    readRows(m, view(), 1);
    return rows.length > 0 && rows[0].t === 'h' ? 0 : undefined;
  }
  readRows(m, view(), Infinity);
  for (let row = rows.length - 1; row >= 0; row--) { if (rows[row].t === 'h') { return row; } }
  return undefined;
}

// modelOf is file i's model, read as far as it has been.
export function modelOf(i) { return model(state.files[i]); }

// showLine makes sure line (of file i) is drawn on screen: if it is not,
// it scrolls it to a third of the screen.
export function showLine(i, line) {
  const f = state.files[i];
  if (!f.wrapper) { showFile(i); }
  if (!f.body || f.folded) { return; }
  const row = model(f)[view()].findIndex((r) => r.line === line || r.l === line || r.r === line);
  if (row < 0) { return; }
  const y = rowTop(i, row) - window.scrollY;
  if (y < 2 * ROW || y > window.innerHeight - 10 * ROW) {
    scrollToRow(i, row);
  } else {
    placeWindow(f, i, false);
  }
}

// redrawWindows draws again the rows drawn: what they mark changed.
export function redrawWindows() {
  state.files.forEach((f, i) => {
    if (!f.win) { return; }
    const byRow = cardsOf(i);
    render(f, i, f.win[0], f.win[1], byRow, extras(f, byRow));
  });
}

// rowTop is where row of file i is on the page.
export function rowTop(i, row) {
  const f = state.files[i];
  return f.body.getBoundingClientRect().top + window.scrollY + offsetOf(extras(f, cardsOf(i)), row);
}

// afterPaint measures from start (0: the navigation) to the frame after
// the current one, when what was just drawn is on screen.
export function afterPaint(name, start) {
  requestAnimationFrame(() => requestAnimationFrame(() => {
    performance.measure(name, { start, end: performance.now() });
  }));
}

// expand shows up to EXPAND_LINES more unchanged lines at the gap of
// file i's hunk k (k = the number of hunks: below the last one), fetched
// from the server, and draws them.
const EXPAND_LINES = 20;
export async function expand(i, k, fetchJSON, api) {
  const f = state.files[i];
  const m = f.model;
  const g = m && m.unified.find((r) => (r.t === 'h' || r.t === 'x') && r.hunk === k);
  if (!g || g.gapFrom > g.gapTo) { return; }
  const from = g.t === 'h' ? Math.max(g.gapFrom, g.gapTo - EXPAND_LINES + 1) : g.gapFrom;
  const to = g.t === 'h' ? g.gapTo : g.gapFrom + EXPAND_LINES - 1;
  const data = await fetchJSON(api + '/context?file=' + i + '&from=' + from + '&to=' + to);
  const texts = data.lines || [];
  addContext(m, g, from, texts);
  if (g.t === 'x' && texts.length < to - from + 1) { g.gapTo = g.gapFrom - 1; } // the end of the file
  f.win = null;
  drawComments(false);
  if (f.body) { placeWindow(f, i, true); }
}
