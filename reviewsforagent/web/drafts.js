// Drafts: the server keeps what the person writes, saved as they write
// it, so nothing is lost to a reload, a closed tab or a crash.
import { state, api, el, globalBox, updateCount } from './page.js';
import { unfoldCommented } from './draw.js';
import { tokenNow } from './auth.js';

// The server keeps the draft: every change is saved a moment after it is
// made, so a reload, a closed tab or a crash loses nothing, and the page
// restores it on load. Leaving with comments not yet submitted asks first.

const SAVE_DELAY = 300;

export function fileIndex(path) {
  return state.files.findIndex((f) => f.meta.path === path);
}

export function toWire(c) {
  return { file: state.files[c.file].meta.path, startLine: c.startLine, endLine: c.endLine, side: c.side, body: c.body };
}

// fromWire turns a stored comment back into the page's, or null when its
// file is not in this diff.
export function fromWire(w) {
  const file = fileIndex(w.file);
  if (file < 0 || typeof w.body !== 'string') { return null; }
  return { id: state.nextId++, file, startLine: w.startLine, endLine: w.endLine, side: w.side === 'left' ? 'left' : 'right', body: w.body };
}

// applyDraft puts the saved draft d, or the error err that fetching it
// gave, in state, before the diff is drawn; from then on changes are
// saved.
export function applyDraft(d, err) {
  if (err) {
    draftStatus('Could not load your saved draft: ' + err.message, true);
  } else {
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
  }
  state.restored = true;
  state.lastSaved = JSON.stringify(draftPayload());
  unfoldCommented();
  updateCount();
}

export function draftPayload() {
  const d = state.draft;
  let form = null;
  if (d && d.body.trim() !== '') {
    const at = d.editing === null ? -1 : state.comments.findIndex((c) => c.id === d.editing);
    form = Object.assign(toWire(d), { editing: at < 0 ? null : at });
  }
  return { globalComment: globalBox.value === '' ? null : globalBox.value, comments: state.comments.map(toWire), form };
}

export function scheduleSave() {
  if (!state.restored || state.done) { return; }
  if (!state.saveTimer && JSON.stringify(draftPayload()) === state.lastSaved) { return; }
  clearTimeout(state.saveTimer);
  state.saveTimer = setTimeout(saveNow, SAVE_DELAY);
  draftStatus('Saving\u2026');
}

export async function saveNow(keepalive) {
  clearTimeout(state.saveTimer);
  state.saveTimer = null;
  if (!state.restored || state.done) { return; }
  const body = JSON.stringify(draftPayload());
  const p = fetch(api + '/draft', {
    method: 'PUT', headers: { 'Content-Type': 'application/json', 'X-RFA-Token': tokenNow() }, body, keepalive: !!keepalive
  });
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

export function unsent() {
  return !state.done && (state.comments.length > 0 || globalBox.value.trim() !== '' || (state.draft && state.draft.body.trim() !== ''));
}

window.addEventListener('beforeunload', (ev) => {
  if (state.saveTimer) { saveNow(true); }
  if (unsent()) {
    ev.preventDefault();
    ev.returnValue = ''; // older browsers need it set
  }
});

// draftStatus shows the draft's save state. A key pressed while a save is
// already due writes nothing to the page: the status is the same, and a
// write would cost a style and layout pass on every keystroke.
export function draftStatus(msg, isError) {
  const s = el('rfa-draft-status');
  if (s.textContent === msg && s.classList.contains('rfa-draft-error') === !!isError && s.hidden === (msg === '')) { return; }
  s.textContent = msg;
  s.classList.toggle('rfa-draft-error', !!isError);
  s.hidden = msg === '';
}
