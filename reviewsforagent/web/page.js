import { authFetch } from './auth.js';

// What every part of the review page shares: its state, the elements it
// works in, the API it talks to, and how it tells the person things.

export const state = {
  info: null, // /api/info: repo, base, files (path, oldPath, status, binary), submitted
  files: [], // per file: { meta: info.files[i], section (its diff text), model (its rows, read as drawn), folded }
  comments: [], // { id, file (index), startLine, endLine, side, body }; lines null for file-level
  draft: null, // the open form: a comment's fields plus `editing` (the comment's id, or null if new)
  anchor: null, // the last plain-clicked line, which a shift-click extends: { file, side, line, hunk }
  view: 'line-by-line',
  ignoreWs: false, // changes of whitespace only are shown as unchanged lines (git diff -w)
  nextId: 1,
  done: false, // submitted: the page is read-only
  restored: false, // the saved draft is loaded: from now on changes are saved
  saveTimer: null,
  saving: null, // the PUT in flight, if any
  lastSaved: '', // the draft as last saved, so an unchanged one is not sent again
  find: { q: '', now: null } // the find box's text, lower case, and the match gone to: { i, line, at }
};

// The page of one review: /review/<id> is a review in the inbox, and its
// API lives under /api/reviews/<id>; /review is the start command's one
// review, at /api.
const reviewPath = location.pathname.match(/^\/review\/([^/]+)$/);
export const api = reviewPath ? '/api/reviews/' + reviewPath[1] : '/api';

export const el = (id) => document.getElementById(id);

// reviewKey is where the browser keeps what for this review (the files
// marked viewed, whether whitespace is ignored) across reloads.
export function reviewKey(what) {
  return 'rfa-' + what + ':' + (state.info.id || state.info.repo + '@' + state.info.base);
}
export const container = el('rfa-diff');
export const globalBox = el('rfa-global');

async function fetchOK(url) {
  const r = await authFetch(url);
  if (!r.ok) {
    const data = await r.json().catch(() => ({}));
    throw new Error(data.error || url + ' answered ' + r.status);
  }
  return r;
}

export async function fetchText(url) {
  return (await fetchOK(url)).text();
}

// fetchSections fetches a diff and returns its "diff --git" sections, one
// per file, read as the response comes: each piece is decoded and split
// as it arrives, in tasks of a few milliseconds, so no one task reads and
// decodes megabytes at once.
export async function fetchSections(url) {
  return readSections(await fetchOK(url));
}

const READ_SLICE = 8; // ms of decoding and splitting before the page gets a turn

// readSections splits a response's diff text into sections exactly as
// splitSections splits the whole text, without ever holding more than the
// section being read and the piece that came.
export async function readSections(r) {
  if (!r.body || !r.body.getReader) {
    return splitSections(await r.text());
  }
  const reader = r.body.getReader();
  const decoder = new TextDecoder('utf-8');
  const split = sectionSplitter();
  let slice = performance.now();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) {
      split.add(decoder.decode(), true);
      return split.out;
    }
    split.add(decoder.decode(value, { stream: true }), false);
    if (performance.now() - slice > READ_SLICE) {
      await yieldTask();
      slice = performance.now();
    }
  }
}

// sectionSplitter cuts text given a piece at a time at each "\ndiff --git ",
// keeping the section not yet ended; a boundary may come split across two
// pieces, so the search starts a boundary's length before the new piece.
function sectionSplitter() {
  const mark = '\ndiff --git ';
  let buf = '';
  let from = 0;
  const out = [];
  return {
    out,
    add(text, last) {
      buf += text;
      let start = 0;
      for (;;) {
        const next = buf.indexOf(mark, Math.max(start, from));
        if (next < 0) { break; }
        out.push(buf.slice(start, next + 1));
        start = next + 1;
      }
      buf = buf.slice(start);
      from = Math.max(0, buf.length - mark.length + 1);
      if (last && buf !== '') {
        out.push(buf);
        buf = '';
      }
    }
  };
}

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

// yieldTask resolves in a task of its own, without the 4 ms a chain of
// timers is held back by.
function yieldTask() {
  if (window.scheduler && window.scheduler.yield) {
    return window.scheduler.yield();
  }
  return new Promise((resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => resolve();
    ch.port2.postMessage(null);
  });
}

export async function fetchJSON(url) {
  return JSON.parse(await fetchText(url));
}

// idle runs fn when the page has nothing more pressing to do (or after
// timeout ms at the latest): for work done a slice at a time.
export function idle(fn, timeout) {
  if (window.requestIdleCallback) {
    requestIdleCallback(fn, { timeout: timeout || 200 });
  } else {
    setTimeout(fn, 0);
  }
}

// afterFrames runs fn in a task of its own once n more frames are painted.
export function afterFrames(n, fn) {
  if (n <= 0) {
    setTimeout(fn, 0);
    return;
  }
  requestAnimationFrame(() => afterFrames(n - 1, fn));
}

export function updateCount() {
  el('rfa-count').textContent = String(state.comments.length + (globalBox.value.trim() ? 1 : 0));
}

// ------------------------------------------------------------------ messages

export function showError(msg) {
  el('rfa-error').textContent = msg;
  el('rfa-error').hidden = msg === '';
}

export function notice(msg, isError) {
  const n = el('rfa-notice');
  n.textContent = msg;
  n.classList.toggle('rfa-notice-error', !!isError);
  n.hidden = false;
}

let toastTimer = null;
export function toast(msg) {
  const t = el('rfa-toast');
  t.textContent = msg;
  t.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { t.hidden = true; }, 3500);
}
