// The file tree beside the diff: every changed file with its line counts
// and its number of comments, a filter that narrows both the tree and the
// diff, and a click that goes to the file.
import { state, el } from './page.js';

// buildTree lists state.files in the tree.
export function buildTree() {
  const list = el('rfa-tree-list');
  list.textContent = '';
  state.files.forEach((f, i) => {
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
    list.appendChild(li);
  });
  el('rfa-tree').hidden = state.files.length < 2;
  treeCounts();
}

// treeCounts shows how many comments each file has.
export function treeCounts() {
  const n = new Map();
  state.comments.forEach((c) => n.set(c.file, (n.get(c.file) || 0) + 1));
  el('rfa-tree-list').querySelectorAll('li').forEach((li) => {
    const k = n.get(Number(li.dataset.rfaFile)) || 0;
    const badge = li.querySelector('.rfa-tree-count');
    badge.textContent = String(k);
    badge.title = k + (k === 1 ? ' comment' : ' comments');
    badge.hidden = k === 0;
  });
}

// The filter keeps the files whose path holds every word typed, in the
// tree and in the diff.
el('rfa-tree-filter').addEventListener('input', (ev) => {
  const words = ev.target.value.toLowerCase().split(/\s+/).filter(Boolean);
  let shown = 0;
  state.files.forEach((f, i) => {
    const path = f.meta.path.toLowerCase();
    const keep = words.every((w) => path.includes(w));
    if (keep) { shown++; }
    const li = el('rfa-tree-list').querySelector('li[data-rfa-file="' + i + '"]');
    if (li) { li.hidden = !keep; }
    if (f.wrapper) { f.wrapper.hidden = !keep; }
  });
  el('rfa-tree-shown').textContent = words.length ? shown + ' of ' + state.files.length + ' files' : '';
  window.dispatchEvent(new Event('scroll'));
});

el('rfa-tree-list').addEventListener('click', (ev) => {
  const a = ev.target.closest('a');
  if (!a) { return; }
  ev.preventDefault();
  const w = document.getElementById(a.getAttribute('href').slice(1));
  if (w) {
    w.scrollIntoView({ block: 'start' });
    const name = w.querySelector('.d2h-file-name-wrapper');
    if (name) { name.focus({ preventScroll: true }); }
  }
});
