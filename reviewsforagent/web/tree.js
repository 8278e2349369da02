// The file tree beside the diff: every changed file under its
// directories, with its number of comments, a filter that narrows both
// the tree and the diff, and a click that goes to the file. The list is
// windowed: every row is TREE_ROW pixels high, the list as tall as all
// the rows it shows, and only the rows in the tree's own scroll view (and
// a few more) are in the page.
import { state, el } from './page.js';
import { showFile, refilter } from './files.js';

const TREE_ROW = 24; // px; .rfa-tree li in app.css
const SPARE = 10; // rows drawn beyond each end of the view

const tree = el('rfa-tree');
const list = el('rfa-tree-list');
let words = []; // the filter's words, lower case
let counts = new Map(); // file → its number of comments
// The rows: a directory's row ({ dir: 'a/b/', depth }) before the first
// file under it, a file's ({ i, depth }). Paths are sorted, so everything
// under a directory follows its row unbroken.
let entries = [];
let shown = []; // the rows the filter and the folded directories leave
let drawn = null; // the rows in the page: [from, to) of shown
const collapsed = new Set(); // directories folded away, as 'a/b/'

// fileShown says whether the filter keeps file i.
export function fileShown(i) {
  if (words.length === 0) { return true; }
  const path = state.files[i].meta.path.toLowerCase();
  return words.every((w) => path.includes(w));
}

// showTree makes the tree's room beside the diff, before its rows are
// built, so the diff does not move when they come.
export function showTree() {
  tree.hidden = state.files.length < 2;
}

// buildTree lists state.files in the tree.
export function buildTree() {
  counts = commentCounts();
  entries = [];
  let last = [];
  state.files.forEach((f, i) => {
    const dirs = dirsOf(f.meta.path);
    let same = 0;
    while (same < dirs.length && same < last.length && dirs[same] === last[same]) { same++; }
    for (let d = same; d < dirs.length; d++) { entries.push({ dir: dirs[d], depth: d }); }
    last = dirs;
    entries.push({ i, depth: dirs.length });
  });
  showRows();
}

// showRows works out which rows the filter and the folded directories
// leave, and draws them.
function showRows() {
  const live = new Set();
  if (words.length) {
    state.files.forEach((f, i) => { if (fileShown(i)) { dirsOf(f.meta.path).forEach((d) => live.add(d)); } });
  }
  shown = entries.filter((e) => (e.dir !== undefined
    ? (words.length === 0 || live.has(e.dir)) && !folded(e.dir.slice(0, -1))
    : fileShown(e.i) && !folded(state.files[e.i].meta.path)));
  list.style.height = shown.length * TREE_ROW + 'px';
  drawRows(true);
}

// drawRows puts in the page the rows in the tree's view, unless they are
// there already (or force).
function drawRows(force) {
  // The first drawing reads no layout (the page is not laid out yet): the
  // tree is at its top, at most a window high.
  const first = drawn === null;
  const top = first ? 0 : Math.max(0, tree.scrollTop - list.offsetTop);
  const height = first ? window.innerHeight : tree.clientHeight;
  const from = Math.max(0, Math.floor(top / TREE_ROW) - SPARE);
  const to = Math.min(shown.length, Math.ceil((top + height) / TREE_ROW) + SPARE);
  if (!force && drawn && drawn[0] === from && drawn[1] === to) { return; }
  drawn = [from, to];
  const frag = document.createDocumentFragment();
  for (let k = from; k < to; k++) {
    const e = shown[k];
    frag.appendChild(e.dir !== undefined ? folder(e.dir, e.depth) : item(state.files[e.i], e.i, e.depth));
  }
  list.replaceChildren(frag);
  list.style.paddingTop = from * TREE_ROW + 'px';
}

let treeFrame = 0;
tree.addEventListener('scroll', () => {
  if (!treeFrame) { treeFrame = requestAnimationFrame(() => { treeFrame = 0; drawRows(false); }); }
}, { passive: true });
window.addEventListener('resize', () => drawRows(false));

// dirsOf is the directories above path, outermost first: 'a/', 'a/b/'.
function dirsOf(path) {
  const out = [];
  for (let k = path.indexOf('/'); k >= 0; k = path.indexOf('/', k + 1)) { out.push(path.slice(0, k + 1)); }
  return out;
}

function folded(path) {
  if (collapsed.size === 0) { return false; }
  return dirsOf(path).some((d) => collapsed.has(d));
}

function folder(dir, depth) {
  const li = document.createElement('li');
  li.className = 'rfa-tree-folder';
  li.dataset.rfaDir = dir;
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'rfa-tree-toggle';
  b.setAttribute('aria-expanded', String(!collapsed.has(dir)));
  b.title = dir;
  b.textContent = dir.slice(dir.lastIndexOf('/', dir.length - 2) + 1);
  b.style.paddingLeft = (6 + 12 * depth) + 'px';
  li.appendChild(b);
  return li;
}

function item(f, i, depth) {
  const li = document.createElement('li');
  li.dataset.rfaFile = String(i);
  const a = document.createElement('a');
  a.href = '#rfa-file-' + i;
  a.title = f.meta.path;
  a.style.paddingLeft = (18 + 12 * depth) + 'px';
  const name = document.createElement('span');
  name.className = 'rfa-tree-name';
  const slash = f.meta.path.lastIndexOf('/');
  name.appendChild(document.createTextNode(f.meta.path.slice(slash + 1)));
  a.appendChild(name);
  const k = counts.get(i) || 0;
  if (k > 0) {
    const count = document.createElement('span');
    count.className = 'rfa-tree-count';
    count.textContent = String(k);
    count.title = k + (k === 1 ? ' comment' : ' comments');
    a.appendChild(count);
  }
  li.appendChild(a);
  return li;
}

function commentCounts() {
  const n = new Map();
  state.comments.forEach((c) => n.set(c.file, (n.get(c.file) || 0) + 1));
  return n;
}

// treeCounts shows how many comments each file has: the rows drawn are
// drawn again when a number changed.
export function treeCounts() {
  const now = commentCounts();
  const same = now.size === counts.size && Array.from(now).every(([i, k]) => counts.get(i) === k);
  counts = now;
  // Before the first drawing there are no rows to draw again.
  if (!same && drawn !== null) { drawRows(true); }
}

// The filter keeps the files whose path holds every word typed, in the
// tree and in the diff.
el('rfa-tree-filter').addEventListener('input', (ev) => {
  words = ev.target.value.toLowerCase().split(/\s+/).filter(Boolean);
  let n = 0;
  state.files.forEach((f, i) => { if (fileShown(i)) { n++; } });
  refilter();
  showRows();
  el('rfa-tree-shown').textContent = words.length ? n + ' of ' + state.files.length + ' files' : '';
});

// A directory's row folds what is under it away, or shows it again; the
// diff is left as it is. A file's row goes to the file.
list.addEventListener('click', (ev) => {
  const b = ev.target.closest('.rfa-tree-toggle');
  if (b) {
    const dir = b.closest('li').dataset.rfaDir;
    if (collapsed.has(dir)) { collapsed.delete(dir); } else { collapsed.add(dir); }
    showRows();
    return;
  }
  const a = ev.target.closest('a');
  if (!a) { return; }
  ev.preventDefault();
  const i = Number(a.closest('li').dataset.rfaFile);
  showFile(i);
  const w = state.files[i].wrapper;
  const name = w && w.querySelector('.d2h-file-name-wrapper');
  if (name) { name.focus({ preventScroll: true }); }
});
