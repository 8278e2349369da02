// Drawing the diff with diff2html, in two steps for a long one, and
// putting the comments into whatever it drew. diff2html redraws its whole
// DOM whenever the layout changes, so nothing keeps references into it
// across draws: comments live in state, and drawComments puts them back.
// Diff2Html and Diff2HtmlUI are the globals of the vendored bundles.
import {
  chunkTables, decorateFiles, indexRows, indexFile, clearComments, fileArea,
  insertLineCard, highlightRows, commentCard, formCard
} from './render.js';
import { state, container, updateCount } from './page.js';
import { scheduleSave } from './drafts.js';
import { applyViewed, setFolded } from './nav.js';

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

// The server sends one "diff --git" section per file, in the order of
// info.files. Parsing each section alone pairs every diff2html file with
// the server's own view of it, whatever diff2html makes of odd names.
export function splitSections(text) {
  return text === '' ? [] : text.split(/^(?=diff --git )/m);
}

// parsed is f's diff as diff2html reads it, parsed on first use: a long
// diff's files far down are parsed in the background (see fill).
export function parsed(f) {
  if (!f.d2h) { f.d2h = f.folded ? emptyFile(f.meta) : parseSection(f.section, f.meta); }
  return f.d2h;
}

// emptyFile is a file's header without its diff: a folded file, or one
// not drawn yet.
export function emptyFile(meta) {
  const ext = meta.path.includes('.') ? meta.path.slice(meta.path.lastIndexOf('.') + 1) : '';
  const f = { blocks: [], addedLines: meta.added || 0, deletedLines: meta.deleted || 0, isCombined: false, isGitDiff: true, language: ext };
  f.oldName = meta.status === 'added' ? '/dev/null' : (meta.oldPath || meta.path);
  f.newName = meta.status === 'deleted' ? '/dev/null' : meta.path;
  return f;
}

// unfold parses and shows the files with these indexes; it reports
// whether any was folded.
export function unfold(indexes) {
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
export function unfoldCommented() {
  if (unfold(state.comments.concat(state.draft ? [state.draft] : []).filter((c) => c.startLine !== null).map((c) => c.file))) {
    drawDiff();
  }
}

export function parseSection(section, meta) {
  const f = Diff2Html.parse(section)[0] ||
    { blocks: [], addedLines: 0, deletedLines: 0, isCombined: false, isGitDiff: true, language: '' };
  // diff2html keeps git's quoting, and the tab git appends to names with
  // spaces; show the paths the server parsed instead.
  f.oldName = meta.status === 'added' ? '/dev/null' : (meta.oldPath || meta.path);
  f.newName = meta.status === 'deleted' ? '/dev/null' : meta.path;
  return f;
}

export function diffLineCount() {
  return state.files.reduce((n, f) => n + (f.folded ? 0 : f.meta.lines), 0);
}

// afterPaint measures from start (0: the navigation) to the next frame
// after the current one, when what was just drawn is on screen: the
// numbers BenchmarkBrowserLargeDiff reports.
export function afterPaint(name, start) {
  requestAnimationFrame(() => requestAnimationFrame(() => {
    performance.measure(name, { start, end: performance.now() });
  }));
}

export function drawDiff() {
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
export function drawComments(focus) {
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
