// The AIS position retention rule on PostgreSQL: full resolution for a while, then one position
// per vessel per hour, then none; each run thins only what came of age since the last.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { applyRetention } from '../src/ais/retention.ts';
import { DAY, HOUR, MINUTE } from '../src/domain/time-units.ts';
import { insertVesselPositions, upsertAisIdentity, vesselTrackOfImo, type VesselPosition } from '../src/store/vessel-positions.ts';
import { freshDatabase, type TestDatabase } from './support/database.ts';

let t: TestDatabase;
before(async () => void (t = await freshDatabase()));
after(() => t.drop());

const times = (positions: VesselPosition[]) => positions.map((p) => p.at.toISOString());

test('retention: full resolution for a while, then one per vessel per hour, then deleted; each hour thinned once', async () => {
  const mmsi = 563000001;
  const imo = '9321483';
  await upsertAisIdentity(t.db, { mmsi, imo, name: 'EMMA MAERSK', callSign: null, shipType: 71, destination: null, at: new Date('2026-01-01Z') });
  const now = new Date('2026-06-01T00:00:00Z');
  const ago = (ms: number) => new Date(now.getTime() - ms);
  const at = (ms: number): VesselPosition => ({ mmsi, at: ago(ms), latitude: 1, longitude: 2, speedKnots: 10, courseDegrees: 0, headingDegrees: null });
  const fiveMinutes = (fromAgo: number, count: number) => Array.from({ length: count }, (_, i) => at(fromAgo - i * 5 * MINUTE));
  await insertVesselPositions(t.db, [
    ...fiveMinutes(400 * DAY, 3), // older than a year: deleted
    ...fiveMinutes(40 * DAY, 24), // two hours, 40 days ago: one each
    ...fiveMinutes(2 * DAY, 24), // recent: all kept
  ]);
  const rule = { fullResolutionMs: 30 * DAY, keepMs: 365 * DAY };
  const all = () => vesselTrackOfImo(t.db, imo, new Date('2000-01-01Z'), now);

  assert.deepEqual(await applyRetention(t.db, now, rule), { thinned: 22, deleted: 3 });
  const kept = await all();
  assert.equal(kept.length, 2 + 24);
  assert.deepEqual(times(kept.slice(0, 2)), [ago(40 * DAY).toISOString(), ago(40 * DAY - HOUR).toISOString()]);

  // A late position in an hour already thinned stays (thinning does not go back); the next run
  // moves on only as far as time has.
  await insertVesselPositions(t.db, [at(40 * DAY - 10 * MINUTE)]);
  assert.deepEqual(await applyRetention(t.db, now, rule), { thinned: 0, deleted: 0 });
  // 29 days later the recent positions are old enough: thinned to their two hours.
  assert.deepEqual(await applyRetention(t.db, new Date(now.getTime() + 29 * DAY), rule), { thinned: 22, deleted: 0 });
  assert.equal((await all()).length, 2 + 1 + 2);
});
