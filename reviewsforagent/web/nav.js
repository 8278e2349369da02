// Moving around the diff: files marked viewed stay folded across reloads,
// and keys move between files and hunks and comment on the focused line.
import { state, el, container } from './page.js';
import { hunkFrom, rowTop, scrollToRow, ensureMoreFiles } from './draw.js';

// ------------------------------------------------------------------ viewed files
//
// diff2html's "Viewed" box folds a file away. Which files were viewed is
// kept in the browser for this review, so a reload or a redraw keeps them
// folded, and the top bar counts them.

function viewedKey() {
  return 'rfa-viewed:' + (state.info.id || state.info.repo + '@' + state.info.base);
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

// showViewed marks the wrapper of file f viewed, and folds it, if it is
// among viewed.
export function showViewed(wrapper, f, viewed) {
  const box = wrapper.querySelector('.d2h-file-collapse-input');
  if (!box || !viewed.has(f.meta.path)) { return; }
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
        step('.d2h-file-wrapper', ev.key === 'n' ? 1 : -1, (w) => w.querySelector('.d2h-file-name-wrapper') || w);
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
// rows near the screen are drawn, so the hunk is found in the files'
// rows, file by file from there, and is drawn and focused.
function stepHunk(dir) {
  ensureMoreFiles(20);
  const here = document.activeElement;
  const from = here && here !== document.body && container.contains(here) ? rowTopOf(here) : window.scrollY + 1;
  const n = state.files.length;
  let best = null;
  for (let k = 0; k < n && !best; k++) {
    const i = dir > 0 ? k : n - 1 - k;
    const row = hunkFrom(i, from, dir);
    if (row !== undefined) { best = { i, row, y: rowTop(i, row) }; }
  }
  if (!best) { return; }
  scrollToRow(best.i, best.row);
  const cell = state.files[best.i].body.querySelectorAll('td[data-rfa-hunk-head]');
  const t = Array.from(cell).find((c) => rowTopOf(c) >= best.y - 1);
  if (t) {
    t.focus({ preventScroll: true });
    window.scrollTo(0, Math.max(0, best.y - 48));
  }
}

function rowTopOf(node) {
  return node.getBoundingClientRect().top + window.scrollY;
}

// step moves the focus to the next (dir 1) or previous (-1) element
// matching sel after the one holding the focus, or the first or last.
function step(sel, dir, target) {
  ensureMoreFiles(20);
  const all = Array.from(container.querySelectorAll(sel)).filter((n) => !n.closest('.d2h-d-none, [hidden]'));
  if (all.length === 0) { return; }
  const here = document.activeElement;
  let i = all.findIndex((n) => n === here || n.contains(here));
  if (i < 0) {
    // None of these has the focus: go from where the focus is in the
    // diff, else from the top of the window. The first one after that
    // point is found by bisection (they are in page order), so a diff of
    // thousands of hunks is not laid out whole.
    const ref = container.contains(here) ? here : null;
    const after = ref ? (n) => !!(ref.compareDocumentPosition(n) & Node.DOCUMENT_POSITION_FOLLOWING)
      : (n) => n.getBoundingClientRect().top > 1;
    let lo = 0, hi = all.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (after(all[mid])) { hi = mid; } else { lo = mid + 1; }
    }
    i = dir > 0 ? lo - 1 : lo;
  }
  const next = all[Math.max(0, Math.min(all.length - 1, i + dir))];
  const t = target(next);
  if (!t.hasAttribute('tabindex')) { t.tabIndex = -1; }
  t.focus({ preventScroll: true });
  t.scrollIntoView({ block: 'start' });
}
