// The web app's static assets and the route map in real Chromium: the svc app with registerAssets
// and a test page per container journey, its GeoJSON built by the route-map service on journeys
// written to a fresh database (as test/route-map.test.ts does). Checks that /assets stays clear of
// the JSON:API routes, that the map draws a Pacific crossing and a transshipment journey with no
// console error, failed request or request off the machine, and saves screenshots.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { brotliDecompressSync } from 'node:zlib';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { containerRouteMap } from '../src/services/route-map.ts';
import { BASE_MAP_FILE, MAPLIBRE_VERSION, registerAssets, routeMapHead } from '../src/web/assets.ts';
import { startTestApp, type TestApp } from './support/app.ts';
import { browserSkipReason, launchChromium, openPage } from './support/browser.ts';
import { insertJourney, insertTrack, positionsAlong, seaPath, type Vessel } from './support/route-journeys.ts';

const skip = browserSkipReason();

const CNSHA: [number, number] = [121.5, 31.21667];
const SGSIN: [number, number] = [103.85191, 1.28992];
const NLRTM: [number, number] = [4.48333, 51.9];
const USLAX: [number, number] = [-118.25, 33.75];
const PACIFIC: Vessel = { imo: '9700002', name: 'PACIFIC EAST', mmsi: 477000003 };
const EVER_GIVEN: Vessel = { imo: '9811000', name: 'EVER GIVEN', mmsi: 563000001 };
const MAERSK_B: Vessel = { imo: '9700001', name: 'MAERSK BRAVO', mmsi: 219000002 };
const day = (d: string) => new Date(`${d}T00:00:00Z`);

let t: TestApp;
let browser: Browser | undefined;
let accountId = '';
const containers: Record<'pacific' | 'transshipment' | 'unknown', string> = { pacific: '', transshipment: '', unknown: '' };

/** A page as the web app would render it: the head from routeMapHead(), the map by data attributes. */
function page(selected: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>route map</title>${routeMapHead()}
<style>body{margin:0;font-family:system-ui} nav{padding:8px}</style></head><body>
<nav><button data-route-map-select="${containers.pacific}">Pacific</button> <button data-route-map-select="${containers.transshipment}">Via Singapore</button></nav>
<div id="map" data-route-map data-geojson-url="/test/containers/{id}/map.geojson" data-container-id="${selected}"></div>
</body></html>`;
}

before(async () => {
  t = await startTestApp({
    beforeListen: async (app) => {
      await registerAssets(app);
      app.get<{ Params: { id: string } }>('/test/map/:id', async (req, reply) => reply.type('text/html; charset=utf-8').send(page(req.params.id)));
      app.get<{ Params: { id: string } }>('/test/containers/:id/map.geojson', async (req, reply) =>
        reply.type('application/geo+json').send(await containerRouteMap(t.db, t.clock.now(), accountId, req.params.id)),
      );
    },
  });
  accountId = t.accountId;
  t.clock.set('2026-02-10T00:00:00Z');

  // Shanghai → Los Angeles, at sea east of the date line: the track jumps from +180 to -180.
  containers.pacific = (
    await insertJourney(t.db, {
      accountId,
      state: { port_of_lading_locode: 'CNSHA', port_of_discharge_locode: 'USLAX', pol_atd_at: '2026-02-01T00:00:00Z', pod_eta_at: '2026-02-14T00:00:00Z', pod_vessel_imo: PACIFIC.imo, pod_vessel_name: PACIFIC.name },
    })
  ).containerId;
  await insertTrack(t.db, PACIFIC, positionsAlong(PACIFIC, seaPath(CNSHA, USLAX), day('2026-02-01'), day('2026-02-14'), 4000).filter((p) => p.at <= day('2026-02-09')));

  // Shanghai → Singapore → Rotterdam, on the second leg: two tracks, the vessel, the way ahead.
  containers.transshipment = (
    await insertJourney(t.db, {
      accountId,
      state: { port_of_lading_locode: 'CNSHA', port_of_discharge_locode: 'NLRTM', transshipment_locodes: ['SGSIN'], pol_atd_at: '2026-01-05T00:00:00Z', pod_eta_at: '2026-02-20T00:00:00Z', pod_vessel_imo: MAERSK_B.imo, pod_vessel_name: MAERSK_B.name, pod_voyage_number: '002W' },
      milestones: [
        { event: 'vessel_departed', at: '2026-01-05T00:00:00Z', locode: 'CNSHA', vessel: EVER_GIVEN, voyage: '001S' },
        { event: 'transshipment_arrived', at: '2026-01-11T00:00:00Z', locode: 'SGSIN', vessel: EVER_GIVEN, voyage: '001S' },
        { event: 'transshipment_departed', at: '2026-01-14T00:00:00Z', locode: 'SGSIN', vessel: MAERSK_B, voyage: '002W' },
      ],
    })
  ).containerId;
  await insertTrack(t.db, EVER_GIVEN, positionsAlong(EVER_GIVEN, seaPath(CNSHA, SGSIN), day('2026-01-05'), day('2026-01-11'), 500));
  await insertTrack(t.db, MAERSK_B, positionsAlong(MAERSK_B, seaPath(SGSIN, NLRTM), day('2026-01-14'), day('2026-02-20'), 2000).filter((p) => p.at <= day('2026-02-09')));

  // Ports not known yet: an empty FeatureCollection.
  containers.unknown = (await insertJourney(t.db, { accountId, state: {} })).containerId;

  if (!skip) browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await t?.close();
});

test('/assets serves the client files, MapLibre and the base map, cached and compressed, beside the JSON:API routes', async () => {
  const get = (path: string, headers: Record<string, string> = {}) => fetch(t.baseUrl + path, { headers });

  const mapJs = await get('/assets/map.js', { 'accept-encoding': 'br, gzip' });
  assert.equal(mapJs.status, 200);
  assert.match(mapJs.headers.get('content-type') ?? '', /javascript/);
  assert.equal(mapJs.headers.get('cache-control'), 'no-cache');
  assert.ok(mapJs.headers.get('etag'));
  const versioned = routeMapHead().match(/src="([^"]+)"/)![1];
  assert.match(versioned, /^\/assets\/map\.js\?v=[\w-]{12}$/);
  assert.match((await get(versioned)).headers.get('cache-control') ?? '', /immutable/);

  const lib = await get(`/assets/vendor/maplibre-gl@${MAPLIBRE_VERSION}/maplibre-gl.mjs`, { 'accept-encoding': 'gzip' });
  assert.equal(lib.status, 200);
  assert.equal(lib.headers.get('content-encoding'), 'gzip');
  assert.equal(lib.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  const shim = await (await get('/assets/vendor/maplibre-gl.mjs')).text();
  assert.equal(shim.trim(), `export * from './maplibre-gl@${MAPLIBRE_VERSION}/maplibre-gl.mjs';`);

  // The base map: its brotli copy beside it (the same bytes once decoded), else gzip on the fly.
  assert.deepEqual(brotliDecompressSync(readFileSync(`${BASE_MAP_FILE}.br`)), readFileSync(BASE_MAP_FILE), 'refdata/README.md says how to remake the .br');
  const landBr = await get('/assets/basemap/world-land-50m-rounded.geojson', { 'accept-encoding': 'gzip, br' });
  assert.equal(landBr.headers.get('content-encoding'), 'br');
  const land = await get('/assets/basemap/world-land-50m-rounded.geojson', { 'accept-encoding': 'gzip' });
  assert.equal(land.headers.get('content-encoding'), 'gzip');
  // fetch has decoded it.
  const geojson = await land.json();
  assert.deepEqual(await landBr.json(), geojson);
  assert.equal(geojson.features[0].geometry.type, 'MultiPolygon');
  // Rings across the antimeridian are continuous (MapLibre wraps them); a jump from +180 to -180
  // would be filled and outlined straight across the map. Only Antarctica's rings, drawn along the
  // pole, keep theirs (off a Mercator map, which stops at 85°).
  const jumping = geojson.features[0].geometry.coordinates
    .flat()
    .filter((ring: number[][]) => ring.some((c, i) => i > 0 && Math.abs(c[0] - ring[i - 1][0]) > 180))
    .filter((ring: number[][]) => !ring.some((c) => c[1] < -80));
  assert.equal(jumping.length, 0);

  // Only the files a page needs: no source maps, nothing else from node_modules or refdata.
  for (const path of [`/assets/vendor/maplibre-gl@${MAPLIBRE_VERSION}/maplibre-gl.mjs.map`, `/assets/vendor/maplibre-gl@${MAPLIBRE_VERSION}/../package.json`, '/assets/basemap/ports.csv', '/assets/nothing.js']) {
    const res = await get(path);
    assert.equal(res.status, 404, path);
    assert.match(res.headers.get('content-type') ?? '', /text\/plain/, path);
  }
  // The API keeps its own answers.
  const api = await get('/v2/nothing');
  assert.equal(api.status, 404);
  assert.match(api.headers.get('content-type') ?? '', /application\/vnd\.api\+json/);
  const account = await t.request('GET', '/v2/account', { headers: { 'accept-encoding': 'gzip, br' } });
  assert.equal(account.status, 200);
  assert.equal(account.headers.get('content-encoding'), null, 'the compression of /assets stays there');
  const post = await t.request('POST', '/v2/tracking_requests', { body: { data: {} } });
  // Its JSON body parser still runs: a validation error, not 415 Unsupported Media Type.
  assert.ok(post.status >= 400 && post.status < 500 && post.status !== 415, post.text);
});

test('the route map draws a Pacific crossing offline, then switches to a transshipment journey', { skip }, async (tc) => {
  const w = await openPage(browser!, 'route map pacific then transshipment');
  try {
    const ready = (id: string) =>
      w.page.waitForFunction((id) => {
        const el = document.querySelector<HTMLElement>('[data-route-map]')!;
        return (el.dataset.state === 'ready' || el.dataset.state === 'error') && el.dataset.containerId === id ? { state: el.dataset.state, drawn: el.dataset.drawn, error: el.dataset.error } : null;
      }, id);
    await w.page.goto(`${t.baseUrl}/test/map/${containers.pacific}`);
    const pacific = await (await ready(containers.pacific)).jsonValue();
    assert.equal(pacific?.state, 'ready', `${pacific?.error} ${JSON.stringify(w.problems)}`);
    const { bounds, ...drawn } = JSON.parse(pacific!.drawn!);
    assert.deepEqual(drawn, { containerId: containers.pacific, ports: 2, vessel: 1, pastLegs: 1, plannedLegs: 1, rendered: { pastLegs: 1, plannedLegs: 1 } });
    // One continuous route from Shanghai (121.5) east past 180 to Los Angeles (-118.25 + 360), not
    // a line back across the whole world where the track passes 180.
    const [[west], [east]] = bounds;
    assert.ok(west === CNSHA[0] && east >= USLAX[0] + 360 && east - west < 180, JSON.stringify(bounds));
    assert.equal(await w.page.locator('.route-map-port').count(), 2);
    // Only the port of discharge, not reached yet, is drawn as planned.
    assert.deepEqual(await w.page.locator('.route-map-port--planned').allInnerTexts(), ['POD']);
    assert.equal(await w.page.locator('.route-map-vessel').count(), 1);
    assert.match(await w.page.locator('.maplibregl-ctrl-attrib').innerText(), /© Natural Earth/);
    // Ports are buttons: reachable with the keyboard, named for screen readers.
    await w.page.getByRole('button', { name: 'POL: Shanghai, CN' }).focus();
    await w.page.keyboard.press('Enter');
    assert.match(await w.page.locator('.maplibregl-popup').innerText(), /POL · Shanghai[\s\S]*Departed/);
    await w.page.locator('.route-map-port', { hasText: 'POD' }).click();
    assert.match(await w.page.locator('.maplibregl-popup', { hasText: 'POD' }).innerText(), /Los Angeles[\s\S]*Planned call[\s\S]*Expected/);
    await w.screenshot('pacific');
    // What a first visit downloads (bytes over the wire, compressed), for the report.
    const sizes = await w.page.evaluate(() => performance.getEntriesByType('resource').map((r) => `${new URL(r.name).pathname} ${(r as PerformanceResourceTiming).encodedBodySize}`));
    tc.diagnostic(sizes.join(', '));

    await w.page.getByRole('button', { name: 'Via Singapore' }).click();
    const via = await (await ready(containers.transshipment)).jsonValue();
    assert.equal(via?.state, 'ready');
    const { bounds: _, ...viaDrawn } = JSON.parse(via!.drawn!);
    assert.deepEqual(viaDrawn, { containerId: containers.transshipment, ports: 3, vessel: 1, pastLegs: 2, plannedLegs: 1, rendered: { pastLegs: 2, plannedLegs: 1 } });
    assert.equal(await w.page.locator('.route-map-port').count(), 3);
    assert.deepEqual(await w.page.locator('.route-map-port--planned').allInnerTexts(), ['POD'], 'Singapore was reached');
    await w.screenshot('transshipment');

    // A refresh (as a server-sent event would ask) draws the same container again and keeps the view.
    await w.page.evaluate(() => {
      const el = document.querySelector('[data-route-map]')!;
      el.setAttribute('data-state', 'stale');
      el.dispatchEvent(new CustomEvent('routemap:refresh'));
    });
    assert.equal((await (await ready(containers.transshipment)).jsonValue())?.state, 'ready');
    assert.deepEqual(w.problems, []);
  } finally {
    await w.close();
  }
});

test('a container whose route is not known yet shows the world and says so', { skip }, async () => {
  const w = await openPage(browser!, 'route map unknown route', { width: 390, height: 700 });
  try {
    await w.page.goto(`${t.baseUrl}/test/map/${containers.unknown}`);
    await w.page.waitForSelector('[data-route-map][data-state="ready"]');
    const drawn = JSON.parse((await w.page.getAttribute('[data-route-map]', 'data-drawn'))!);
    assert.deepEqual(drawn, { containerId: containers.unknown, ports: 0, vessel: 0, pastLegs: 0, plannedLegs: 0, rendered: { pastLegs: 0, plannedLegs: 0 }, bounds: null });
    assert.equal(await w.page.locator('.route-map-notice').innerText(), 'The route is not known yet.');
    await w.screenshot();
    assert.deepEqual(w.problems, []);
  } finally {
    await w.close();
  }
});
