// The files in the page: only those near the screen. A diff of thousands
// of files would otherwise put tens of thousands of elements in the page,
// and every key and click would pay the browser's style and layout work
// for all of them. The files before and after the window are spacers as
// tall as those files: measured when they were last in the page, else
// estimated from their rows. A key, a click in the tree or a match found
// goes to a file by its index (showFile), not by an element.
import { state, container } from './page.js';
import { makeFile, dropFile, rowCount, ROW } from './draw.js';
import { fileShown } from './tree.js';

const GAP = 16; // px between files: .rfa-diff .d2h-file-wrapper's margin in app.css

let lead = null; // the spacer for the files before the window
let rest = null; // the spacer for the files after it
let lo = 0; // the window: files lo..hi-1 (those the filter hides have no element)
let hi = 0;
let perFile = 42; // px a file takes besides its rows: measured once one is drawn
let perMeasured = false;

// startFiles lays the page out afresh with the files of the first screens.
export function startFiles() {
  container.textContent = '';
  state.files.forEach((f) => { f.h = 0; });
  lead = spacer('rfa-lead');
  rest = spacer('rfa-rest');
  container.append(lead, rest);
  lo = 0;
  hi = 0;
  // Where the files start is not read: that would lay the whole page out
  // in this task. They start below the top bar; the first frame's update
  // puts the window right if not.
  const h = window.innerHeight;
  const [a, b] = span(0, h, 2 * h);
  setWindow(a, b);
}

function spacer(cls) {
  const d = document.createElement('div');
  d.className = cls;
  return d;
}

// fileRange is the window: the files from lo to hi-1 have their elements
// (unless the filter hides them).
export function fileRange() { return [lo, hi]; }

// heightOf is the room file i takes in the page, its gap included.
function heightOf(i) {
  if (!fileShown(i)) { return 0; }
  const f = state.files[i];
  if (f.h) { return f.h; }
  const rows = f.folded || f.meta.binary ? 2 : f.viewed ? 0 : rowCount(f);
  return perFile + rows * ROW + GAP;
}

// measureFiles keeps how tall each file in the page is now. Called before
// the page is written to, it costs no layout of its own.
function measureFiles() {
  for (let i = lo; i < hi; i++) {
    const f = state.files[i];
    const h = f.wrapper ? f.wrapper.offsetHeight : 0;
    if (h === 0) { continue; }
    f.h = h + GAP;
    if (!perMeasured && f.body && !f.folded && !f.viewed && f.body.offsetHeight > 0) {
      perFile = h - f.body.offsetHeight;
      perMeasured = true;
    }
  }
}

// span is the files from the one ending below -above (in px from the top
// of the screen) to the one reaching below: at least one.
function span(top, above, below) {
  const n = state.files.length;
  let y = top;
  let a = 0;
  while (a < n - 1 && y + heightOf(a) <= -above) { y += heightOf(a); a++; }
  let b = a;
  while (b < n && (b === a || y < below)) { y += heightOf(b); b++; }
  return [a, b];
}

// placeFiles keeps the files from a screen above the viewport to two
// below it in the page, unless those in it cover half a screen above and
// below already (or force); it reports whether the window moved.
export function placeFiles(force) {
  if (!lead || state.files.length === 0) { return false; }
  measureFiles();
  const h = window.innerHeight;
  const top = lead.getBoundingClientRect().top;
  const need = span(top, h / 2, 1.5 * h);
  if (!force && hi > lo && lo <= need[0] && hi >= need[1]) { return false; }
  const [a, b] = span(top, h, 2 * h);
  setWindow(a, b);
  return true;
}

// setWindow puts files a..b-1 in the page: those leaving go (their
// height stays in the spacer, so nothing on screen moves), those coming
// are made.
function setWindow(a, b) {
  for (let i = lo; i < hi; i++) {
    if (i >= a && i < b) { continue; }
    const f = state.files[i];
    if (f.wrapper) { f.wrapper.remove(); }
    dropFile(f);
  }
  const overlap = a < hi && b > lo;
  const before = document.createDocumentFragment();
  const after = document.createDocumentFragment();
  for (let i = a; i < b; i++) {
    if ((overlap && i >= lo && i < hi) || !fileShown(i)) { continue; }
    (overlap && i < lo ? before : after).appendChild(makeFile(i));
  }
  lead.after(before);
  rest.before(after);
  lo = a;
  hi = b;
  sizeSpacers();
}

function sizeSpacers() {
  let up = 0;
  for (let i = 0; i < lo; i++) { up += heightOf(i); }
  let down = 0;
  for (let i = hi; i < state.files.length; i++) { down += heightOf(i); }
  lead.style.height = up + 'px';
  rest.style.height = down + 'px';
}

// showFile puts file i in the page, its header at the top of the screen.
export function showFile(i) {
  const f = state.files[i];
  if (!f || !fileShown(i)) { return; }
  if (!f.wrapper) {
    let y = lead.getBoundingClientRect().top + window.scrollY;
    for (let k = 0; k < i; k++) { y += heightOf(k); }
    window.scrollTo(0, y);
    placeFiles(true);
  }
  if (f.wrapper) { f.wrapper.scrollIntoView({ block: 'start' }); }
}

// refilter lays the window out again for the files the filter shows.
export function refilter() {
  if (!lead) { return; }
  setWindow(0, 0);
  placeFiles(true);
}

// forgetHeights drops the heights measured of the files out of the page,
// after a change (the layout) that makes them wrong.
export function forgetHeights() {
  if (!lead) { return; }
  state.files.forEach((f) => { if (!f.wrapper) { f.h = 0; } });
  perMeasured = false;
  sizeSpacers();
}
