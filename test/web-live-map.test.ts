// The live route map and list, in real Chromium: an open shipment page moves the vessel marker as
// AIS positions come due on the tracking clock (they are stored ahead, as demo time would reach
// them), and shows the arrival (the port's time on the map, the milestone) when the carrier
// reports it; an open shipments list shows the new status. Nothing is reloaded. Another account's
// stream hears nothing of this shipment, and may not ask to watch it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { DAY, HOUR } from '../src/domain/time-units.ts';
import type { Journey, Leg } from '../src/sandbox/journey.ts';
import { browserSkipReason, launchChromium, openPage } from './support/browser.ts';
import { insertTrack, positionsAlong, seaPath, type Vessel } from './support/route-journeys.ts';
import { cookieOf, openStream, readUntil } from './support/live-stream.ts';
import { startTrackingHarness, type TrackingHarness } from './support/tracking.ts';
import { webMount, withWebUsers } from './support/web.ts';

const skip = browserSkipReason();
/** Long enough for a slow machine to draw a map and hear a change; conditions end the waits early. */
const WAIT_MS = 60_000;

type Marker = { lon: number; lat: number; at: string };

describe('the live route map and list', { skip }, () => {
  // The shipment page's stream looks for new positions often, so the test waits little.
  const web = webMount(undefined, { vesselPositionsEveryMs: 200 });
  let t: TrackingHarness & ReturnType<typeof withWebUsers<TrackingHarness>>;
  let browser: Browser | undefined;

  before(async () => {
    t = withWebUsers(await startTrackingHarness([], { beforeListen: web.beforeListen }));
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  // A browser, two pages and a crossing on the clock: more than the default time on a loaded machine.
  test('an open shipment page moves the vessel and shows the arrival, and the list its new status, without a reload', { timeout: 300_000 }, async () => {
    const user = await t.newUser();
    await t.track('bill_of_lading', 'TEST-DIRECT', 'TEST');
    await t.worker.drain();
    const journey = t.sandbox.sandbox.journeys().find((j: Journey) => j.legs.some((l) => l.from.place.locode === 'NLRTM'));
    assert.ok(journey, 'the sandbox planned the journey');
    const leg = journey.legs.find((l: Leg) => l.vessel)!;
    const vessel: Vessel = { imo: leg.vessel!.imo, name: leg.vessel!.name, mmsi: 244_990_001 };
    // The whole crossing's AIS track is stored now; the map draws only what the clock has reached.
    const positions = positionsAlong(vessel, seaPath([leg.from.place.lon, leg.from.place.lat], [leg.to.place.lon, leg.to.place.lat]), leg.departAt, leg.arriveAt, 400);
    await insertTrack(t.db, vessel, positions);
    await advanceTo(new Date(leg.departAt.getTime() + 2 * DAY));

    const shipment = (await t.request('GET', '/v2/shipments?q=TEST-DIRECT')).body.data[0];
    const shipmentId: string = shipment.id;

    // Another account's user, on its own stream: it may not watch this shipment.
    const other = await t.newAccount('Account B');
    const stranger = t.client();
    const strangerUser = await t.newUser({ accountId: other.accountId });
    await stranger.signIn(strangerUser.email, strangerUser.password);
    const refused = await fetch(`${t.baseUrl}/live?shipment=${shipmentId}`, { headers: { cookie: cookieOf(stranger) }, redirect: 'manual' });
    assert.equal(refused.status, 404);
    await refused.body?.cancel();
    const theirs = await openStream(`${t.baseUrl}/live`, cookieOf(stranger));
    assert.equal(theirs.statusCode, 200);

    const list = await openPage(browser!, 'live list');
    const page = await openPage(browser!, 'live map');
    try {
      // Signed in over HTTP, the session cookie handed to both pages: the sign-in form has its own tests.
      const owner = t.client();
      await owner.signIn(user.email, user.password);
      for (const w of [page, list]) await w.context.addCookies([...owner.cookies].map(([name, value]) => ({ name, value, url: t.baseUrl })));
      await page.page.goto(`${t.baseUrl}/shipments/${shipmentId}`);
      await page.page.locator('[data-live-state="open"]').waitFor({ timeout: WAIT_MS });
      await page.page.locator('[data-route-map][data-state="ready"]').waitFor({ timeout: WAIT_MS });
      const first = await markerOf(page.page);
      assertNear(first, newestBy(positions, t.clock.now()));
      await sameDocument(page.page);

      await list.page.goto(`${t.baseUrl}/shipments`);
      await list.page.locator('[data-live-state="open"]').waitFor({ timeout: WAIT_MS });
      const row = list.page.getByRole('row', { name: /TEST-DIRECT/ });
      const statusBefore = await row.locator('.badges').innerText();
      await sameDocument(list.page);
      await web.mounted.live!.whenListening();
      await page.screenshot('at sea');

      // Twelve hours on: the positions of those hours come due, with no domain event to announce them.
      await advanceTo(new Date(t.clock.now().getTime() + 12 * HOUR));
      await page.page.waitForFunction((at) => (document.querySelector('.route-map-vessel') as HTMLElement | null)?.dataset.at !== at, first.at, { timeout: WAIT_MS });
      const moved = await markerOf(page.page);
      assert.ok(new Date(moved.at) > new Date(first.at), 'a newer position');
      assert.ok(Math.abs(moved.lon - first.lon) > 0.5, `the marker moved west (${first.lon} → ${moved.lon})`);
      assertNear(moved, newestBy(positions, t.clock.now()));
      await page.screenshot('moved');

      // The vessel arrives and the line says so: the port's time on the map, the milestone, the list.
      const arrived = page.page.locator('.route-map-port[data-label="POD"][data-arrived-at]');
      const arrivedMilestone = page.page.locator('[data-live-region="shipment-timeline"] li.actual', { hasText: 'Vessel arrived' });
      assert.equal(await arrived.count(), 0, 'not arrived yet');
      assert.equal(await arrivedMilestone.count(), 0);
      await advanceTo(new Date(leg.arriveAt.getTime() + DAY));
      await arrived.waitFor({ timeout: WAIT_MS });
      assert.ok(Math.abs(new Date((await arrived.getAttribute('data-arrived-at'))!).getTime() - leg.arriveAt.getTime()) < DAY, 'the arrival time the line reported');
      await page.page.locator('.route-map-vessel').waitFor({ state: 'detached', timeout: WAIT_MS });
      assert.ok((await t.request('GET', `/v2/shipments/${shipmentId}`)).body.data.attributes.pod_ata_at, 'the API has the arrival');
      await arrivedMilestone.first().waitFor({ timeout: WAIT_MS });
      await page.screenshot('arrived');
      await list.page.waitForFunction((before) => {
        const badges = [...document.querySelectorAll('tr')].find((r) => r.textContent?.includes('TEST-DIRECT'))?.querySelector('.badges');
        return badges !== undefined && badges !== null && (badges as HTMLElement).innerText !== before;
      }, statusBefore, { timeout: WAIT_MS });
      assert.match(await row.locator('.arrival').innerText(), /^Arrived/);
      await list.screenshot('arrived');
      assert.ok(await isSameDocument(page.page), 'the shipment page was not reloaded');
      assert.ok(await isSameDocument(list.page), 'the list was not reloaded');
      assert.deepEqual(page.problems, []);
      assert.deepEqual(list.problems, []);

      // Account B's change comes after all of A's: its stream, read up to it, has none of A's.
      const mine = await t.request('POST', '/v2/tracking_requests', { key: other.key, body: { data: { attributes: { request_type: 'bill_of_lading', request_number: 'TEST-TR-FAILED', scac: 'TEST' } } } });
      assert.equal(mine.status, 201, mine.text);
      await t.worker.drain();
      const text = await readUntil(theirs, mine.body.data.id);
      assert.ok(!text.includes(shipmentId), "another account's stream says nothing of this shipment");
      assert.ok(!text.includes('vessel.position_updated'));
    } finally {
      theirs.destroy();
      await page.close();
      await list.close();
    }
  });

  /** Moves the tracking clock to `at` half a day at a time, the tracking worker catching up after each. */
  async function advanceTo(at: Date): Promise<void> {
    const left = at.getTime() - t.clock.now().getTime();
    if (left > 0) await t.advance(left, Math.ceil(left / (12 * HOUR)));
  }
});

/** The vessel marker's place and time, as map.js sets them on it. */
async function markerOf(page: Page): Promise<Marker> {
  const marker = page.locator('.route-map-vessel');
  await marker.waitFor({ timeout: WAIT_MS });
  return marker.evaluate((el: HTMLElement) => ({ lon: Number(el.dataset.lon), lat: Number(el.dataset.lat), at: el.dataset.at! }));
}

function newestBy<T extends { at: Date }>(positions: T[], now: Date): T {
  return positions.filter((p) => p.at <= now).at(-1)!;
}

function assertNear(marker: Marker, position: { longitude: number; latitude: number; at: Date }): void {
  assert.equal(new Date(marker.at).toISOString(), position.at.toISOString(), 'the newest position the clock has reached');
  // Stored as single-precision reals.
  assert.ok(Math.abs(marker.lon - position.longitude) < 1e-3 && Math.abs(marker.lat - position.latitude) < 1e-3, `${marker.lon},${marker.lat} is ${position.longitude},${position.latitude}`);
}

async function sameDocument(page: Page): Promise<void> {
  await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
}

async function isSameDocument(page: Page): Promise<boolean> {
  return page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument === true);
}
