// Drawing the diff, virtualised: every file has its header and a body as
// tall as its rows would be, but only the rows near the viewport are in
// the DOM, drawn again as the page scrolls. A row is ROW pixels high (code
// does not wrap), so where any row sits is arithmetic; comment cards, of
// any height, are measured once drawn. A file is parsed when it first
// comes near the screen, a line highlighted and word-diffed when drawn.
//
// Nothing keeps references into the rows across draws: comments live in
// state, and every draw puts them back.
import { parseFile, lineHTML, languageOf, esc, addContext } from './model.js';
import { commentCard, formCard, fileHeader, foldNotice } from './render.js';
import { state, container, updateCount } from './page.js';
import { scheduleSave } from './drafts.js';
import { applyViewed } from './nav.js';
import { treeCounts } from './tree.js';

export const ROW = 20; // px; .rfa-vtable rows in app.css
const CARD_GUESS = 96; // px, a card not measured yet
const FORM_GUESS = 170;

// The server sends one "diff --git" section per file, in the order of
// info.files.
export function splitSections(text) {
  const out = [];
  let start = 0;
  while (start < text.length) {
    const next = text.indexOf('\ndiff --git ', start);
    const end = next < 0 ? text.length : next + 1;
    out.push(text.slice(start, end));
    start = end;
  }
  return out;
}

// ------------------------------------------------------------------ layout

function model(f) {
  if (!f.model) { f.model = parseFile(f.section); }
  return f.model;
}

// rowCount is the rows of f in the current layout, known before parsing.
function rowCount(f) {
  if (f.model) { return f.model[view()].length; }
  return f.meta.hunks + (state.view === 'side-by-side' ? f.meta.splitRows : f.meta.lines);
}

function view() { return state.view === 'side-by-side' ? 'split' : 'unified'; }

// cardsOf lists the cards of file i by the row they sit under: saved
// comments and the open form, each with the rows it covers.
function cardsOf(i) {
  const f = state.files[i];
  const byRow = new Map();
  if (!f.model) { return byRow; }
  const index = f.model.index[view()];
  const d = state.draft;
  const items = state.comments.filter((c) => c.file === i && c.startLine !== null);
  if (d && d.file === i && d.startLine !== null && d.editing === null) { items.push(d); }
  for (const c of items) {
    const first = index.get(c.side + ':' + c.startLine);
    const last = index.get(c.side + ':' + c.endLine);
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
    if (!f.body || !f.model) { continue; }
    const r = f.body.getBoundingClientRect();
    if (r.bottom <= 0 || r.height === 0) { continue; }
    if (r.top > 0) { return null; }
    const rows = f.model[view()];
    const row = rows[Math.min(rows.length - 1, rowAt(extras(f, cardsOf(i)), -r.top))];
    const l = row && (row.line || row.r || row.l);
    return l ? { i, key: l.t === 'd' ? 'left:' + l.old : 'right:' + l.new } : null;
  }
  return null;
}

// toAnchor scrolls the anchor's line back to the top of the screen.
export function toAnchor(a) {
  if (!a) { return; }
  const f = state.files[a.i];
  const row = f.body && f.model ? f.model.index[view()].get(a.key) : undefined;
  if (row === undefined) { return; }
  window.scrollTo(0, rowTop(a.i, row));
  placeWindow(f, a.i, true);
}

// drawDiff lays the files out afresh: on load and when the layout changes.
export function drawDiff() {
  container.textContent = '';
  container.classList.toggle('rfa-split', state.view === 'side-by-side');
  const frag = document.createDocumentFragment();
  state.files.forEach((f, i) => {
    f.win = null;
    f.cardH = f.cardH || new Map();
    const wrapper = fileHeader(f.meta, i);
    f.wrapper = wrapper;
    f.body = null;
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
    frag.appendChild(wrapper);
  });
  container.appendChild(frag);
  applyViewed();
  drawComments(false);
}

function makeBody(f, i) {
  const body = document.createElement('div');
  body.className = 'd2h-file-diff rfa-vbody';
  body.dataset.rfaFile = String(i);
  const table = document.createElement('table');
  table.className = 'rfa-vtable d2h-diff-table' + (state.view === 'side-by-side' ? ' rfa-split-table' : '');
  table.appendChild(document.createElement('tbody'));
  body.appendChild(table);
  f.body = body;
  f.table = table;
  body.style.height = rowCount(f) * ROW + 'px';
  near.observe(body);
  return body;
}

// unfold parses and shows the files with these indexes, drawn in place;
// it reports whether any was folded.
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
    }
  });
  schedule();
}, { rootMargin: '100% 0px' });

let frame = 0;
function schedule() {
  if (!frame) { frame = requestAnimationFrame(() => { frame = 0; update(); }); }
}
window.addEventListener('scroll', schedule, { passive: true });
window.addEventListener('resize', schedule);

// update draws, in each body near the screen, the rows the viewport
// needs, unless they are drawn already.
export function update() {
  nearBodies.forEach((body) => {
    const i = Number(body.dataset.rfaFile);
    const f = state.files[i];
    if (!f || f.body !== body) { nearBodies.delete(body); return; }
    placeWindow(f, i, false);
  });
}

function placeWindow(f, i, force) {
  const rect = f.body.getBoundingClientRect();
  const h = window.innerHeight;
  const top = -rect.top;
  if (rect.height === 0 || top > rect.height + h || top + 2 * h < 0) { return; }
  const byRow = cardsOf(i);
  const ex = extras(f, byRow);
  const total = rowCount(f);
  const need = [rowAt(ex, top - h / 2), Math.min(total, rowAt(ex, top + 1.5 * h) + 1)];
  if (!force && f.win && f.win[0] <= need[0] && f.win[1] >= need[1]) { return; }
  const from = rowAt(ex, top - h);
  const to = Math.min(total, rowAt(ex, top + 2 * h) + 1);
  render(f, i, Math.max(0, from), Math.max(from, to), byRow, ex);
}

// render draws rows from..to of f, with their cards, keeping the focus.
function render(f, i, from, to, byRow, ex) {
  const m = model(f);
  const rows = m[view()];
  const marks = rangeMarks(byRow);
  const lang = f.lang === undefined ? (f.lang = languageOf(f.meta.path)) : f.lang;
  const html = [];
  for (let r = from; r < to && r < rows.length; r++) {
    html.push(state.view === 'side-by-side' ? splitRow(rows[r], lang, marks.get(r)) : unifiedRow(rows[r], lang, marks.get(r)));
  }
  const focus = rememberFocus(f.table);
  const tbody = f.table.tBodies[0];
  tbody.innerHTML = html.join('');
  const trs = Array.from(tbody.rows);
  const drawn = [];
  byRow.forEach((cards, row) => {
    if (row < from || row >= to || !trs[row - from]) { return; }
    let at = trs[row - from];
    cards.forEach((k) => {
      const tr = cardRow(k);
      at.insertAdjacentElement('afterend', tr);
      at = tr;
      drawn.push([k, tr]);
    });
  });
  f.win = [from, to];
  f.table.style.width = tableWidth(f, m);
  f.table.style.top = offsetOf(ex, from) + 'px';
  f.body.style.height = (rows.length * ROW + ex.reduce((n, e) => n + e.h, 0)) + 'px';
  restoreFocus(f.table, focus);
  drawn.forEach(([k, tr]) => measure(f, i, k.key, tr));
}

// tableWidth fits the longest line, so long lines scroll the file
// sideways rather than wrap (a row has one height) or hide.
function tableWidth(f, m) {
  if (m.width === undefined) {
    let n = 0;
    m.unified.forEach((row) => { if (row.line) { n = Math.max(n, row.line.text.replace(/\t/g, '    ').length); } });
    m.width = n;
  }
  const ch = m.width + 4;
  return state.view === 'side-by-side' ? 'max(100%, calc(' + (2 * ch) + 'ch + 14em))' : 'max(100%, calc(' + ch + 'ch + 10em))';
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
  state.files.forEach((f, i) => {
    if (!f.body || !f.win) { return; }
    const ex = extras(f, cardsOf(i));
    f.table.style.top = offsetOf(ex, f.win[0]) + 'px';
    f.body.style.height = (rowCount(f) * ROW + ex.reduce((n, e) => n + e.h, 0)) + 'px';
  });
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

function codeCell(line, lang) {
  return '<td class="rfa-code ' + kindClass[line.t] + '"><span class="d2h-code-line-prefix">' + prefix[line.t] +
    '</span><span class="d2h-code-line-ctn hljs">' + lineHTML(line, lang) + '</span></td>';
}

function headRow(row, cols) {
  const open = row.gapFrom <= row.gapTo;
  const more = open ? '<button type="button" class="rfa-expand" data-rfa-action="expand" data-rfa-hunk="' + row.hunk +
    '" title="' + (row.t === 'h' ? 'Show the lines above' : 'Show the lines below') + '">' + (row.t === 'h' ? '\u2191' : '\u2193') + '</button>' : '';
  const nums = '<td class="d2h-code-linenumber d2h-info">' + more + '</td>';
  if (row.t === 'x') {
    return '<tr class="rfa-h">' + nums + '<td class="d2h-info rfa-code" colspan="' + (cols - 1) + '"></td></tr>';
  }
  return '<tr class="rfa-h">' + nums + '<td class="d2h-info rfa-code" colspan="' + (cols - 1) + '" tabindex="-1" data-rfa-hunk-head="' +
    row.hunk + '">' + esc(row.text) + '</td></tr>';
}

function unifiedRow(row, lang, mark) {
  if (row.t === 'h' || row.t === 'x') { return headRow(row, 2); }
  const l = row.line;
  const side = l.t === 'd' ? 'left' : 'right';
  const nums = '<span class="line-num1">' + (l.old || '') + '</span><span class="line-num2">' + (l.new || '') + '</span>';
  return '<tr class="rfa-r' + (mark ? ' ' + mark : '') + '">' +
    numberCell('d2h-code-linenumber ' + kindClass[l.t], side, l.extra ? 0 : side === 'left' ? l.old : l.new, row.hunk, nums) +
    codeCell(l, lang) + '</tr>';
}

function splitRow(row, lang, mark) {
  if (row.t === 'h' || row.t === 'x') { return headRow(row, 4); }
  const half = (l, pane) => {
    if (!l) { return '<td class="d2h-code-side-linenumber d2h-code-side-emptyplaceholder d2h-emptyplaceholder"></td><td class="rfa-code d2h-code-side-emptyplaceholder d2h-emptyplaceholder"></td>'; }
    // A context line is commented on its new number, from either pane.
    const side = l.t === 'd' ? 'left' : 'right';
    const shown = pane === 'left' ? l.old : l.new;
    return numberCell('d2h-code-side-linenumber ' + kindClass[l.t], side, l.extra ? 0 : side === 'left' ? l.old : l.new, row.hunk, String(shown)) + codeCell(l, lang);
  };
  return '<tr class="rfa-r' + (mark ? ' ' + mark : '') + '">' + half(row.l, 'left') + half(row.r, 'right') + '</tr>';
}

// ------------------------------------------------------------------ comments

// drawComments puts the file comments in their areas and redraws the rows
// near the screen with their cards. The open form takes the focus, unless
// focus is false.
export function drawComments(focus) {
  container.querySelectorAll('.rfa-file-comments').forEach((n) => { n.textContent = ''; });
  const d = state.draft;
  const fileLevel = state.comments.filter((c) => c.startLine === null);
  if (d && d.startLine === null && d.editing === null) { fileLevel.push(d); }
  fileLevel.forEach((c) => {
    const f = state.files[c.file];
    const area = f && f.wrapper && f.wrapper.querySelector('.rfa-file-comments');
    if (!area) { return; }
    const isForm = c === d || (d && d.editing === c.id);
    area.appendChild(isForm ? formElement() : commentCard(c, state.done));
  });
  state.files.forEach((f) => { f.win = null; });
  if (d && d.startLine !== null) { revealForm(d); }
  // Every body on screen now, not only those the observer has reported:
  // a new layout's bodies are not reported until after this task.
  state.files.forEach((f, i) => { if (f.body) { placeWindow(f, i, false); } });
  updateCount();
  treeCounts();
  scheduleSave();
  const ta = container.querySelector('.rfa-form textarea');
  if (ta && focus !== false && document.activeElement !== ta) {
    ta.focus({ preventScroll: true });
    ta.selectionStart = ta.selectionEnd = ta.value.length;
  }
}

// revealForm makes sure the form's rows are drawn: a form opened by a key
// or restored from a draft may be off the rows drawn so far.
function revealForm(d) {
  const f = state.files[d.file];
  if (!f || !f.body || f.folded) { return; }
  const index = model(f).index[view()];
  const last = index.get(d.side + ':' + d.endLine);
  if (last === undefined) { return; }
  const top = rowTop(d.file, last) - window.scrollY;
  if (top < 0 || top > window.innerHeight - ROW) { scrollToRow(d.file, last); }
}

// scrollToRow scrolls file i's row into view and draws it there.
export function scrollToRow(i, row) {
  const f = state.files[i];
  const ex = extras(f, cardsOf(i));
  const y = f.body.getBoundingClientRect().top + window.scrollY + offsetOf(ex, row);
  window.scrollTo(0, Math.max(0, y - window.innerHeight / 3));
  placeWindow(f, i, true);
}

// hunkRows are the rows of file i's hunk headers, for the j/k keys.
export function hunkRows(i) {
  const f = state.files[i];
  if (!f.body || f.folded || f.wrapper.hidden || f.body.classList.contains('d2h-d-none')) { return []; }
  const rows = model(f)[view()];
  const out = [];
  rows.forEach((r, n) => { if (r.t === 'h') { out.push(n); } });
  return out;
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
  drawComments(false);
}
