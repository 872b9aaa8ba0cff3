// The planned route from the first lookup, end to end: the sandbox publishes the planned call at
// both ends of every leg with the booking, so svc's first answer already names every port of the
// journey (transshipments included) on the route and the map, all planned; as the box goes, each
// call becomes actual, at the time the sandbox says, and nothing planned is shown as done.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { HOUR } from '../src/domain/time-units.ts';
import type { Journey } from '../src/sandbox/journey.ts';
import { startTrackingHarness, type TrackingHarness } from './support/tracking.ts';

let h: TrackingHarness;
before(async () => {
  h = await startTrackingHarness();
});
after(async () => {
  await h.close();
});

type Location = { label: string; location_locode: string; inbound_eta_at: string | null; inbound_ata_at: string | null; outbound_etd_at: string | null; outbound_atd_at: string | null };

const journeyOf = (number: string): Journey => h.sandbox.sandbox.journeys().find((j: Journey) => j.number === number)!;

async function containerIdOf(number: string): Promise<string> {
  const box = journeyOf(number).containers[0].number;
  const { body } = await h.request('GET', '/v2/containers');
  const found = body.data.find((c: any) => c.attributes.number === box);
  assert.ok(found, `svc lists ${box}`);
  return found.id;
}

async function routeOf(containerId: string): Promise<Location[]> {
  const res = await h.request('GET', `/v2/containers/${containerId}/route?include=route_location`);
  assert.equal(res.status, 200, res.text);
  const byId = new Map(res.body.included.map((r: any) => [r.id, r.attributes]));
  return res.body.data.relationships.route_locations.data.map((ref: any) => byId.get(ref.id) as Location);
}

async function mapLabels(containerId: string): Promise<string[]> {
  const res = await h.request('GET', `/v2/containers/${containerId}/map_geojson`);
  assert.equal(res.status, 200);
  return res.body.features
    .filter((f: any) => f.properties.feature_type === 'port')
    .sort((a: any, b: any) => a.properties.ports_sequence - b.properties.ports_sequence)
    .map((f: any) => `${f.properties.label}:${f.properties.inbound_ata_at || f.properties.outbound_atd_at ? 'done' : 'planned'}`);
}

const instant = (text: string | null) => (text === null ? null : new Date(text).toISOString());

/**
 * svc looks again at most this long after its last lookup (at sea, the longest cadence of
 * services/tracking/policy.ts), so an actual call published longer ago than this must be shown.
 */
const LOOKUP_LAG_MS = 13 * HOUR;

/** The sandbox's actual call of the journey at a port (ocean legs only), and when it was published. */
function actualCall(j: Journey, code: 'ARRI' | 'DEPA', locode: string) {
  return j.events.find((x) => x.classifier === 'ACT' && x.type === 'TRANSPORT' && x.code === code && x.leg?.mode !== 'RAIL' && x.facility?.place.locode === locode)!;
}

/**
 * Each call against the sandbox as of now: the ports in journey order; an actual time only once
 * the carrier published the actual call, and then the sandbox's time (surely once svc has looked
 * again since); otherwise none, and a planned or estimated time in its place.
 */
function assertMatchesJourney(j: Journey, route: Location[], when: string) {
  const sea = j.legs.filter((l) => l.mode !== 'RAIL');
  const ports = [sea[0].from.place.locode, ...sea.map((l) => l.to.place.locode)];
  assert.deepEqual(route.map((l) => l.location_locode), ports, `${j.number} ${when}: every port, in order`);
  assert.deepEqual(route.map((l) => l.label), ports.map((_, i) => (i === 0 ? 'POL' : i === ports.length - 1 ? 'POD' : `TS${i}`)));
  const now = h.clock.now().getTime();
  const check = (where: string, code: 'ARRI' | 'DEPA', locode: string, actual: string | null, estimated: string | null) => {
    const truth = actualCall(j, code, locode);
    if (actual !== null) {
      assert.ok(truth.publishedAt.getTime() <= now, `${where}: shown done only once the carrier said so`);
      assert.equal(instant(actual), truth.occurredAt.toISOString(), `${where}: at the sandbox's time`);
    } else {
      assert.ok(truth.publishedAt.getTime() > now - LOOKUP_LAG_MS, `${where}: published at ${truth.publishedAt.toISOString()}, still not shown`);
      assert.ok(estimated, `${where}: a planned time`);
    }
  };
  route.forEach((call, i) => {
    const where = `${j.number} ${when}: ${call.label} ${call.location_locode}`;
    if (i > 0) check(`${where} arrival`, 'ARRI', call.location_locode, call.inbound_ata_at, call.inbound_eta_at);
    if (i < route.length - 1) check(`${where} departure`, 'DEPA', call.location_locode, call.outbound_atd_at, call.outbound_etd_at);
  });
}

async function advanceTo(at: Date) {
  while (h.clock.now() < at) await h.advance(Math.min(6 * HOUR, at.getTime() - h.clock.now().getTime()));
}

test('TEST-TS1 and TEST-TS2-FEEDER: every port from the first lookup, planned, then done as the journey goes', async () => {
  await h.track('bill_of_lading', 'TEST-TS1', 'TEST');
  await h.track('bill_of_lading', 'TEST-TS2-FEEDER', 'TEST');
  await h.worker.drain();
  // Once the booking's plan is out (the carrier publishes it within hours of the booking).
  const ts1 = journeyOf('TEST-TS1');
  const ts2 = journeyOf('TEST-TS2-FEEDER');
  const planOut = (j: Journey) => new Date(Math.max(...j.events.filter((e) => e.classifier === 'PLN').map((e) => e.publishedAt.getTime())));
  await advanceTo(new Date(Math.max(planOut(ts1).getTime(), planOut(ts2).getTime()) + HOUR));

  const ids = { ts1: await containerIdOf('TEST-TS1'), ts2: await containerIdOf('TEST-TS2-FEEDER') };
  assert.deepEqual(await mapLabels(ids.ts1), ['POL:planned', 'TS1:planned', 'POD:planned']);
  assert.deepEqual(await mapLabels(ids.ts2), ['POL:planned', 'TS1:planned', 'TS2:planned', 'POD:planned']);
  const first = { ts1: await routeOf(ids.ts1), ts2: await routeOf(ids.ts2) };
  assert.deepEqual(first.ts2.map((l) => l.location_locode), ['VNSGN', 'SGSIN', 'MAPTM', 'USSAV'], 'Tanger Med from the first answer');
  assertMatchesJourney(ts1, first.ts1, 'at booking');
  assertMatchesJourney(ts2, first.ts2, 'at booking');
  // The planned times are the carrier's: the planned arrival at the transshipment port.
  assert.equal(instant(first.ts1[1].inbound_eta_at), ts1.legs[0].plannedArriveAt.toISOString());

  // Halfway through TEST-TS2-FEEDER's second sea leg: its feeder leg is done, the rest planned.
  const mid = new Date((ts2.legs[1].departAt.getTime() + ts2.legs[1].arriveAt.getTime()) / 2);
  await advanceTo(mid);
  const midway = await routeOf(ids.ts2);
  assertMatchesJourney(ts2, midway, 'midway');
  assert.ok(midway[0].outbound_atd_at && midway[1].inbound_ata_at && midway[1].outbound_atd_at, 'the feeder leg and the departure from Singapore are done');
  assert.deepEqual([midway[2].inbound_ata_at, midway[3].inbound_ata_at], [null, null], 'Tanger Med and Savannah are still planned');
  assertMatchesJourney(ts1, await routeOf(ids.ts1), 'midway');

  // After the last sea arrival of both is published: every call done, at the sandbox's times.
  const lastArrival = (j: Journey) =>
    Math.max(...j.events.filter((e) => e.classifier === 'ACT' && e.type === 'TRANSPORT' && e.code === 'ARRI' && e.leg?.mode !== 'RAIL').map((e) => e.publishedAt.getTime()));
  await advanceTo(new Date(Math.max(lastArrival(ts1), lastArrival(ts2)) + LOOKUP_LAG_MS));
  for (const [j, id] of [[ts1, ids.ts1], [ts2, ids.ts2]] as const) {
    const done = await routeOf(id);
    assertMatchesJourney(j, done, 'at the end');
    assert.ok(done.every((c, i) => (i === 0 || c.inbound_ata_at) && (i === done.length - 1 || c.outbound_atd_at)), `${j.number}: every call done`);
    assert.ok((await mapLabels(id)).every((l) => l.endsWith(':done')));
  }
});
