// The departure rule on its own: a stop in the port area followed by the vessel outside it at sea
// speed, timed from when it got under way; passing through, a shift to the anchorage, or an
// earlier call at the same port do not count. And which moves of a box's journey are watched.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MINUTE } from '../src/domain/time-units.ts';
import { haversineNm } from '../src/geo/distance.ts';
import type { AisFix } from '../src/domain/tracking/ais-arrival.ts';
import { aisWatches, departureFromPortArea } from '../src/domain/tracking/ais-moves.ts';
import { ev } from '../src/domain/tracking/fixtures.ts';
import { milestoneKey } from '../src/domain/tracking/milestones.ts';
import { deriveRoute } from '../src/domain/tracking/route.ts';

const distance = (a: readonly [number, number], b: readonly [number, number]) => haversineNm(a, b);
const T0 = Date.parse('2026-07-01T00:00:00Z');
const PORT: [number, number] = [118.1, 24.45];
/** `nm` nautical miles east of the port. */
const east = (nm: number): [number, number] => [PORT[0] + nm / (60 * Math.cos((PORT[1] * Math.PI) / 180)), PORT[1]];

/** Fixes every 10 minutes from `start` (a fix index) along `legs`: [fixes, position of fix i, speed]. */
function track(...legs: [number, (i: number) => [number, number], number][]): AisFix[] {
  const out: AisFix[] = [];
  for (const [n, where, knots] of legs) for (let i = 0; i < n; i++) out.push({ at: new Date(T0 + out.length * 10 * MINUTE), lon: where(i)[0], lat: where(i)[1], speedKnots: knots });
  return out;
}
const at = (fix: number) => new Date(T0 + fix * 10 * MINUTE);
const leaving = (from: number): [number, (i: number) => [number, number], number] => [20, (i) => east(from + 2 * (i + 1)), 12];

test('moored, then outside the area at sea speed: departed when it got under way, counted at the edge', () => {
  const d = departureFromPortArea(track([6, () => PORT, 0], leaving(0)), PORT, distance, new Date(0));
  assert.ok(d);
  assert.equal(d.departedAt.getTime(), at(6).getTime(), 'the first report under way');
  assert.equal(d.confirmedAt.getTime(), at(6 + 7).getTime(), 'the first report beyond 15 nm (16 nm)');
});

test('no stop before, or no exit yet, is no departure', () => {
  assert.equal(departureFromPortArea(track([30, (i) => east(-30 + 2 * i), 12]), PORT, distance, new Date(0)), null, 'passing through');
  assert.equal(departureFromPortArea(track([6, () => PORT, 0], [5, (i) => east(2 * (i + 1)), 12]), PORT, distance, new Date(0)), null, 'still inside the area');
  assert.equal(departureFromPortArea(track([2, () => PORT, 0], leaving(0)), PORT, distance, new Date(0)), null, 'stopped for 10 minutes only');
  assert.equal(departureFromPortArea(track([6, () => PORT, 0], [20, (i) => east(2 * (i + 1)), 2]), PORT, distance, new Date(0)), null, 'drifting out below 3 kn');
});

test('a shift to the anchorage restarts the count: the departure is from where it lay last', () => {
  const d = departureFromPortArea(track([6, () => PORT, 0], [2, (i) => east(4 * (i + 1)), 8], [6, () => east(8), 0.2], leaving(8)), PORT, distance, new Date(0));
  assert.equal(d?.departedAt.getTime(), at(14).getTime());
  assert.deepEqual([d!.lon, d!.lat], east(8));
});

test('a departure before `after` (an earlier call, before the box was loaded) is passed over for the next one', () => {
  const calls = track([6, () => PORT, 0], leaving(0), [20, (i) => east(40 - 2 * i), 12], [6, () => PORT, 0], leaving(0));
  const d = departureFromPortArea(calls, PORT, distance, at(10));
  assert.equal(d?.departedAt.getTime(), at(52).getTime());
  assert.equal(departureFromPortArea(calls, PORT, distance, at(60)), null);
});

// Which ports and from when an arrival at a leg's end is watched: only a port the carrier's route
// names, and only after the leg's departure (the carrier's, else the one AIS recorded, else the load).
const BOX = 'MSKU1234565';
const FEEDER = { imo: '9321483', name: 'FEEDER STAR' };
const MOTHER = { imo: '9778791', name: 'MADRID MAERSK' };
const planned = (id: string, code: 'ARRI' | 'DEPA', when: string, locode: string, vessel: typeof FEEDER) =>
  ev({ id, code, at: when, locode, mode: 'VESSEL', vessel, classifier: 'PLN', published: '2026-02-20T00:00:00Z' });
const plan = [
  planned('p1', 'DEPA', '2026-03-01T00:00:00Z', 'VNSGN', FEEDER),
  planned('p2', 'ARRI', '2026-03-04T00:00:00Z', 'SGSIN', FEEDER),
  planned('p3', 'DEPA', '2026-03-07T00:00:00Z', 'SGSIN', MOTHER),
  planned('p4', 'ARRI', '2026-04-05T00:00:00Z', 'USSAV', MOTHER),
];
const LOADED = ev({ id: 'a1', code: 'LOAD', at: '2026-03-01T02:00:00Z', locode: 'VNSGN', container: BOX, mode: 'VESSEL', vessel: FEEDER });
const arrivalOf = (events: ReturnType<typeof ev>[], recorded = new Map<string, Date>()) => aisWatches(deriveRoute(events), recorded).find((w) => w.kind === 'arrival');

test('the arrival at a transshipment port the carrier planned is watched from the leg departure it knows', () => {
  const onLoad = arrivalOf([...plan, LOADED]);
  assert.deepEqual(onLoad && { port: onLoad.port, from: onLoad.from, after: onLoad.after.toISOString() }, { port: 'SGSIN', from: 'VNSGN', after: '2026-03-01T02:00:00.000Z' });

  const aisLeft = new Date('2026-03-01T05:40:00Z');
  const afterAis = arrivalOf([...plan, LOADED], new Map([[milestoneKey(BOX, 'feeder_departed', 'VNSGN'), aisLeft]]));
  assert.deepEqual(afterAis && { from: afterAis.from, after: afterAis.after }, { from: null, after: aisLeft });

  const depa = ev({ id: 'a2', code: 'DEPA', at: '2026-03-01T06:00:00Z', locode: 'VNSGN', mode: 'VESSEL', vessel: FEEDER });
  const afterDepa = arrivalOf([...plan, LOADED, depa], new Map([[milestoneKey(BOX, 'feeder_departed', 'VNSGN'), aisLeft]]));
  assert.equal(afterDepa?.after.toISOString(), '2026-03-01T06:00:00.000Z');
});

test('a leg whose end the carrier names nowhere gets no arrival watch', () => {
  assert.equal(arrivalOf([planned('p1', 'DEPA', '2026-03-01T00:00:00Z', 'VNSGN', FEEDER), LOADED, planned('p4', 'ARRI', '2026-04-05T00:00:00Z', 'USSAV', MOTHER)]), undefined);
});
