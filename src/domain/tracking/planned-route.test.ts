// The route from the carrier's planned calls: every leg and port from the booking on, actual
// calls taking over as the box goes, a changed transshipment port replacing the planned one, and
// no milestone from anything planned.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { diffSnapshot } from './diff.ts';
import { ctx, ev, nothingStored, snapshot } from './fixtures.ts';
import { deriveRoute } from './route.ts';

const BOX = 'MSKU1234565';
const FEEDER = { imo: '9321483', name: 'FEEDER STAR' };
const MOTHER = { imo: '9778791', name: 'MADRID MAERSK' };
const BOOKED = '2026-02-20T00:00:00Z';

const planned = (id: string, code: 'ARRI' | 'DEPA', at: string, locode: string, vessel: typeof FEEDER, published = BOOKED) =>
  ev({ id, code, at, locode, mode: 'VESSEL', vessel, classifier: 'PLN', published });

/** Ho Chi Minh City → (feeder) Singapore → Savannah, as planned at booking. */
const plan = [
  planned('p1', 'DEPA', '2026-03-01T00:00:00Z', 'VNSGN', FEEDER),
  planned('p2', 'ARRI', '2026-03-04T00:00:00Z', 'SGSIN', FEEDER),
  planned('p3', 'DEPA', '2026-03-07T00:00:00Z', 'SGSIN', MOTHER),
  planned('p4', 'ARRI', '2026-04-05T00:00:00Z', 'USSAV', MOTHER),
];

const shape = (events: ReturnType<typeof ev>[]) => {
  const r = deriveRoute(events);
  return { pol: r.pol, ts: r.transshipments, pod: r.pod, legs: r.legs.map((l) => `${l.from}${l.fromPlanned ? '?' : ''}→${l.to}${l.toPlanned ? '?' : ''}`) };
};

test('from the planned calls alone: every port and leg, all marked planned, and no milestone', () => {
  assert.deepEqual(shape(plan), { pol: 'VNSGN', ts: ['SGSIN'], pod: 'USSAV', legs: ['VNSGN?→SGSIN?', 'SGSIN?→USSAV?'] });
  const diff = diffSnapshot(nothingStored(), snapshot(plan), ctx);
  assert.deepEqual(diff.transportEvents, []);
  assert.deepEqual(diff.shipment.transshipment_locodes, ['SGSIN']);
});

test('actual calls take over where the box has been; the rest stays planned', () => {
  const done = [
    ev({ id: 'a1', code: 'LOAD', at: '2026-03-01T02:00:00Z', locode: 'VNSGN', container: BOX, mode: 'VESSEL', vessel: FEEDER }),
    ev({ id: 'a2', code: 'DEPA', at: '2026-03-01T06:00:00Z', locode: 'VNSGN', mode: 'VESSEL', vessel: FEEDER }),
    ev({ id: 'a3', code: 'ARRI', at: '2026-03-04T09:00:00Z', locode: 'SGSIN', mode: 'VESSEL', vessel: FEEDER }),
  ];
  assert.deepEqual(shape([...plan, ...done]), { pol: 'VNSGN', ts: ['SGSIN'], pod: 'USSAV', legs: ['VNSGN→SGSIN', 'SGSIN?→USSAV?'] });
  const names = diffSnapshot(nothingStored(), snapshot([...plan, ...done]), ctx).transportEvents.map((t) => `${t.event.replace('container.transport.', '')} ${t.locode}`);
  // Only the actual calls are milestones; the planned departure from Singapore is none.
  assert.deepEqual(names, ['feeder_loaded VNSGN', 'feeder_departed VNSGN', 'feeder_arrived SGSIN']);
});

test('a box that reaches another transshipment port than planned: that port replaces the planned one', () => {
  const diverted = [
    ev({ id: 'a1', code: 'LOAD', at: '2026-03-01T02:00:00Z', locode: 'VNSGN', container: BOX, mode: 'VESSEL', vessel: FEEDER }),
    ev({ id: 'a2', code: 'DEPA', at: '2026-03-01T06:00:00Z', locode: 'VNSGN', mode: 'VESSEL', vessel: FEEDER }),
    // The feeder went to Port Klang instead; the mother vessel's planned call still says Singapore.
    ev({ id: 'a3', code: 'ARRI', at: '2026-03-03T20:00:00Z', locode: 'MYPKG', mode: 'VESSEL', vessel: FEEDER }),
    ev({ id: 'a4', code: 'DISC', at: '2026-03-04T01:00:00Z', locode: 'MYPKG', container: BOX, mode: 'VESSEL', vessel: FEEDER }),
  ];
  assert.deepEqual(shape([...plan, ...diverted]), { pol: 'VNSGN', ts: ['MYPKG'], pod: 'USSAV', legs: ['VNSGN→MYPKG', 'MYPKG?→USSAV?'] });

  // The carrier's newer plan for the mother vessel (published after the old one) names Port Klang too.
  const replanned = planned('p5', 'DEPA', '2026-03-07T12:00:00Z', 'MYPKG', MOTHER, '2026-03-03T00:00:00Z');
  assert.deepEqual(shape([...plan, replanned, ...diverted]).ts, ['MYPKG']);

  // Once the mother vessel loads there, every trace of Singapore is gone.
  const loaded = ev({ id: 'a5', code: 'LOAD', at: '2026-03-07T10:00:00Z', locode: 'MYPKG', container: BOX, mode: 'VESSEL', vessel: MOTHER });
  assert.deepEqual(shape([...plan, ...diverted, loaded]), { pol: 'VNSGN', ts: ['MYPKG'], pod: 'USSAV', legs: ['VNSGN→MYPKG', 'MYPKG→USSAV?'] });
});

test('a planned arrival port that the next leg actually loads at elsewhere ends the leg there', () => {
  const loadedElsewhere = ev({ id: 'a1', code: 'LOAD', at: '2026-03-07T10:00:00Z', locode: 'MYPKG', container: BOX, mode: 'VESSEL', vessel: MOTHER });
  assert.deepEqual(shape([...plan, loadedElsewhere]), { pol: 'VNSGN', ts: ['MYPKG'], pod: 'USSAV', legs: ['VNSGN?→MYPKG?', 'MYPKG→USSAV?'] });
});
