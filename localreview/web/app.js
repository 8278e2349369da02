// Review page: shows the local diff with diff2html and lets the person
// comment on lines, line ranges, whole files and the change as a whole, then
// submits the comments to the local server, which writes them for an agent.
//
// diff2html redraws its whole DOM whenever the layout changes, so nothing
// here keeps references into it across draws: comments live in `state`, and
// drawComments() puts them back into whatever DOM is current. Clicks are
// handled by one listener on the container, attached once, so redraws
// never lose or double it. Diff2Html and Diff2HtmlUI are the globals of the
// vendored diff2html bundles, loaded before this module.
import {
  chunkTables, decorateFiles, indexRows, indexFile, clearComments, fileArea,
  insertLineCard, highlightRows, commentCard, formCard
} from './render.js';

// Above this many diff lines, syntax highlighting is not done while
// drawing, the slowest part of it, but lazily: each part of the diff as it
// comes near the screen (see highlightLazily).
const HIGHLIGHT_LIMIT = 5000;

let highlighter = null; // the IntersectionObserver of the current drawing

// A long diff is drawn in two steps: files up to this many diff lines at
// once, the others first as empty shells (their headers, so the page and
// the file list are whole) and then filled in the background, a batch at a
// time, so the first screen shows at once.
const FIRST_LINES = 2000;
const BATCH_LINES = 2000;
let drawing = 0; // bumped by each drawDiff, so a background fill of an older drawing stops

const state = {
  info: null, // /api/info: repo, base, files (path, oldPath, status, binary), submitted
  files: [], // per file: { meta: info.files[i], section (its diff text), d2h: diff2html's parsed file, once parsed, folded }
  comments: [], // { id, file (index), startLine, endLine, side, body }; lines null for file-level
  draft: null, // the open form: a comment's fields plus `editing` (the comment's id, or null if new)
  anchor: null, // the last plain-clicked line, which a shift-click extends: { file, side, line, hunk }
  view: 'line-by-line',
  rows: [], // per file, from indexRows after each draw
  nextId: 1,
  done: false, // submitted: the page is read-only
  restored: false, // the saved draft is loaded: from now on changes are saved
  saveTimer: null,
  saving: null, // the PUT in flight, if any
  lastSaved: '' // the draft as last saved, so an unchanged one is not sent again
};

// The page of one review: /review/<id> is a review in the inbox, and its
// API lives under /api/reviews/<id>; /review is the start command's one
// review, at /api.
const reviewPath = location.pathname.match(/^\/review\/([^/]+)$/);
const api = reviewPath ? '/api/reviews/' + reviewPath[1] : '/api';

const el = (id) => document.getElementById(id);
const container = el('rfa-diff');
const globalBox = el('rfa-global');

// ------------------------------------------------------------------ loading

async function load() {
  try {
    const [info, text] = await Promise.all([fetchJSON(api + '/info'), fetchText(api + '/diff')]);
    state.info = info;
    const meta = info.files;
    el('rfa-summary').textContent = info.repo + ' \u00b7 ' + meta.length +
      (meta.length === 1 ? ' file' : ' files') + ' changed against ' + info.base;
    if (info.message) {
      el('rfa-message').textContent = 'Note from the agent: ' + info.message;
      el('rfa-message').hidden = false;
    }
    if (!info.submitted && (info.status === 'cancelled' || info.status === 'resolved')) {
      container.textContent = '';
      notice('This review was ' + info.status + ': it takes no more comments.');
      return;
    }
    if (meta.length === 0) {
      container.textContent = '';
      notice('No uncommitted changes against ' + info.base + ': there is nothing to review. ' +
        'Make some changes, then start a new review.');
      return;
    }
    const sections = splitSections(text);
    if (sections.length !== meta.length) {
      throw new Error('the diff has ' + sections.length + ' files but the server listed ' + meta.length);
    }
    // A folded file (a lock file, a generated or a very large one) is
    // parsed only when the person asks for its diff.
    state.files = sections.map((section, i) => ({
      meta: meta[i], section, d2h: null, folded: !!meta[i].collapsed
    }));
    el('rfa-view').hidden = false;
    el('rfa-help').hidden = false;
    el('rfa-bar').hidden = false;
    drawDiff();
    afterPaint('rfa: first paint', 0);
    if (info.submitted) {
      showResult(info.submitted);
    } else if (info.status === 'open') {
      await restoreDraft();
    }
  } catch (err) {
    container.textContent = '';
    notice('Could not load the changes: ' + err.message, true);
  }
}

async function fetchText(url) {
  const r = await fetch(url);
  if (!r.ok) {
    const data = await r.json().catch(() => ({}));
    throw new Error(data.error || url + ' answered ' + r.status);
  }
  return r.text();
}

async function fetchJSON(url) {
  return JSON.parse(await fetchText(url));
}

// The server sends one "diff --git" section per file, in the order of
// info.files. Parsing each section alone pairs every diff2html file with
// the server's own view of it, whatever diff2html makes of odd names.
function splitSections(text) {
  return text === '' ? [] : text.split(/^(?=diff --git )/m);
}

// ------------------------------------------------------------------ drafts
//
// The server keeps the draft: every change is saved a moment after it is
// made, so a reload, a closed tab or a crash loses nothing, and the page
// restores it on load. Leaving with comments not yet submitted asks first.

const SAVE_DELAY = 300;

function fileIndex(path) {
  return state.files.findIndex((f) => f.meta.path === path);
}

function toWire(c) {
  return { file: state.files[c.file].meta.path, startLine: c.startLine, endLine: c.endLine, side: c.side, body: c.body };
}

// fromWire turns a stored comment back into the page's, or null when its
// file is not in this diff.
function fromWire(w) {
  const file = fileIndex(w.file);
  if (file < 0 || typeof w.body !== 'string') { return null; }
  return { id: state.nextId++, file, startLine: w.startLine, endLine: w.endLine, side: w.side === 'left' ? 'left' : 'right', body: w.body };
}

async function restoreDraft() {
  try {
    const d = await fetchJSON(api + '/draft');
    (d.comments || []).forEach((w) => {
      const c = fromWire(w);
      if (c) { state.comments.push(c); }
    });
    if (d.globalComment) { globalBox.value = d.globalComment; }
    if (d.form) {
      const f = fromWire(d.form);
      const edited = d.form.editing === null || d.form.editing === undefined ? null : state.comments[d.form.editing];
      if (f) { state.draft = { file: f.file, side: f.side, startLine: f.startLine, endLine: f.endLine, body: f.body, editing: edited ? edited.id : null }; }
    }
    if (state.comments.length || globalBox.value || state.draft) {
      draftStatus('Restored your draft.');
    }
  } catch (err) {
    draftStatus('Could not load your saved draft: ' + err.message, true);
  }
  state.restored = true;
  state.lastSaved = JSON.stringify(draftPayload());
  unfoldCommented();
  drawComments();
}

function draftPayload() {
  const d = state.draft;
  let form = null;
  if (d && d.body.trim() !== '') {
    const at = d.editing === null ? -1 : state.comments.findIndex((c) => c.id === d.editing);
    form = Object.assign(toWire(d), { editing: at < 0 ? null : at });
  }
  return { globalComment: globalBox.value === '' ? null : globalBox.value, comments: state.comments.map(toWire), form };
}

function scheduleSave() {
  if (!state.restored || state.done) { return; }
  if (!state.saveTimer && JSON.stringify(draftPayload()) === state.lastSaved) { return; }
  clearTimeout(state.saveTimer);
  state.saveTimer = setTimeout(saveNow, SAVE_DELAY);
  draftStatus('Saving\u2026');
}

async function saveNow(keepalive) {
  clearTimeout(state.saveTimer);
  state.saveTimer = null;
  if (!state.restored || state.done) { return; }
  const body = JSON.stringify(draftPayload());
  const p = fetch(api + '/draft', { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body, keepalive: !!keepalive });
  state.saving = p;
  try {
    const r = await p;
    if (!r.ok) {
      const data = await r.json().catch(() => ({}));
      throw new Error(data.error || 'the server answered ' + r.status);
    }
    state.lastSaved = body;
    if (state.saving === p && !state.saveTimer) { draftStatus('Draft saved.'); }
  } catch (err) {
    if (!state.done) { draftStatus('Draft not saved: ' + err.message, true); }
  } finally {
    if (state.saving === p) { state.saving = null; }
  }
}

function unsent() {
  return !state.done && (state.comments.length > 0 || globalBox.value.trim() !== '' || (state.draft && state.draft.body.trim() !== ''));
}

window.addEventListener('beforeunload', (ev) => {
  if (state.saveTimer) { saveNow(true); }
  if (unsent()) {
    ev.preventDefault();
    ev.returnValue = ''; // older browsers need it set
  }
});

function draftStatus(msg, isError) {
  const s = el('rfa-draft-status');
  s.textContent = msg;
  s.classList.toggle('rfa-draft-error', !!isError);
  s.hidden = msg === '';
}

// parsed is f's diff as diff2html reads it, parsed on first use: a long
// diff's files far down are parsed in the background (see fill).
function parsed(f) {
  if (!f.d2h) { f.d2h = f.folded ? emptyFile(f.meta) : parseSection(f.section, f.meta); }
  return f.d2h;
}

// emptyFile is a file's header without its diff: a folded file, or one
// not drawn yet.
function emptyFile(meta) {
  const ext = meta.path.includes('.') ? meta.path.slice(meta.path.lastIndexOf('.') + 1) : '';
  const f = { blocks: [], addedLines: meta.added || 0, deletedLines: meta.deleted || 0, isCombined: false, isGitDiff: true, language: ext };
  f.oldName = meta.status === 'added' ? '/dev/null' : (meta.oldPath || meta.path);
  f.newName = meta.status === 'deleted' ? '/dev/null' : meta.path;
  return f;
}

// unfold parses and shows the files with these indexes; it reports
// whether any was folded.
function unfold(indexes) {
  let any = false;
  indexes.forEach((i) => {
    const f = state.files[i];
    if (f && f.folded) {
      f.folded = false;
      f.d2h = parseSection(f.section, f.meta);
      any = true;
    }
  });
  return any;
}

// unfoldCommented unfolds the files that line comments are on, so that
// restored or submitted comments have their lines to sit on.
function unfoldCommented() {
  if (unfold(state.comments.concat(state.draft ? [state.draft] : []).filter((c) => c.startLine !== null).map((c) => c.file))) {
    drawDiff();
  }
}

function parseSection(section, meta) {
  const f = Diff2Html.parse(section)[0] ||
    { blocks: [], addedLines: 0, deletedLines: 0, isCombined: false, isGitDiff: true, language: '' };
  // diff2html keeps git's quoting, and the tab git appends to names with
  // spaces; show the paths the server parsed instead.
  f.oldName = meta.status === 'added' ? '/dev/null' : (meta.oldPath || meta.path);
  f.newName = meta.status === 'deleted' ? '/dev/null' : meta.path;
  return f;
}

function diffLineCount() {
  return state.files.reduce((n, f) => n + (f.folded ? 0 : f.meta.lines), 0);
}

// ------------------------------------------------------------------ drawing

// afterPaint measures from start (0: the navigation) to the next frame
// after the current one, when what was just drawn is on screen: the
// numbers BenchmarkBrowserLargeDiff reports.
function afterPaint(name, start) {
  requestAnimationFrame(() => requestAnimationFrame(() => {
    performance.measure(name, { start, end: performance.now() });
  }));
}

function drawDiff() {
  const t0 = performance.now();
  const lazy = diffLineCount() > HIGHLIGHT_LIMIT;
  const gen = ++drawing;
  // Which files are drawn now, and which as shells to fill later.
  let budget = 0;
  const pending = [];
  const shown = state.files.map((f, i) => {
    const n = f.folded ? 0 : f.meta.lines;
    if (budget > FIRST_LINES && n > 0) {
      pending.push(i);
      return emptyFile(f.meta);
    }
    budget += n;
    return parsed(f);
  });
  const config = {
    outputFormat: state.view,
    colorScheme: 'auto', // follows prefers-color-scheme, as app.css does
    drawFileList: state.files.length > 1,
    fileListStartVisible: false,
    matching: 'none', // word matching is quadratic; large diffs must stay usable
    highlight: !lazy,
    synchronisedScroll: true,
    stickyFileHeaders: true,
    fileContentToggle: true
  };
  const ui = new Diff2HtmlUI(container, shown, config);
  const t1 = performance.now();
  ui.draw();
  chunkTables(container);
  highlightLazily(ui, lazy);
  const t2 = performance.now();
  decorateFiles(container);
  foldNotices();
  state.rows = indexRows(container, state.files);
  applyViewed();
  const t3 = performance.now();
  drawComments();
  // Timings for the large-diff test, and for the browser's performance tools.
  performance.measure('rfa: diff2html html', { start: t0, end: t1 });
  performance.measure('rfa: diff2html draw and chunk', { start: t1, end: t2 });
  performance.measure('rfa: decorate and index', { start: t2, end: t3 });
  performance.measure('rfa: comments', { start: t3, end: performance.now() });
  if (pending.length > 0) {
    // After the first screen is painted: a task queued now could run
    // before the paint and hold it up.
    requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(() => fill(gen, ui, config, pending, performance.now()), 0)));
  }
}

// fill draws the shells' diffs, a batch of files per task, each into its
// shell's body, and does for them what drawDiff does for the rest.
function fill(gen, ui, config, pending, start) {
  if (gen !== drawing) { return; }
  let n = 0;
  const filled = new Set();
  while (pending.length > 0 && n < BATCH_LINES) {
    const i = pending.shift();
    filled.add(i);
    const f = state.files[i];
    n += f.meta.lines;
    const wrapper = container.querySelector('.d2h-file-wrapper[data-rfa-file="' + i + '"]');
    if (!wrapper) { continue; }
    const t = document.createElement('template');
    t.innerHTML = Diff2Html.html([parsed(f)], Object.assign({}, config, { drawFileList: false }));
    const body = t.content.querySelector('.d2h-file-diff, .d2h-files-diff');
    const old = wrapper.querySelector('.d2h-file-diff, .d2h-files-diff');
    if (!body || !old) { continue; }
    old.replaceWith(body);
    chunkTables(wrapper);
    state.rows[i] = indexFile(wrapper, f);
    withTarget(ui, wrapper, () => {
      if (!highlighter && config.highlight) { ui.highlightCode(); }
      ui.synchronisedScroll();
    });
    if (highlighter) {
      wrapper.querySelectorAll('.rfa-chunk, table.d2h-diff-table').forEach((c) => {
        if (c.matches('.rfa-chunk') || !c.closest('.rfa-chunk')) { highlighter.observe(c); }
      });
    }
    if (wrapper.querySelector('.d2h-file-collapse-input:checked')) { setFolded(wrapper, true); }
  }
  // Comments on the lines just drawn go in; a form being typed in keeps
  // its focus and selection.
  if (state.comments.some((c) => c.startLine !== null && filled.has(c.file))) {
    const ta = document.activeElement;
    const typing = ta && ta.matches && ta.matches('.rfa-form textarea');
    const sel = typing ? [ta.selectionStart, ta.selectionEnd] : null;
    drawComments(false);
    const again = typing && container.querySelector('.rfa-form textarea');
    if (again) {
      again.focus({ preventScroll: true });
      again.setSelectionRange(sel[0], sel[1]);
    }
  }
  if (pending.length > 0) {
    setTimeout(() => fill(gen, ui, config, pending, start), 0);
  } else {
    performance.measure('rfa: background fill', { start, end: performance.now() });
  }
}

// withTarget runs fn with diff2html's UI pointed at one file's wrapper.
function withTarget(ui, wrapper, fn) {
  const saved = ui.targetElement;
  ui.targetElement = { querySelectorAll: (sel) => (sel === '.d2h-file-wrapper' ? [wrapper] : wrapper.querySelectorAll(sel)) };
  try { fn(); } finally { ui.targetElement = saved; }
}

// highlightLazily highlights each chunk of a long table, and each short
// table, when it comes within a screen of the viewport, with diff2html's
// own highlighter (given just that part as its target).
function highlightLazily(ui, lazy) {
  if (highlighter) { highlighter.disconnect(); }
  highlighter = null;
  if (!lazy) { return; }
  highlighter = new IntersectionObserver((entries, obs) => {
    entries.forEach((e) => {
      if (!e.isIntersecting) { return; }
      obs.unobserve(e.target);
      const wrapper = e.target.closest('.d2h-file-wrapper');
      const lang = wrapper && wrapper.getAttribute('data-lang');
      const part = { getAttribute: () => lang, querySelectorAll: (sel) => e.target.querySelectorAll(sel + ':not(.hljs)') };
      const saved = ui.targetElement;
      ui.targetElement = { querySelectorAll: () => [part] };
      try { ui.highlightCode(); } finally { ui.targetElement = saved; }
    });
  }, { rootMargin: '100% 0px' });
  container.querySelectorAll('.rfa-chunk, table.d2h-diff-table').forEach((n) => {
    if (n.matches('.rfa-chunk') || !n.closest('.rfa-chunk')) { highlighter.observe(n); }
  });
}

// Puts every comment, the open form and the selection highlight into the
// current DOM, after removing what the previous call put there. The open
// form takes the focus, unless focus is false (a background redraw while
// the person may be typing elsewhere).
function drawComments(focus) {
  clearComments(container);
  const d = state.draft;
  const items = state.comments.slice();
  if (d && d.editing === null) { items.push(d); }
  for (const c of items) {
    const isForm = c === d || (d && d.editing === c.id);
    const card = isForm ? formCard(d) : commentCard(c, state.done);
    if (c.startLine === null) {
      fileArea(container, c.file).appendChild(card);
      continue;
    }
    const rows = state.rows[c.file];
    const first = rows && rows.get(c.side + ':' + c.startLine);
    const last = rows && rows.get(c.side + ':' + c.endLine);
    if (!first || !last) { continue; }
    insertLineCard(last, card);
    highlightRows(first, last, isForm ? 'rfa-selected' : 'rfa-commented');
  }
  updateCount();
  scheduleSave();
  const ta = container.querySelector('.rfa-form textarea');
  if (ta && focus !== false) {
    ta.focus();
    ta.selectionStart = ta.selectionEnd = ta.value.length;
  }
}

// ------------------------------------------------------------------ actions

// One listener for the whole diff, attached once: line number clicks and
// every button in cards, forms and file headers.
container.addEventListener('click', (ev) => {
  const actionEl = ev.target.closest('[data-rfa-action]');
  if (actionEl) {
    onAction(actionEl.dataset.rfaAction, actionEl);
    return;
  }
  const cell = ev.target.closest('td[data-rfa-line]');
  if (cell) { onLineNumber(cell, ev.shiftKey); }
});

// Shift-click would otherwise select the text between the two clicks.
container.addEventListener('mousedown', (ev) => {
  if (ev.shiftKey && ev.target.closest('td[data-rfa-line]')) { ev.preventDefault(); }
});

container.addEventListener('input', (ev) => {
  if (state.draft && ev.target.matches('.rfa-form textarea')) {
    state.draft.body = ev.target.value;
    scheduleSave();
  }
});

container.addEventListener('keydown', (ev) => {
  if (!ev.target.matches('.rfa-form textarea')) { return; }
  if (ev.key === 'Enter' && (ev.ctrlKey || ev.metaKey)) { ev.preventDefault(); saveDraft(); }
  if (ev.key === 'Escape') { ev.preventDefault(); cancelDraft(); }
});

function editing() {
  if (state.draft && state.draft.editing !== null) {
    toast('Save or cancel the comment you are editing first.');
    return true;
  }
  return false;
}

function onLineNumber(cell, shift) {
  if (state.done || editing()) { return; }
  const pos = {
    file: Number(cell.closest('.d2h-file-wrapper').dataset.rfaFile),
    side: cell.dataset.rfaSide,
    line: Number(cell.dataset.rfaLine),
    hunk: Number(cell.dataset.rfaHunk)
  };
  const a = state.anchor;
  if (shift && a) {
    // The server checks these too; saying so here saves a failed submit.
    if (a.file !== pos.file) { toast('A range must stay within one file.'); return; }
    if (a.side !== pos.side) { toast('A range must stay on one side: old lines or new lines.'); return; }
    if (a.hunk !== pos.hunk) { toast('A range must stay within one hunk of the diff.'); return; }
    openDraft(pos.file, pos.side, Math.min(a.line, pos.line), Math.max(a.line, pos.line));
    return;
  }
  state.anchor = pos;
  openDraft(pos.file, pos.side, pos.line, pos.line);
}

// Opens the form for a new comment on lines (or the file, with null lines).
// Text already typed in an open form moves along, so shift-clicking to
// widen a range loses nothing.
function openDraft(file, side, start, end) {
  const body = state.draft ? state.draft.body : '';
  state.draft = { file, side, startLine: start, endLine: end, body, editing: null };
  drawComments();
}

// foldNotices tells, in each folded file, why it is folded, with the
// button that shows it.
function foldNotices() {
  container.querySelectorAll('.d2h-file-wrapper').forEach((wrapper) => {
    const f = state.files[Number(wrapper.dataset.rfaFile)];
    if (!f || !f.folded) { return; }
    const box = document.createElement('div');
    box.className = 'rfa-folded';
    const msg = document.createElement('span');
    msg.textContent = 'Diff not shown: ' + f.meta.collapsed + '. ';
    box.appendChild(msg);
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'rfa-btn rfa-btn-small';
    b.textContent = 'Load diff';
    b.dataset.rfaAction = 'load-diff';
    box.appendChild(b);
    const area = wrapper.querySelector('.rfa-file-comments');
    area.insertAdjacentElement('afterend', box);
  });
}

function onAction(action, target) {
  if (action === 'load-diff') {
    const i = Number(target.closest('.d2h-file-wrapper').dataset.rfaFile);
    if (unfold([i])) { drawDiff(); }
    const w = container.querySelector('.d2h-file-wrapper[data-rfa-file="' + i + '"]');
    if (w) { w.scrollIntoView({ block: 'start' }); }
    return;
  }
  if (state.done) { return; }
  const id = Number(target.dataset.rfaId);
  switch (action) {
    case 'file-comment':
      if (editing()) { return; }
      state.anchor = null;
      openDraft(Number(target.closest('.d2h-file-wrapper').dataset.rfaFile), 'right', null, null);
      break;
    case 'save':
      saveDraft();
      break;
    case 'cancel':
      cancelDraft();
      break;
    case 'edit': {
      if (state.draft && state.draft.body.trim() !== '' && state.draft.editing !== id) {
        toast('Save or cancel the open comment first.');
        return;
      }
      const c = findComment(id);
      state.draft = { file: c.file, side: c.side, startLine: c.startLine, endLine: c.endLine, body: c.body, editing: id };
      drawComments();
      break;
    }
    case 'delete':
      state.comments = state.comments.filter((x) => x.id !== id);
      drawComments();
      break;
  }
}

function findComment(id) {
  return state.comments.find((x) => x.id === id);
}

function saveDraft() {
  const d = state.draft;
  if (!d) { return; }
  if (d.body.trim() === '') { toast('Write a comment first, or cancel.'); return; }
  if (d.editing !== null) {
    findComment(d.editing).body = d.body;
  } else {
    state.comments.push({ id: state.nextId++, file: d.file, side: d.side, startLine: d.startLine, endLine: d.endLine, body: d.body });
  }
  state.draft = null;
  state.anchor = null;
  drawComments();
}

function cancelDraft() {
  state.draft = null;
  state.anchor = null;
  drawComments();
}

// The layout toggle redraws diff2html; the comments are drawn again from state.
el('rfa-view').addEventListener('click', (ev) => {
  const b = ev.target.closest('button[data-view]');
  if (!b || b.dataset.view === state.view) { return; }
  const t0 = performance.now();
  state.view = b.dataset.view;
  el('rfa-view').querySelectorAll('button').forEach((x) => x.setAttribute('aria-pressed', String(x === b)));
  drawDiff();
  afterPaint('rfa: layout toggle', t0);
});

// ------------------------------------------------------------------ viewed files
//
// diff2html's "Viewed" box folds a file away. Which files were viewed is
// kept in the browser for this review, so a reload or a redraw keeps them
// folded, and the top bar counts them.

function viewedKey() {
  return 'rfa-viewed:' + (state.info.id || state.info.repo + '@' + state.info.base);
}

function loadViewed() {
  try {
    return new Set(JSON.parse(localStorage.getItem(viewedKey()) || '[]'));
  } catch (err) {
    return new Set();
  }
}

function saveViewed(set) {
  try { localStorage.setItem(viewedKey(), JSON.stringify(Array.from(set))); } catch (err) { /* private mode: not kept */ }
}

function applyViewed() {
  const viewed = loadViewed();
  container.querySelectorAll('.d2h-file-wrapper').forEach((wrapper) => {
    const f = state.files[Number(wrapper.dataset.rfaFile)];
    const box = wrapper.querySelector('.d2h-file-collapse-input');
    if (!f || !box || !viewed.has(f.meta.path)) { return; }
    box.checked = true;
    setFolded(wrapper, true);
  });
  countViewed(viewed);
}

function setFolded(wrapper, folded) {
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
  saveViewed(viewed);
  countViewed(viewed);
});

// ------------------------------------------------------------------ keyboard
//
// n / p: next or previous file; j / k: next or previous hunk; Enter or c
// on a focused line number: comment on it (shift for a range); in a
// comment, Ctrl+Enter saves and Escape cancels.

document.addEventListener('keydown', (ev) => {
  if (ev.ctrlKey || ev.metaKey || ev.altKey || ev.target.closest('textarea, input, select, [contenteditable]')) { return; }
  const cell = ev.target.closest && ev.target.closest('td[data-rfa-line]');
  if (cell && (ev.key === 'Enter' || ev.key === 'c' || ev.key === 'C')) {
    ev.preventDefault();
    onLineNumber(cell, ev.shiftKey);
    return;
  }
  switch (ev.key) {
    case 'n': case 'p':
      ev.preventDefault();
      step('.d2h-file-wrapper', ev.key === 'n' ? 1 : -1, (w) => w.querySelector('.d2h-file-name-wrapper') || w);
      break;
    case 'j': case 'k':
      ev.preventDefault();
      // In the split view each hunk shows in both panes: take the left.
      step('.d2h-file-diff td.d2h-info:not(.d2h-code-linenumber), ' +
        '.d2h-file-side-diff:first-child td.d2h-info:not(.d2h-code-side-linenumber)', ev.key === 'j' ? 1 : -1, (td) => td);
      break;
  }
});

// step moves the focus to the next (dir 1) or previous (-1) element
// matching sel after the one holding the focus, or the first or last.
function step(sel, dir, target) {
  const all = Array.from(container.querySelectorAll(sel)).filter((n) => !n.closest('.d2h-d-none'));
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

// ------------------------------------------------------------------ submitting

globalBox.addEventListener('input', () => { updateCount(); scheduleSave(); });

function updateCount() {
  el('rfa-count').textContent = String(state.comments.length + (globalBox.value.trim() ? 1 : 0));
}

el('rfa-submit').addEventListener('click', submit);

async function submit() {
  if (state.done) { return; }
  if (state.draft && state.draft.body.trim() !== '') {
    showError('Add or cancel the comment you are writing before submitting.');
    return;
  }
  const global = globalBox.value;
  if (state.comments.length === 0 && global.trim() === '') {
    showError('Add a comment or an overall comment first.');
    return;
  }
  const payload = { globalComment: global.trim() === '' ? null : global, comments: state.comments.map(toWire) };
  const btn = el('rfa-submit');
  btn.disabled = true;
  el('rfa-submit-label').textContent = 'Submitting\u2026';
  showError('');
  try {
    const r = await fetch(api + '/comments', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(payload)
    });
    const data = await r.json().catch(() => ({}));
    if (!r.ok) { throw new Error(data.error || 'the server answered ' + r.status); }
    showResult(data);
  } catch (err) {
    btn.disabled = false;
    el('rfa-submit-label').textContent = 'Submit review';
    showError('Not submitted: ' + err.message);
  }
}

// After a submission the review is read-only: it shows what was submitted
// (after a reload too), and a new round is a new review.
function showResult(res) {
  state.done = true;
  state.draft = null;
  clearTimeout(state.saveTimer);
  draftStatus('');
  if (res.review) {
    state.nextId = 1;
    state.comments = (res.review.comments || []).map(fromWire).filter((c) => c);
    globalBox.value = res.review.globalComment || '';
    unfoldCommented();
  }
  document.body.classList.add('rfa-done');
  el('rfa-help').hidden = true;
  el('rfa-submit').disabled = true;
  el('rfa-submit-label').textContent = 'Review submitted';
  globalBox.disabled = true;
  el('rfa-result-json').textContent = res.json;
  el('rfa-result-md').textContent = res.md;
  el('rfa-prompt').textContent = res.prompt;
  if (res.inbox) {
    el('rfa-inbox-cmd').textContent = res.inbox;
    el('rfa-result-inbox').hidden = false;
  }
  el('rfa-result-warning').textContent = res.warning || '';
  el('rfa-result-warning').hidden = !res.warning;
  el('rfa-result-files').hidden = !!res.warning;
  el('rfa-result').hidden = false;
  showError('');
  drawComments();
}

el('rfa-copy').addEventListener('click', async () => {
  try {
    await navigator.clipboard.writeText(el('rfa-prompt').textContent);
    toast('Copied.');
  } catch (err) {
    toast('Could not copy: select the prompt and copy it.');
  }
});

// ------------------------------------------------------------------ messages

function showError(msg) {
  el('rfa-error').textContent = msg;
  el('rfa-error').hidden = msg === '';
}

function notice(msg, isError) {
  const n = el('rfa-notice');
  n.textContent = msg;
  n.classList.toggle('rfa-notice-error', !!isError);
  n.hidden = false;
}

let toastTimer = null;
function toast(msg) {
  const t = el('rfa-toast');
  t.textContent = msg;
  t.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { t.hidden = true; }, 3500);
}

load();
