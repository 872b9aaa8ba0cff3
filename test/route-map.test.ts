// GET /v2/containers/{id}/map_geojson against the spec's "Route map (the service)": every feature
// type with exactly the table's properties, the six rules, a transshipment journey, Pacific
// crossings both ways, and account isolation. Every answer is checked by an independent GeoJSON
// validator (@placemarkio/check-geojson).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { check } from '@placemarkio/check-geojson';
import { CURRENT_POSITION_MAX_AGE_MS, containerRouteMap } from '../src/services/route-map.ts';
import { ARRIVED_TRACK_SETTLES_MS } from '../src/services/route-map-tracks.ts';
import { startTestApp, type TestApp } from './support/app.ts';
import { forFile } from './support/for-file.ts';
import { insertJourney, insertTrack, positionsAlong, seaPath, type Vessel } from './support/route-journeys.ts';

let t: TestApp;
forFile(startTestApp, (started) => (t = started));

const CNSHA: [number, number] = [121.5, 31.21667];
const SGSIN: [number, number] = [103.85191, 1.28992];
const NLRTM: [number, number] = [4.48333, 51.9];
const USLAX: [number, number] = [-118.25, 33.75];

// EVER GIVEN is in svc's reference vessels; the others are not.
const EVER_GIVEN: Vessel = { imo: '9811000', name: 'EVER GIVEN', mmsi: 563000001 };
const MAERSK_B: Vessel = { imo: '9700001', name: 'MAERSK BRAVO', mmsi: 219000002 };
const PACIFIC_E: Vessel = { imo: '9700002', name: 'PACIFIC EAST', mmsi: 477000003 };
const PACIFIC_W: Vessel = { imo: '9700003', name: 'PACIFIC WEST', mmsi: 477000004 };
const STALE: Vessel = { imo: '9700004', name: 'STALE STAR', mmsi: 477000005 };
const KEEP_A: Vessel = { imo: '9700005', name: 'KEEP ALPHA', mmsi: 477000006 };
const KEEP_B: Vessel = { imo: '9700006', name: 'KEEP BRAVO', mmsi: 477000007 };

const day = (d: string) => new Date(`${d}T00:00:00Z`);

// The spec's table, property by property: 'int', 'string', 'number', and '?' for nullable.
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;
type Kind = 'int' | 'string' | 'number' | 'iso' | 'string?' | 'number?' | 'iso?';
const PROPERTIES: Record<string, Record<string, Kind>> = {
  port: {
    feature_type: 'string', ports_sequence: 'int', ports_total: 'int', location_id: 'string', location_type: 'string', name: 'string',
    state_abbr: 'string?', state: 'string?', country_code: 'string', country: 'string', time_zone: 'string', label: 'string',
    inbound_eta_at: 'iso?', inbound_ata_at: 'iso?', outbound_etd_at: 'iso?', outbound_atd_at: 'iso?', updated_at: 'iso?',
  },
  current_vessel: {
    feature_type: 'string', ports_sequence: 'int', vessel_id: 'string', vessel_name: 'string', vessel_imo: 'string', voyage_number: 'string?',
    vessel_location_timestamp: 'iso', vessel_location_heading: 'number?', vessel_location_speed: 'number?',
    departure_port_id: 'string', departure_port_name: 'string', departure_port_state_abbr: 'string?', departure_port_state: 'string?',
    departure_port_country_code: 'string', departure_port_country: 'string', departure_port_label: 'string', departure_port_atd: 'iso?',
    departure_port_time_zone: 'string',
    arrival_port_id: 'string?', arrival_port_name: 'string?', arrival_port_state_abbr: 'string?', arrival_port_state: 'string?',
    arrival_port_country_code: 'string?', arrival_port_country: 'string?', arrival_port_label: 'string?', arrival_port_eta: 'iso?', arrival_port_time_zone: 'string?',
  },
  past_vessel_locations: {
    feature_type: 'string', ports_sequence: 'int', vessel_id: 'string', start_time: 'iso', end_time: 'iso', point_count: 'int',
    outbound_atd_at: 'iso?', inbound_ata_at: 'iso?', inbound_eta_at: 'iso?',
  },
  estimated_full_legs: { feature_type: 'string', ports_sequence: 'int', previous_port_id: 'string', next_port_id: 'string', point_count: 'int' },
  estimated_partial_leg: { feature_type: 'string', ports_sequence: 'int', current_port_id: 'string', next_port_id: 'string', point_count: 'int' },
};
const GEOMETRY: Record<string, string> = { port: 'Point', current_vessel: 'Point', past_vessel_locations: 'LineString', estimated_full_legs: 'LineString', estimated_partial_leg: 'LineString' };

function conforms(value: unknown, kind: Kind): boolean {
  if (kind.endsWith('?') && value === null) return true;
  const base = kind.replace('?', '');
  if (base === 'int') return Number.isInteger(value);
  if (base === 'number') return typeof value === 'number' && Number.isFinite(value);
  if (base === 'iso') return typeof value === 'string' && ISO.test(value);
  return typeof value === 'string' && value.length > 0;
}

type Line = [number, number][];
/** How many steps of a line jump more than 180° of longitude (spec rule 5), after checking every longitude is in range. */
function jumps(coords: Line): number {
  for (const [lon, lat] of coords) assert.ok(lon >= -180 && lon <= 180 && lat >= -90 && lat <= 90, `${lon},${lat} out of range`);
  return coords.slice(1).filter((c, i) => Math.abs(c[0] - coords[i][0]) > 180).length;
}

/** The map of a container, checked against GeoJSON, the spec's table and rules 2 to 4. */
async function mapOf(containerId: string, key = t.key): Promise<any[]> {
  const res = await t.request('GET', `/v2/containers/${containerId}/map_geojson`, { key });
  assert.equal(res.status, 200, res.text);
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
  check(res.text); // throws on anything that is not valid GeoJSON
  assert.equal(res.body.type, 'FeatureCollection');
  const features: any[] = res.body.features;
  for (const f of features) {
    const type = f.properties.feature_type;
    assert.ok(PROPERTIES[type], `unknown feature_type ${type}`);
    assert.equal(f.geometry.type, GEOMETRY[type]);
    assert.deepEqual(Object.keys(f.properties).sort(), Object.keys(PROPERTIES[type]).sort(), `properties of ${type}`);
    for (const [name, kind] of Object.entries(PROPERTIES[type])) assert.ok(conforms(f.properties[name], kind), `${type}.${name} = ${JSON.stringify(f.properties[name])} is not ${kind}`);
    if (f.geometry.type === 'LineString') {
      assert.equal(f.properties.point_count ?? f.geometry.coordinates.length, f.geometry.coordinates.length);
      jumps(f.geometry.coordinates);
    }
  }
  const current = features.filter((f) => f.properties.feature_type === 'current_vessel');
  const partial = features.filter((f) => f.properties.feature_type === 'estimated_partial_leg');
  assert.ok(current.length <= 1);
  assert.equal(partial.length, current.length, 'rule 3: a partial leg exactly when there is a current vessel');
  if (current[0]) {
    assert.deepEqual(partial[0].geometry.coordinates[0], current[0].geometry.coordinates, 'rule 3: the partial leg starts at the vessel');
    assert.ok(current[0].properties.departure_port_atd !== null, 'rule 2: departed');
  }
  return features;
}

const ofType = (features: any[], type: string) => features.filter((f) => f.properties.feature_type === type);

test('a transshipment journey at sea on its second leg: ports POL/TS1/POD, both tracks, the vessel and the way ahead', async () => {
  t.clock.set('2026-02-10T00:00:00Z');
  const { containerId } = await insertJourney(t.db, {
    accountId: t.accountId,
    state: { port_of_lading_locode: 'CNSHA', port_of_discharge_locode: 'NLRTM', transshipment_locodes: ['SGSIN'], pol_etd_at: '2026-01-04T12:00:00Z', pol_atd_at: '2026-01-05T00:00:00Z', pod_eta_at: '2026-02-20T00:00:00Z', pod_vessel_imo: MAERSK_B.imo, pod_vessel_name: MAERSK_B.name, pod_voyage_number: '002W' },
    milestones: [
      { event: 'vessel_departed', at: '2026-01-05T00:00:00Z', locode: 'CNSHA', vessel: EVER_GIVEN, voyage: '001S' },
      { event: 'transshipment_arrived', at: '2026-01-11T00:00:00Z', locode: 'SGSIN', vessel: EVER_GIVEN, voyage: '001S' },
      { event: 'transshipment_departed', at: '2026-01-14T00:00:00Z', locode: 'SGSIN', vessel: MAERSK_B, voyage: '002W' },
    ],
    planned: [
      { code: 'ARRI', locode: 'SGSIN', at: '2026-01-10T18:00:00Z', vessel: EVER_GIVEN },
      { code: 'DEPA', locode: 'SGSIN', at: '2026-01-13T06:00:00Z', vessel: MAERSK_B },
    ],
  });
  const leg1 = positionsAlong(EVER_GIVEN, seaPath(CNSHA, SGSIN), day('2026-01-05'), day('2026-01-11'), 1728);
  const leg2 = positionsAlong(MAERSK_B, seaPath(SGSIN, NLRTM), day('2026-01-14'), day('2026-02-20'), 10_000).filter((p) => p.at <= new Date('2026-02-09T20:00:00Z'));
  // Reports from before the departure belong to another voyage and stay off the track.
  const earlier = positionsAlong(MAERSK_B, [[140, 35], [141, 36]], day('2026-01-01'), day('2026-01-02'), 20);
  await insertTrack(t.db, EVER_GIVEN, leg1);
  await insertTrack(t.db, MAERSK_B, [...earlier, ...leg2]);

  const features = await mapOf(containerId);
  assert.deepEqual(
    features.map((f) => `${f.properties.feature_type}:${f.properties.ports_sequence}`),
    ['port:1', 'past_vessel_locations:1', 'port:2', 'past_vessel_locations:2', 'current_vessel:2', 'estimated_partial_leg:2', 'port:3'],
  );
  const ports = ofType(features, 'port').map((f) => f.properties);
  assert.deepEqual(ports.map((p) => [p.label, p.name, p.ports_total, p.country]), [['POL', 'Shanghai', 3, 'China'], ['TS1', 'Singapore', 3, 'Singapore'], ['POD', 'Rotterdam', 3, 'Netherlands']]);
  assert.deepEqual(ofType(features, 'port')[0].geometry.coordinates, CNSHA);
  assert.deepEqual(
    ports.map((p) => [p.inbound_eta_at, p.inbound_ata_at, p.outbound_etd_at, p.outbound_atd_at]),
    [
      [null, null, '2026-01-04T12:00:00Z', '2026-01-05T00:00:00Z'],
      ['2026-01-10T18:00:00Z', '2026-01-11T00:00:00Z', '2026-01-13T06:00:00Z', '2026-01-14T00:00:00Z'],
      ['2026-02-20T00:00:00Z', null, null, null],
    ],
  );

  const [past1, past2] = ofType(features, 'past_vessel_locations');
  assert.equal(past1.properties.vessel_id, '44e588fb-a439-5fae-bf3f-27622a5d8d3f', "EVER GIVEN's id in the reference data");
  assert.deepEqual([past1.properties.start_time, past1.properties.end_time, past1.properties.inbound_ata_at], ['2026-01-05T00:00:00Z', '2026-01-11T00:00:00Z', '2026-01-11T00:00:00Z']);
  // Rule 4: simplified, far fewer points than the vessel reported.
  assert.ok(past1.properties.point_count < leg1.length / 4, `${past1.properties.point_count} of ${leg1.length}`);
  assert.ok(past2.properties.point_count < leg2.length / 4);
  assert.deepEqual(past1.geometry.coordinates[0], [leg1[0].longitude, leg1[0].latitude]);
  assert.equal(past2.properties.start_time, '2026-01-14T00:00:00Z');
  assert.equal(past2.properties.end_time, leg2.at(-1)!.at.toISOString().replace('.000Z', 'Z'));
  assert.ok(!past2.geometry.coordinates.some(([lon]: number[]) => lon > 139), 'no position from before the departure');

  const [vessel] = ofType(features, 'current_vessel');
  const last = leg2.at(-1)!;
  // Stored as PostgreSQL real: equal to about 1e-5 degrees (a metre).
  assert.ok(Math.abs(vessel.geometry.coordinates[0] - last.longitude) < 1e-4 && Math.abs(vessel.geometry.coordinates[1] - last.latitude) < 1e-4);
  assert.equal(vessel.properties.vessel_imo, MAERSK_B.imo);
  assert.equal(vessel.properties.vessel_name, MAERSK_B.name);
  assert.equal(vessel.properties.voyage_number, '002W');
  assert.equal(vessel.properties.vessel_location_speed, 18.5);
  assert.equal(vessel.properties.vessel_location_heading, 88);
  assert.deepEqual([vessel.properties.departure_port_label, vessel.properties.departure_port_name, vessel.properties.departure_port_atd], ['TS1', 'Singapore', '2026-01-14T00:00:00Z']);
  assert.deepEqual([vessel.properties.arrival_port_label, vessel.properties.arrival_port_name, vessel.properties.arrival_port_eta], ['POD', 'Rotterdam', '2026-02-20T00:00:00Z']);
  const [partial] = ofType(features, 'estimated_partial_leg');
  assert.equal(partial.properties.current_port_id, ports[1].location_id);
  assert.equal(partial.properties.next_port_id, ports[2].location_id);
  const end = partial.geometry.coordinates.at(-1);
  assert.ok(Math.hypot(end[0] - NLRTM[0], end[1] - NLRTM[1]) < 1, `the partial leg ends near Rotterdam, not at ${end}`);
});

test('a journey not started yet: a predicted line per leg, no track, no vessel', async () => {
  const { containerId } = await insertJourney(t.db, {
    accountId: t.accountId,
    state: { port_of_lading_locode: 'CNSHA', port_of_discharge_locode: 'NLRTM', transshipment_locodes: ['SGSIN'], pol_etd_at: '2026-03-01T00:00:00Z' },
  });
  const features = await mapOf(containerId);
  assert.deepEqual(features.map((f) => `${f.properties.feature_type}:${f.properties.ports_sequence}`), ['port:1', 'estimated_full_legs:1', 'port:2', 'estimated_full_legs:2', 'port:3']);
  const ports = ofType(features, 'port');
  const [first, second] = ofType(features, 'estimated_full_legs');
  assert.deepEqual([first.properties.previous_port_id, first.properties.next_port_id], [ports[0].properties.location_id, ports[1].properties.location_id]);
  assert.deepEqual([second.properties.previous_port_id, second.properties.next_port_id], [ports[1].properties.location_id, ports[2].properties.location_id]);
  assert.ok(second.properties.point_count > 10, 'a sea route through Malacca, Suez and Gibraltar, not a straight line');
});

test('a completed journey: tracks only, no vessel marker and nothing predicted', async () => {
  t.clock.set('2026-02-10T00:00:00Z');
  const vessel: Vessel = { imo: '9700010', name: 'DONE DEAL', mmsi: 219000010 };
  const { containerId } = await insertJourney(t.db, {
    accountId: t.accountId,
    state: { port_of_lading_locode: 'SGSIN', port_of_discharge_locode: 'NLRTM', pol_atd_at: '2026-01-01T00:00:00Z', pod_ata_at: '2026-01-28T00:00:00Z', pod_vessel_imo: vessel.imo, pod_vessel_name: vessel.name },
  });
  await insertTrack(t.db, vessel, positionsAlong(vessel, seaPath(SGSIN, NLRTM), day('2026-01-01'), day('2026-01-28'), 500));
  const features = await mapOf(containerId);
  assert.deepEqual(features.map((f) => f.properties.feature_type), ['port', 'past_vessel_locations', 'port']);
  assert.equal(features[1].properties.end_time, '2026-01-28T00:00:00Z');
});

test('rule 2: a position older than the freshness limit shows no vessel (and so no partial leg), the track stays', async () => {
  const now = new Date('2026-02-10T00:00:00Z');
  t.clock.set(now);
  const { containerId } = await insertJourney(t.db, {
    accountId: t.accountId,
    state: { port_of_lading_locode: 'SGSIN', port_of_discharge_locode: 'NLRTM', pol_atd_at: '2026-01-20T00:00:00Z', pod_vessel_imo: STALE.imo, pod_vessel_name: STALE.name },
  });
  const lastFix = new Date(now.getTime() - CURRENT_POSITION_MAX_AGE_MS - 60_000);
  const track = positionsAlong(STALE, seaPath(SGSIN, NLRTM), day('2026-01-20'), day('2026-02-15'), 800).filter((p) => p.at <= lastFix);
  await insertTrack(t.db, STALE, track);
  const features = await mapOf(containerId);
  assert.deepEqual(features.map((f) => f.properties.feature_type), ['port', 'past_vessel_locations', 'port']);

  // A fix within the limit brings the vessel back.
  t.clock.set(new Date(track.at(-1)!.at.getTime() + CURRENT_POSITION_MAX_AGE_MS));
  assert.deepEqual((await mapOf(containerId)).map((f) => f.properties.feature_type), ['port', 'past_vessel_locations', 'current_vessel', 'estimated_partial_leg', 'port']);
});

test('rule 2: departed but with no AIS position at all: no vessel, no partial leg', async () => {
  t.clock.set('2026-02-10T00:00:00Z');
  const { containerId } = await insertJourney(t.db, {
    accountId: t.accountId,
    state: { port_of_lading_locode: 'SGSIN', port_of_discharge_locode: 'NLRTM', pol_atd_at: '2026-02-01T00:00:00Z', pod_vessel_imo: '9799999', pod_vessel_name: 'SILENT' },
  });
  assert.deepEqual((await mapOf(containerId)).map((f) => f.properties.feature_type), ['port', 'port']);
});

/** A one-leg voyage at sea at `now`, the vessel having sailed `path` from `departed`, due at `due`. */
async function voyageAtSea(vessel: Vessel, from: string, to: string, path: Line, departed: Date, due: Date, now: Date) {
  t.clock.set(now);
  const { containerId } = await insertJourney(t.db, {
    accountId: t.accountId,
    state: { port_of_lading_locode: from, port_of_discharge_locode: to, pol_atd_at: departed.toISOString(), pod_eta_at: due.toISOString(), pod_vessel_imo: vessel.imo, pod_vessel_name: vessel.name },
  });
  await insertTrack(t.db, vessel, positionsAlong(vessel, path, departed, due, 4000).filter((p) => p.at <= now));
  return mapOf(containerId);
}

test('rule 5, eastbound across the Pacific (Shanghai → Los Angeles), past the date line: the track jumps, the way ahead does not', async () => {
  const features = await voyageAtSea(PACIFIC_E, 'CNSHA', 'USLAX', seaPath(CNSHA, USLAX), day('2026-01-01'), day('2026-01-14'), day('2026-01-10'));
  const [past] = ofType(features, 'past_vessel_locations');
  const [vessel] = ofType(features, 'current_vessel');
  const [partial] = ofType(features, 'estimated_partial_leg');
  assert.ok(vessel.geometry.coordinates[0] < 0, 'the vessel is east of 180');
  assert.equal(jumps(past.geometry.coordinates), 1);
  const jump = past.geometry.coordinates.findIndex((c: number[], i: number, all: number[][]) => i > 0 && Math.abs(c[0] - all[i - 1][0]) > 180);
  assert.ok(past.geometry.coordinates[jump - 1][0] > 0 && past.geometry.coordinates[jump][0] < 0, 'from east longitudes to west ones');
  assert.equal(jumps(partial.geometry.coordinates), 0);
});

test('rule 5, westbound across the Pacific (Los Angeles → Shanghai), before the date line and not started', async () => {
  const features = await voyageAtSea(PACIFIC_W, 'USLAX', 'CNSHA', seaPath(USLAX, CNSHA), day('2026-01-01'), day('2026-01-14'), day('2026-01-04'));
  const [past] = ofType(features, 'past_vessel_locations');
  const [partial] = ofType(features, 'estimated_partial_leg');
  assert.ok(ofType(features, 'current_vessel')[0].geometry.coordinates[0] < 0, 'still east of 180');
  assert.equal(jumps(past.geometry.coordinates), 0);
  assert.equal(jumps(partial.geometry.coordinates), 1);
  const jump = partial.geometry.coordinates.findIndex((c: number[], i: number, all: number[][]) => i > 0 && Math.abs(c[0] - all[i - 1][0]) > 180);
  assert.ok(partial.geometry.coordinates[jump - 1][0] < 0 && partial.geometry.coordinates[jump][0] > 0, 'from west longitudes to east ones');

  const { containerId } = await insertJourney(t.db, { accountId: t.accountId, state: { port_of_lading_locode: 'USLAX', port_of_discharge_locode: 'CNSHA' } });
  const [full] = ofType(await mapOf(containerId), 'estimated_full_legs');
  assert.equal(jumps(full.geometry.coordinates), 1);
});

test('rule 6: no route data → an empty FeatureCollection', async () => {
  for (const state of [{}, { port_of_lading_locode: 'CNSHA' }]) {
    const { containerId } = await insertJourney(t.db, { accountId: t.accountId, state });
    const res = await t.request('GET', `/v2/containers/${containerId}/map_geojson`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { type: 'FeatureCollection', features: [] });
    check(res.text);
  }
});

test("another account's container, an unknown id and a malformed id are 404 (JSON:API errors)", async () => {
  const { containerId } = await insertJourney(t.db, { accountId: t.accountId, state: { port_of_lading_locode: 'CNSHA', port_of_discharge_locode: 'USLAX' } });
  const other = await t.newAccount('other');
  for (const [id, key] of [[containerId, other.key], [randomUUID(), t.key], ['not-a-uuid', t.key]]) {
    const res = await t.request('GET', `/v2/containers/${id}/map_geojson`, { key });
    assert.equal(res.status, 404);
    assert.equal(res.body.errors[0].status, '404');
  }
});

/**
 * The map as a server that has kept nothing draws it: the service called on a Queryable of its
 * own (tracks are kept per pool object) over the same database, at the same instant.
 */
async function mapFromScratch(containerId: string): Promise<any[]> {
  const map = await containerRouteMap({ query: t.db.query.bind(t.db) }, t.clock.now(), t.accountId, containerId);
  return JSON.parse(JSON.stringify(map)).features;
}

const hasPoint = (feature: any, [lon, lat]: [number, number]) => feature.geometry.coordinates.some((c: number[]) => Math.abs(c[0] - lon) < 1e-4 && Math.abs(c[1] - lat) < 1e-4);

test('kept tracks: the leg at sea grows, reports stored late show, an arrived leg stays right and settles a day after arrival', async () => {
  const arrived = new Date('2026-01-11T00:00:00Z');
  const departed = new Date('2026-01-11T06:00:00Z');
  const { containerId } = await insertJourney(t.db, {
    accountId: t.accountId,
    state: { port_of_lading_locode: 'CNSHA', port_of_discharge_locode: 'NLRTM', transshipment_locodes: ['SGSIN'], pol_atd_at: '2026-01-05T00:00:00Z', pod_eta_at: '2026-02-20T00:00:00Z' },
    milestones: [
      { event: 'vessel_departed', at: '2026-01-05T00:00:00Z', locode: 'CNSHA', vessel: KEEP_A },
      { event: 'transshipment_arrived', at: arrived.toISOString(), locode: 'SGSIN', vessel: KEEP_A },
      { event: 'transshipment_departed', at: departed.toISOString(), locode: 'SGSIN', vessel: KEEP_B },
    ],
  });
  const legA = positionsAlong(KEEP_A, seaPath(CNSHA, SGSIN), day('2026-01-05'), arrived, 600);
  const legB = positionsAlong(KEEP_B, seaPath(SGSIN, NLRTM), departed, day('2026-02-20'), 4000);
  const reportedBy = (at: Date) => legB.filter((p) => p.at <= at);
  await insertTrack(t.db, KEEP_A, legA);
  /** A report far off the line, at a time between two stored ones, as satellite AIS might deliver it hours later. */
  const lateReport = (vessel: Vessel, at: string, lonLat: [number, number]) =>
    insertTrack(t.db, vessel, [{ mmsi: vessel.mmsi, at: new Date(at), longitude: lonLat[0], latitude: lonLat[1], speedKnots: 18, courseDegrees: 0, headingDegrees: 0 }]);
  const pastOf = (features: any[], sequence: number) => ofType(features, 'past_vessel_locations').find((f) => f.properties.ports_sequence === sequence);

  // Half a day after the arrival: the second vessel has just left Singapore.
  t.clock.set('2026-01-11T12:00:00Z');
  await insertTrack(t.db, KEEP_B, reportedBy(t.clock.now()));
  const first = await mapOf(containerId);
  assert.deepEqual(first, await mapFromScratch(containerId));

  // Not settled yet: a late report of the arrived leg is drawn.
  await lateReport(KEEP_A, '2026-01-08T00:01:00Z', [112, 10]);
  t.clock.set('2026-01-11T13:00:00Z');
  const withLateA = await mapOf(containerId);
  assert.ok(hasPoint(pastOf(withLateA, 1), [112, 10]), 'the late report of the arrived leg is on its track');
  assert.deepEqual(withLateA, await mapFromScratch(containerId));

  // Nine days on: the leg at sea has grown; the arrived leg's track is the same.
  t.clock.set('2026-01-20T00:00:00Z');
  await insertTrack(t.db, KEEP_B, reportedBy(t.clock.now()));
  const later = await mapOf(containerId);
  assert.deepEqual(later, await mapFromScratch(containerId));
  assert.deepEqual(pastOf(later, 1), pastOf(withLateA, 1));
  assert.equal(pastOf(later, 2).properties.end_time, reportedBy(t.clock.now()).at(-1)!.at.toISOString().replace('.000Z', 'Z'));
  assert.ok(pastOf(later, 2).properties.point_count > pastOf(withLateA, 2).properties.point_count);

  // A report stored late inside the leg at sea's kept track is drawn.
  await lateReport(KEEP_B, '2026-01-15T00:01:00Z', [75, -5]);
  t.clock.set('2026-01-20T01:00:00Z');
  const withLateB = await mapOf(containerId);
  assert.ok(hasPoint(pastOf(withLateB, 2), [75, -5]), 'the late report of the leg at sea is on its track');
  assert.deepEqual(withLateB, await mapFromScratch(containerId));

  // Settled (checked more than a day after its arrival), the arrived leg is drawn from memory:
  // a report delivered later still is left off, as the settling time says.
  assert.ok(t.clock.now().getTime() - arrived.getTime() > ARRIVED_TRACK_SETTLES_MS);
  await lateReport(KEEP_A, '2026-01-09T00:01:00Z', [108, 0]);
  t.clock.set('2026-01-20T02:00:00Z');
  const settled = await mapOf(containerId);
  assert.deepEqual(pastOf(settled, 1), pastOf(withLateA, 1));
  assert.ok(hasPoint(pastOf(await mapFromScratch(containerId), 1), [108, 0]), 'a server that kept nothing would draw it');
});
