// The server's token: the page's URL brings it in its fragment (#token=…),
// or a one-time code (#code=…) that the server trades for it. The page
// keeps it in sessionStorage, for this tab only, takes it out of the
// address bar, and sends it as a header with every API request. It is
// never a cookie: cookies go to every server on 127.0.0.1, whatever the
// port.

const KEY = 'rfa-token';

let ready = null;

// token resolves to the token, or to '' when the page has none.
export function token() {
  if (!ready) { ready = readToken(); }
  return ready;
}

async function readToken() {
  const frag = new URLSearchParams(location.hash.slice(1));
  if (frag.has('token') || frag.has('code')) {
    history.replaceState(null, '', location.pathname + location.search);
  }
  if (frag.get('token')) {
    store(frag.get('token'));
  } else if (frag.get('code')) {
    const r = await fetch('/api/session', {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ code: frag.get('code') })
    });
    const data = await r.json().catch(() => ({}));
    if (!r.ok && !saved()) { throw new Error(data.error || 'the server answered ' + r.status); }
    if (r.ok) { store(data.token); }
  }
  return saved();
}

// The token is kept in memory at once, and in sessionStorage a moment
// later: the first use of sessionStorage waits on the browser, and the
// page's first requests need not.
function store(t) {
  memory = t;
  setTimeout(() => storeNow(t), 0);
}

function storeNow(t) {
  memory = t;
  try { sessionStorage.setItem(KEY, t); } catch (err) { /* kept in memory only */ }
}

let memory = '';
function saved() {
  if (memory) { return memory; }
  try { return sessionStorage.getItem(KEY) || ''; } catch (err) { return ''; }
}

// A URL with a token pasted into a tab already showing the page changes
// only the fragment, which loads nothing: load the page again with it.
window.addEventListener('hashchange', () => {
  const frag = new URLSearchParams(location.hash.slice(1));
  if (frag.get('token')) {
    storeNow(frag.get('token'));
    history.replaceState(null, '', location.pathname + location.search);
    location.reload();
  } else if (frag.get('code')) {
    location.reload();
  }
});

// authFetch is fetch with the token header.
export async function authFetch(url, opts) {
  const t = await token();
  const o = Object.assign({}, opts || {});
  o.headers = Object.assign({}, o.headers || {}, t ? { 'X-RFA-Token': t } : {});
  return fetch(url, o);
}

// tokenNow is the token once token() has resolved, for the requests a
// closing page sends and cannot wait for.
export function tokenNow() { return saved(); }
