import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { containerSituation, localDate, type LastMove, type SituationInput } from './situation.ts';
import type { ContainerState } from './types.ts';

const PLACES: Record<string, { name: string; timezone: string }> = {
  CNSHA: { name: 'Shanghai', timezone: 'Asia/Shanghai' },
  SGSIN: { name: 'Singapore', timezone: 'Asia/Singapore' },
  USLAX: { name: 'Los Angeles', timezone: 'America/Los_Angeles' },
  USCHI: { name: 'Chicago', timezone: 'America/Chicago' },
  USELZ: { name: 'Wellsville', timezone: 'America/New_York' },
};

function box(over: Partial<ContainerState> = {}): ContainerState {
  return {
    number: 'MSCU1234565',
    seal_number: null,
    equipment_type: null,
    equipment_length: null,
    equipment_height: null,
    weight_in_lbs: null,
    empty_out_at: null,
    pol_full_in_at: null,
    pol_vessel_loaded_at: null,
    pol_vessel_departed_at: null,
    pod_arrived_at: null,
    pod_discharged_at: null,
    pod_full_out_at: null,
    final_destination_full_out_at: null,
    empty_terminated_at: null,
    pod_rail_loaded_at: null,
    pod_rail_departed_at: null,
    ind_eta_at: null,
    ind_ata_at: null,
    ind_rail_unloaded_at: null,
    pod_rail_carrier_scac: null,
    ind_rail_carrier_scac: null,
    pod_timezone: 'America/Los_Angeles',
    final_destination_timezone: null,
    empty_terminated_timezone: null,
    availability_known: false,
    available_for_pickup: null,
    holds_at_pod_terminal: [],
    fees_at_pod_terminal: [],
    pickup_lfd: null,
    pickup_lfd_terminal: null,
    pickup_lfd_rail: null,
    pickup_appointment_at: null,
    pod_terminal: 'Y258',
    terminal_checked_at: null,
    ind_terminal: null,
    terminal_reported_inland: false,
    last_move: null,
    empty_depot_locode: null,
    current_status: 'new',
    ...over,
  };
}

const shipment = (destination: string | null = null, transshipments: string[] = []): SituationInput['shipment'] => ({
  port_of_lading_locode: 'CNSHA',
  port_of_discharge_locode: 'USLAX',
  destination_locode: destination,
  transshipment_locodes: transshipments,
  pod_vessel_name: 'MSC ANNA',
  pod_vessel_imo: '9000001',
  pod_voyage_number: '412E',
});

const move = (name: LastMove['name'], locode: string, vessel: string | null = null): LastMove => ({
  name,
  locode,
  occurred_at: '2026-03-05T10:00:00Z',
  vessel: vessel ? { name: vessel, imo: null } : null,
  voyage_number: vessel ? 'V1' : null,
});

function situation(container: ContainerState, s = shipment(), lastMove: LastMove | null = null, depotLocode: string | null = null) {
  return containerSituation({ container, shipment: s, lastMove, depotLocode, place: (l) => PLACES[l] ?? null });
}

describe('containerSituation', () => {
  test('a box with no milestone waits for its empty to be picked up', () => {
    const s = situation(box());
    assert.equal(s.kind, 'awaiting_empty_out');
    assert.equal(s.waiting_for, 'empty_out');
    assert.equal(s.place, null);
  });

  test('an empty out with the shipper is at its origin, waiting to be gated in full', () => {
    const s = situation(box({ empty_out_at: '2026-03-01T08:00:00Z' }));
    assert.equal(s.kind, 'at_origin');
    assert.equal(s.waiting_for, 'full_in');
    assert.equal(s.since, '2026-03-01T08:00:00Z');
  });

  test('gated in full at the port of lading, it is at that port terminal', () => {
    const s = situation(box({ empty_out_at: '2026-03-01T08:00:00Z', pol_full_in_at: '2026-03-02T08:00:00Z' }));
    assert.equal(s.kind, 'at_port_terminal');
    assert.deepEqual([s.place?.role, s.place?.locode, s.place?.name, s.place?.timezone], ['port_of_lading', 'CNSHA', 'Shanghai', 'Asia/Shanghai']);
    assert.equal(s.waiting_for, 'vessel_departure');
  });

  test('at sea it is on the vessel of its last move, bound for the next port of the route', () => {
    const s = situation(box({ pol_vessel_departed_at: '2026-03-03T08:00:00Z', current_status: 'on_ship' }), shipment(null, ['SGSIN']), move('vessel_departed', 'CNSHA', 'FEEDER ONE'));
    assert.equal(s.kind, 'on_vessel');
    assert.equal(s.place, null);
    assert.equal(s.vessel?.name, 'FEEDER ONE');
    assert.equal(s.next_place?.locode, 'SGSIN');
    assert.equal(s.next_place?.role, 'transshipment_port');
    assert.equal(s.waiting_for, 'vessel_arrival');
  });

  test('discharged at a transshipment port it is there, waiting for the onward vessel', () => {
    const s = situation(box({ pol_vessel_departed_at: '2026-03-03T08:00:00Z', current_status: 'on_ship' }), shipment(null, ['SGSIN']), move('transshipment_discharged', 'SGSIN', 'FEEDER ONE'));
    assert.equal(s.kind, 'at_transshipment_port');
    assert.deepEqual([s.place?.role, s.place?.name], ['transshipment_port', 'Singapore']);
    assert.equal(s.waiting_for, 'onward_vessel');
  });

  test('loaded on at the transshipment port it is on the onward vessel, bound for the port of discharge', () => {
    const s = situation(box({ pol_vessel_departed_at: '2026-03-03T08:00:00Z', current_status: 'on_ship' }), shipment(null, ['SGSIN']), move('transshipment_departed', 'SGSIN', 'MSC ANNA'));
    assert.equal(s.kind, 'on_vessel');
    assert.equal(s.vessel?.name, 'MSC ANNA');
    assert.deepEqual([s.next_place?.role, s.next_place?.locode, s.next_place?.terminal_code], ['port_of_discharge', 'USLAX', 'Y258']);
  });

  test('discharged at the port of discharge, with holds, it waits there for their release; the terminal LFD is a local date there', () => {
    const s = situation(
      box({
        pod_arrived_at: '2026-03-10T08:00:00Z',
        pod_discharged_at: '2026-03-10T12:00:00Z',
        availability_known: true,
        available_for_pickup: false,
        holds_at_pod_terminal: [{ name: 'customs', status: 'hold', description: null }],
        fees_at_pod_terminal: [{ type: 'exam', amount: 300, currency_code: 'USD' }],
        pickup_lfd: '2026-03-14T07:00:00Z',
        pickup_lfd_terminal: '2026-03-14T07:00:00Z',
        terminal_checked_at: '2026-03-10T13:00:00Z',
        current_status: 'not_available',
      }),
    );
    assert.equal(s.kind, 'at_port_terminal');
    assert.deepEqual([s.place?.locode, s.place?.terminal_code], ['USLAX', 'Y258']);
    assert.equal(s.waiting_for, 'release');
    assert.equal(s.pickup?.availability, 'not_available');
    assert.equal(s.pickup?.holds.length, 1);
    assert.equal(s.pickup?.fees[0].amount, 300);
    assert.deepEqual(s.pickup?.last_free_day, { date: '2026-03-14', timezone: 'America/Los_Angeles', source: 'terminal' });
  });

  test('an inland box at the port waits for its train, and the port terminal’s "not for truck pickup" says nothing of the ramp', () => {
    const s = situation(
      box({ pod_discharged_at: '2026-03-10T12:00:00Z', availability_known: true, available_for_pickup: false, terminal_checked_at: '2026-03-10T13:00:00Z', current_status: 'awaiting_inland_transfer', final_destination_timezone: 'America/Chicago' }),
      shipment('USCHI'),
    );
    assert.equal(s.kind, 'at_port_terminal');
    assert.equal(s.waiting_for, 'rail_departure');
    assert.deepEqual([s.pickup?.place.role, s.pickup?.place.name, s.pickup?.availability], ['inland_destination', 'Chicago', 'unknown']);
  });

  test('on rail it is bound for the inland ramp', () => {
    const s = situation(box({ pod_discharged_at: '2026-03-10T12:00:00Z', pod_rail_departed_at: '2026-03-12T12:00:00Z', current_status: 'on_rail' }), shipment('USCHI'));
    assert.equal(s.kind, 'on_rail');
    assert.equal(s.place, null);
    assert.deepEqual([s.next_place?.role, s.next_place?.name], ['inland_destination', 'Chicago']);
    assert.equal(s.waiting_for, 'rail_arrival');
  });

  test('unloaded at the ramp it is there, with the ramp’s availability and its rail LFD in the ramp’s zone', () => {
    const s = situation(
      box({
        pod_discharged_at: '2026-03-10T12:00:00Z',
        pod_rail_departed_at: '2026-03-12T12:00:00Z',
        ind_rail_unloaded_at: '2026-03-16T12:00:00Z',
        availability_known: true,
        available_for_pickup: true,
        pickup_lfd: '2026-03-20T05:00:00Z',
        pickup_lfd_rail: '2026-03-20T05:00:00Z',
        terminal_checked_at: '2026-03-16T13:00:00Z',
        ind_terminal: 'CHI1',
        terminal_reported_inland: true,
        final_destination_timezone: 'America/Chicago',
        current_status: 'available',
      }),
      shipment('USCHI'),
    );
    assert.equal(s.kind, 'at_inland_ramp');
    assert.deepEqual([s.place?.locode, s.place?.name, s.place?.terminal_code, s.place?.timezone], ['USCHI', 'Chicago', 'CHI1', 'America/Chicago']);
    assert.equal(s.waiting_for, 'pickup');
    assert.equal(s.pickup?.availability, 'available');
    assert.deepEqual(s.pickup?.last_free_day, { date: '2026-03-20', timezone: 'America/Chicago', source: 'rail' });
  });

  test('picked up at the ramp it is placed at the ramp, waits for its empty return and has no pickup left', () => {
    const s = situation(box({ ind_rail_unloaded_at: '2026-03-16T12:00:00Z', final_destination_full_out_at: '2026-03-18T12:00:00Z', current_status: 'picked_up', availability_known: true, available_for_pickup: false }), shipment('USCHI'));
    assert.equal(s.kind, 'picked_up');
    assert.equal(s.place?.name, 'Chicago');
    assert.equal(s.waiting_for, 'empty_return');
    assert.equal(s.pickup, null);
  });

  test('picked up at the port it is placed at the port terminal', () => {
    const s = situation(box({ pod_discharged_at: '2026-03-10T12:00:00Z', pod_full_out_at: '2026-03-12T12:00:00Z', current_status: 'picked_up' }));
    assert.deepEqual([s.kind, s.place?.locode, s.place?.terminal_code], ['picked_up', 'USLAX', 'Y258']);
  });

  test('returned empty it is at the depot, waiting for nothing', () => {
    const s = situation(box({ final_destination_full_out_at: '2026-03-18T12:00:00Z', empty_terminated_at: '2026-03-21T12:00:00Z', empty_terminated_timezone: 'America/New_York', current_status: 'empty_returned' }), shipment('USCHI'), null, 'USELZ');
    assert.equal(s.kind, 'empty_returned');
    assert.deepEqual([s.place?.role, s.place?.locode, s.place?.timezone], ['empty_depot', 'USELZ', 'America/New_York']);
    assert.equal(s.waiting_for, null);
    assert.equal(s.pickup, null);
  });

  test('a state without shipment ports still says what it can', () => {
    const s = containerSituation({ container: box({ pod_discharged_at: '2026-03-10T12:00:00Z' }), shipment: null, lastMove: null, depotLocode: null, place: () => null });
    assert.deepEqual([s.kind, s.place?.locode, s.place?.timezone, s.place?.terminal_code], ['at_port_terminal', null, 'America/Los_Angeles', 'Y258']);
  });
});

describe('localDate', () => {
  test('is the calendar day at the place, not in UTC', () => {
    assert.equal(localDate('2026-03-20T05:00:00Z', 'America/Chicago'), '2026-03-20');
    assert.equal(localDate('2026-03-20T05:00:00Z', 'Asia/Shanghai'), '2026-03-20');
    assert.equal(localDate('2026-03-20T03:00:00Z', 'America/Los_Angeles'), '2026-03-19');
  });
});
