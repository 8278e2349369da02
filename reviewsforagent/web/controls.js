// Controls beyond clicking a line: dragging across line numbers for a
// range, the shortcut help (?), and copying comments as a prompt for a
// coding agent, one or all.
import { state, el, container, globalBox, toast } from './page.js';
import { describe } from './render.js';

// ------------------------------------------------------------------ drag

// initDrag lets the person press on one line number and let go on another
// for a range, as shift-click does: onRange(startCell, endCell) opens the
// form. A press and release on the same cell is a click, left to the click
// handler; one that ends elsewhere fires no click on a cell.
export function initDrag(onRange) {
  let from = null;
  container.addEventListener('mousedown', (ev) => {
    const cell = ev.button === 0 && !ev.shiftKey && ev.target.closest('td[data-rfa-line]');
    from = cell || null;
  });
  container.addEventListener('mouseover', (ev) => {
    if (!from) { return; }
    const cell = ev.target.closest('td[data-rfa-line]');
    container.querySelectorAll('.rfa-drag').forEach((c) => c.classList.remove('rfa-drag'));
    if (cell) { cell.classList.add('rfa-drag'); from.classList.add('rfa-drag'); }
  });
  document.addEventListener('mouseup', (ev) => {
    const start = from;
    from = null;
    container.querySelectorAll('.rfa-drag').forEach((c) => c.classList.remove('rfa-drag'));
    const end = start && ev.target.closest && ev.target.closest('td[data-rfa-line]');
    if (end && end !== start) {
      // The drag selected the code it passed over: that is not what it meant.
      const sel = window.getSelection();
      if (sel) { sel.removeAllRanges(); }
      onRange(start, end);
    }
  });
}

// ------------------------------------------------------------------ help

const help = el('rfa-shortcuts');

function showHelp(show) {
  help.hidden = !show;
  if (show) { el('rfa-shortcuts-close').focus(); }
}

document.addEventListener('keydown', (ev) => {
  if (ev.key === 'Escape' && !help.hidden) { ev.preventDefault(); showHelp(false); return; }
  if (ev.key !== '?' || ev.ctrlKey || ev.metaKey || ev.altKey ||
    (ev.target.closest && ev.target.closest('textarea, input, select, [contenteditable]'))) { return; }
  ev.preventDefault();
  showHelp(help.hidden);
});
el('rfa-shortcuts-close').addEventListener('click', () => showHelp(false));
el('rfa-shortcuts-open').addEventListener('click', () => showHelp(true));

// ------------------------------------------------------------------ prompts

// quote is the commented lines of c with their markers, from the file's
// parsed rows; "" for a file comment or a file not parsed.
function quote(c) {
  const m = state.files[c.file] && state.files[c.file].model;
  if (c.startLine === null || !m) { return ''; }
  const lines = [];
  m.unified.forEach((row) => {
    const l = row.line;
    if (!l) { return; }
    const n = c.side === 'left' ? (l.t === 'a' ? 0 : l.old) : (l.t === 'd' ? 0 : l.new);
    if (n >= c.startLine && n <= c.endLine) { lines.push((l.t === 'a' ? '+' : l.t === 'd' ? '-' : ' ') + l.text); }
  });
  if (lines.length === 0) { return ''; }
  const fence = '`'.repeat(Math.max(3, ...lines.map((x) => ((x.match(/`+/g) || []).reduce((n, r) => Math.max(n, r.length), 0)) + 1)));
  return fence + 'diff\n' + lines.join('\n') + '\n' + fence + '\n';
}

// promptOf is one comment as an agent reads it: where, the lines, what.
export function promptOf(c) {
  const path = state.files[c.file].meta.path;
  return 'In `' + path + '`, ' + describe(c).toLowerCase() + ':\n' + quote(c) + c.body.trim() + '\n';
}

// allPrompt is every comment, and the overall one, as one prompt.
export function allPrompt() {
  const parts = ['Address these review comments on your changes.\n'];
  if (globalBox.value.trim() !== '') { parts.push('Overall:\n' + globalBox.value.trim() + '\n'); }
  state.comments.slice().sort((a, b) => a.file - b.file || (a.startLine || 0) - (b.startLine || 0)).forEach((c) => parts.push(promptOf(c)));
  return parts.join('\n');
}

async function copy(text) {
  try {
    await navigator.clipboard.writeText(text);
    toast('Copied as a prompt.');
  } catch (err) {
    toast('Could not copy: the browser refused the clipboard.');
  }
}

container.addEventListener('click', (ev) => {
  const b = ev.target.closest('[data-rfa-action="copy-prompt"]');
  if (!b) { return; }
  const c = state.comments.find((x) => x.id === Number(b.dataset.rfaId));
  if (c) { copy(promptOf(c)); }
});
el('rfa-copy-all').addEventListener('click', () => {
  if (state.comments.length === 0 && globalBox.value.trim() === '') { toast('No comments to copy yet.'); return; }
  copy(allPrompt());
});
