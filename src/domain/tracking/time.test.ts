import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isoInstant, localMidnight, sameInstant, wallTimeInZone } from './time.ts';

test('localMidnight starts the day in the zone, on either side of a DST change', () => {
  assert.equal(isoInstant(localMidnight('2026-03-26', 'America/Los_Angeles')), '2026-03-26T07:00:00Z');
  // US clocks change at 02:00 on 8 March 2026: that midnight is still standard time.
  assert.equal(isoInstant(localMidnight('2026-03-08', 'America/Los_Angeles')), '2026-03-08T08:00:00Z');
  assert.equal(isoInstant(localMidnight('2026-03-09', 'America/Los_Angeles')), '2026-03-09T07:00:00Z');
  assert.equal(isoInstant(localMidnight('2026-07-01', 'Asia/Shanghai')), '2026-06-30T16:00:00Z');
  assert.equal(isoInstant(localMidnight('2026-07-01', null)), '2026-07-01T00:00:00Z');
});

test('wallTimeInZone reads UTC fields as the zone wall clock', () => {
  assert.equal(isoInstant(wallTimeInZone(new Date('2026-03-20T14:00:00Z'), 'America/Los_Angeles')), '2026-03-20T21:00:00Z');
  assert.equal(isoInstant(wallTimeInZone(new Date('2026-10-25T12:30:00Z'), 'Europe/Amsterdam')), '2026-10-25T11:30:00Z');
});

test('isoInstant drops zero milliseconds only; sameInstant compares moments', () => {
  assert.equal(isoInstant(new Date('2026-01-01T00:00:00.250Z')), '2026-01-01T00:00:00.250Z');
  assert.ok(sameInstant('2026-01-01T00:00:00Z', '2026-01-01T00:00:00.000Z'));
  assert.ok(!sameInstant('2026-01-01T00:00:00Z', null));
  assert.ok(sameInstant(null, null));
});
