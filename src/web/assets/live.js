// Live pages: a page opts in with `data-live="<scope>"` on its content root and marks the parts that
// may change with `data-live-region="<unique id>"`. This script listens to /live (server-sent
// events of the signed-in account's changes); on a change that concerns the page it fetches the
// page again and swaps in the regions that differ, then tells screen readers what changed. The
// stream only says what changed: the page's own URL says how it looks now, so the server renders
// one truth and the script copies no rule. EventSource reconnects by itself (after the server's
// `retry:`); `resync` (changes may have been missed while the server was not listening) refetches once.
//
// Scopes: `shipment:<id>` and `container:<id>` follow that record (a shipment's stream also says
// when one of its vessels has a new position); `shipments` follows every shipment; `tracking-requests`
// follows tracking requests (and the shipments they become); anything else follows every change.
// The root's `data-live-state` (connecting, open, updating, updated, closed) lets tests and styles
// follow along; after each refetch the root fires `live:updated` (detail: the changes, and how many
// regions were swapped) for the parts outside the regions, such as the route map, which draws
// itself from its own data (a vessel's move changes no region).

const STREAM_URL = '/live';
/** Changes often come in bursts (a shipment and its containers): one refetch for a burst. */
const COALESCE_MS = 250;

const root = document.querySelector('[data-live]');
if (root && 'EventSource' in window && 'DOMParser' in window) start(root);

function start(root) {
  const scope = root.dataset.live ?? '';
  const concerns = scopeFilter(scope);
  const announcer = makeAnnouncer();
  let pending = [];
  let timer;
  let running = false;
  let again = false;

  const state = (s) => root.setAttribute('data-live-state', s);
  state('connecting');

  const source = new EventSource(streamUrl(scope));
  source.addEventListener('open', () => state('open'));
  source.addEventListener('change', (e) => {
    let change;
    try {
      change = JSON.parse(e.data);
    } catch {
      return;
    }
    if (!concerns(change)) return;
    pending.push(change);
    schedule();
  });
  source.addEventListener('resync', () => {
    pending.push({ event: 'resync' });
    schedule();
  });
  source.addEventListener('error', () => {
    // CLOSED: the server refused the stream (signed out): the page stays as it is.
    if (source.readyState === EventSource.CLOSED) state('closed');
    else state('connecting');
  });
  // A page left for another keeps no stream open on the server, and starts no refetch once leaving.
  let leaving = false;
  window.addEventListener('pagehide', () => source.close());
  window.addEventListener('beforeunload', () => {
    leaving = true;
    clearTimeout(timer);
  });

  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(refresh, COALESCE_MS);
  }

  async function refresh() {
    if (leaving) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    const changes = pending;
    pending = [];
    state('updating');
    try {
      const res = await fetch(location.href, { headers: { accept: 'text/html' }, credentials: 'same-origin', cache: 'no-store' });
      // Sent to sign in (the session ended): stop rather than paint the sign-in form into the page.
      if (!res.ok || new URL(res.url).pathname !== location.pathname) {
        source.close();
        state('closed');
        return;
      }
      const fresh = new DOMParser().parseFromString(await res.text(), 'text/html');
      const swapped = swapRegions(document, fresh);
      if (swapped > 0) announcer(describe(changes));
      // For what lives outside the regions (the route map listens and redraws itself in place).
      root.dispatchEvent(new CustomEvent('live:updated', { bubbles: true, detail: { changes, swapped } }));
      state('updated');
    } catch {
      // A failed refetch is retried with the next change; the stream itself reconnects alone.
      state('open');
    } finally {
      running = false;
      if (again) {
        again = false;
        void refresh();
      }
    }
  }
}

/** A shipment page's stream also watches the shipment's vessels (GET /live?shipment=…). */
function streamUrl(scope) {
  const [kind, id] = scope.split(':');
  return kind === 'shipment' && id ? `${STREAM_URL}?shipment=${encodeURIComponent(id)}` : STREAM_URL;
}

/** Which changes a page of this scope shows. */
function scopeFilter(scope) {
  const [kind, id] = scope.split(':');
  if (kind === 'shipment' && id) return (c) => c.shipment_id === id;
  if (kind === 'container' && id) return (c) => c.container_id === id;
  if (kind === 'shipments') return (c) => Boolean(c.shipment_id);
  if (kind === 'tracking-requests') return (c) => Boolean(c.tracking_request_id) || String(c.event).startsWith('tracking_request.');
  return () => true;
}

/** Replaces each region whose content changed; keeps the focused element's place when it can. */
function swapRegions(current, fresh) {
  let swapped = 0;
  for (const region of current.querySelectorAll('[data-live-region]')) {
    const name = region.getAttribute('data-live-region');
    const next = [...fresh.querySelectorAll('[data-live-region]')].find((r) => r.getAttribute('data-live-region') === name);
    if (!next || next.innerHTML === region.innerHTML) continue;
    const focusedId = region.contains(document.activeElement) ? document.activeElement.id : '';
    region.replaceChildren(...[...next.childNodes].map((n) => current.importNode(n, true)));
    for (const attr of next.getAttributeNames()) region.setAttribute(attr, next.getAttribute(attr));
    if (focusedId) current.getElementById(focusedId)?.focus();
    swapped++;
  }
  return swapped;
}

/** `tracking_request.succeeded` → `tracking request succeeded`. */
const words = (event) => String(event).replaceAll('.', ' ').replaceAll('_', ' ');

function describe(changes) {
  if (changes.length === 1 && changes[0].event !== 'resync') return `Updated: ${words(changes[0].event)}.`;
  return changes.some((c) => c.event === 'resync') ? 'Updated.' : `Updated: ${changes.length} changes.`;
}

/** A visually hidden polite live region for what changed (regions themselves stay quiet). */
function makeAnnouncer() {
  const el = document.createElement('p');
  el.className = 'visually-hidden';
  el.setAttribute('role', 'status');
  el.setAttribute('aria-live', 'polite');
  el.id = 'live-announcement';
  document.body.append(el);
  return (text) => {
    // Cleared first so the same words twice are announced twice.
    el.textContent = '';
    setTimeout(() => (el.textContent = text), 50);
  };
}
