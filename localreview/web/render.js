// DOM work on what diff2html draws: cutting long tables into chunks,
// finding the commentable line numbers, and building comment cards. It
// keeps no state of its own; app.js owns the comments and calls in here.

// diff2html draws each file as one table. A table is laid out as a whole,
// so in a file of thousands of lines every keystroke in a comment box
// relaid out every row (seconds per key on a 20,000-line diff). Long tables
// are cut into tables of this many rows, each in a box the browser may skip
// while it is off screen (see .rfa-chunk in app.css).
const CHUNK_ROWS = 200;

// Cuts every long diff table in container into chunks of CHUNK_ROWS rows.
// Both panes of the split view have the same rows, so they are cut at the
// same places and stay aligned.
export function chunkTables(container) {
  let sample = null;
  container.querySelectorAll('table.d2h-diff-table').forEach((table) => {
    const tbody = table.tBodies[0];
    if (!tbody || tbody.rows.length <= CHUNK_ROWS) { return; }
    const rows = Array.from(tbody.rows);
    const chunks = document.createDocumentFragment();
    for (let i = 0; i < rows.length; i += CHUNK_ROWS) {
      const part = rows.slice(i, i + CHUNK_ROWS);
      const t = table.cloneNode(false);
      const tb = tbody.cloneNode(false);
      part.forEach((tr) => tb.appendChild(tr));
      t.appendChild(tb);
      const box = document.createElement('div');
      box.className = 'rfa-chunk';
      box.rfaRows = part.length;
      box.appendChild(t);
      chunks.appendChild(box);
    }
    sample = sample || table;
    table.replaceWith(chunks);
  });
  if (!sample) { return; }
  // Chunks that were never shown take this size. A good guess keeps the
  // scrollbar honest and the page from jumping when they are drawn.
  const rowHeight = measureRow(container, sample);
  container.querySelectorAll('.rfa-chunk').forEach((box) => {
    box.style.containIntrinsicBlockSize = 'auto ' + Math.ceil(box.rfaRows * rowHeight) + 'px';
  });
}

// Lays out a copy of one code row alone and returns its height, without
// laying out the long table it came from.
function measureRow(container, table) {
  const cell = container.querySelector('.rfa-chunk .d2h-code-line-ctn');
  if (!cell) { return 20; }
  const probe = table.cloneNode(false);
  const body = document.createElement('tbody');
  body.appendChild(cell.closest('tr').cloneNode(true));
  probe.appendChild(body);
  container.appendChild(probe);
  const h = probe.getBoundingClientRect().height;
  probe.remove();
  return h || 20;
}

// The row after tr, in the next chunk if tr ends one.
export function nextRow(tr) {
  if (tr.nextElementSibling) { return tr.nextElementSibling; }
  const chunk = tr.closest('.rfa-chunk');
  const next = chunk && chunk.nextElementSibling;
  return next && next.classList.contains('rfa-chunk') ? next.querySelector('tr') : null;
}

// Adds the file-comment button and the file-level comment area to each
// file, and remembers each wrapper's file index.
export function decorateFiles(container) {
  container.querySelectorAll('.d2h-file-wrapper').forEach((wrapper, i) => {
    wrapper.dataset.rfaFile = String(i);
    const header = wrapper.querySelector('.d2h-file-header');
    const b = button('Comment on file', 'file-comment', undefined, 'rfa-btn-small rfa-file-button');
    header.insertBefore(b, header.querySelector('.d2h-file-collapse'));
    const area = document.createElement('div');
    area.className = 'rfa-file-comments';
    header.insertAdjacentElement('afterend', area);
  });
}

// Reads the line number cells once per draw and returns, per file, a Map
// from "side:line" to { tr, other } (other: the split view's twin row in
// the other pane). Each commentable cell gets data-rfa-side/-line/-hunk, so
// a click needs no DOM search.
//
// Line-by-line: a deleted line is a left-side comment on its old number
// (.line-num1); an added or context line is a right-side one on its new
// number (.line-num2). The cell's whole text would run both together.
// Split: each pane is its own table, aligned row by row. A context row on
// the left pane is commented on the right side too, with the new number
// from the right pane's twin row.
export function indexRows(container, files) {
  const index = [];
  container.querySelectorAll('.d2h-file-wrapper').forEach((wrapper, i) => {
    index[i] = indexFile(wrapper, files[i]);
  });
  return index;
}

// indexFile is indexRows for one file's wrapper.
export function indexFile(wrapper, file) {
  const rows = new Map();
  if (file.meta.binary) { return rows; }
  const panes = wrapper.querySelectorAll('.d2h-file-side-diff');
  if (panes.length === 0) {
    indexUnified(wrapper, rows);
  } else {
    indexSplit(panes[0], panes[1], rows);
  }
  return rows;
}

function indexUnified(wrapper, rows) {
  let hunk = -1;
  wrapper.querySelectorAll('tr').forEach((tr) => {
    const cell = tr.querySelector('td.d2h-code-linenumber');
    if (!cell) { return; }
    if (cell.classList.contains('d2h-info')) { hunk++; return; }
    let pos = null;
    if (cell.classList.contains('d2h-del')) {
      pos = { side: 'left', line: numberIn(cell.querySelector('.line-num1')) };
    } else if (cell.classList.contains('d2h-ins') || cell.classList.contains('d2h-cntx')) {
      pos = { side: 'right', line: numberIn(cell.querySelector('.line-num2')) };
    }
    if (pos && pos.line) {
      mark(cell, pos.side, pos.line, hunk);
      rows.set(pos.side + ':' + pos.line, { tr, other: null });
    }
  });
}

function indexSplit(leftPane, rightPane, rows) {
  const left = leftPane.querySelectorAll('tr');
  const right = rightPane.querySelectorAll('tr');
  let hunk = -1;
  for (let k = 0; k < left.length && k < right.length; k++) {
    const lc = left[k].querySelector('td.d2h-code-side-linenumber');
    const rc = right[k].querySelector('td.d2h-code-side-linenumber');
    if (!lc || !rc) { continue; }
    if (lc.classList.contains('d2h-info')) { hunk++; continue; }
    const rightLine = isPlaceholder(rc) ? 0 : numberIn(rc);
    if (rightLine && (rc.classList.contains('d2h-ins') || rc.classList.contains('d2h-cntx'))) {
      mark(rc, 'right', rightLine, hunk);
      rows.set('right:' + rightLine, { tr: right[k], other: left[k] });
      if (lc.classList.contains('d2h-cntx') && !isPlaceholder(lc)) {
        mark(lc, 'right', rightLine, hunk);
      }
    }
    if (lc.classList.contains('d2h-del') && !isPlaceholder(lc)) {
      const leftLine = numberIn(lc);
      if (leftLine) {
        mark(lc, 'left', leftLine, hunk);
        rows.set('left:' + leftLine, { tr: left[k], other: right[k] });
      }
    }
  }
}

function isPlaceholder(cell) {
  return cell.classList.contains('d2h-emptyplaceholder') || cell.classList.contains('d2h-code-side-emptyplaceholder');
}

function numberIn(node) {
  const n = node ? parseInt(node.textContent.trim(), 10) : NaN;
  return n > 0 ? n : 0;
}

function mark(cell, side, line, hunk) {
  cell.dataset.rfaSide = side;
  cell.dataset.rfaLine = String(line);
  cell.dataset.rfaHunk = String(hunk);
  // A line number is a button: Tab reaches it, Enter or c comments on it,
  // and a screen reader says what it does.
  cell.tabIndex = 0;
  cell.setAttribute('role', 'button');
  const label = side === 'left' ? 'Comment on old line ' + line : 'Comment on line ' + line;
  cell.title = label;
  cell.setAttribute('aria-label', label);
}

// Removes every card, spacer and highlight that drawComments added.
export function clearComments(container) {
  container.querySelectorAll('tr.rfa-row, tr.rfa-spacer').forEach((n) => n.remove());
  container.querySelectorAll('tr.rfa-selected, tr.rfa-commented').forEach((n) => {
    n.classList.remove('rfa-selected', 'rfa-commented');
  });
  container.querySelectorAll('.rfa-file-comments').forEach((n) => { n.textContent = ''; });
}

export function fileArea(container, file) {
  return container.querySelector('.d2h-file-wrapper[data-rfa-file="' + file + '"] .rfa-file-comments');
}

// Inserts a card row under the row `at` (from indexRows). Several cards
// under one line stack in order. In the split view the other pane gets an
// empty row of the same height, so the panes stay aligned.
export function insertLineCard(at, card) {
  const row = document.createElement('tr');
  row.className = 'rfa-row';
  const td = document.createElement('td');
  td.colSpan = 2;
  td.appendChild(card);
  row.appendChild(td);
  insertAfterCards(at.tr, row);
  if (at.other) {
    const spacer = document.createElement('tr');
    spacer.className = 'rfa-spacer';
    spacer.appendChild(document.createElement('td')).colSpan = 2;
    insertAfterCards(at.other, spacer);
    keepHeight(row, spacer);
  }
}

// Inserts row after tr and any card rows already below it.
function insertAfterCards(tr, row) {
  let ref = tr;
  while (ref.nextElementSibling && /\brfa-(row|spacer)\b/.test(ref.nextElementSibling.className)) {
    ref = ref.nextElementSibling;
  }
  ref.insertAdjacentElement('afterend', row);
}

const resizeObserver = new ResizeObserver((entries) => {
  entries.forEach((e) => {
    if (e.target.rfaSpacer) { e.target.rfaSpacer.style.height = e.target.offsetHeight + 'px'; }
  });
});

// The observer reports the row's first size after layout, so the spacer
// gets its height without forcing a layout of the page here.
function keepHeight(row, spacer) {
  row.rfaSpacer = spacer;
  resizeObserver.observe(row);
}

// Marks the rows from first to last (entries from indexRows), including
// the other side's lines shown between them: they are part of what the
// comment quotes.
export function highlightRows(first, last, cls) {
  for (let tr = first.tr; tr; tr = nextRow(tr)) {
    if (!/\brfa-(row|spacer)\b/.test(tr.className)) { tr.classList.add(cls); }
    if (tr === last.tr) { break; }
  }
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

// A saved comment, with its edit and delete buttons unless readOnly (a
// submitted review).
export function commentCard(c, readOnly) {
  const card = cardShell(describe(c));
  card.dataset.rfaId = String(c.id);
  if (readOnly) {
    card.classList.add('rfa-card-submitted');
  } else {
    const actions = document.createElement('span');
    actions.className = 'rfa-card-actions';
    actions.appendChild(button('Edit', 'edit', c.id, 'rfa-btn-small rfa-btn-link'));
    actions.appendChild(button('Delete', 'delete', c.id, 'rfa-btn-small rfa-btn-link rfa-btn-danger'));
    card.firstChild.appendChild(actions);
  }
  const body = document.createElement('div');
  body.className = 'rfa-card-body';
  body.textContent = c.body; // text, never HTML: the body is the person's own input
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
  const actions = document.createElement('div');
  actions.className = 'rfa-form-actions';
  actions.appendChild(button('Cancel', 'cancel'));
  actions.appendChild(button(d.editing === null ? 'Add comment' : 'Save', 'save', undefined, 'rfa-btn-primary'));
  card.appendChild(actions);
  return card;
}
