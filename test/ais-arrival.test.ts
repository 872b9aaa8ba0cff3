// AIS arrivals end to end: a sandbox journey tracked over DCSA, the pod vessel's positions put in
// the AIS store, the worker's AIS pass on the test clock. The arrival is recorded from AIS first
// (data_source ais, announced once per box), the carrier's event later takes it over without a
// second milestone or notification; stops elsewhere and passes through the area do not count, and
// the ETA is re-estimated from distance to go and speed while the vessel sails.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { HOUR, MINUTE } from '../src/domain/time-units.ts';
import { haversineNm } from '../src/geo/distance.ts';
import { seaRoute } from '../src/geo/searoute.ts';
import type { Journey, JourneyEvent } from '../src/sandbox/index.ts';
import { aisArrivalOf, aisEtaOfShipment } from '../src/store/ais-arrivals.ts';
import { portPositions } from '../src/store/reference.ts';
import { insertVesselPositions, upsertAisIdentity, type VesselPosition } from '../src/store/vessel-positions.ts';
import { insertWebhook } from '../src/store/webhooks.ts';
import { trackLosAngelesJourney } from './support/ais-journey.ts';
import { startTrackingHarness, type TrackingHarness } from './support/tracking.ts';
import { stay, sail } from './support/ais-tracks.ts';

const MMSI = 367_000_001;
let t: TrackingHarness;
let journey: Journey;
let shipmentId: string;
let arri: JourneyEvent;
/** The carrier's actual arrival at the port of discharge. */
let A: number;
let la: [number, number];
let anchorage: [number, number];
let oakland: [number, number];
const at = (ms: number) => new Date(A + ms);

before(async () => {
  t = await startTrackingHarness();
  await insertWebhook(t.db, t.accountId, { url: 'https://hooks.example.com/svc', active: true, events: ['container.transport.vessel_arrived'], headers: null, secret: 'ab'.repeat(32) }, t.clock.now());
  ({ shipmentId, journey, arri } = await trackLosAngelesJourney(t));
  A = arri.occurredAt.getTime();
  const ports = await portPositions(t.db, ['USLAX', 'USOAK']);
  la = ports.get('USLAX')!;
  oakland = ports.get('USOAK')!;
  anchorage = [la[0], la[1] - 8 / 60]; // 8 nm south of the port's reference point
  const leg = arri.leg!;
  await upsertAisIdentity(t.db, { mmsi: MMSI, imo: leg.vessel!.imo, name: leg.vessel!.name, callSign: null, shipType: 70, destination: 'LOS ANGELES', at: new Date(A - 10 * 24 * HOUR) });
  // Calling at Oakland, sailing south, entering the area under way, then waiting at anchor from
  // 12 hours before the berth arrival the carrier reports, and berthed from then on.
  const entersArea = A - 12 * HOUR - 40 * MINUTE;
  const positions: VesselPosition[] = [
    ...stay(MMSI, oakland, A - 48 * HOUR, A - 36 * HOUR),
    ...sail(MMSI, oakland, anchorage, A - 36 * HOUR, entersArea + 40 * MINUTE),
    ...stay(MMSI, anchorage, A - 12 * HOUR + 10 * MINUTE, A - HOUR),
    ...stay(MMSI, la, A, A + 24 * HOUR),
  ];
  await insertVesselPositions(t.db, positions);
});
after(async () => {
  await t?.close();
});

const arrivals = async () =>
  (await t.db.query(`SELECT e.* FROM transport_events e WHERE e.shipment_id = $1 AND e.event = 'container.transport.vessel_arrived' ORDER BY e.container_id`, [shipmentId])).rows;
const announced = async () => Number((await t.db.query(`SELECT count(*) AS n FROM domain_events WHERE shipment_id = $1 AND name = 'container.transport.vessel_arrived'`, [shipmentId])).rows[0].n);
const notified = async () => Number((await t.db.query(`SELECT count(*) AS n FROM webhook_notifications WHERE event = 'container.transport.vessel_arrived'`)).rows[0].n);
const shipmentState = async () => (await t.db.query('SELECT state FROM shipments WHERE id = $1', [shipmentId])).rows[0].state;
/** Advances the test clock to `until` in steps of `step`, the worker (and its AIS pass) catching up after each. */
async function advanceTo(until: number, step = 10 * MINUTE) {
  while (t.clock.now().getTime() + step <= until) await t.advance(step);
  if (t.clock.now().getTime() < until) await t.advance(until - t.clock.now().getTime());
}

describe('an arrival AIS sees before the carrier', () => {
  test('the carrier reports its arrival only after the AIS stop', () => {
    assert.ok(arri.publishedAt.getTime() >= A, 'published at or after it happened');
    assert.ok(t.clock.now().getTime() < A - 48 * HOUR, 'the test starts before the vessel reaches Oakland');
  });

  test('a vessel stopped at another port does not count, and a stopped vessel gets no ETA', async () => {
    await advanceTo(A - 37 * HOUR, 6 * HOUR);
    assert.ok((await shipmentState()).pol_atd_at, 'departed from the port of lading');
    assert.equal((await arrivals()).length, 0);
    assert.equal(await aisArrivalOf(t.db, shipmentId), null);
    assert.equal(await aisEtaOfShipment(t.db, t.accountId, shipmentId), null, 'at anchor in Oakland: no speed to estimate from');
  });

  test('while the vessel sails, the ETA is re-estimated from distance to go and average speed, beside the carrier ETA', async () => {
    await advanceTo(A - 20 * HOUR, HOUR);
    const eta = await aisEtaOfShipment(t.db, t.accountId, shipmentId);
    assert.ok(eta, 'an AIS estimate');
    const knots = haversineNm(oakland, anchorage) / ((entersAreaAt() + 40 * MINUTE - (A - 36 * HOUR)) / HOUR);
    assert.ok(Math.abs(eta.speed_knots - knots) < 0.05, `average speed ${eta.speed_knots} ≈ ${knots}`);
    const toGo = seaRoute([eta.longitude, eta.latitude], la)!.distanceNm;
    assert.ok(Math.abs(eta.distance_nm - toGo) < 0.5);
    const expected = eta.position_at.getTime() + (toGo / eta.speed_knots) * HOUR;
    assert.ok(Math.abs(eta.eta_at.getTime() - expected) < MINUTE);
    assert.ok(Math.abs(eta.eta_at.getTime() - A) < 12 * HOUR, 'near the actual arrival');
    const state = await shipmentState();
    assert.notEqual(state.pod_eta_at, eta.eta_at.toISOString().replace('.000Z', 'Z'), "the carrier's ETA is kept in pod_eta_at");
  });

  test('entering the area under way, or stopping briefly, is not an arrival', async () => {
    await advanceTo(A - 12 * HOUR + 25 * MINUTE);
    assert.equal((await arrivals()).length, 0, 'in the area, stopped for less than 30 minutes');
    assert.equal((await shipmentState()).pod_ata_at, null);
  });

  test('once stopped long enough the arrival is recorded with data_source ais and announced once per box', async () => {
    await advanceTo(A - 11 * HOUR);
    const rows = await arrivals();
    assert.equal(rows.length, journey.containers.length);
    const stopStart = A - 12 * HOUR + 10 * MINUTE;
    for (const r of rows) {
      assert.equal(r.data_source, 'ais');
      assert.equal(r.timestamp.getTime(), stopStart, 'the first report of the stop');
      assert.equal(r.location_locode, 'USLAX');
      assert.equal(r.vessel_imo, arri.leg!.vessel!.imo);
    }
    assert.equal(await announced(), journey.containers.length);
    assert.equal(await notified(), journey.containers.length, 'one webhook notification per box');
    assert.equal((await shipmentState()).pod_ata_at, new Date(stopStart).toISOString().replace('.000Z', 'Z'));
    const ais = await aisArrivalOf(t.db, shipmentId);
    assert.equal(ais?.arrived_at.getTime(), stopStart);
    const container = (await t.request('GET', `/v2/containers?filter[shipment_id]=${shipmentId}`)).body.data[0];
    assert.ok(container.attributes.pod_arrived_at, 'the container shows the arrival');
    const events = (await t.request('GET', `/v2/containers/${container.id}/transport_events?page[size]=100`)).body.data;
    const arrived = events.filter((e: any) => e.attributes.event === 'container.transport.vessel_arrived');
    assert.equal(arrived.length, 1);
    assert.equal(arrived[0].attributes.data_source, 'ais');
  });

  test("the carrier's event for the same arrival takes over the milestone: its time, one record, no second notification", async () => {
    await advanceTo(arri.publishedAt.getTime() + 3 * HOUR, HOUR);
    const raw = await t.db.query(`SELECT count(*) AS n FROM raw_events WHERE shipment_id = $1 AND code = 'ARRI' AND classifier = 'ACT' AND location_locode = 'USLAX'`, [shipmentId]);
    assert.ok(Number(raw.rows[0].n) > 0, "svc has the carrier's arrival");
    const rows = await arrivals();
    assert.equal(rows.length, journey.containers.length, 'still one milestone per box');
    for (const r of rows) {
      assert.equal(r.data_source, 'shipping_line');
      assert.equal(r.timestamp.getTime(), A, "the carrier's actual time");
      assert.ok(r.source_event_id);
    }
    assert.equal(await announced(), journey.containers.length);
    assert.equal(await notified(), journey.containers.length);
    assert.equal((await shipmentState()).pod_ata_at, new Date(A).toISOString().replace('.000Z', 'Z'));
    assert.equal((await aisArrivalOf(t.db, shipmentId))?.arrived_at.getTime(), A - 12 * HOUR + 10 * MINUTE, 'what AIS saw stays on record');
  });
});

test('the vessels the carrier named are learned, so AIS static reports can be matched to them', async () => {
  const imos = new Set(journey.legs.flatMap((l) => (l.vessel ? [l.vessel.imo] : [])));
  const { rows } = await t.db.query('SELECT imo FROM learned_vessels WHERE imo = ANY($1)', [[...imos]]);
  assert.deepEqual(new Set(rows.map((r) => r.imo)), imos);
});

function entersAreaAt() {
  return A - 12 * HOUR - 40 * MINUTE;
}
