// The file tree beside the diff: every changed file with its line counts
// and its number of comments, a filter that narrows both the tree and the
// diff, and a click that goes to the file. A long list is made a chunk at
// a time, the rest when the page is idle.
import { state, el, idle } from './page.js';
import { ensureFiles, MANY } from './draw.js';

const FIRST = 100; // items made at once; then CHUNK at a time
const CHUNK = 200;

let words = []; // the filter's words, lower case
let items = []; // the list's items, by file, as far as made
let counts = new Map(); // file → the number its badge shows
let build = 0; // which build of the list the idle work belongs to
// Directories: a row each, before the first file under it. Paths are
// sorted, so everything under a directory follows its row unbroken.
let folders = []; // { li, dir: 'a/b/', depth }
let lastDirs = []; // the directories of the last file listed
const collapsed = new Set(); // directories folded away, as 'a/b/'

// fileShown says whether the filter keeps file i.
export function fileShown(i) {
  if (words.length === 0) { return true; }
  const path = state.files[i].meta.path.toLowerCase();
  return words.every((w) => path.includes(w));
}

// buildTree lists state.files in the tree.
export function buildTree() {
  el('rfa-tree-list').textContent = '';
  items = [];
  folders = [];
  lastDirs = [];
  counts = commentCounts();
  el('rfa-tree').hidden = state.files.length < 2;
  el('rfa-tree').classList.toggle('rfa-many', state.files.length > MANY);
  addItems(Math.min(FIRST, state.files.length));
  // One chunk a frame, so that no frame lays out thousands of items.
  const mine = ++build;
  const more = () => {
    if (mine !== build || items.length >= state.files.length) { return; }
    addItems(Math.min(items.length + CHUNK, state.files.length));
    requestAnimationFrame(() => setTimeout(() => idle(more), 0));
  };
  idle(more);
}

function addItems(n) {
  const frag = document.createDocumentFragment();
  for (let i = items.length; i < n; i++) {
    const dirs = dirsOf(state.files[i].meta.path);
    let same = 0;
    while (same < dirs.length && same < lastDirs.length && dirs[same] === lastDirs[same]) { same++; }
    for (let d = same; d < dirs.length; d++) { frag.appendChild(folder(dirs[d], d)); }
    lastDirs = dirs;
    const li = item(state.files[i], i, dirs.length);
    li.hidden = !fileShown(i) || folded(state.files[i].meta.path);
    badge(li, counts.get(i) || 0);
    items.push(li);
    frag.appendChild(li);
  }
  el('rfa-tree-list').appendChild(frag);
  if (words.length) { showItems(); } // the new directories' rows too
}

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
  li.hidden = folded(dir.slice(0, -1));
  folders.push({ li, dir, depth });
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
  const count = document.createElement('span');
  count.className = 'rfa-tree-count';
  count.hidden = true;
  a.appendChild(count);
  li.appendChild(a);
  return li;
}

function commentCounts() {
  const n = new Map();
  state.comments.forEach((c) => n.set(c.file, (n.get(c.file) || 0) + 1));
  return n;
}

function badge(li, k) {
  const b = li.querySelector('.rfa-tree-count');
  b.textContent = String(k);
  b.title = k + (k === 1 ? ' comment' : ' comments');
  b.hidden = k === 0;
}

// treeCounts shows how many comments each file has: it changes the
// badges whose number changed.
export function treeCounts() {
  const now = commentCounts();
  new Set([...counts.keys(), ...now.keys()]).forEach((i) => {
    if (items[i] && (counts.get(i) || 0) !== (now.get(i) || 0)) { badge(items[i], now.get(i) || 0); }
  });
  counts = now;
}

// The filter keeps the files whose path holds every word typed, in the
// tree and in the diff.
el('rfa-tree-filter').addEventListener('input', (ev) => {
  words = ev.target.value.toLowerCase().split(/\s+/).filter(Boolean);
  let shown = 0;
  state.files.forEach((f, i) => {
    const keep = fileShown(i);
    if (keep) { shown++; }
    if (f.wrapper && f.wrapper.hidden === keep) { f.wrapper.hidden = !keep; }
  });
  showItems();
  el('rfa-tree-shown').textContent = words.length ? shown + ' of ' + state.files.length + ' files' : '';
  window.dispatchEvent(new Event('scroll'));
});

// showItems hides the tree's items the filter or a folded directory
// hides, and the directories with no file shown under them.
function showItems() {
  const live = new Set();
  items.forEach((li, i) => {
    const path = state.files[i].meta.path;
    const keep = fileShown(i);
    if (keep) { dirsOf(path).forEach((d) => live.add(d)); }
    const hide = !keep || folded(path);
    if (li.hidden !== hide) { li.hidden = hide; }
  });
  folders.forEach((f) => {
    const hide = !live.has(f.dir) || folded(f.dir.slice(0, -1));
    if (f.li.hidden !== hide) { f.li.hidden = hide; }
    f.li.firstChild.setAttribute('aria-expanded', String(!collapsed.has(f.dir)));
  });
}

// A directory's row folds what is under it away, or shows it again; the
// diff is left as it is.
el('rfa-tree-list').addEventListener('click', (ev) => {
  const b = ev.target.closest('.rfa-tree-toggle');
  if (!b) { return; }
  const dir = b.closest('li').dataset.rfaDir;
  if (collapsed.has(dir)) { collapsed.delete(dir); } else { collapsed.add(dir); }
  showItems();
});

el('rfa-tree-list').addEventListener('click', (ev) => {
  const a = ev.target.closest('a');
  if (!a) { return; }
  ev.preventDefault();
  ensureFiles(Number(a.closest('li').dataset.rfaFile) + 1);
  const w = document.getElementById(a.getAttribute('href').slice(1));
  if (w) {
    w.scrollIntoView({ block: 'start' });
    const name = w.querySelector('.d2h-file-name-wrapper');
    if (name) { name.focus({ preventScroll: true }); }
  }
});
