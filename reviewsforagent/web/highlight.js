// The page's side of highlighting: lines go to the worker a batch at a
// time and come back as HTML; until then they show as plain text. The
// worker is started once the first rows are drawn, when the page is idle:
// starting it costs the page's thread some time, and setting up
// highlight.js costs the machine more.

import { idle } from './page.js';

let worker; // undefined: not started yet; null: none
let starting = false;
let nextId = 1;
const batches = new Map(); // id → { lines, then }
let queued = []; // batches asked for before the worker started

function startSoon() {
  if (starting) { return; }
  starting = true;
  const go = () => {
    start();
    const q = queued;
    queued = [];
    q.forEach((b) => post(b.lines, b.ext, b.then));
  };
  idle(go, 1000);
}

function start() {
  try {
    worker = new Worker('/assets/highlight-worker.js');
  } catch (err) {
    worker = null;
    return;
  }
  worker.onmessage = (ev) => {
    const b = batches.get(ev.data.id);
    if (!b) { return; }
    batches.delete(ev.data.id);
    b.lines.forEach((l, i) => { l.hl = ev.data.html[i]; l.html = null; });
    // Painted when the page is idle: a key or a click comes first.
    idle(b.then);
  };
  // The worker could not start (or broke): every line stays plain.
  worker.onerror = () => {
    worker.terminate();
    worker = null;
    batches.forEach((b) => b.lines.forEach((l) => { l.hl = null; }));
    batches.clear();
  };
}

// extOf is the part of a path's name that names its language: the
// extension, or the whole name (Makefile, Dockerfile).
export function extOf(path) {
  const base = path.slice(path.lastIndexOf('/') + 1);
  return (base.includes('.') ? base.slice(base.lastIndexOf('.') + 1) : base).toLowerCase();
}

// highlight asks for the lines' HTML in the language of ext; then runs
// once it has come.
export function highlight(lines, ext, then) {
  if (lines.length === 0) { return; }
  if (worker === null) {
    lines.forEach((l) => { l.hl = null; });
    return;
  }
  lines.forEach((l) => { l.hl = false; });
  if (worker === undefined) {
    queued.push({ lines, ext, then });
    startSoon();
    return;
  }
  post(lines, ext, then);
}

function post(lines, ext, then) {
  if (!worker) {
    lines.forEach((l) => { l.hl = null; });
    return;
  }
  const id = nextId++;
  batches.set(id, { lines, then });
  worker.postMessage({ id, ext, texts: lines.map((l) => l.text) });
}
