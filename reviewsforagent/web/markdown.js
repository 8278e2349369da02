// Comment bodies are Markdown. The server renders them (goldmark, which
// leaves raw HTML out and drops javascript: links); the page asks for the
// bodies it shows, a batch at a time, and shows the plain text until the
// HTML comes. A ```suggestion block shows as a suggested change.
import { authFetch } from './auth.js';

const cache = new Map(); // body → HTML
let queue = []; // [body, element] waiting for the next batch

// renderInto shows body in el: as text now, as formatted Markdown soon.
export function renderInto(el, body) {
  el.textContent = body;
  if (cache.has(body)) {
    showRendered(el, cache.get(body));
    return;
  }
  queue.push([body, el]);
  if (queue.length === 1) { queueMicrotask(flushQueue); }
}

async function flushQueue() {
  const batch = queue;
  queue = [];
  const bodies = Array.from(new Set(batch.map(([b]) => b)));
  try {
    const r = await authFetch('/api/markdown', {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ bodies })
    });
    if (!r.ok) { return; } // the text stays: readable, only not formatted
    const data = await r.json();
    bodies.forEach((b, i) => cache.set(b, data.html[i]));
    batch.forEach(([b, el]) => { if (el.textContent === b) { showRendered(el, cache.get(b)); } });
  } catch (err) {
    // As above: the plain text stays.
  }
}

// showRendered puts the server's HTML in el and marks suggestion blocks. Links
// open outside the page and tell the target nothing.
function showRendered(el, html) {
  el.innerHTML = html;
  el.classList.add('rfa-md');
  el.querySelectorAll('a').forEach((a) => { a.target = '_blank'; a.rel = 'noopener noreferrer'; });
  el.querySelectorAll('code.language-suggestion').forEach((code) => {
    const pre = code.closest('pre');
    const box = document.createElement('div');
    box.className = 'rfa-suggestion';
    const head = document.createElement('div');
    head.className = 'rfa-suggestion-head';
    head.textContent = 'Suggested change';
    pre.replaceWith(box);
    box.appendChild(head);
    box.appendChild(pre);
  });
}

