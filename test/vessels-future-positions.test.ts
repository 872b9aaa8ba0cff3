// The predicted path of a vessel to a port: one position a minute at its reported speed along the
// sea route, ending on the port; from its latest AIS report, or from given coordinates at now.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SvcClient } from '../sdk/src/index.ts';
import { haversineKm } from '../src/geo/distance.ts';
import { DEFAULT_SPEED_KNOTS, MAX_FUTURE_POSITIONS } from '../src/services/vessels.ts';
import { findPort } from '../src/store/reference.ts';
import { insertVesselPositions, upsertAisIdentity } from '../src/store/vessel-positions.ts';
import type { TestApp } from './support/app.ts';
import { checkedAppForFile, type OpenApiChecker } from './support/openapi.ts';

let t: TestApp;
let checker: OpenApiChecker;
checkedAppForFile((app, check) => {
  t = app;
  checker = check;
});

const IMO = '9811000';
const MMSI = 353136000;
const REPORTED_AT = '2026-11-22T11:40:00.000Z'; // 20 minutes before the test clock's now
const NOW = '2026-11-22T12:00:00.000Z';
const port = async (locode: string) => (await findPort(t.db, locode))!;
const future = (query: string) => checker.call('GET', `/v2/vessels/${IMO}/future_positions?${query}`, '/v2/vessels/{id}/future_positions');
const fromCoordinates = (query: string) =>
  checker.call('GET', `/v2/vessels/${IMO}/future_positions_with_coordinates?${query}`, '/v2/vessels/{id}/future_positions_with_coordinates');

/** Every position a minute after the one before, none further than a minute's steaming from it. */
function assertMinuteSpacing(positions: any[], speedKnots: number) {
  const stepKm = (speedKnots * 1.852) / 60;
  for (let i = 1; i < positions.length; i++) {
    assert.equal(Date.parse(positions[i].timestamp) - Date.parse(positions[i - 1].timestamp), 60_000, `position ${i}`);
    const km = haversineKm([positions[i - 1].longitude, positions[i - 1].latitude], [positions[i].longitude, positions[i].latitude]);
    // Coordinates have six decimals (about 10 cm): half a metre of slack.
    assert.ok(km <= stepKm + 0.0005, `position ${i} is ${km} km from the one before (step ${stepKm})`);
  }
  // On open water the route runs straight for long stretches: there, a minute is a full step.
  const fullSteps = positions.slice(1, -1).filter((p, i) => Math.abs(haversineKm([positions[i].longitude, positions[i].latitude], [p.longitude, p.latitude]) - stepKm) < 0.001);
  assert.ok(fullSteps.length > positions.length * 0.9, `${fullSteps.length} of ${positions.length} steps are full`);
  assert.ok(positions.every((p) => p.estimated === true && typeof p.heading === 'number'));
}

test('from the latest report: starts there at its time, a minute apart at its speed, ends on the port', async () => {
  const [rotterdam, hamburg] = [await port('NLRTM'), await port('DEHAM')];
  await upsertAisIdentity(t.db, { mmsi: MMSI, imo: IMO, name: 'EVER GIVEN', callSign: null, shipType: 70, destination: 'NLRTM', at: new Date(REPORTED_AT) });
  // In the North Sea off the Frisian islands, bound west for Rotterdam.
  await insertVesselPositions(t.db, [{ mmsi: MMSI, at: new Date(REPORTED_AT), latitude: 53.9, longitude: 6.5, speedKnots: 18, courseDegrees: 250, headingDegrees: 251 }]);

  const res = await future(`port_id=${rotterdam.id}&previous_port_id=${hamburg.id}`);
  assert.equal(res.status, 200, res.text);
  const { positions, latitude, longitude, position_timestamp } = res.body.data.attributes;
  assert.deepEqual([latitude, longitude, position_timestamp], [53.9, 6.5, REPORTED_AT], 'the vessel as it stands');
  assert.deepEqual([positions[0].latitude, positions[0].longitude, positions[0].timestamp], [53.9, 6.5, REPORTED_AT]);
  const last = positions.at(-1);
  assert.deepEqual([last.latitude, last.longitude], [rotterdam.latitude, rotterdam.longitude], 'the path ends on the port');
  assertMinuteSpacing(positions, 18);
  assert.equal(res.body.meta.speed_knots, 18);
  assert.equal(res.body.meta.truncated, false);
  assert.equal(res.body.meta.arrival_at, last.timestamp);
  // About 150 nm at 18 knots: some 8 hours of minutes.
  assert.ok(positions.length > 400 && positions.length < 700, `${positions.length} positions`);
  assert.equal(res.body.links.self, `${t.baseUrl}/v2/vessels/${IMO}/future_positions?port_id=${rotterdam.id}&previous_port_id=${hamburg.id}`);
});

test('from given coordinates: starts there at now; a speed that is no passage speed gives way to the default', async () => {
  const [rotterdam, hamburg] = [await port('NLRTM'), await port('DEHAM')];
  await insertVesselPositions(t.db, [{ mmsi: MMSI, at: new Date('2026-11-22T11:50:00Z'), latitude: 53.9, longitude: 6.6, speedKnots: 0.2, courseDegrees: null, headingDegrees: null }]);
  const res = await fromCoordinates(`port_id=${rotterdam.id}&previous_port_id=${hamburg.id}&latitude=53.5&longitude=4.25`);
  assert.equal(res.status, 200, res.text);
  const { positions } = res.body.data.attributes;
  assert.deepEqual([positions[0].latitude, positions[0].longitude, positions[0].timestamp], [53.5, 4.25, NOW]);
  assert.deepEqual([positions.at(-1).latitude, positions.at(-1).longitude], [rotterdam.latitude, rotterdam.longitude]);
  assert.equal(res.body.meta.speed_knots, DEFAULT_SPEED_KNOTS);
  assertMinuteSpacing(positions, DEFAULT_SPEED_KNOTS);
});

test('a Pacific crossing is one path across the antimeridian; a crawl that would outlast 30 days is cut and says so', async () => {
  const [shanghai, losAngeles] = [await port('CNSHA'), await port('USLAX')];
  const res = await fromCoordinates(`port_id=${losAngeles.id}&previous_port_id=${shanghai.id}&latitude=31&longitude=123`);
  assert.equal(res.status, 200);
  const { positions } = res.body.data.attributes;
  assertMinuteSpacing(positions, DEFAULT_SPEED_KNOTS);
  assert.deepEqual([positions.at(-1).latitude, positions.at(-1).longitude], [losAngeles.latitude, losAngeles.longitude]);
  assert.ok(positions.some((p: any, i: number) => i > 0 && Math.abs(p.longitude - positions[i - 1].longitude) > 180), 'it crosses the antimeridian');
  assert.ok(res.body.meta.distance_nm > 5000 && res.body.meta.distance_nm < 6500, `${res.body.meta.distance_nm} nm`);
  assert.ok(positions.length > 20_000 && positions.length < MAX_FUTURE_POSITIONS, `${positions.length} positions`);

  // Rotterdam to Los Angeles at 4 knots (a passage speed, barely): months of minutes.
  await insertVesselPositions(t.db, [{ mmsi: MMSI, at: new Date('2026-11-22T11:55:00Z'), latitude: 51.95, longitude: 3.9, speedKnots: 4, courseDegrees: 270, headingDegrees: 270 }]);
  const crawl = await future(`port_id=${losAngeles.id}&previous_port_id=${shanghai.id}`);
  assert.equal(crawl.status, 200);
  assert.equal(crawl.body.data.attributes.positions.length, MAX_FUTURE_POSITIONS);
  assert.equal(crawl.body.meta.truncated, true);
  assert.ok(Date.parse(crawl.body.meta.arrival_at) > Date.parse(crawl.body.data.attributes.positions.at(-1).timestamp), 'the arrival is after the cut');
});

test('port_id and previous_port_id are required port ids; coordinates in range; unknown ones are 404s', async () => {
  const [rotterdam, hamburg] = [(await port('NLRTM')).id, (await port('DEHAM')).id];
  const unknown = '00000000-0000-4000-8000-000000000000';
  const bad: [string, string][] = [
    [`previous_port_id=${hamburg}`, 'port_id'],
    [`port_id=${rotterdam}`, 'previous_port_id'],
    [`port_id=NLRTM&previous_port_id=${hamburg}`, 'port_id'],
    [`port_id=${rotterdam}&previous_port_id=${hamburg}&port_id=${rotterdam}`, 'port_id'],
  ];
  for (const [query, parameter] of bad) {
    const res = await future(query);
    assert.equal(res.status, 400, query);
    assert.equal(res.body.errors[0].source.parameter, parameter, query);
  }
  const badCoordinates: [string, string][] = [
    ['latitude=91&longitude=4', 'latitude'],
    ['latitude=53&longitude=east', 'longitude'],
    ['latitude=53', 'longitude'],
    ['latitude=0x10&longitude=4', 'latitude'],
  ];
  for (const [query, parameter] of badCoordinates) {
    const res = await fromCoordinates(`port_id=${rotterdam}&previous_port_id=${hamburg}&${query}`);
    assert.equal(res.status, 400, query);
    assert.equal(res.body.errors[0].source.parameter, parameter, query);
  }
  assert.equal((await future(`port_id=${unknown}&previous_port_id=${hamburg}`)).status, 404);
  assert.equal((await future(`port_id=${rotterdam}&previous_port_id=${unknown}`)).status, 404);
  const noVessel = await checker.call('GET', `/v2/vessels/1234567/future_positions?port_id=${rotterdam}&previous_port_id=${hamburg}`, '/v2/vessels/{id}/future_positions');
  assert.equal(noVessel.status, 404);
});

test('the SDK: vessels.futurePositions gives the vessel with its path and the meta; vessels.get takes the track window', async () => {
  const client = new SvcClient({ baseUrl: t.baseUrl, token: t.key });
  const [rotterdam, hamburg] = [(await port('NLRTM')).id, (await port('DEHAM')).id];
  const { vessel, meta } = await client.vessels.futurePositions(IMO, { port_id: rotterdam, previous_port_id: hamburg });
  assert.equal(vessel.imo, IMO);
  assert.equal(vessel.positions.at(-1)?.timestamp, meta.arrival_at);
  const fromHere = await client.vessels.futurePositionsWithCoordinates(IMO, { port_id: rotterdam, previous_port_id: hamburg, latitude: 53.5, longitude: 4.25 });
  assert.equal(fromHere.vessel.positions[0].timestamp, NOW);
  const tracked = await client.vessels.get(IMO, { 'show_positions[from_timestamp]': '2026-11-22T11:00:00Z' });
  assert.deepEqual(tracked.positions?.map((p) => p.timestamp), [REPORTED_AT, '2026-11-22T11:50:00.000Z', '2026-11-22T11:55:00.000Z']);
});

test("the speed assumed is the vessel's over ground in its last hours, not its latest report's", async () => {
  const [rotterdam, hamburg] = [await port('NLRTM'), await port('DEHAM')];
  const imo = '9893890';
  const mmsi = 477000002;
  await upsertAisIdentity(t.db, { mmsi, imo, name: 'EVER ACE', callSign: null, shipType: 70, destination: 'NLRTM', at: new Date('2026-11-22T08:00:00Z') });
  // Westward along 54° N at 12 knots (0.34° of longitude an hour there); the latest report says 20.
  const hours = [8, 9, 10, 11];
  await insertVesselPositions(
    t.db,
    hours.map((h, i) => ({ mmsi, at: new Date(`2026-11-22T${String(h).padStart(2, '0')}:00:00Z`), latitude: 54, longitude: 7.5 - i * 0.34, speedKnots: i === 3 ? 20 : 12, courseDegrees: 270, headingDegrees: 270 })),
  );
  const res = await checker.call('GET', `/v2/vessels/${imo}/future_positions?port_id=${rotterdam.id}&previous_port_id=${hamburg.id}`, '/v2/vessels/{id}/future_positions');
  assert.equal(res.status, 200, res.text);
  assert.ok(Math.abs(res.body.meta.speed_knots - 12) < 0.2, `${res.body.meta.speed_knots} knots`);
  const [first] = res.body.data.attributes.positions;
  assert.deepEqual([first.latitude, first.longitude, first.timestamp], [54, 6.48, '2026-11-22T11:00:00.000Z'], 'from the vessel, at its latest report');
});
