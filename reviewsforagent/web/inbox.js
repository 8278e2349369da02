// The inbox page: every review in the store by where it is, with who
// claimed or resolved it. Everything shown comes from the API as text and
// is set with textContent, never as HTML: summaries, names and notes are
// written by agents and people.

import { authFetch } from './auth.js';

const el = (id) => document.getElementById(id);

function badge(text, kind, title) {
  const b = document.createElement('span');
  b.className = 'rfa-inbox-badge rfa-inbox-badge-' + kind;
  b.textContent = text;
  if (title) { b.title = title; }
  return b;
}

function when(iso) {
  if (!iso) { return ''; }
  const d = new Date(iso);
  return isNaN(d) ? '' : d.toLocaleString();
}

function row(it) {
  const li = document.createElement('li');
  li.className = 'rfa-inbox-item';
  li.dataset.rfaId = it.id;
  const head = document.createElement('div');
  head.className = 'rfa-inbox-head';
  // Every local review opens: an open one to comment on, the others
  // read-only, as submitted.
  const local = it.source !== 'github';
  const id = document.createElement(local ? 'a' : 'span');
  id.className = 'rfa-inbox-id';
  id.textContent = it.id;
  if (local) {
    id.href = '/review/' + encodeURIComponent(it.id);
    id.title = it.status === 'open' ? 'Review it' : 'Show it, read-only';
  }
  head.appendChild(id);
  head.appendChild(badge(it.status, it.status));
  if (it.status === 'claimed' && it.claimedBy) {
    const until = it.claimExpiresAt ? ' until ' + when(it.claimExpiresAt) : '';
    head.appendChild(badge('claimed by ' + it.claimedBy + until, 'claim', 'claimed ' + when(it.claimedAt)));
  }
  if (it.status === 'resolved') {
    const by = it.resolvedBy;
    head.appendChild(badge(by ? 'resolved by ' + by : 'resolved', 'resolution', when(it.resolvedAt)));
  }
  if (it.commentCount) {
    head.appendChild(badge(it.commentCount + (it.commentCount === 1 ? ' comment' : ' comments'), 'count'));
  }
  li.appendChild(head);
  const summary = document.createElement('div');
  summary.className = 'rfa-inbox-summary';
  summary.textContent = it.summary || '';
  li.appendChild(summary);
  const meta = document.createElement('div');
  meta.className = 'rfa-inbox-meta';
  meta.textContent = [it.branch ? 'branch ' + it.branch : '', 'asked ' + when(it.createdAt),
    it.submittedAt ? 'submitted ' + when(it.submittedAt) : ''].filter(Boolean).join(' \u00b7 ');
  li.appendChild(meta);
  if (it.note) {
    const note = document.createElement('div');
    note.className = 'rfa-inbox-note';
    note.textContent = 'Note: ' + it.note;
    li.appendChild(note);
  }
  return li;
}

function fill(list, items, empty) {
  list.textContent = '';
  if (items.length === 0) {
    const li = document.createElement('li');
    li.className = 'rfa-inbox-empty';
    li.textContent = empty;
    list.appendChild(li);
    return;
  }
  items.forEach((it) => list.appendChild(row(it)));
}

async function load() {
  try {
    const r = await authFetch('/api/review/submissions?status=all');
    const data = await r.json();
    if (!r.ok) { throw new Error(data.error || 'the server answered ' + r.status); }
    const items = data.items || [];
    fill(el('rfa-open'), items.filter((it) => it.status === 'open'), 'No review is waiting for you.');
    fill(el('rfa-submitted'), items.filter((it) => it.status === 'submitted' || it.status === 'claimed'),
      'Nothing submitted is waiting for an agent.');
    fill(el('rfa-resolved'), items.filter((it) => it.status === 'resolved'), 'Nothing resolved yet.');
    el('rfa-inbox-summary').textContent = items.length + (items.length === 1 ? ' review' : ' reviews');
  } catch (err) {
    const n = el('rfa-notice');
    n.textContent = 'Could not load the inbox: ' + err.message;
    n.classList.add('rfa-notice-error');
    n.hidden = false;
  }
}

load();
