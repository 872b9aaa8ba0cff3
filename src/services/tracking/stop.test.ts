// The rules by which tracking stops by itself, as a pure function of the shipment's state and time.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DAY } from '../../domain/time-units.ts';
import type { ContainerState, ShipmentState } from '../../domain/tracking/types.ts';
import { defaultPolicy } from './policy.ts';
import { stopReason } from './stop.ts';

const at = (base: Date, ms: number) => new Date(base.getTime() + ms);

const arrivedAt = new Date('2026-03-20T08:00:00Z');
const shipment = (podAtaAt: Date | null) => ({ pod_ata_at: podAtaAt?.toISOString() ?? null }) as ShipmentState;
const box = (emptyTerminatedAt: Date | null) => ({ number: 'MSKU1234565', empty_terminated_at: emptyTerminatedAt?.toISOString() ?? null }) as ContainerState;
const reason = (applied: { shipmentState: ShipmentState; containerStates: ContainerState[] }, lastChangedAt: Date, now: Date) =>
  stopReason(defaultPolicy, applied, lastChangedAt, now);

describe('stopReason', () => {
  test('the defaults are 56 days after arrival and 56 days without news', () => {
    assert.equal(defaultPolicy.stopAfterArrivalMs, 56 * DAY);
    assert.equal(defaultPolicy.stopAfterSilenceMs, 56 * DAY);
  });

  test('56 days after arrival at the port of discharge: past_arrival_window, not a moment before', () => {
    const applied = { shipmentState: shipment(arrivedAt), containerStates: [box(null)] };
    // Fresh news does not keep an arrived shipment tracked for ever.
    const now = at(arrivedAt, 56 * DAY);
    assert.equal(reason(applied, at(now, -DAY), at(now, -1)), null);
    assert.equal(reason(applied, at(now, -DAY), now), 'past_arrival_window');
    assert.equal(reason(applied, now, at(now, 30 * DAY)), 'past_arrival_window');
  });

  test('56 days without news from the carrier: no_updates_at_line, not a moment before', () => {
    const applied = { shipmentState: shipment(null), containerStates: [box(null)] };
    const lastChanged = new Date('2026-02-01T00:00:00Z');
    assert.equal(reason(applied, lastChanged, at(lastChanged, 56 * DAY - 1)), null);
    assert.equal(reason(applied, lastChanged, at(lastChanged, 56 * DAY)), 'no_updates_at_line');
  });

  test('arrival comes before silence, and every box back empty before both', () => {
    const lastChanged = at(arrivedAt, -60 * DAY);
    const now = at(arrivedAt, 60 * DAY);
    assert.equal(reason({ shipmentState: shipment(arrivedAt), containerStates: [box(null)] }, lastChanged, now), 'past_arrival_window');
    assert.equal(reason({ shipmentState: shipment(arrivedAt), containerStates: [box(at(arrivedAt, DAY))] }, lastChanged, now), 'all_containers_terminated');
  });

  test('a shipment without containers, or with one box still out, is not terminated', () => {
    const now = at(arrivedAt, DAY);
    assert.equal(reason({ shipmentState: shipment(arrivedAt), containerStates: [] }, now, now), null);
    assert.equal(reason({ shipmentState: shipment(arrivedAt), containerStates: [box(now), box(null)] }, now, now), null);
  });
});
