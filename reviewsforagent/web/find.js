// Finding in the diff. The page has only the rows near the screen, so the
// browser's own find misses the rest: Ctrl+F (⌘F) outside a text box
// opens this find box instead, which searches the diff's lines themselves
// — the files shown, not those folded, marked viewed or filtered out —
// and goes to each match, drawing its rows. Ctrl+F in the box leaves it
// to the browser's own find. The search runs a slice at a time, so a
// large diff never stops the page; the count says so while it runs.
import { state, el } from './page.js';
import { modelOf, showLine, redrawWindows } from './draw.js';
import { readFor, found } from './model.js';
import { loadViewed } from './nav.js';
import { fileShown } from './tree.js';

const FIND_SLICE = 5; // ms
const ROWS = 200; // rows searched between looks at the time
const TYPING = 150; // ms without a key before the search starts

const bar = el('rfa-find');
const input = el('rfa-find-input');
const count = el('rfa-find-count');
let matches = []; // { i, line, at }, in the order of the files and their lines
let current = -1; // the match gone to
let searching = 0; // which search the slices belong to
let done = true;
let timer = null;
let back = null; // where the focus was before the box opened

document.addEventListener('keydown', (ev) => {
  if (ev.key !== 'f' && ev.key !== 'F') { return; }
  if (!(ev.ctrlKey || ev.metaKey) || ev.altKey || ev.shiftKey || state.files.length === 0) { return; }
  if (ev.target === input || ev.target.closest('textarea, input, select, [contenteditable]')) { return; }
  ev.preventDefault();
  back = document.activeElement;
  bar.hidden = false;
  input.focus();
  input.select();
});

input.addEventListener('input', () => {
  clearTimeout(timer);
  timer = setTimeout(() => { timer = null; search(input.value); }, TYPING);
});

input.addEventListener('keydown', (ev) => {
  if (ev.key === 'Enter') {
    ev.preventDefault();
    if (timer) {
      clearTimeout(timer);
      timer = null;
      search(input.value);
    } else {
      step(ev.shiftKey ? -1 : 1);
    }
  } else if (ev.key === 'Escape') {
    ev.preventDefault();
    close();
  }
});

el('rfa-find-next').addEventListener('click', () => step(1));
el('rfa-find-prev').addEventListener('click', () => step(-1));
el('rfa-find-close').addEventListener('click', close);

// closeFind closes the find box; its matches are of the rows as they
// were read, so a new reading of the diff closes it.
export function closeFind() {
  if (!bar.hidden) { close(); }
}

function close() {
  bar.hidden = true;
  clearTimeout(timer);
  timer = null;
  searching++;
  matches = [];
  current = -1;
  state.find = { q: '', now: null };
  redrawWindows();
  if (back && back.isConnected && back !== document.body) { back.focus({ preventScroll: true }); }
}

// search finds text (any case) in the files shown, a slice at a time,
// each slice a task of its own, and goes to the first match in the file
// at the top of the screen or after it.
function search(text) {
  const q = text.toLowerCase();
  const mine = ++searching;
  // Where the screen is, read before anything is drawn: no layout of its own.
  const top = fileAtTop();
  matches = [];
  current = -1;
  state.find = { q, now: null };
  redrawWindows();
  done = q === '';
  if (done) { showFound(); return; }
  const viewed = loadViewed();
  const at = { i: 0, row: 0 };
  const slice = () => {
    if (mine !== searching) { return; }
    searchFor(q, at, viewed, performance.now() + FIND_SLICE);
    done = at.i >= state.files.length;
    if (current < 0) {
      const k = matches.findIndex((mt) => mt.i >= top);
      if (k >= 0 || (done && matches.length > 0)) {
        // The match is gone to in a task of its own.
        current = Math.max(k, 0);
        setTimeout(() => { if (mine === searching) { go(current); } }, 0);
      }
    }
    showFound();
    if (!done) { setTimeout(slice, 0); }
  };
  setTimeout(slice, 0);
}

// searchFor goes on searching from at (a file and a row in it) until the
// time end, reading the files as it goes.
function searchFor(q, at, viewed, end) {
  while (at.i < state.files.length && performance.now() < end) {
    if (!searchable(at.i, viewed)) {
      at.i++;
      at.row = 0;
      continue;
    }
    const m = modelOf(at.i);
    const rows = m.unified;
    for (let stop = Math.min(rows.length, at.row + ROWS); at.row < stop; at.row++) {
      const line = rows[at.row].line;
      if (line) { found(line, q).forEach((col) => matches.push({ i: at.i, line, at: col })); }
    }
    if (at.row < rows.length) { continue; }
    if (!m.done) {
      readFor(m, 2);
      continue;
    }
    at.i++;
    at.row = 0;
  }
}

function searchable(i, viewed) {
  const f = state.files[i];
  return !f.folded && !f.meta.binary && fileShown(i) && !viewed.has(f.meta.path);
}

// fileAtTop is the file at the top of the screen: the first whose end is
// below it.
function fileAtTop() {
  const i = state.files.findIndex((f) => f.wrapper && f.wrapper.getBoundingClientRect().bottom > 0);
  return i < 0 ? 0 : i;
}

function step(dir) {
  if (matches.length === 0) { return; }
  const from = current < 0 ? (dir > 0 ? -1 : 0) : current;
  go((from + dir + matches.length) % matches.length);
}

// go goes to match k: where its line is is read first, while the layout
// is clean, then the rows are drawn again with it marked.
function go(k) {
  current = k;
  const mt = matches[k];
  state.find = { q: state.find.q, now: mt };
  showLine(mt.i, mt.line);
  redrawWindows();
  showFound();
}

function showFound() {
  const n = matches.length;
  if (!state.find.q) {
    count.textContent = '';
  } else if (n === 0) {
    count.textContent = done ? 'No matches' : 'Searching\u2026';
  } else {
    count.textContent = (current + 1) + ' of ' + n + (done ? '' : '+');
  }
}
