// Moving around the diff: files marked viewed stay folded across reloads,
// and keys move between files and hunks and comment on the focused line.
import { state, el, container, reviewKey } from './page.js';
import { hunkFrom, edgeHunk, rowTop, scrollToRow } from './draw.js';
import { showFile, fileRange } from './files.js';
import { fileShown } from './tree.js';

// ------------------------------------------------------------------ viewed files
//
// diff2html's "Viewed" box folds a file away. Which files were viewed is
// kept in the browser for this review, so a reload or a redraw keeps them
// folded, and the top bar counts them.

function viewedKey() {
  return reviewKey('viewed');
}

// loadViewed is the paths of the files marked viewed.
export function loadViewed() {
  try {
    return new Set(JSON.parse(localStorage.getItem(viewedKey()) || '[]'));
  } catch (err) {
    return new Set();
  }
}

function saveViewed(set) {
  try { localStorage.setItem(viewedKey(), JSON.stringify(Array.from(set))); } catch (err) { /* private mode: not kept */ }
}

// viewedFiles is the paths of the files marked viewed, and counts them
// in the top bar.
export function viewedFiles() {
  const viewed = loadViewed();
  countViewed(viewed);
  return viewed;
}

// showViewed marks the wrapper of file f viewed, and folds it, if it was
// marked so.
export function showViewed(wrapper, f) {
  const box = wrapper.querySelector('.d2h-file-collapse-input');
  if (!box || !f.viewed) { return; }
  box.checked = true;
  setFolded(wrapper, true);
}

// setFolded folds the wrapper's diff away, or shows it.
export function setFolded(wrapper, folded) {
  const label = wrapper.querySelector('.d2h-file-collapse');
  if (label) { label.classList.toggle('d2h-selected', folded); }
  wrapper.querySelectorAll('.d2h-file-diff, .d2h-files-diff').forEach((d) => d.classList.toggle('d2h-d-none', folded));
}

function countViewed(viewed) {
  const n = state.files.filter((f) => viewed.has(f.meta.path)).length;
  el('rfa-viewed').textContent = n + ' of ' + state.files.length + ' viewed';
  el('rfa-viewed').hidden = state.files.length === 0;
}

container.addEventListener('change', (ev) => {
  if (!ev.target.matches('.d2h-file-collapse-input')) { return; }
  const wrapper = ev.target.closest('.d2h-file-wrapper');
  const f = state.files[Number(wrapper.dataset.rfaFile)];
  const viewed = loadViewed();
  if (ev.target.checked) { viewed.add(f.meta.path); } else { viewed.delete(f.meta.path); }
  f.viewed = ev.target.checked;
  setFolded(wrapper, ev.target.checked);
  saveViewed(viewed);
  countViewed(viewed);
});

// ------------------------------------------------------------------ keyboard
//
// n / p: next or previous file; j / k: next or previous hunk; Enter or c
// on a focused line number: comment on it (shift for a range); in a
// comment, Ctrl+Enter saves and Escape cancels.

// initKeys listens for the keys; onLine comments on a line number cell.
export function initKeys(onLine) {
  document.addEventListener('keydown', (ev) => {
    if (ev.ctrlKey || ev.metaKey || ev.altKey || ev.target.closest('textarea, input, select, [contenteditable]')) { return; }
    const cell = ev.target.closest && ev.target.closest('td[data-rfa-line]');
    if (cell && (ev.key === 'Enter' || ev.key === 'c' || ev.key === 'C')) {
      ev.preventDefault();
      onLine(cell, ev.shiftKey);
      return;
    }
    switch (ev.key) {
      case 'n': case 'p':
        ev.preventDefault();
        stepFile(ev.key === 'n' ? 1 : -1);
        break;
      case 'j': case 'k':
        ev.preventDefault();
        stepHunk(ev.key === 'j' ? 1 : -1);
        break;
    }
  });
}

// stepHunk moves the focus to the next (dir 1) or previous (-1) hunk
// header after the focused one, or after the top of the window. Only the
// files and rows near the screen are drawn, so the hunk is found in the
// files' rows, file by file from there: in a file in the page by where
// its rows are, in one past the page by its first or last hunk. It is
// drawn and focused.
function stepHunk(dir) {
  const here = document.activeElement;
  const from = here && here !== document.body && container.contains(here) ? rowTopOf(here) : window.scrollY + 1;
  const n = state.files.length;
  const [lo, hi] = fileRange();
  let best = null;
  for (let k = 0; k < n && !best; k++) {
    const i = dir > 0 ? k : n - 1 - k;
    let row;
    if (i >= lo && i < hi) {
      row = hunkFrom(i, from, dir);
    } else if (dir > 0 ? i >= hi : i < lo) {
      row = edgeHunk(i, dir);
    }
    if (row !== undefined) { best = { i, row }; }
  }
  if (!best) { return; }
  if (!state.files[best.i].body) { showFile(best.i); }
  const y = rowTop(best.i, best.row);
  scrollToRow(best.i, best.row);
  const cell = state.files[best.i].body.querySelectorAll('td[data-rfa-hunk-head]');
  const t = Array.from(cell).find((c) => rowTopOf(c) >= y - 1);
  if (t) {
    t.focus({ preventScroll: true });
    window.scrollTo(0, Math.max(0, y - 48));
  }
}

function rowTopOf(node) {
  return node.getBoundingClientRect().top + window.scrollY;
}

// stepFile moves the focus to the next (dir 1) or previous (-1) file
// shown after the one holding the focus; with the focus elsewhere, to the
// first file starting below the top of the screen, or the last one
// starting above it.
function stepFile(dir) {
  const n = state.files.length;
  const here = document.activeElement;
  const w = here && container.contains(here) ? here.closest('.d2h-file-wrapper') : null;
  let i;
  if (w) {
    i = Number(w.dataset.rfaFile) + dir;
  } else {
    const t = state.files.findIndex((f) => f.wrapper && f.wrapper.getBoundingClientRect().bottom > 0);
    if (t < 0) { return; }
    const above = state.files[t].wrapper.getBoundingClientRect().top <= 1;
    i = dir > 0 ? (above ? t + 1 : t) : (above ? t : t - 1);
  }
  while (i >= 0 && i < n && !fileShown(i)) { i += dir; }
  if (i < 0 || i >= n) {
    // Past the last (or first) file: stay on it.
    i = dir > 0 ? n - 1 : 0;
    while (i >= 0 && i < n && !fileShown(i)) { i -= dir; }
    if (i < 0 || i >= n) { return; }
  }
  showFile(i);
  const f = state.files[i];
  if (!f.wrapper) { return; }
  const name = f.wrapper.querySelector('.d2h-file-name-wrapper') || f.wrapper;
  name.focus({ preventScroll: true });
}
