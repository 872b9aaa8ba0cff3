// The AIS rules on their own: what counts as a stop in the port area, which voyage a stop belongs
// to, the average speed and ETA, IMO numbers; and the learned-vessels lookup the AIS ingester uses.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { arrivalInPortArea, arrivalIsThisVoyage, type AisFix } from '../src/domain/tracking/ais-arrival.ts';
import { aisEta, averageSpeedKnots } from '../src/domain/tracking/ais-eta.ts';
import { isValidImo, normaliseImo } from '../src/domain/tracking/ais-vessels.ts';
import { HOUR, MINUTE } from '../src/domain/time-units.ts';
import { haversineNm } from '../src/geo/distance.ts';
import { knownVesselImos, learnVessels } from '../src/store/learned-vessels.ts';
import { freshDatabase, type TestDatabase } from './support/database.ts';

const distance = (a: readonly [number, number], b: readonly [number, number]) => haversineNm(a, b);
const T0 = Date.parse('2026-07-01T00:00:00Z');
const LA: [number, number] = [-118.27, 33.74];
const OAKLAND: [number, number] = [-122.3, 37.8];

/** Fixes every 10 minutes from T0 at `where(i)` with the reported speed `speed(i)`. */
function track(n: number, where: (i: number) => [number, number], speed: (i: number) => number | null): AisFix[] {
  return Array.from({ length: n }, (_, i) => ({ at: new Date(T0 + i * 10 * MINUTE), lon: where(i)[0], lat: where(i)[1], speedKnots: speed(i) }));
}
/** 2 nm per fix (12 kn) eastward along the latitude of LA, starting 40 nm west of it. */
const passing = (i: number): [number, number] => [LA[0] + (-40 + 2 * i) / (60 * Math.cos((LA[1] * Math.PI) / 180)), LA[1] - 0.05];

describe('arrival in the port area', () => {
  test('a vessel passing through the area at speed does not arrive', () => {
    assert.equal(arrivalInPortArea(track(40, passing, () => 12), LA, distance), null);
  });

  test('a vessel stopped at another port does not arrive here', () => {
    assert.equal(arrivalInPortArea(track(30, () => OAKLAND, () => 0), LA, distance), null);
  });

  test('slowing for the pilot, or stopping for less than 30 minutes, is not an arrival', () => {
    assert.equal(arrivalInPortArea(track(30, () => LA, () => 3), LA, distance), null);
    assert.equal(arrivalInPortArea(track(3, () => LA, () => 0.2), LA, distance), null, '20 minutes');
  });

  test('a sustained stop inside the area is, timed from its first report; outside the radius is not', () => {
    const fixes = [...track(10, passing, () => 12), ...track(6, () => LA, () => 0.3).map((f, i) => ({ ...f, at: new Date(T0 + (10 + i) * 10 * MINUTE) }))];
    const arrival = arrivalInPortArea(fixes, LA, distance);
    assert.deepEqual(arrival && [arrival.arrivedAt.getTime(), arrival.confirmedAt.getTime()], [T0 + 100 * MINUTE, T0 + 130 * MINUTE]);
    const anchorage: [number, number] = [LA[0], LA[1] - 20 / 60];
    assert.equal(arrivalInPortArea(track(10, () => anchorage, () => 0), LA, distance), null, '20 nm out');
  });

  test('without reported speeds the speed comes from the track', () => {
    assert.ok(arrivalInPortArea(track(6, () => LA, () => null), LA, distance));
    assert.equal(arrivalInPortArea(track(40, passing, () => null), LA, distance), null);
  });

  test("a stop counts for this voyage only after departure and near the carrier's ETA", () => {
    const state = { pol_atd_at: '2026-06-01T00:00:00Z', pod_eta_at: '2026-07-01T00:00:00Z', transshipment_locodes: [] };
    assert.equal(arrivalIsThisVoyage(state, new Date('2026-06-30T00:00:00Z')), true);
    assert.equal(arrivalIsThisVoyage(state, new Date('2026-06-20T00:00:00Z')), false, 'an earlier rotation of the vessel');
    assert.equal(arrivalIsThisVoyage({ ...state, pod_eta_at: null }, new Date('2026-06-20T00:00:00Z')), true, 'direct, no ETA');
    assert.equal(arrivalIsThisVoyage({ ...state, pod_eta_at: null, transshipment_locodes: ['SGSIN'] }, new Date('2026-06-20T00:00:00Z')), false);
    assert.equal(arrivalIsThisVoyage(state, new Date('2026-05-30T00:00:00Z')), false, 'before departure');
  });
});

describe('ETA from distance and speed', () => {
  test('the speed is an average over the window, weighted by time, not the last report', () => {
    // Five hours at 18 kn, then one report of 6 kn (slowing for traffic).
    const fixes = track(32, passing, (i) => (i < 31 ? 18 : 6));
    const avg = averageSpeedKnots(fixes, distance)!;
    assert.ok(avg > 17.5 && avg < 18, `${avg}`);
  });

  test('distance to go over that speed gives the estimate, from the newest position', () => {
    const fixes = track(13, passing, () => 15); // two hours at 15 kn
    const last = fixes[fixes.length - 1].at.getTime();
    const eta = aisEta(fixes, 300, distance, new Date(last + 5 * MINUTE))!;
    assert.equal(eta.etaAt.getTime(), last + 20 * HOUR);
    assert.equal(eta.speedKnots, 15);
  });

  test('no estimate from a stale track, a short one, or a vessel not under way', () => {
    const fixes = track(13, passing, () => 15);
    const last = fixes[fixes.length - 1].at.getTime();
    assert.equal(aisEta(fixes, 300, distance, new Date(last + 7 * HOUR)), null, 'stale');
    assert.equal(aisEta(fixes.slice(0, 3), 300, distance, new Date(last)), null, '20 minutes of track');
    assert.equal(aisEta(track(13, () => LA, () => 0.5), 300, distance, new Date(last)), null, 'waiting');
  });
});

test('IMO numbers: seven digits with a check digit', () => {
  assert.equal(isValidImo('9811000'), true);
  assert.equal(isValidImo('9811001'), false);
  assert.equal(normaliseImo('IMO 9811000'), '9811000');
  assert.equal(normaliseImo('0'), null);
  assert.equal(normaliseImo(null), null);
});

describe('known vessels: reference data and vessels learned from carriers', () => {
  let database: TestDatabase;
  before(async () => {
    database = await freshDatabase();
  });
  after(async () => {
    await database.drop();
  });

  test('a vessel the reference lists is known; one a carrier named is known once learned, and stays so', async () => {
    const db = database.db;
    const known = async (imo: string) => (await knownVesselImos(db, new Date(T0))).includes(imo);
    assert.equal(await known('9811000'), true, 'EVER GIVEN is in the reference files');
    assert.equal(await known('9999993'), false);
    await learnVessels(db, [{ imo: '9999993', name: 'SANDBOX STAR' }], new Date(T0));
    await learnVessels(db, [{ imo: '9999993', name: null }], new Date(T0 + HOUR));
    assert.equal(await known('9999993'), true);
    const { rows } = await db.query('SELECT name, first_seen_at, last_seen_at FROM learned_vessels WHERE imo = $1', ['9999993']);
    assert.deepEqual([rows[0].name, rows[0].first_seen_at.getTime(), rows[0].last_seen_at.getTime()], ['SANDBOX STAR', T0, T0 + HOUR]);
    const all = await knownVesselImos(db, new Date(T0));
    assert.ok(all.includes('9811000') && all.includes('9999993'));
    // A vessel no carrier has named since the cut-off no longer counts; the reference ones always do.
    const later = await knownVesselImos(db, new Date(T0 + 2 * HOUR));
    assert.ok(later.includes('9811000') && !later.includes('9999993'));
  });
});
