import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CarrierEvent } from './carrier-events.ts';
import { withCallPlaces } from './facts.ts';
import { ev, feed, snapshot, vesselLeg } from './fixtures.ts';

const BOX = 'MSKU1234565';
const VESSEL = { imo: '9893890', name: 'EVER ACE' };
const inCall = (e: CarrierEvent, call: string, place: 'keep' | 'drop' = 'keep'): CarrierEvent =>
  ({ ...e, transportCallId: call, ...(place === 'drop' ? { locode: null, facilitySmdgCode: null, facilityType: null } : {}) });

const [load, depart, arrive, discharge] = vesselLeg({
  id: 'v1',
  containers: [BOX],
  vessel: VESSEL,
  voyage: '012E',
  from: 'CNSHA',
  to: 'USLAX',
  times: ['2026-03-05T10:00:00Z', '2026-03-06T08:00:00Z', '2026-03-20T14:00:00Z', '2026-03-21T09:00:00Z'],
});
const names = (events: CarrierEvent[]) =>
  feed(snapshot(events)).diffs.flatMap((d) => d.transportEvents.map((e) => `${e.event.replace('container.transport.', '')}@${e.locode}`));

test('an event sent without a place takes its transport call’s place, whichever event came first', () => {
  const sent = [inCall(load, 'call-sha', 'drop'), inCall(depart, 'call-sha'), inCall(arrive, 'call-lax'), inCall(discharge, 'call-lax', 'drop')];
  const expected = ['vessel_loaded@CNSHA', 'vessel_departed@CNSHA', 'vessel_arrived@USLAX', 'vessel_discharged@USLAX'];
  assert.deepEqual(names(sent), expected);
  assert.deepEqual(names([...sent].reverse()), expected);
});

test('without a call that names one place the event stays unplaced and gives no milestone', () => {
  const gateOut = inCall(ev({ id: 'fo', code: 'GTOT', at: '2026-03-24T18:00:00Z', locode: 'USLAX', container: BOX, facility: 'POTE' }), 'truck-1', 'drop');
  assert.equal(withCallPlaces([gateOut])[0].locode, null);
  // Two events of one call at different ports: the carrier contradicts itself, so nothing is guessed.
  const loadAmbiguous = inCall(load, 'call-x', 'drop');
  const events = withCallPlaces([loadAmbiguous, inCall(depart, 'call-x'), inCall({ ...arrive, transportCallId: null }, 'call-x')]);
  assert.equal(events[0].locode, null);
  assert.deepEqual(names([inCall(load, 'call-x', 'drop'), inCall(depart, 'call-x'), inCall(arrive, 'call-x')]).filter((n) => n.startsWith('vessel_loaded')), []);
});

test('a placed event is never changed by its call', () => {
  const events = [inCall(load, 'call-sha'), inCall({ ...depart, locode: 'CNNGB' }, 'call-sha')];
  assert.deepEqual(withCallPlaces(events).map((e) => e.locode), ['CNSHA', 'CNNGB']);
});
