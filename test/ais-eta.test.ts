// The AIS estimate of the arrival at the port of discharge on the REST API (svc's extension
// pod_ais_eta_at / pod_ais_eta_updated_at): a sandbox journey tracked over DCSA, the pod vessel's
// positions in the AIS store, the worker's AIS pass on the test clock. Shown beside the carrier's
// pod_eta_at while the vessel sails; null before it departs, once it arrived, when the estimate is
// more than 12 hours old; never a webhook of its own; nothing of it for another account.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { EVENT_NAMES } from '../src/domain/events/vocabulary.ts';
import { HOUR, MINUTE } from '../src/domain/time-units.ts';
import type { Journey, JourneyEvent } from '../src/sandbox/index.ts';
import { AisArrivals } from '../src/services/tracking/ais-arrivals.ts';
import { aisEtaOfShipment } from '../src/store/ais-arrivals.ts';
import { portPositions } from '../src/store/reference.ts';
import { insertVesselPositions, upsertAisIdentity } from '../src/store/vessel-positions.ts';
import { insertWebhook } from '../src/store/webhooks.ts';
import { trackLosAngelesJourney } from './support/ais-journey.ts';
import { startTrackingHarness, type TrackingHarness } from './support/tracking.ts';
import { stay, sail } from './support/ais-tracks.ts';

const MMSI = 367_000_002;
let t: TrackingHarness;
let journey: Journey;
let shipmentId: string;
let arri: JourneyEvent;
/** The carrier's actual arrival at the port of discharge. */
let A: number;

before(async () => {
  t = await startTrackingHarness();
  // Every event: an ETA of AIS's must raise none of them.
  await insertWebhook(t.db, t.accountId, { url: 'https://hooks.example.com/svc', active: true, events: [...EVENT_NAMES], headers: null, secret: 'cd'.repeat(32) }, t.clock.now());
  ({ shipmentId, journey, arri } = await trackLosAngelesJourney(t));
  A = arri.occurredAt.getTime();
  const ports = await portPositions(t.db, ['USLAX', 'USOAK']);
  const la = ports.get('USLAX')!;
  const oakland = ports.get('USOAK')!;
  const anchorage: [number, number] = [la[0], la[1] - 8 / 60];
  const leg = arri.leg!;
  await upsertAisIdentity(t.db, { mmsi: MMSI, imo: leg.vessel!.imo, name: leg.vessel!.name, callSign: null, shipType: 70, destination: 'LOS ANGELES', at: new Date(A - 10 * 24 * HOUR) });
  // At Oakland, then sailing south to the Los Angeles anchorage, waiting there and berthed at A.
  await insertVesselPositions(t.db, [
    ...stay(MMSI, oakland, A - 48 * HOUR, A - 36 * HOUR),
    ...sail(MMSI, oakland, anchorage, A - 36 * HOUR, A - 12 * HOUR),
    ...stay(MMSI, anchorage, A - 12 * HOUR + 10 * MINUTE, A - HOUR),
    ...stay(MMSI, la, A, A + 24 * HOUR),
  ]);
});
after(async () => {
  await t?.close();
});

async function advanceTo(until: number, step: number) {
  while (t.clock.now().getTime() + step <= until) await t.advance(step);
  if (t.clock.now().getTime() < until) await t.advance(until - t.clock.now().getTime());
}
const shipment = async (key?: string) => (await t.request('GET', `/v2/shipments/${shipmentId}`, { key })).body.data.attributes;
const listed = async () => (await t.request('GET', '/v2/shipments')).body.data.find((s: { id: string }) => s.id === shipmentId).attributes;
const count = async (table: 'domain_events' | 'webhook_notifications') => Number((await t.db.query(`SELECT count(*) AS n FROM ${table}`)).rows[0].n);

describe('pod_ais_eta_at on a shipment', () => {
  test('null while the vessel waits at a port before: AIS has no speed to estimate from', async () => {
    await advanceTo(A - 37 * HOUR, 6 * HOUR);
    const s = await shipment();
    assert.ok('pod_ais_eta_at' in s && 'pod_ais_eta_updated_at' in s, 'the attributes are always present');
    assert.equal(s.pod_ais_eta_at, null);
    assert.equal(s.pod_ais_eta_updated_at, null);
  });

  test("while the vessel sails: AIS's estimate on GET one and on the list, beside the carrier's pod_eta_at", async () => {
    await advanceTo(A - 20 * HOUR, HOUR);
    const eta = await aisEtaOfShipment(t.db, t.accountId, shipmentId);
    assert.ok(eta, 'the AIS pass estimated the arrival');
    const s = await shipment();
    assert.equal(s.pod_ais_eta_at, eta.eta_at.toISOString());
    assert.equal(s.pod_ais_eta_updated_at, eta.computed_at.toISOString());
    assert.ok(eta.computed_at.getTime() <= t.clock.now().getTime());
    const { state } = (await t.db.query('SELECT state FROM shipments WHERE id = $1', [shipmentId])).rows[0];
    assert.equal(s.pod_eta_at, state.pod_eta_at ?? null, "pod_eta_at stays the carrier's");
    assert.notEqual(s.pod_eta_at, s.pod_ais_eta_at);
    const l = await listed();
    assert.equal(l.pod_ais_eta_at, s.pod_ais_eta_at);
    assert.equal(l.pod_ais_eta_updated_at, s.pod_ais_eta_updated_at);
  });

  test('the same serializer serves includes (as webhook payloads load them) and the PATCH answer', async () => {
    const { pod_ais_eta_at } = await shipment();
    const container = (await t.request('GET', `/v2/containers?filter[shipment_id]=${shipmentId}&include=shipment`)).body;
    assert.equal(container.included.find((r: { type: string }) => r.type === 'shipment').attributes.pod_ais_eta_at, pod_ais_eta_at);
    const patched = await t.request('PATCH', `/v2/shipments/${shipmentId}`, { body: { data: { attributes: { tags: ['ais'] } } } });
    assert.equal(patched.status, 200);
    assert.equal(patched.body.data.attributes.pod_ais_eta_at, pod_ais_eta_at);
  });

  test('a new estimate raises no domain event and no webhook notification', async () => {
    const before = { events: await count('domain_events'), notifications: await count('webhook_notifications') };
    const { pod_ais_eta_updated_at: previous } = await shipment();
    await t.db.query('DELETE FROM ais_port_etas');
    t.clock.advance(MINUTE);
    const result = await new AisArrivals({ db: t.db, clock: t.clock }).run();
    assert.equal(result.estimates, 1, 'estimated again');
    const s = await shipment();
    assert.ok(s.pod_ais_eta_at);
    assert.notEqual(s.pod_ais_eta_updated_at, previous);
    assert.deepEqual({ events: await count('domain_events'), notifications: await count('webhook_notifications') }, before);
  });

  test('null once the estimate is more than 12 hours old (a vessel gone silent)', async () => {
    const now = t.clock.now().getTime();
    await t.db.query('UPDATE ais_port_etas SET computed_at = $1', [new Date(now - 12 * HOUR - 1)]);
    assert.equal((await shipment()).pod_ais_eta_at, null);
    assert.equal((await listed()).pod_ais_eta_updated_at, null);
    await t.db.query('UPDATE ais_port_etas SET computed_at = $1', [new Date(now - 12 * HOUR)]);
    assert.ok((await shipment()).pod_ais_eta_at, 'exactly 12 hours old is still shown');
  });

  test('another account sees nothing of it', async () => {
    const other = await t.newAccount('Account B');
    assert.equal((await t.request('GET', `/v2/shipments/${shipmentId}`, { key: other.key })).status, 404);
    assert.deepEqual((await t.request('GET', '/v2/shipments', { key: other.key })).body.data, []);
  });

  test('null once the vessel has arrived, though the estimate is still stored', async () => {
    await advanceTo(A - 11 * HOUR, 10 * MINUTE);
    const s = await shipment();
    assert.ok(s.pod_ata_at, 'arrived (AIS saw the stop)');
    assert.ok(await aisEtaOfShipment(t.db, t.accountId, shipmentId), 'the row is kept');
    assert.equal(s.pod_ais_eta_at, null);
    assert.equal(s.pod_ais_eta_updated_at, null);
    assert.equal((await listed()).pod_ais_eta_at, null);
  });
});
