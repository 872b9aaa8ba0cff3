// AIS departures and transshipment arrivals end to end: the sandbox's feeder journey
// TEST-TS2-FEEDER (Ho Chi Minh City by feeder to Singapore, on to Tanger Med and Savannah) tracked
// over DCSA, the sandbox's own AIS feed over TCP into svc's AIS worker, the tracking worker (and
// its AIS pass) on the test clock. The feeder's departure from the port of lading and its arrival
// at the transshipment port are recorded from AIS (data_source ais) before the carrier publishes
// them, announced once per box, then taken over in place by the carrier's events: one milestone
// per box and move, each webhook event once.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { AisWorker } from '../src/ais/worker.ts';
import { DAY, HOUR, MINUTE } from '../src/domain/time-units.ts';
import type { Journey, JourneyEvent } from '../src/sandbox/index.ts';
import { aisReportIntervalMs } from '../src/sandbox/ais-feed.ts';
import { startSandboxAis, type SandboxAis } from '../src/sandbox/ais-server.ts';
import { aisMovesOf } from '../src/store/ais-arrivals.ts';
import { insertWebhook } from '../src/store/webhooks.ts';
import { until } from './support/ais-feed.ts';
import { startTrackingHarness, type TrackingHarness } from './support/tracking.ts';

const SPEED = 300;
const REPORT_MS = aisReportIntervalMs(SPEED);
const NUMBER = 'TEST-TS2-FEEDER';
/** Every name the two moves may be recorded under (a feeder is known as one only once its length is). */
const NAMES = ['vessel_departed', 'feeder_departed', 'transshipment_departed', 'transshipment_arrived', 'feeder_arrived'].map((n) => `container.transport.${n}`);
let t: TrackingHarness;
let ais: SandboxAis;
let aisWorker: AisWorker;
let journey: Journey;
let shipmentId: string;
let departure: JourneyEvent;
let arrival: JourneyEvent;
let sent = 0;

before(async () => {
  t = await startTrackingHarness();
  await insertWebhook(t.db, t.accountId, { url: 'https://hooks.example.com/svc', active: true, events: NAMES, headers: null, secret: 'ab'.repeat(32) }, t.clock.now());
  const resolved = t.sandbox.sandbox.registry.resolve('TEST', 'bill_of_lading', NUMBER);
  assert.equal(resolved.kind, 'journey');
  journey = (resolved as { journey: Journey }).journey;
  const first = journey.legs.find((l) => l.vessel)!;
  const act = (code: string, end: 'from' | 'to') => journey.events.find((e) => e.type === 'TRANSPORT' && e.classifier === 'ACT' && e.code === code && e.legEnd === end && e.leg?.index === first.index)!;
  departure = act('DEPA', 'from');
  arrival = act('ARRI', 'to');
  assert.ok(departure && arrival && first.to.place.locode !== journey.route!.pod.locode, 'a first sea leg that ends at a transshipment port');
  ais = await startSandboxAis({ port: 0, host: '127.0.0.1', clock: t.clock, speed: SPEED, source: t.sandbox.sandbox });
  aisWorker = new AisWorker({ db: t.db, clock: t.clock, feeds: [{ host: '127.0.0.1', port: ais.port }], positionIntervalMs: 5 * MINUTE, retention: { fullResolutionMs: 30 * DAY, keepMs: 365 * DAY }, useReportSecond: false });
  await aisWorker.start();
  await ais.waitForClients(1);
  const trId = await t.track('bill_of_lading', NUMBER, 'TEST');
  await t.worker.drain();
  shipmentId = (await t.request('GET', `/v2/tracking_requests/${trId}`)).body.data.relationships.tracked_object.data.id;
});
after(async () => {
  await aisWorker?.stop();
  await ais?.close();
  await t?.close();
});

/** Moves the clock to `end`: one AIS report interval at a time near the two moves, two hours otherwise; after each step the feed is read and stored, then the worker runs. */
async function advanceTo(end: number) {
  const near = [departure.occurredAt.getTime(), arrival.occurredAt.getTime()];
  while (t.clock.now().getTime() < end) {
    const now = t.clock.now().getTime();
    const step = near.some((at) => now >= at - HOUR && now < at + 6 * HOUR) ? REPORT_MS : 2 * HOUR;
    t.clock.advance(Math.min(step, end - now));
    sent += ais.tick().length;
    await until(() => aisWorker.counters.sentences >= sent, `${sent} AIS sentences read`);
    await aisWorker.ingester.flush();
    await t.worker.drain();
  }
}

/** The milestones of one move (its key: the box, the ocean move, the port), whatever name they carry. */
const milestones = async (move: 'departed' | 'arrived', locode: string) =>
  (await t.db.query(`SELECT * FROM transport_events WHERE shipment_id = $1 AND key LIKE '%|ocean_' || $2 || '|' || $3 ORDER BY container_id`, [shipmentId, move, locode])).rows;
/** Announcements and webhook notifications per milestone record and name: each should be 1. */
const announcements = async (ids: string[]) =>
  (await t.db.query(
    `SELECT d.reference_id, d.name, count(DISTINCT d.id)::int AS announced, count(n.id)::int AS notified
       FROM domain_events d LEFT JOIN webhook_notifications n ON n.domain_event_id = d.id
      WHERE d.reference_id = ANY($1) GROUP BY d.reference_id, d.name`,
    [ids],
  )).rows;
const carrierHas = async (code: string, locode: string) =>
  Number((await t.db.query(`SELECT count(*) AS n FROM raw_events WHERE shipment_id = $1 AND code = $2 AND classifier = 'ACT' AND location_locode = $3`, [shipmentId, code, locode])).rows[0].n) > 0;

/** Runs until AIS has recorded the move, or the carrier has published its own: which came first is the test. */
async function untilRecorded(move: 'departed' | 'arrived', locode: string, published: Date) {
  while (t.clock.now() < published && (await milestones(move, locode)).length === 0) await advanceTo(t.clock.now().getTime() + REPORT_MS);
}

async function assertFromAis(move: 'departed' | 'arrived', truth: JourneyEvent, locode: string) {
  await advanceTo(truth.occurredAt.getTime() - HOUR);
  assert.equal((await milestones(move, locode)).length, 0, 'nothing before the vessel moves');
  await untilRecorded(move, locode, truth.publishedAt);
  assert.ok(t.clock.now() < truth.publishedAt, `AIS first (the carrier publishes at ${truth.publishedAt.toISOString()}, now ${t.clock.now().toISOString()})`);
  assert.equal(await carrierHas(truth.code, locode), false, 'svc has not the carrier event yet');
  const rows = await milestones(move, locode);
  assert.equal(rows.length, journey.containers.length, 'one per box');
  for (const r of rows) {
    assert.equal(r.data_source, 'ais');
    assert.equal(r.location_locode, locode);
    assert.equal(r.vessel_imo, truth.leg!.vessel!.imo);
    assert.ok(Math.abs(r.timestamp.getTime() - truth.occurredAt.getTime()) <= 3 * REPORT_MS, `${r.timestamp.toISOString()}: at the true time, to a few reports`);
  }
  const announced = await announcements(rows.map((r) => r.id));
  assert.equal(announced.length, rows.length);
  for (const a of announced) assert.deepEqual([a.name, a.announced, a.notified], [rows.find((r) => r.id === a.reference_id).event, 1, 1]);
}

test('the departure from the port of lading appears from AIS before the carrier publishes it, announced once per box', { timeout: 900_000 }, async () => {
  const pol = departure.leg!.from.place.locode;
  await assertFromAis('departed', departure, pol);
  assert.ok((await t.db.query('SELECT state FROM shipments WHERE id = $1', [shipmentId])).rows[0].state.pol_atd_at, 'the shipment has left the port of lading');
  assert.deepEqual((await aisMovesOf(t.db, shipmentId)).map((m) => [m.kind, m.port_locode]), [['departure', pol]]);
});

test('the arrival at the transshipment port appears from AIS before the carrier publishes it, announced once per box', { timeout: 900_000 }, async () => {
  const ts = arrival.leg!.to.place.locode;
  await assertFromAis('arrived', arrival, ts);
  assert.equal((await milestones('arrived', ts))[0].event, 'container.transport.feeder_arrived', "named as the carrier's event will be: the leg is a feeder");
});

test("the carrier's events take both over in place: its times and source, one record per box, each webhook event once", { timeout: 900_000 }, async () => {
  await advanceTo(Math.max(departure.publishedAt.getTime(), arrival.publishedAt.getTime()) + 12 * HOUR);
  for (const [move, truth, locode] of [['departed', departure, departure.leg!.from.place.locode], ['arrived', arrival, arrival.leg!.to.place.locode]] as const) {
    const rows = await milestones(move, locode);
    assert.equal(rows.length, journey.containers.length, `${move} ${locode}: still one per box`);
    for (const r of rows) {
      assert.equal(r.data_source, 'shipping_line', `${move} ${locode}`);
      assert.equal(r.timestamp.getTime(), truth.occurredAt.getTime(), `${move} ${locode}: the carrier's time`);
    }
    for (const a of await announcements(rows.map((r) => r.id))) assert.deepEqual([a.announced, a.notified], [1, 1], `${move} ${locode} ${a.name}: once`);
  }
  assert.equal((await aisMovesOf(t.db, shipmentId)).length, 2, 'what AIS saw stays on record');
});
