import { renderInto } from './markdown.js';

// Building the parts of the page around the diff's rows: file headers,
// fold notices and comment cards. It keeps no state of its own; app.js
// owns the comments and draw.js the rows.

const statusTags = {
  added: ['ADDED', 'd2h-added'],
  deleted: ['DELETED', 'd2h-deleted'],
  renamed: ['RENAMED', 'd2h-moved'],
  modified: ['CHANGED', 'd2h-changed']
};

// fileHeader is the wrapper of file i with its header: its name (the old
// one too when renamed), what happened to it, its line counts, the
// file-comment button and the Viewed box, and the area of file comments.
export function fileHeader(meta, i) {
  const wrapper = document.createElement('div');
  wrapper.className = 'd2h-file-wrapper';
  wrapper.dataset.rfaFile = String(i);
  wrapper.id = 'rfa-file-' + i;
  const header = document.createElement('div');
  header.className = 'd2h-file-header rfa-file-header';
  const name = document.createElement('span');
  name.className = 'd2h-file-name-wrapper';
  name.tabIndex = -1;
  const n = document.createElement('span');
  n.className = 'd2h-file-name';
  n.textContent = meta.status === 'renamed' && meta.oldPath ? meta.oldPath + ' \u2192 ' + meta.path : meta.path;
  name.appendChild(n);
  const [tag, cls] = statusTags[meta.status] || statusTags.modified;
  const t = document.createElement('span');
  t.className = 'd2h-tag ' + cls;
  t.textContent = tag;
  name.appendChild(t);
  header.appendChild(name);
  if (!meta.binary) {
    const stats = document.createElement('span');
    stats.className = 'rfa-file-stats';
    stats.textContent = '+' + meta.added + ' \u2212' + meta.deleted;
    header.appendChild(stats);
  }
  header.appendChild(button('Comment on file', 'file-comment', undefined, 'rfa-btn-small rfa-file-button'));
  const viewed = document.createElement('label');
  viewed.className = 'd2h-file-collapse';
  const box = document.createElement('input');
  box.type = 'checkbox';
  box.className = 'd2h-file-collapse-input';
  viewed.appendChild(box);
  viewed.appendChild(document.createTextNode(' Viewed'));
  header.appendChild(viewed);
  wrapper.appendChild(header);
  const area = document.createElement('div');
  area.className = 'rfa-file-comments';
  wrapper.appendChild(area);
  return wrapper;
}

// foldNotice tells why a file is folded, with the button that shows it.
export function foldNotice(reason) {
  const box = document.createElement('div');
  box.className = 'rfa-folded';
  const msg = document.createElement('span');
  msg.textContent = 'Diff not shown: ' + reason + '. ';
  box.appendChild(msg);
  box.appendChild(button('Load diff', 'load-diff', undefined, 'rfa-btn-small'));
  return box;
}

// "Line 42", "Lines 3–7 (old)" or "File comment".
export function describe(c) {
  if (c.startLine === null) { return 'File comment'; }
  const s = c.startLine === c.endLine ? 'Line ' + c.startLine : 'Lines ' + c.startLine + '\u2013' + c.endLine;
  return c.side === 'left' ? s + ' (old)' : s;
}

function button(label, action, id, extra) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'rfa-btn ' + (extra || '');
  b.textContent = label;
  b.dataset.rfaAction = action;
  if (id !== undefined) { b.dataset.rfaId = String(id); }
  return b;
}

function cardShell(title) {
  const card = document.createElement('div');
  card.className = 'rfa-card';
  const header = document.createElement('div');
  header.className = 'rfa-card-header';
  const t = document.createElement('span');
  t.className = 'rfa-card-title';
  t.textContent = title;
  header.appendChild(t);
  card.appendChild(header);
  return card;
}

// A saved comment, with its copy button, and its edit and delete buttons
// unless readOnly (a submitted review).
export function commentCard(c, readOnly) {
  const card = cardShell(describe(c));
  card.dataset.rfaId = String(c.id);
  const actions = document.createElement('span');
  actions.className = 'rfa-card-actions';
  actions.appendChild(button('Copy as prompt', 'copy-prompt', c.id, 'rfa-btn-small rfa-btn-link'));
  if (readOnly) {
    card.classList.add('rfa-card-submitted');
  } else {
    actions.appendChild(button('Edit', 'edit', c.id, 'rfa-btn-small rfa-btn-link'));
    actions.appendChild(button('Delete', 'delete', c.id, 'rfa-btn-small rfa-btn-link rfa-btn-danger'));
  }
  card.firstChild.appendChild(actions);
  const body = document.createElement('div');
  body.className = 'rfa-card-body';
  renderInto(body, c.body); // Markdown the server renders without raw HTML
  card.appendChild(body);
  return card;
}

// The form of a new comment (d.editing null) or of one being edited.
export function formCard(d) {
  const what = d.startLine === null ? 'this file' : describe(d).toLowerCase();
  const card = cardShell(d.editing === null ? 'Comment on ' + what : 'Edit comment on ' + what);
  card.classList.add('rfa-form');
  const ta = document.createElement('textarea');
  ta.placeholder = 'Leave a comment (Ctrl+Enter to save)';
  ta.value = d.body;
  card.appendChild(ta);
  const pv = document.createElement('div');
  pv.className = 'rfa-card-body rfa-preview';
  pv.hidden = true;
  card.appendChild(pv);
  const actions = document.createElement('div');
  actions.className = 'rfa-form-actions';
  if (d.startLine !== null && d.side === 'right') {
    actions.appendChild(button('Suggest a change', 'suggest', undefined, 'rfa-btn-link rfa-form-left'));
  }
  actions.appendChild(button('Preview', 'preview', undefined, 'rfa-btn-link'));
  actions.appendChild(button('Cancel', 'cancel'));
  actions.appendChild(button(d.editing === null ? 'Add comment' : 'Save', 'save', undefined, 'rfa-btn-primary'));
  card.appendChild(actions);
  return card;
}
