// GET /v2/vessels/{id|imo}: the latest AIS position in the attributes, and the track over a window
// when show_positions asks for one (default: the 7 days to now, on the API's clock).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { insertVesselPositions, upsertAisIdentity, type VesselPosition } from '../src/store/vessel-positions.ts';
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
const HOUR = 3_600_000;
// The test app's clock stands at 2026-11-22T12:00:00Z.
const hoursAgo = (h: number) => new Date(Date.parse('2026-11-22T12:00:00Z') - h * HOUR);
const report = (at: Date, lat: number, lon: number, extra: Partial<VesselPosition> = {}): VesselPosition => ({
  mmsi: MMSI,
  at,
  latitude: lat,
  longitude: lon,
  speedKnots: 16.5,
  courseDegrees: 45.5,
  headingDegrees: 44,
  ...extra,
});
const vessel = (query = '') => checker.call('GET', `/v2/vessels/${IMO}${query}`, '/v2/vessels/{id}');

test('without AIS data a vessel has no position, and no positions member unless asked for', async () => {
  const res = await vessel();
  assert.equal(res.status, 200);
  const a = res.body.data.attributes;
  assert.deepEqual([a.latitude, a.longitude, a.nautical_speed_knots, a.navigational_heading_degrees, a.position_timestamp], [null, null, null, null, null]);
  assert.ok(!('positions' in a));
});

test('the latest report at or before now fills the position attributes; its MMSI is the AIS one', async () => {
  await upsertAisIdentity(t.db, { mmsi: MMSI, imo: IMO, name: 'EVER GIVEN', callSign: null, shipType: 70, destination: 'NLRTM', at: hoursAgo(200) });
  await insertVesselPositions(t.db, [
    report(hoursAgo(24 * 8), 10, 60), // outside the default window
    report(hoursAgo(24 * 6), 12, 62),
    report(hoursAgo(1), 12.5, 62.25, { headingDegrees: null, courseDegrees: 91.6 }), // no heading: the course stands in
    report(new Date(Date.parse('2026-11-22T12:30:00Z')), 13, 63), // after now: not yet
  ]);
  const a = (await vessel()).body.data.attributes;
  assert.deepEqual(
    { mmsi: a.mmsi, latitude: a.latitude, longitude: a.longitude, speed: a.nautical_speed_knots, heading: a.navigational_heading_degrees, at: a.position_timestamp },
    { mmsi: String(MMSI), latitude: 12.5, longitude: 62.25, speed: 16.5, heading: 91.6, at: hoursAgo(1).toISOString() },
  );
  // By id as by IMO.
  const byId = await checker.call('GET', `/v2/vessels/${(await vessel()).body.data.id}`, '/v2/vessels/{id}');
  assert.equal(byId.body.data.attributes.position_timestamp, hoursAgo(1).toISOString());
});

test('show_positions: the 7 days to now by default, oldest first, reported (not estimated)', async () => {
  const expected = [
    { latitude: 12, longitude: 62, heading: 44, timestamp: hoursAgo(24 * 6).toISOString(), estimated: false },
    { latitude: 12.5, longitude: 62.25, heading: 92, timestamp: hoursAgo(1).toISOString(), estimated: false },
  ];
  assert.deepEqual((await vessel('?show_positions=true')).body.data.attributes.positions, expected);
  // Either bound alone asks for the track too; the other takes its default.
  assert.deepEqual((await vessel(`?show_positions[to_timestamp]=${hoursAgo(0).toISOString()}`)).body.data.attributes.positions, expected);
  assert.deepEqual((await vessel(`?show_positions[from_timestamp]=${hoursAgo(24 * 6).toISOString()}`)).body.data.attributes.positions, expected);
});

test('an explicit window keeps exactly the reports within it, bounds included, brackets encoded or not', async () => {
  const from = hoursAgo(24 * 9).toISOString();
  const to = hoursAgo(24 * 6).toISOString();
  const raw = await vessel(`?show_positions[from_timestamp]=${from}&show_positions[to_timestamp]=${to}`);
  assert.deepEqual(raw.body.data.attributes.positions.map((p: any) => p.timestamp), [hoursAgo(24 * 8).toISOString(), to]);
  const encoded = await vessel(`?show_positions%5Bfrom_timestamp%5D=${from}&show_positions%5Bto_timestamp%5D=${to}`);
  assert.deepEqual(encoded.body.data.attributes.positions, raw.body.data.attributes.positions);
  // A window with nothing in it is an empty track, not an absent one.
  assert.deepEqual((await vessel('?show_positions[from_timestamp]=2020-01-01T00:00:00Z&show_positions[to_timestamp]=2020-01-02T00:00:00Z')).body.data.attributes.positions, []);
});

test('bad windows are 400s naming the parameter', async () => {
  const cases: [string, string][] = [
    ['?show_positions[from_timestamp]=yesterday', 'show_positions[from_timestamp]'],
    ['?show_positions[to_timestamp]=2026-13-45T00:00:00Z', 'show_positions[to_timestamp]'],
    ['?show_positions[from_timestamp]=2026-11-22T00:00:00Z&show_positions[to_timestamp]=2026-11-21T00:00:00Z', 'show_positions[from_timestamp]'],
    ['?show_positions[from_timestamp]=2026-01-01T00:00:00Z', 'show_positions[from_timestamp]'], // over 31 days
    ['?show_positions=maybe', 'show_positions'],
  ];
  for (const [query, parameter] of cases) {
    const res = await vessel(query);
    assert.equal(res.status, 400, query);
    assert.equal(res.body.errors[0].source.parameter, parameter, query);
  }
});

test('an unknown vessel is a 404 whatever is asked', async () => {
  assert.equal((await checker.call('GET', '/v2/vessels/1234567?show_positions=true', '/v2/vessels/{id}')).status, 404);
});
