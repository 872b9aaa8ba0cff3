// The route map end to end against the sandbox's ground truth: the sandbox carrier network and its
// AIS feed over real TCP, svc's AIS worker and tracking worker, all on the test's clock. The
// vessel the map shows is where the sandbox says that ship was at the report's time, and the port
// features carry the journey's ports, labels and departure time.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { check } from '@placemarkio/check-geojson';
import { AisWorker } from '../src/ais/worker.ts';
import { DAY, HOUR, MINUTE } from '../src/domain/time-units.ts';
import { haversineKm } from '../src/geo/distance.ts';
import { aisFleet } from '../src/sandbox/ais-identity.ts';
import { startSandboxAis, type SandboxAis } from '../src/sandbox/ais-server.ts';
import { vesselTruth } from '../src/sandbox/ground-truth.ts';
import type { Journey } from '../src/sandbox/journey.ts';
import { findPort, findVessel } from '../src/store/reference.ts';
import { until } from './support/ais-feed.ts';
import { startTrackingHarness, type TrackingHarness } from './support/tracking.ts';

/**
 * How far the map's vessel may be from the truth at its report's time: the feed's noise is tens of
 * metres, and a report reaches svc within two minutes of its time here (about 1.2 km at 20 knots).
 */
const NEAR_TRUTH_KM = 2;

let h: TrackingHarness;
let ais: SandboxAis;
let worker: AisWorker;
let sent = 0;

before(async () => {
  h = await startTrackingHarness();
  // Speed 600: a ship reports every 10 sandbox minutes, so each step below carries a few reports.
  ais = await startSandboxAis({ port: 0, host: '127.0.0.1', clock: h.clock, speed: 600, source: h.sandbox.sandbox });
  worker = new AisWorker({
    db: h.db,
    clock: h.clock,
    feeds: [{ host: '127.0.0.1', port: ais.port }],
    positionIntervalMs: 5 * MINUTE,
    retention: { fullResolutionMs: 30 * DAY, keepMs: 365 * DAY },
    useReportSecond: false,
  });
  await worker.start();
  await ais.waitForClients(1);
});
after(async () => {
  await worker.stop();
  await ais.close();
  await h.close();
});

/**
 * Moves the clock in steps; after each, the feed sends what is due, svc stores it and the tracking
 * worker catches up. svc stamps a report when it arrives (as AIS receivers do), and the feed sends
 * what fell due in a step at the step's end, so the last hours go two minutes at a time: the
 * reports the map shows then carry their true time to within two minutes. (Four hours: the feed
 * leaves gaps of up to 20 reports, 200 minutes here, as real ships fall silent.)
 */
const FINE_HOURS = 4;

async function advanceTo(at: Date, step = HOUR) {
  while (h.clock.now() < at) {
    const left = at.getTime() - h.clock.now().getTime();
    h.clock.advance(left <= FINE_HOURS * HOUR ? Math.min(2 * MINUTE, left) : Math.min(step, left - FINE_HOURS * HOUR));
    sent += ais.tick().length;
    await until(() => worker.counters.sentences >= sent, `${sent} AIS sentences read`);
    await worker.ingester.flush();
    await h.worker.drain();
  }
}

type Feature = { geometry: { type: string; coordinates: any }; properties: Record<string, any> };

async function mapOf(containerId: string): Promise<Feature[]> {
  const res = await h.request('GET', `/v2/containers/${containerId}/map_geojson`);
  assert.equal(res.status, 200);
  assert.doesNotThrow(() => check(JSON.stringify(res.body)), 'valid GeoJSON');
  return res.body.features;
}

const instant = (text: string | null) => (text === null ? null : new Date(text).toISOString());
const portsOf = (features: Feature[]) => features.filter((f) => f.properties.feature_type === 'port').sort((a, b) => a.properties.ports_sequence - b.properties.ports_sequence);
const portId = async (locode: string) => (await findPort(h.db, locode))!.id;

/** The map's vessel against the sandbox's truth at the time of the report it shows. */
function assertVesselNearTruth(features: Feature[], imo: string, now: Date, sequence: number): [number, number] {
  const vessel = features.find((f) => f.properties.feature_type === 'current_vessel');
  assert.ok(vessel, 'at sea with positions: current_vessel is present');
  assert.equal(vessel.properties.vessel_imo, imo);
  assert.equal(vessel.properties.ports_sequence, sequence);
  const reportedAt = new Date(vessel.properties.vessel_location_timestamp);
  assert.ok(now.getTime() - reportedAt.getTime() < FINE_HOURS * HOUR, `the newest report (${reportedAt.toISOString()}) is from the last ${FINE_HOURS} hours`);
  const truth = vesselTruth(aisFleet(h.sandbox.sandbox.world), h.sandbox.sandbox.journeys(), imo, reportedAt)!;
  const [lon, lat] = vessel.geometry.coordinates as [number, number];
  const off = haversineKm([lon, lat], [truth.lon!, truth.lat!]);
  assert.ok(off < NEAR_TRUTH_KM, `${off.toFixed(2)} km from the true position`);
  assert.ok(Math.abs(vessel.properties.vessel_location_speed - truth.speed_knots!) < 1, `speed ${vessel.properties.vessel_location_speed} kn against ${truth.speed_knots}`);
  // The track sailed on this leg ends where the vessel is; the way ahead starts there.
  const past = features.find((f) => f.properties.feature_type === 'past_vessel_locations' && f.properties.ports_sequence === sequence)!;
  assert.ok(haversineKm(past.geometry.coordinates.at(-1), [lon, lat]) < 1, 'the past track ends at the vessel');
  const partial = features.find((f) => f.properties.feature_type === 'estimated_partial_leg')!;
  assert.deepEqual(partial.geometry.coordinates[0], [lon, lat]);
  return [lon, lat];
}

test('Xiamen → Singapore → Rotterdam: the vessel the map shows is where the sandbox ship was, on each leg', async () => {
  await h.track('bill_of_lading', 'TEST-TS1', 'TEST');
  await h.worker.drain();
  const journey = h.sandbox.sandbox.journeys().find((j: Journey) => j.legs.some((l) => l.from.place.locode === 'CNXMN'));
  assert.ok(journey, 'the sandbox planned the journey');
  const [first, second] = journey.legs.filter((l) => l.vessel);
  assert.deepEqual([first.from.place.locode, first.to.place.locode, second.to.place.locode], ['CNXMN', 'SGSIN', 'NLRTM']);
  const { body: containers } = await h.request('GET', '/v2/containers');
  const containerId = containers.data[0].id as string;

  // Halfway to Singapore. The carrier published the planned calls of both legs with the booking,
  // so the map has the transshipment port already, not reached yet.
  const firstMidway = new Date((first.departAt.getTime() + first.arriveAt.getTime()) / 2);
  await advanceTo(firstMidway);
  let features = await mapOf(containerId);
  assert.deepEqual(portsOf(features).map((p) => p.properties.label), ['POL', 'TS1', 'POD']);
  assert.equal(portsOf(features)[1].properties.inbound_ata_at, null, 'Singapore is planned');
  assert.equal(instant(portsOf(features)[0].properties.outbound_atd_at), first.departAt.toISOString(), 'the ATD the carrier reported');
  assertVesselNearTruth(features, first.vessel!.imo, firstMidway, 1);

  // Halfway from Singapore to Rotterdam, on the second ship.
  const secondMidway = new Date((second.departAt.getTime() + second.arriveAt.getTime()) / 2);
  await advanceTo(secondMidway, 2 * HOUR);
  features = await mapOf(containerId);
  const ports = portsOf(features);
  assert.deepEqual(
    ports.map((p) => [p.properties.label, p.properties.location_id]),
    [['POL', await portId('CNXMN')], ['TS1', await portId('SGSIN')], ['POD', await portId('NLRTM')]],
  );
  assert.equal(instant(ports[1].properties.inbound_ata_at), first.arriveAt.toISOString(), 'arrived in Singapore when the sandbox says');
  assert.equal(instant(ports[1].properties.outbound_atd_at), second.departAt.toISOString(), 'left Singapore when the sandbox says');
  // The port of discharge: not reached, with the carrier's newest ETA (the shipment's own pod_eta_at).
  const shipment = (await h.request('GET', '/v2/shipments')).body.data[0].attributes;
  assert.equal(ports[2].properties.inbound_ata_at, null);
  assert.equal(instant(ports[2].properties.inbound_eta_at), instant(shipment.pod_eta_at));
  assert.ok(Math.abs(new Date(shipment.pod_eta_at).getTime() - second.arriveAt.getTime()) < DAY, 'an ETA within a day of the true arrival');
  assertVesselNearTruth(features, second.vessel!.imo, secondMidway, 2);
  // The first leg is history: its track runs from Xiamen to Singapore. (Within 150 km: that leg
  // went by in two-hour steps, so its reports carry their step's end, and gaps come on top.)
  const firstTrack = features.find((f) => f.properties.feature_type === 'past_vessel_locations' && f.properties.ports_sequence === 1)!;
  const ends = [firstTrack.geometry.coordinates[0], firstTrack.geometry.coordinates.at(-1)];
  assert.ok(haversineKm(ends[0], [first.from.place.lon, first.from.place.lat]) < 150, `the first track starts at Xiamen, not ${ends[0]}`);
  assert.ok(haversineKm(ends[1], [first.to.place.lon, first.to.place.lat]) < 150, `and ends at Singapore, not ${ends[1]}`);
  assert.equal(firstTrack.properties.vessel_id, (await findVessel(h.db, first.vessel!.imo))!.id);
});
