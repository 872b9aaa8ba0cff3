import assert from 'node:assert/strict';
import { test } from 'node:test';
import { milestonesOf, timelineOf } from './timeline.ts';

const move = (name: string, timestamp: string, locode: string) => ({ event: `container.transport.${name}`, timestamp, location_locode: locode });

test('a journey that starts on a feeder: its feeder load and departure at the port of loading are the first vessel milestones', () => {
  // Ho Chi Minh City by feeder to Singapore, then the mother vessel on to Savannah (the sandbox's TEST-TS2-FEEDER).
  const timeline = timelineOf([
    move('feeder_loaded', '2026-12-04T15:22:00Z', 'VNSGN'),
    move('feeder_departed', '2026-12-05T11:30:00Z', 'VNSGN'),
    move('feeder_arrived', '2026-12-07T08:00:00Z', 'SGSIN'),
    move('feeder_discharged', '2026-12-07T12:00:00Z', 'SGSIN'),
    move('transshipment_loaded', '2026-12-09T10:00:00Z', 'SGSIN'),
    move('transshipment_departed', '2026-12-09T20:00:00Z', 'SGSIN'),
  ]);
  const m = milestonesOf(timeline);
  assert.equal(m.vesselLoadedAt, '2026-12-04T15:22:00Z');
  assert.equal(m.vesselDepartedAt, '2026-12-05T11:30:00Z');
  assert.equal(m.vesselArrivedAt, null, 'not yet at the port of discharge');
});

test('a journey on a mother vessel from the port of loading keeps its vessel moves, whatever feeders follow', () => {
  const m = milestonesOf(
    timelineOf([
      move('vessel_loaded', '2026-12-01T10:00:00Z', 'CNSHA'),
      move('vessel_departed', '2026-12-01T22:00:00Z', 'CNSHA'),
      move('feeder_loaded', '2026-12-20T10:00:00Z', 'NLRTM'),
      move('feeder_departed', '2026-12-20T12:00:00Z', 'NLRTM'),
    ]),
  );
  assert.equal(m.vesselLoadedAt, '2026-12-01T10:00:00Z');
  assert.equal(m.vesselDepartedAt, '2026-12-01T22:00:00Z');
});
