// The shipment page over real HTTP, signed in with a session: sandbox shipments tracked on the
// test's clock (TEST-HOLDS until its boxes sit at Oakland with holds and a last free day,
// TEST-DELAY while its ETA has moved), read back as the page shows them: header, containers,
// the selected container, milestones in local time with zone, the map's GeoJSON route and who
// may read it, the routing feature switched off, account isolation and HTML escaping.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import type { Browser } from 'playwright-core';
import { DAY } from '../src/domain/time-units.ts';
import { h } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { ContainerCard } from '../src/web/pages/shipment-parts.tsx';
import { estimateShift, localDate, localDateTime, relativeTime } from '../src/web/format.ts';
import { mountWeb } from '../src/main/web.ts';
import { setFeature } from '../src/services/features.ts';
import { createUser } from '../src/services/users.ts';
import { browserSkipReason, launchChromium, openPage } from './support/browser.ts';
import { forFile } from './support/for-file.ts';
import { startTrackingHarness, type TrackingHarness } from './support/tracking.ts';
import { signInWithForm, WebClient } from './support/web.ts';

const HOSTILE_REF = '"><script>alert(1)</script>';
const PASSWORD = 'correct horse battery';
const skipBrowser = browserSkipReason();

let t: TrackingHarness;
let browser: WebClient;
let holds: { shipmentId: string; containers: any[] };
let delay: { shipmentId: string; containers: any[] };
/** TEST-TR-SUCCEEDED: two boxes, Shanghai → Los Angeles. */
let two: { shipmentId: string; containers: any[] };

let email = '';

async function signedIn(accountId: string): Promise<WebClient> {
  const address = `user-${randomUUID()}@example.com`;
  await createUser(t.db, t.clock, { accountId, email: address, password: PASSWORD });
  const client = new WebClient(t.baseUrl);
  await client.signIn(address, PASSWORD);
  email ||= address;
  return client;
}

const shipmentOf = async (trId: string): Promise<string | undefined> => (await t.request('GET', `/v2/tracking_requests/${trId}`)).body.data.relationships.tracked_object.data?.id;
const containersOf = async (shipmentId: string): Promise<any[]> => (await t.request('GET', `/v2/containers?filter[shipment_id]=${shipmentId}&include=transport_events`)).body.data;

forFile(
  async () => {
    const harness = await startTrackingHarness([], { beforeListen: (app, _baseUrl, services) => mountWeb(app, services) });
    t = harness;
    const holdsTr = await t.track('bill_of_lading', 'TEST-HOLDS', 'TEST', ['PO-4471', HOSTILE_REF]);
    const delayTr = await t.track('bill_of_lading', 'TEST-DELAY', 'TEST');
    const twoTr = await t.track('bill_of_lading', 'TEST-TR-SUCCEEDED', 'TEST');
    await t.worker.drain();
    // A day at a time until TEST-HOLDS's boxes are held at the terminal (about two weeks).
    for (let day = 0; day < 30; day++) {
      await t.advance(DAY);
      const id = await shipmentOf(holdsTr);
      if (id && (await containersOf(id)).some((c) => c.attributes.holds_at_pod_terminal.some((h: any) => h.status === 'hold'))) break;
    }
    const holdsId = (await shipmentOf(holdsTr))!;
    const delayId = (await shipmentOf(delayTr))!;
    holds = { shipmentId: holdsId, containers: await containersOf(holdsId) };
    delay = { shipmentId: delayId, containers: await containersOf(delayId) };
    const twoId = (await shipmentOf(twoTr))!;
    two = { shipmentId: twoId, containers: await containersOf(twoId) };
    assert.equal(two.containers.length, 2);
    browser = await signedIn(t.accountId);
    return harness;
  },
  () => {},
);

/** The HTML of one element, from its opening tag to the matching close (enough for these pages' nesting). */
function element(html: string, openingPattern: RegExp, tag: string): string {
  const start = html.search(openingPattern);
  assert.ok(start >= 0, `no element matching ${openingPattern}`);
  let depth = 0;
  const re = new RegExp(`<${tag}[\\s>]|</${tag}>`, 'g');
  re.lastIndex = start;
  for (let m = re.exec(html); m; m = re.exec(html)) {
    depth += m[0].startsWith('</') ? -1 : 1;
    if (depth === 0) return html.slice(start, m.index + m[0].length);
  }
  throw new Error(`unclosed <${tag}>`);
}

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/&amp;/g, '&').replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/\s+/g, ' ').replace(/ ([,)·])/g, '$1').trim();

test('the header: B/L, booking, carrier and SCAC, POL → POD, arrival, reference numbers, freshness', async () => {
  const api = (await t.request('GET', `/v2/shipments/${holds.shipmentId}`)).body.data.attributes;
  const page = await browser.get(`/shipments/${holds.shipmentId}`);
  assert.equal(page.status, 200);
  assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
  const header = text(element(page.text, /<header class="shipment-head"/, 'header'));
  assert.match(header, /B\/L TEST-HOLDS/);
  assert.match(header, new RegExp(`Booking\\s*${api.booking_number}`));
  assert.match(header, /Test Shipping Line \(TEST\)/);
  assert.match(header, /Busan \(KRPUS\) → to Oakland \(USOAK\)/);
  assert.ok(api.pod_ata_at, 'TEST-HOLDS has arrived');
  assert.match(header, /Arrived \d+ \w{3} \d\d:\d\d GMT-8 \(America\/Los_Angeles\)/);
  assert.match(header, /PO-4471/);
  assert.match(header, /Checked with Test Shipping Line (just now|\d+ (min|h) ago)/);
  assert.match(page.text, new RegExp(`<time datetime="${api.line_tracking_last_succeeded_at}" title="[^"]+ UTC">`));
  // The live-update contract (web-conventions.md): the content root and its regions.
  assert.match(page.text, new RegExp(`data-live="shipment:${holds.shipmentId}"`));
  for (const region of ['shipment-header', 'shipment-containers', 'shipment-timeline']) assert.match(page.text, new RegExp(`data-live-region="${region}"`));
});

test('an ETA that moved says from what and by how much', async () => {
  const api = (await t.request('GET', `/v2/shipments/${delay.shipmentId}`)).body.data.attributes;
  const header = text(element((await browser.get(`/shipments/${delay.shipmentId}`)).text, /<header class="shipment-head"/, 'header'));
  assert.equal(api.pod_ata_at, null, 'TEST-DELAY is still at sea when TEST-HOLDS is held at Oakland');
  assert.ok(api.pod_eta_at && api.pod_original_eta_at && api.pod_eta_at !== api.pod_original_eta_at, `TEST-DELAY's ETA has moved: ${api.pod_original_eta_at} → ${api.pod_eta_at}`);
  const days = (Date.parse(api.pod_eta_at) - Date.parse(api.pod_original_eta_at)) / DAY;
  assert.ok(days > 0, 'a delay moves the ETA later');
  // Seattle keeps Pacific standard time (UTC−8) in November and December.
  const seattleDay = (iso: string) => {
    const local = new Date(Date.parse(iso) - 8 * 3_600_000);
    return `${local.getUTCDate()} ${local.toLocaleString('en-GB', { month: 'short', timeZone: 'UTC' })}`;
  };
  const shift = days >= 2 ? `+${Math.round(days)} d` : `+${Math.round(days * 24)} h`;
  assert.ok(header.includes(`ETA ${seattleDay(api.pod_eta_at)} (was ${seattleDay(api.pod_original_eta_at)}, ${shift})`), header);
});

test('containers: number, equipment, status, holds as badges, last free day and availability, terminal, location', async () => {
  const page = await browser.get(`/shipments/${holds.shipmentId}`);
  const held = holds.containers.find((c) => c.attributes.holds_at_pod_terminal.some((h: any) => h.status === 'hold'))!;
  const a = held.attributes;
  const card = element(page.text, new RegExp(`<li class="container-card[^"]*" id="container-${held.id}"`), 'li');
  const words = text(card);
  assert.match(words, new RegExp(a.number));
  assert.match(words, /40′ high cube dry|20′ dry|40′ dry|45′ high cube dry/);
  assert.match(words, /Not available|Discharged|Available for pickup/);
  for (const h of a.holds_at_pod_terminal) {
    const name = h.name.charAt(0).toUpperCase() + h.name.slice(1);
    assert.match(card, new RegExp(`<span class="badge ${h.status === 'hold' ? 'bad' : 'warn'}">${name} hold${h.status === 'pending' ? ' pending' : ''}</span>`));
  }
  assert.ok(a.pickup_lfd, 'a last free day at the terminal');
  // The LFD is local midnight at Oakland: its day there.
  const lfdDay = new Date(Date.parse(a.pickup_lfd) - 8 * 3_600_000).getUTCDate();
  assert.match(words, new RegExp(`Last free day\\s*${lfdDay} \\w{3}`));
  assert.match(words, /Pickup\s*(Not available|Available, but on hold)/);
  assert.match(words, /Terminal\s*TraPac Terminal/);
  assert.match(words, /Location\s*.*Oakland \(USOAK\)/);
});

test('the first container is selected by default; ?container= selects another, highlighted and focused', async () => {
  const [first, second] = two.containers;
  const plain = await browser.get(`/shipments/${two.shipmentId}`);
  assert.match(plain.text, new RegExp(`<li class="container-card selected" id="container-${first.id}" tabindex="-1">`), 'selected, not focused without ?container=');
  assert.match(plain.text, new RegExp(`data-container-id="${first.id}"`));

  const page = await browser.get(`/shipments/${two.shipmentId}?container=${second.id}`);
  assert.match(page.text, new RegExp(`<li class="container-card selected" id="container-${second.id}" tabindex="-1" autofocus`));
  assert.match(page.text, new RegExp(`<li class="container-card" id="container-${first.id}">`));
  assert.match(page.text, new RegExp(`<a href="\\?container=${first.id}#container-${first.id}" class="container-number">`), 'the other box is a link that selects it');
  assert.match(page.text, new RegExp(`aria-current="true" class="container-number">${second.attributes.number}`));
  // The map follows the selection; the other box's milestones fold away.
  assert.match(page.text, new RegExp(`data-route-map data-geojson-url="/shipments/${two.shipmentId}/containers/\\{id\\}/map.geojson" data-container-id="${second.id}"`));
  assert.match(text(page.text), new RegExp(`Milestones of ${first.attributes.number}`));
  assert.match(page.text, /<details class="other-timeline"><summary>Milestones of /);
  // An id that is not one of its boxes selects the first.
  const stale = await browser.get(`/shipments/${two.shipmentId}?container=${delay.containers[0].id}`);
  assert.equal(stale.status, 200);
  assert.match(stale.text, new RegExp(`<li class="container-card selected" id="container-${first.id}"`));
});

test('the timeline: milestones in order, in the local time and zone of their place, vessel and voyage', async () => {
  const container = holds.containers[0];
  const page = await browser.get(`/shipments/${holds.shipmentId}?container=${container.id}`);
  const timeline = element(element(page.text, /<section class="shipment-timeline"/, 'section'), /<ol class="timeline">/, 'ol');
  const datetimes = [...timeline.matchAll(/<li class="actual"[^>]*><time datetime="([^"]+)"/g)].map((m) => m[1]);
  const events = (await t.request('GET', `/v2/containers/${container.id}/transport_events?page[size]=100`)).body.data;
  assert.equal(datetimes.length, events.length, 'every milestone the API has');
  assert.deepEqual(datetimes, [...datetimes].sort(), 'oldest first');

  // The departure from Busan, in Korea's time (UTC+9, no summer time).
  const departed = events.find((e: any) => e.attributes.event === 'container.transport.vessel_departed')!.attributes;
  const seoul = new Date(Date.parse(departed.timestamp) + 9 * 3_600_000);
  const month = seoul.toLocaleString('en-GB', { month: 'short', timeZone: 'UTC' });
  const expected = `${seoul.getUTCDate()} ${month} ${String(seoul.getUTCHours()).padStart(2, '0')}:${String(seoul.getUTCMinutes()).padStart(2, '0')} GMT+9 (Asia/Seoul)`;
  const item = element(timeline, new RegExp(`<li class="actual" data-milestone="${events.find((e: any) => e.attributes.event === 'container.transport.vessel_departed')!.id}"`), 'li');
  assert.match(text(item), new RegExp(`^${expected.replace(/[()+]/g, '\\$&')} Vessel departed \\(actual\\)`));
  assert.match(text(item), /Busan \(KRPUS\)/);
  assert.match(text(item), new RegExp(`SEASPAN EMERALD · voyage ${departed.voyage_number}|· voyage ${departed.voyage_number}`));
  assert.match(item, new RegExp(`<time datetime="${departed.timestamp}" title="${departed.timestamp.slice(0, 16).replace('T', ' ')} UTC">`));
});

test('an expected milestone is marked as such beside the actual ones', async () => {
  const api = (await t.request('GET', `/v2/shipments/${delay.shipmentId}`)).body.data.attributes;
  assert.equal(api.pod_ata_at, null);
  const page = await browser.get(`/shipments/${delay.shipmentId}`);
  const timeline = element(element(page.text, /<section class="shipment-timeline"/, 'section'), /<ol class="timeline">/, 'ol');
  const expected = element(timeline, /<li class="estimated" data-milestone="eta"/, 'li');
  assert.match(text(expected), /Vessel arrival Expected/);
  assert.match(text(expected), /GMT-8 \(America\/Los_Angeles\)/);
  assert.match(text(expected), /Seattle \(USSEA\)/);
  assert.ok(timeline.indexOf('class="actual"') < timeline.indexOf('class="estimated"'), 'actual milestones first, then what is expected');
});

test('map.geojson: the route of a box of this shipment; 404 for another shipment\'s box or an unknown one', async () => {
  const container = holds.containers[0];
  const res = await browser.get(`/shipments/${holds.shipmentId}/containers/${container.id}/map.geojson`);
  assert.equal(res.status, 200, res.text);
  assert.match(res.headers.get('content-type') ?? '', /^application\/geo\+json/);
  assert.equal(res.headers.get('cache-control'), 'no-store');
  const map = JSON.parse(res.text);
  assert.equal(map.type, 'FeatureCollection');
  const labels = map.features.filter((f: any) => f.properties.feature_type === 'port').map((f: any) => f.properties.label);
  assert.deepEqual(labels, ['POL', 'POD']);
  assert.equal((await browser.get(`/shipments/${holds.shipmentId}/containers/${delay.containers[0].id}/map.geojson`)).status, 404);
  assert.equal((await browser.get(`/shipments/${holds.shipmentId}/containers/${randomUUID()}/map.geojson`)).status, 404);
  assert.equal((await browser.get(`/shipments/${holds.shipmentId}/containers/not-an-id/map.geojson`)).status, 404);
  // Signed out: sent to sign in, as every private page.
  assert.equal((await new WebClient(t.baseUrl).get(`/shipments/${holds.shipmentId}/containers/${container.id}/map.geojson`)).status, 303);
});

test("another account's shipment and its map are not found; a malformed or unknown id is the HTML 404 page", async () => {
  const other = await t.newAccount('Other account');
  const stranger = await signedIn(other.accountId);
  for (const path of [`/shipments/${holds.shipmentId}`, `/shipments/${randomUUID()}`, '/shipments/not-a-uuid', `/shipments/${encodeURIComponent("'; drop table shipments; --")}`]) {
    const page = await (path.includes(holds.shipmentId) ? stranger : browser).get(path);
    assert.equal(page.status, 404, path);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(page.text, /<h1>Not found<\/h1>/);
    assert.doesNotMatch(page.text, /TEST-HOLDS/);
  }
  const map = await stranger.get(`/shipments/${holds.shipmentId}/containers/${holds.containers[0].id}/map.geojson`);
  assert.equal(map.status, 404);
  assert.doesNotMatch(map.text, /FeatureCollection/);
});

test('values from carriers and users are escaped', async () => {
  const page = await browser.get(`/shipments/${holds.shipmentId}`);
  assert.ok(!page.text.includes('<script>alert(1)</script>'), 'no injected script');
  assert.ok(page.text.includes('PO-4471, &quot;>&lt;script>alert(1)&lt;/script>'), 'shown as text');
  // No inline script at all (CSP script-src 'self'): only module scripts from /assets.
  for (const [, attributes] of page.text.matchAll(/<script([^>]*)>/g)) assert.match(attributes, /^ type="module" src="\/assets\/(map|live)\.js\?v=[\w-]+"$/);
  assert.match(page.text, /<script type="module" src="\/assets\/map\.js\?v=/);
});

test('with the routing feature off, the page says so instead of drawing a map, and map.geojson is refused', async () => {
  await setFeature(t.db, t.accountId, 'routing', false);
  try {
    const page = await browser.get(`/shipments/${holds.shipmentId}`);
    assert.equal(page.status, 200);
    assert.doesNotMatch(page.text, /data-route-map/);
    assert.match(page.text, /Route maps are not enabled for your account/);
    const map = await browser.get(`/shipments/${holds.shipmentId}/containers/${holds.containers[0].id}/map.geojson`);
    assert.equal(map.status, 403);
    assert.equal(JSON.parse(map.text).error, 'feature_not_enabled');
  } finally {
    await setFeature(t.db, t.accountId, 'routing', true);
  }
});

test('a phone and a laptop: one viewport meta, the page stylesheet, no fixed widths in the markup', async () => {
  const page = await browser.get(`/shipments/${holds.shipmentId}`);
  assert.match(page.text, /<meta name="viewport" content="width=device-width, initial-scale=1"\/?>/);
  assert.match(page.text, /<link rel="stylesheet" href="\/assets\/shipment.css\?v=[\w-]+"\/?>/);
  assert.doesNotMatch(page.text, /style="/, 'no inline styles (CSP style-src self)');
});

test('in Chromium: the map draws the selected box, which has the focus; phone and laptop screenshots', { skip: skipBrowser }, async (ctx) => {
  const chromium: Browser = await launchChromium();
  try {
    const [first, second] = two.containers;
    for (const [label, viewport] of [['laptop', { width: 1280, height: 900 }], ['phone', { width: 375, height: 800 }]] as const) {
      const w = await openPage(chromium, 'shipment page', viewport);
      try {
        await signInWithForm(w.page, t.baseUrl, { email, password: PASSWORD });
        await w.page.goto(`${t.baseUrl}/shipments/${two.shipmentId}?container=${second.id}#container-${second.id}`);
        const map = w.page.locator('[data-route-map]');
        await map.and(w.page.locator('[data-state="ready"], [data-state="error"]')).waitFor();
        assert.equal(await map.getAttribute('data-state'), 'ready', (await map.getAttribute('data-error')) ?? '');
        assert.equal(await map.locator('canvas.maplibregl-canvas').count(), 1);
        const timing = await w.page.evaluate(() => {
          const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
          const paint = performance.getEntriesByName('first-contentful-paint')[0];
          return { fcp: paint?.startTime, interactive: nav.domInteractive, loaded: nav.loadEventEnd, mapReady: performance.now() };
        });
        // Figures for the note, not assertions (a loaded machine is slower).
        ctx.diagnostic(`${label}: first contentful paint ${timing.fcp?.toFixed(0)} ms, DOM interactive ${timing.interactive.toFixed(0)} ms, load ${timing.loaded.toFixed(0)} ms, map ready by ${timing.mapReady.toFixed(0)} ms`);
        const drawn = JSON.parse((await map.getAttribute('data-drawn'))!);
        assert.equal(drawn.containerId, second.id);
        assert.equal(drawn.ports, 2);
        assert.equal(await w.page.evaluate(() => document.activeElement?.id), `container-${second.id}`);
        assert.equal(await w.page.locator(`#container-${first.id} a`).getAttribute('href'), `?container=${first.id}#container-${first.id}`);
        // One column on a phone: nothing wider than the screen.
        const overflow = await w.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow}px at ${viewport.width}px`);
        await w.screenshot(label);
        if (label === 'laptop') {
          // The boxes held at Oakland, and the delayed journey whose ETA moved, for the eye.
          await w.page.goto(`${t.baseUrl}/shipments/${holds.shipmentId}`);
          await w.page.locator('[data-route-map][data-state="ready"]').waitFor();
          await w.screenshot('holds');
          await w.page.goto(`${t.baseUrl}/shipments/${delay.shipmentId}`);
          await w.page.locator('[data-route-map][data-state="ready"]').waitFor();
          await w.screenshot('delayed');
        }
        assert.deepEqual(w.problems, []);
      } finally {
        await w.close();
      }
    }
  } finally {
    await chromium.close();
  }
});

test('a shipment no longer tracked says since when and why', async () => {
  const stopped = await t.request('PATCH', `/v2/shipments/${delay.shipmentId}/stop_tracking`);
  assert.equal(stopped.status, 200);
  const header = text(element((await browser.get(`/shipments/${delay.shipmentId}`)).text, /<header class="shipment-head"/, 'header'));
  assert.match(header, /Tracking stopped \d+ \w{3} ?: stopped by a user\./);
  assert.doesNotMatch(header, /Checked with/);
});

test('times for people: local with offset and zone, summer time, an unknown zone, relative and shifted', () => {
  const now = new Date('2026-11-24T12:00:00Z');
  assert.equal(localDateTime('2026-11-24T06:05:00Z', 'Asia/Shanghai', now), '24 Nov 14:05 GMT+8 (Asia/Shanghai)');
  assert.equal(localDateTime('2026-07-01T12:00:00Z', 'America/Los_Angeles', now), '1 Jul 05:00 GMT-7 (America/Los_Angeles)');
  assert.equal(localDateTime('2026-12-31T20:00:00Z', 'Asia/Kolkata', now), '1 Jan 2027 01:30 GMT+5:30 (Asia/Kolkata)');
  assert.equal(localDateTime('2026-11-24T06:05:00Z', 'Not/AZone', now), '24 Nov 06:05 UTC');
  assert.equal(localDateTime('2026-11-24T06:05:00Z', null, now), '24 Nov 06:05 UTC');
  assert.equal(localDateTime('2026-11-24T06:05:00Z', 'Europe/London', now), '24 Nov 06:05 GMT (Europe/London)');
  assert.equal(localDate('2026-12-12T08:00:00Z', 'America/Los_Angeles', now), '12 Dec');
  assert.equal(relativeTime('2026-11-24T11:57:00Z', now), '3 min ago');
  assert.equal(relativeTime('2026-11-24T11:59:30Z', now), 'just now');
  assert.equal(relativeTime('2026-11-21T12:00:00Z', now), '3 d ago');
  assert.equal(relativeTime('2026-11-24T16:00:00Z', now), 'in 4 h');
  assert.equal(estimateShift('2026-11-28T00:00:00Z', '2026-11-25T00:00:00Z'), '+3 d');
  assert.equal(estimateShift('2026-11-24T12:00:00Z', '2026-11-25T00:00:00Z'), '−12 h');
  assert.equal(estimateShift('2026-11-25T00:00:30Z', '2026-11-25T00:00:00Z'), null);
});

test('fees at the terminal are listed by type with their total', async () => {
  // The sandbox's terminals report no fees for these journeys: the card of a real container, with fees added.
  const api = (await t.request('GET', `/v2/containers/${holds.containers[0].id}`)).body.data;
  const fees = [
    { type: 'demurrage', amount: 1250, currency_code: 'USD' },
    { type: 'exam', amount: 300.5, currency_code: 'USD' },
    { type: 'total', amount: 1550.5, currency_code: 'USD' },
  ];
  // The card reads the fees where the box is to be picked up: the situation's.
  const situation = { ...api.attributes.situation, pickup: { ...api.attributes.situation.pickup, fees } };
  const container = { id: api.id, ...api.attributes, fees_at_pod_terminal: fees, situation, transport_events: [] };
  const card = text(renderToString(h(ContainerCard, { container, selected: false, focus: false, now: t.clock.now() })));
  assert.match(card, /Fees demurrage: 1,250\.00 USD exam: 300\.50 USD total: 1,550\.50 USD/);
});
