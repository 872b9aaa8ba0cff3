// The AIS store: positions are found by the vessel's IMO number through the MMSI its static
// reports give, the newest report wins, and a position stored twice stays one.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { insertVesselPositions, latestPositionOfImo, mmsiOfImo, upsertAisIdentity, vesselTrackOfImo, vesselTracksOfImos, type VesselPosition } from '../src/store/vessel-positions.ts';
import { freshDatabase, type TestDatabase } from './support/database.ts';

let t: TestDatabase;
before(async () => void (t = await freshDatabase()));
after(() => t.drop());

const at = (iso: string) => new Date(iso);
const position = (mmsi: number, iso: string, lat: number, lon: number): VesselPosition => ({
  mmsi,
  at: at(iso),
  latitude: lat,
  longitude: lon,
  speedKnots: 17.5,
  courseDegrees: 91.2,
  headingDegrees: 90,
});

test('positions are read by IMO through the MMSI the newest static report names', async () => {
  assert.equal(await mmsiOfImo(t.db, '9811000'), null, 'no report, no reference MMSI');
  await upsertAisIdentity(t.db, { mmsi: 353136000, imo: '9811000', name: 'EVER GIVEN', callSign: 'H3RC', shipType: 70, destination: 'NLRTM', at: at('2026-03-01T00:00:00Z') });
  assert.equal(await mmsiOfImo(t.db, '9811000'), 353136000);

  const stored = await insertVesselPositions(t.db, [
    position(353136000, '2026-03-01T00:00:00Z', 1.25, 103.8),
    position(353136000, '2026-03-01T00:05:00Z', 1.3, 103.9),
    position(353136000, '2026-03-01T00:05:00Z', 9, 9), // the same instant again: kept once
    position(111111111, '2026-03-01T00:05:00Z', 5, 5), // another vessel
  ]);
  assert.equal(stored, 3);

  const track = await vesselTrackOfImo(t.db, '9811000', at('2026-03-01T00:00:00Z'), at('2026-03-01T01:00:00Z'));
  assert.deepEqual(track.map((p) => [p.at.toISOString(), p.latitude, p.longitude]), [
    ['2026-03-01T00:00:00.000Z', 1.25, 103.8],
    ['2026-03-01T00:05:00.000Z', 1.3, 103.9],
  ]);
  assert.equal(track[0].speedKnots, 17.5);
  assert.equal(track[0].headingDegrees, 90);

  // Several vessels in one statement: each its own track from its own start, in the order asked; an unknown IMO, none.
  const tracks = await vesselTracksOfImos(t.db, [
    { imo: '9000001', from: at('2026-03-01T00:00:00Z') },
    { imo: '9811000', from: at('2026-03-01T00:01:00Z') },
    { imo: '9811000', from: at('2026-03-01T00:00:00Z') },
  ], at('2026-03-01T01:00:00Z'));
  assert.deepEqual(tracks.map((tr) => tr.map((p) => p.at.toISOString())), [[], ['2026-03-01T00:05:00.000Z'], ['2026-03-01T00:00:00.000Z', '2026-03-01T00:05:00.000Z']]);
  assert.deepEqual(tracks[2], track);

  const latest = await latestPositionOfImo(t.db, '9811000', at('2026-03-01T00:04:00Z'));
  assert.equal(latest?.at.toISOString(), '2026-03-01T00:00:00.000Z');
  assert.equal(await latestPositionOfImo(t.db, '9811000', at('2026-02-01T00:00:00Z')), null);
});

test('an older static report does not overwrite a newer one, and missing fields keep what was known', async () => {
  await upsertAisIdentity(t.db, { mmsi: 222000001, imo: '9321483', name: 'EMMA MAERSK', callSign: null, shipType: 71, destination: 'CNSHA', at: at('2026-03-02T00:00:00Z') });
  await upsertAisIdentity(t.db, { mmsi: 222000001, imo: '9999999', name: 'OLD', callSign: null, shipType: null, destination: null, at: at('2026-03-01T00:00:00Z') });
  assert.equal(await mmsiOfImo(t.db, '9321483'), 222000001);
  assert.equal(await mmsiOfImo(t.db, '9999999'), null);
  // A type 24 part A names the vessel without an IMO number: the IMO stays.
  await upsertAisIdentity(t.db, { mmsi: 222000001, imo: null, name: 'EMMA MAERSK', callSign: 'OYGR2', shipType: null, destination: null, at: at('2026-03-03T00:00:00Z') });
  assert.equal(await mmsiOfImo(t.db, '9321483'), 222000001);
});
