// The file tree beside the diff: every changed file with its line counts
// and its number of comments, a filter that narrows both the tree and the
// diff, and a click that goes to the file. A long list is made a chunk at
// a time, the rest when the page is idle.
import { state, el, idle } from './page.js';
import { ensureFiles } from './draw.js';

const FIRST = 100; // items made at once; then CHUNK at a time
const CHUNK = 200;

let words = []; // the filter's words, lower case
let items = []; // the list's items, by file, as far as made
let counts = new Map(); // file → the number its badge shows
let build = 0; // which build of the list the idle work belongs to

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
  counts = commentCounts();
  el('rfa-tree').hidden = state.files.length < 2;
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
    const li = item(state.files[i], i);
    li.hidden = !fileShown(i);
    badge(li, counts.get(i) || 0);
    items.push(li);
    frag.appendChild(li);
  }
  el('rfa-tree-list').appendChild(frag);
}

function item(f, i) {
  const li = document.createElement('li');
  li.dataset.rfaFile = String(i);
  const a = document.createElement('a');
  a.href = '#rfa-file-' + i;
  a.title = f.meta.path;
  const name = document.createElement('span');
  name.className = 'rfa-tree-name';
  const slash = f.meta.path.lastIndexOf('/');
  if (slash >= 0) {
    const dir = document.createElement('span');
    dir.className = 'rfa-tree-dir';
    dir.textContent = f.meta.path.slice(0, slash + 1);
    name.appendChild(dir);
  }
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
    if (items[i] && items[i].hidden === keep) { items[i].hidden = !keep; }
    if (f.wrapper && f.wrapper.hidden === keep) { f.wrapper.hidden = !keep; }
  });
  el('rfa-tree-shown').textContent = words.length ? shown + ' of ' + state.files.length + ' files' : '';
  window.dispatchEvent(new Event('scroll'));
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
