// Review page: shows the local diff with diff2html and lets the person
// comment on lines, line ranges, whole files and the change as a whole, then
// submits the comments to the local server, which writes them for an agent.
//
// This module loads the review and handles what the person does: clicks
// are handled by one listener on the container, attached once, so
// redraws never lose or double it. Drawing is draw.js's, drafts
// drafts.js's, keys and viewed files nav.js's; page.js holds the state.
import {
  state, api, el, container, globalBox, fetchJSON, fetchSections, updateCount, showError, notice, toast, reviewKey, afterFrames
} from './page.js';
import {
  unfold, unfoldCommented, afterPaint, drawDiff, switchView, switchWhitespace, fillScreen, drawComments, anchor, toAnchor, expand
} from './draw.js';
import { applyDraft, scheduleSave, toWire, fromWire, draftStatus } from './drafts.js';
import { initKeys } from './nav.js';
import { authFetch } from './auth.js';
import { renderInto } from './markdown.js';
import { showTree, buildTree } from './tree.js';
import { closeFind } from './find.js';
import { initDrag } from './controls.js';

// ------------------------------------------------------------------ loading

// load fetches the review, its diff and its draft at once, and lays the
// page out with its files' headers and bodies; the rows on screen are
// drawn in the next frame, once the layout says where the screen is, so
// no one task does all of it.
async function load() {
  try {
    const started = performance.now();
    // The draft is fetched with the rest; it is used only for an open review.
    const draft = fetchJSON(api + '/draft').then((d) => ({ d }), (err) => ({ err }));
    const warm = warmFonts();
    const [info, sections] = await Promise.all([fetchJSON(api + '/info'), fetchSections(api + '/diff')]).finally(() => warm.remove());
    performance.measure('rfa: scripts loaded', { start: 0, end: started });
    performance.measure('rfa: fetched', { start: started, end: performance.now() });
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
    if (meta.length === 0 && info.submitted) {
      container.textContent = '';
      el('rfa-bar').hidden = false;
      showResult(info.submitted);
      return;
    }
    if (meta.length === 0) {
      container.textContent = '';
      notice('No uncommitted changes against ' + info.base + ': there is nothing to review. ' +
        'Make some changes, then start a new review.');
      return;
    }
    if (sections.length !== meta.length) {
      throw new Error('the diff has ' + sections.length + ' files but the server listed ' + meta.length);
    }
    // A folded file (a lock file, a generated or a very large one) is
    // parsed only when the person asks for its diff.
    state.files = sections.map((section, i) => ({
      meta: meta[i], section, model: null, folded: !!meta[i].collapsed, cardH: new Map()
    }));
    if (!info.submitted && info.status === 'open') {
      const { d, err } = await draft;
      applyDraft(d, err);
    }
    showTree();
    el('rfa-view').hidden = false;
    state.ignoreWs = wsKept();
    el('rfa-ws').setAttribute('aria-pressed', String(state.ignoreWs));
    el('rfa-ws').hidden = false;
    el('rfa-help').hidden = false;
    el('rfa-bar').hidden = false;
    drawDiff();
    afterPaint('rfa: first paint', 0);
    // The tree's rows come in a task of their own once the first rows are
    // painted: laid out with the first screen, they made its frame one
    // long task.
    afterFrames(2, buildTree);
    if (info.submitted) {
      showResult(info.submitted);
    } else if (state.draft) {
      drawComments(); // the restored form takes the focus
    }
  } catch (err) {
    container.textContent = '';
    notice('Could not load the changes: ' + err.message, true);
  }
}

// warmFonts lays out, unseen, a word in each font and weight the diff is
// drawn in, while the page waits for the diff: finding a font takes the
// browser tens of milliseconds the first time, which would otherwise
// fall in the first screen's frame. The caller removes it.
function warmFonts() {
  const box = document.createElement('div');
  box.className = 'rfa-warm';
  box.setAttribute('aria-hidden', 'true');
  ['mono', 'mono big', 'mono big bold', 'sans', 'sans big', 'sans big bold'].forEach((cls) => {
    const s = document.createElement('span');
    s.className = cls.split(' ').map((c) => 'rfa-warm-' + c).join(' ');
    s.textContent = 'diff \u25BE 0';
    box.appendChild(s);
  });
  document.body.appendChild(box);
  return box;
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



function onAction(action, target) {
  if (action === 'load-diff') {
    const w = target.closest('.d2h-file-wrapper');
    const t0 = performance.now();
    unfold([Number(w.dataset.rfaFile)]);
    w.scrollIntoView({ block: 'start' });
    fillScreen();
    afterPaint('rfa: load diff', t0);
    return;
  }
  if (action === 'expand') {
    expand(Number(target.closest('.d2h-file-wrapper').dataset.rfaFile), Number(target.dataset.rfaHunk), fetchJSON, api)
      .catch((err) => toast('Could not show more lines: ' + err.message));
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
    case 'preview':
      togglePreview(target.closest('.rfa-form'));
      break;
    case 'suggest':
      suggest(target.closest('.rfa-form'));
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

// togglePreview shows the form's text as it will read, or the text box
// again.
function togglePreview(form) {
  const ta = form.querySelector('textarea');
  const pv = form.querySelector('.rfa-preview');
  const b = form.querySelector('[data-rfa-action="preview"]');
  const showing = pv.hidden;
  if (showing) { renderInto(pv, ta.value || 'Nothing to preview.'); }
  pv.hidden = !showing;
  ta.hidden = showing;
  b.textContent = showing ? 'Write' : 'Preview';
  if (!showing) { ta.focus(); }
}

// suggest puts the commented lines into the form as a suggestion block,
// for the person to edit into what they should say.
function suggest(form) {
  const d = state.draft;
  const m = state.files[d.file].model;
  if (!m) { return; }
  const lines = [];
  m.unified.forEach((row) => {
    const l = row.line;
    if (l && l.t !== 'd' && l.new >= d.startLine && l.new <= d.endLine) { lines.push(l.text); }
  });
  const ta = form.querySelector('textarea');
  const fence = '`'.repeat(Math.max(3, ...lines.map((x) => ((x.match(/`+/g) || []).reduce((n, r) => Math.max(n, r.length), 0)) + 1)));
  const block = fence + 'suggestion\n' + lines.join('\n') + '\n' + fence + '\n';
  ta.value = (ta.value && !ta.value.endsWith('\n') ? ta.value + '\n' : ta.value) + block;
  d.body = ta.value;
  scheduleSave();
  ta.focus();
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

// The layout toggle draws the bodies again; the comments are drawn again
// from state, and the line at the top of the screen stays there.
el('rfa-view').addEventListener('click', (ev) => {
  const b = ev.target.closest('button[data-view]');
  if (!b || b.dataset.view === state.view) { return; }
  const t0 = performance.now();
  const at = anchor();
  state.view = b.dataset.view;
  el('rfa-view').querySelectorAll('button').forEach((x) => x.setAttribute('aria-pressed', String(x === b)));
  switchView();
  toAnchor(at);
  fillScreen();
  afterPaint('rfa: layout toggle', t0);
});

// "Ignore whitespace" (or w) reads the diff again with the changes of
// whitespace only as unchanged lines, or shows them again; the line at the
// top of the screen stays there. The choice is kept for the review across
// reloads, as the files marked viewed are.
function toggleWhitespace() {
  const t0 = performance.now();
  const at = anchor();
  state.ignoreWs = !state.ignoreWs;
  el('rfa-ws').setAttribute('aria-pressed', String(state.ignoreWs));
  try { localStorage.setItem(reviewKey('ws'), state.ignoreWs ? '1' : '0'); } catch (err) { /* private mode: not kept */ }
  closeFind();
  switchWhitespace();
  toAnchor(at);
  fillScreen();
  afterPaint('rfa: whitespace toggle', t0);
}

// wsKept is whether whitespace was last ignored on this review.
function wsKept() {
  try { return localStorage.getItem(reviewKey('ws')) === '1'; } catch (err) { return false; }
}

el('rfa-ws').addEventListener('click', toggleWhitespace);
document.addEventListener('keydown', (ev) => {
  if (ev.key !== 'w' || ev.ctrlKey || ev.metaKey || ev.altKey || state.files.length === 0 ||
    (ev.target.closest && ev.target.closest('textarea, input, select, [contenteditable]'))) { return; }
  ev.preventDefault();
  toggleWhitespace();
});

// ------------------------------------------------------------------ submitting

globalBox.addEventListener('input', () => { updateCount(); scheduleSave(); });

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
    const r = await authFetch(api + '/comments', {
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
  el('rfa-discard').hidden = true;
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

// The result stays small once read: its details fold away.
el('rfa-result-toggle').addEventListener('click', () => {
  const d = el('rfa-result-details');
  d.hidden = !d.hidden;
  el('rfa-result-toggle').textContent = d.hidden ? 'Show details' : 'Hide details';
  el('rfa-result-toggle').setAttribute('aria-expanded', String(!d.hidden));
});

// Discarding is the one way to throw a draft away; it asks first.
el('rfa-discard').addEventListener('click', async () => {
  if (state.done || !confirm('Discard this review? Its comments are deleted.')) { return; }
  try {
    const r = await authFetch(api + '/cancel', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    const data = await r.json().catch(() => ({}));
    if (!r.ok) { throw new Error(data.error || 'the server answered ' + r.status); }
    state.done = true;
    clearTimeout(state.saveTimer);
    state.comments = [];
    state.draft = null;
    globalBox.value = '';
    document.body.classList.add('rfa-done');
    el('rfa-submit').disabled = true;
    el('rfa-discard').disabled = true;
    globalBox.disabled = true;
    draftStatus('');
    notice('This review was discarded: it takes no more comments.');
    drawComments(false);
  } catch (err) {
    showError('Not discarded: ' + err.message);
  }
});

el('rfa-copy').addEventListener('click', async () => {
  try {
    await navigator.clipboard.writeText(el('rfa-prompt').textContent);
    toast('Copied.');
  } catch (err) {
    toast('Could not copy: select the prompt and copy it.');
  }
});

initKeys(onLineNumber);
// A drag is a click on its first line number and a shift-click on its
// last: the same checks, the same form.
initDrag((start, end) => {
  onLineNumber(start, false);
  if (state.draft && state.anchor) { onLineNumber(end, true); }
});
load();
