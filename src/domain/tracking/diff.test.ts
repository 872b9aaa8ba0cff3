import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { HOUR } from '../time-units.ts';
import type { CarrierEvent, CarrierSnapshot } from './carrier-events.ts';
import { diffSnapshot } from './diff.ts';
import { apply, ctx, ev, feed, nothingStored, shuffled, snapshot, terminalReport, vesselLeg, type EventSpec } from './fixtures.ts';
import type { ContainerState, Diff, PreviousState } from './types.ts';

const BOX = 'MSKU1234565';
const EVER_ACE = { imo: '9893890', name: 'EVER ACE' };
const FEEDER = { imo: '9300001', name: 'FEEDER ONE' };

const names = (d: Diff) => d.transportEvents.map((e) => `${e.event.replace('container.transport.', '')}@${e.locode}`);
const container = (stored: PreviousState, number = BOX): ContainerState => stored.containers.find((c) => c.number === number)!;

// A direct voyage Shanghai → Los Angeles, with its empty-out and empty return.
const emptyOut = ev({ id: 'eo', code: 'GTOT', at: '2026-03-01T02:00:00Z', locode: 'CNSHA', container: BOX, empty: true, facility: 'DEPO' });
const fullIn = ev({ id: 'fi', code: 'GTIN', at: '2026-03-03T03:00:00Z', locode: 'CNSHA', container: BOX, facility: 'POTE' });
const [load, depart, arrive, discharge] = vesselLeg({
  id: 'v1',
  containers: [BOX],
  vessel: EVER_ACE,
  voyage: '012E',
  from: 'CNSHA',
  to: 'USLAX',
  times: ['2026-03-05T10:00:00Z', '2026-03-06T08:00:00Z', '2026-03-20T14:00:00Z', '2026-03-21T09:00:00Z'],
});
const fullOut = ev({ id: 'fo', code: 'GTOT', at: '2026-03-24T18:00:00Z', locode: 'USLAX', container: BOX, facility: 'POTE' });
const emptyIn = ev({ id: 'ei', code: 'GTIN', at: '2026-03-27T20:00:00Z', locode: 'USLAX', container: BOX, empty: true, facility: 'DEPO' });
const eta = ev({ id: 'eta1', code: 'ARRI', classifier: 'EST', at: '2026-03-20T12:00:00Z', published: '2026-03-01T00:00:00Z', locode: 'USLAX', mode: 'VESSEL', vessel: EVER_ACE, voyage: '012E' });
const direct = [emptyOut, fullIn, load, depart, arrive, discharge, fullOut, emptyIn];
const listed = [{ number: BOX, isoEquipmentCode: '45G1', sealNumber: 'SL001', weightKg: 4000 }];

describe('a direct voyage', () => {
  const { diffs, stored } = feed(snapshot([...direct, eta], { containers: listed }));

  test('announces every milestone once, in journey order', () => {
    assert.deepEqual(names(diffs[0]), [
      'empty_out@CNSHA',
      'full_in@CNSHA',
      'vessel_loaded@CNSHA',
      'vessel_departed@CNSHA',
      'vessel_arrived@USLAX',
      'vessel_discharged@USLAX',
      'full_out@USLAX',
      'empty_in@USLAX',
    ]);
    const loaded = diffs[0].transportEvents[2];
    assert.deepEqual(
      { ...loaded },
      {
        containerNumber: BOX,
        event: 'container.transport.vessel_loaded',
        timestamp: new Date('2026-03-05T10:00:00Z'),
        utcOffset: 'Z',
        timezone: 'Asia/Shanghai',
        locode: 'CNSHA',
        terminalCode: null,
        vessel: EVER_ACE,
        voyageNumber: '012E',
        dataSource: 'shipping_line',
        sourceEventId: `v1-load-${BOX}`,
        publishedAt: new Date('2026-03-05T10:00:00Z'),
        key: `${BOX}|ocean_loaded|CNSHA`,
      },
    );
  });

  test('derives the shipment: ports, vessel, times and zones', () => {
    assert.deepEqual(stored.shipment, {
      bill_of_lading_number: 'BL123',
      booking_number: null,
      shipping_line_scac: 'MAEU',
      port_of_lading_locode: 'CNSHA',
      port_of_discharge_locode: 'USLAX',
      destination_locode: null,
      transshipment_locodes: [],
      pod_vessel_name: 'EVER ACE',
      pod_vessel_imo: '9893890',
      pod_voyage_number: '012E',
      pol_etd_at: null,
      pol_atd_at: '2026-03-06T08:00:00Z',
      pod_eta_at: '2026-03-20T12:00:00Z',
      pod_original_eta_at: '2026-03-20T12:00:00Z',
      pod_ata_at: '2026-03-20T14:00:00Z',
      destination_eta_at: null,
      destination_ata_at: null,
      pol_timezone: 'Asia/Shanghai',
      pod_timezone: 'America/Los_Angeles',
      destination_timezone: null,
    });
    assert.deepEqual(diffs[0].estimatedEvents, [], 'a new shipment brings its ETA with it');
  });

  test('derives the container: equipment, weight, seal and milestone times', () => {
    const c = container(stored);
    assert.deepEqual(
      [c.equipment_type, c.equipment_length, c.equipment_height, c.weight_in_lbs, c.seal_number],
      ['dry', 40, 'high_cube', 8818, 'SL001'],
    );
    assert.equal(c.empty_out_at, '2026-03-01T02:00:00Z');
    assert.equal(c.pol_full_in_at, '2026-03-03T03:00:00Z');
    assert.equal(c.pol_vessel_loaded_at, '2026-03-05T10:00:00Z');
    assert.equal(c.pod_arrived_at, '2026-03-20T14:00:00Z');
    assert.equal(c.pod_discharged_at, '2026-03-21T09:00:00Z');
    assert.equal(c.pod_full_out_at, '2026-03-24T18:00:00Z');
    assert.equal(c.final_destination_full_out_at, null);
    assert.equal(c.empty_terminated_at, '2026-03-27T20:00:00Z');
    assert.equal(c.empty_terminated_timezone, 'America/Los_Angeles');
    assert.equal(c.pod_timezone, 'America/Los_Angeles');
    assert.equal(c.current_status, 'empty_returned');
    assert.equal(diffs[0].containers[0].isNew, true);
  });

  test('current_status follows the milestones: new → on_ship → grounded → picked_up → empty_returned', () => {
    const statuses = direct.map((_, i) => {
      const { stored } = feed(snapshot(direct.slice(0, i + 1), { containers: listed }));
      return container(stored).current_status;
    });
    assert.deepEqual(statuses, ['new', 'new', 'on_ship', 'on_ship', 'on_ship', 'grounded', 'picked_up', 'empty_returned']);
  });

  test('a re-sent milestone under a new event id is not announced again; its corrected time is kept', () => {
    const corrected = ev({ id: 'disc-again', code: 'DISC', at: '2026-03-21T07:30:00Z', published: '2026-03-22T00:00:00Z', locode: 'USLAX', container: BOX, mode: 'VESSEL', vessel: EVER_ACE });
    const { diffs, stored } = feed(snapshot(direct.slice(0, 6)), snapshot([...direct.slice(0, 6), corrected]));
    assert.deepEqual(diffs[1].transportEvents, []);
    // Corrected to an earlier time: the later publication wins, not the later time.
    assert.equal(container(stored).pod_discharged_at, '2026-03-21T07:30:00Z');
  });

  test('a time written without an offset is read in the location zone', () => {
    const local = ev({ id: 'arri-local', code: 'ARRI', at: '2026-03-20T14:00:00Z', utcOffset: null, locode: 'USLAX', mode: 'VESSEL', vessel: EVER_ACE });
    const { diffs, stored } = feed(snapshot([load, depart, local]));
    assert.equal(stored.shipment!.pod_ata_at, '2026-03-20T21:00:00Z');
    assert.equal(diffs[0].transportEvents.at(-1)!.utcOffset, null);
  });
});

describe('a transshipment', () => {
  test('with a feeder: feeder moves, then the mother vessel from the transshipment port', () => {
    const feederLeg = vesselLeg({
      id: 'f',
      containers: [BOX],
      vessel: FEEDER,
      voyage: 'F01',
      from: 'KRPUS',
      to: 'CNSHA',
      times: ['2026-03-01T00:00:00Z', '2026-03-01T12:00:00Z', '2026-03-03T06:00:00Z', '2026-03-03T12:00:00Z'],
    });
    // The mother vessel calls at Tokyo on the way; the box stays aboard.
    const call = [
      ev({ id: 'tyo-a', code: 'ARRI', at: '2026-03-08T00:00:00Z', locode: 'JPTYO', mode: 'VESSEL', vessel: EVER_ACE }),
      ev({ id: 'tyo-d', code: 'DEPA', at: '2026-03-08T20:00:00Z', locode: 'JPTYO', mode: 'VESSEL', vessel: EVER_ACE }),
    ];
    const { diffs, stored } = feed(snapshot([...feederLeg, load, depart, ...call, arrive, discharge]));
    assert.deepEqual(names(diffs[0]), [
      'feeder_loaded@KRPUS',
      'feeder_departed@KRPUS',
      'feeder_arrived@CNSHA',
      'feeder_discharged@CNSHA',
      'transshipment_loaded@CNSHA',
      'transshipment_departed@CNSHA',
      'vessel_arrived@USLAX',
      'vessel_discharged@USLAX',
    ]);
    const s = stored.shipment!;
    assert.deepEqual([s.port_of_lading_locode, s.port_of_discharge_locode, s.transshipment_locodes], ['KRPUS', 'USLAX', ['CNSHA']]);
    assert.deepEqual([s.pod_vessel_name, s.pod_voyage_number, s.pol_atd_at], ['EVER ACE', '012E', '2026-03-01T12:00:00Z']);
    assert.equal(container(stored).pol_vessel_loaded_at, '2026-03-01T00:00:00Z');
    assert.equal(container(stored).current_status, 'grounded');
  });

  test('between two mother vessels: vessel moves at the ends, transshipment moves between', () => {
    const legs = [
      ...vesselLeg({ id: 'a', containers: [BOX], vessel: EVER_ACE, voyage: 'A1', from: 'CNSHA', to: 'SGSIN', times: ['2026-03-01T00:00:00Z', '2026-03-01T10:00:00Z', '2026-03-07T10:00:00Z', '2026-03-07T20:00:00Z'] }),
      ...vesselLeg({ id: 'b', containers: [BOX], vessel: { imo: '9700002', name: 'MSC ANNA' }, voyage: 'B1', from: 'SGSIN', to: 'NLRTM', times: ['2026-03-10T00:00:00Z', '2026-03-10T10:00:00Z', '2026-04-03T10:00:00Z', '2026-04-03T20:00:00Z'] }),
    ];
    const { diffs, stored } = feed(snapshot(legs));
    assert.deepEqual(names(diffs[0]), [
      'vessel_loaded@CNSHA',
      'vessel_departed@CNSHA',
      'transshipment_arrived@SGSIN',
      'transshipment_discharged@SGSIN',
      'transshipment_loaded@SGSIN',
      'transshipment_departed@SGSIN',
      'vessel_arrived@NLRTM',
      'vessel_discharged@NLRTM',
    ]);
    assert.deepEqual(stored.shipment!.transshipment_locodes, ['SGSIN']);
    assert.equal(stored.shipment!.pod_vessel_name, 'MSC ANNA');
  });

  test('a barge leg is a feeder whatever its length', () => {
    const barge = vesselLeg({ id: 'b', containers: [BOX], vessel: { imo: null, name: 'RHINE 7' }, voyage: 'R7', mode: 'BARGE', from: 'NLRTM', to: 'CNSHA', times: ['2026-02-20T00:00:00Z', '2026-02-20T06:00:00Z', '2026-03-03T00:00:00Z', '2026-03-03T06:00:00Z'] });
    const { diffs } = feed(snapshot([...barge, load, depart, arrive, discharge]));
    assert.deepEqual(names(diffs[0]).slice(0, 5), ['feeder_loaded@NLRTM', 'feeder_departed@NLRTM', 'feeder_arrived@CNSHA', 'feeder_discharged@CNSHA', 'transshipment_loaded@CNSHA']);
  });
});

describe('a rail move to an inland destination', () => {
  const rail = (classifier: CarrierEvent['classifier'] = 'ACT') => [
    ev({ id: 'rl', code: 'LOAD', at: '2026-03-22T06:00:00Z', locode: 'USLAX', container: BOX, mode: 'RAIL', facility: 'RAMP', classifier }),
    ev({ id: 'rd', code: 'DEPA', at: '2026-03-22T20:00:00Z', locode: 'USLAX', mode: 'RAIL', classifier }),
    ev({ id: 'ra', code: 'ARRI', at: '2026-03-26T10:00:00Z', locode: 'USCHI', mode: 'RAIL', classifier }),
    ev({ id: 'ru', code: 'DISC', at: '2026-03-26T16:00:00Z', locode: 'USCHI', container: BOX, mode: 'RAIL', facility: 'RAMP', classifier }),
    ev({ id: 'rfo', code: 'GTOT', at: '2026-03-28T15:00:00Z', locode: 'USCHI', container: BOX, facility: 'RAMP', classifier }),
    ev({ id: 'rei', code: 'GTIN', at: '2026-03-30T13:00:00Z', locode: 'USCHI', container: BOX, empty: true, facility: 'DEPO', classifier }),
  ];
  const railEta = ev({ id: 'reta', code: 'ARRI', classifier: 'EST', at: '2026-03-26T08:00:00Z', published: '2026-03-22T00:00:00Z', locode: 'USCHI', mode: 'RAIL' });
  const ocean = [load, depart, arrive, discharge];

  test('rail milestones, the inland destination and its times', () => {
    // The ramp's gate-in observes the same arrival later; the train's arrival time stands.
    const gateIn = ev({ id: 'rgi', code: 'GTIN', at: '2026-03-26T18:00:00Z', published: '2026-03-27T00:00:00Z', locode: 'USCHI', container: BOX, facility: 'RAMP' });
    const { diffs, stored } = feed(snapshot([...ocean, ...rail(), railEta, gateIn]));
    assert.deepEqual(names(diffs[0]).slice(4), [
      'rail_loaded@USLAX',
      'rail_departed@USLAX',
      'rail_arrived@USCHI',
      'arrived_at_inland_destination@USCHI',
      'rail_unloaded@USCHI',
      'full_out@USCHI',
      'empty_in@USCHI',
    ]);
    const s = stored.shipment!;
    assert.deepEqual(
      [s.destination_locode, s.destination_timezone, s.destination_eta_at, s.destination_ata_at],
      ['USCHI', 'America/Chicago', '2026-03-26T08:00:00Z', '2026-03-26T10:00:00Z'],
    );
    const c = container(stored);
    assert.deepEqual(
      {
        pod_full_out_at: c.pod_full_out_at,
        final_destination_full_out_at: c.final_destination_full_out_at,
        pod_rail_loaded_at: c.pod_rail_loaded_at,
        pod_rail_departed_at: c.pod_rail_departed_at,
        ind_eta_at: c.ind_eta_at,
        ind_ata_at: c.ind_ata_at,
        ind_rail_unloaded_at: c.ind_rail_unloaded_at,
        final_destination_timezone: c.final_destination_timezone,
        empty_terminated_timezone: c.empty_terminated_timezone,
      },
      {
        pod_full_out_at: null,
        final_destination_full_out_at: '2026-03-28T15:00:00Z',
        pod_rail_loaded_at: '2026-03-22T06:00:00Z',
        pod_rail_departed_at: '2026-03-22T20:00:00Z',
        ind_eta_at: '2026-03-26T08:00:00Z',
        ind_ata_at: '2026-03-26T10:00:00Z',
        ind_rail_unloaded_at: '2026-03-26T16:00:00Z',
        final_destination_timezone: 'America/Chicago',
        empty_terminated_timezone: 'America/Chicago',
      },
    );
  });

  test('current_status: awaiting_inland_transfer → on_rail → grounded → picked_up → empty_returned', () => {
    // The plan of the rail move is known from the start, as carriers publish it.
    const actual = [...ocean, ...rail()];
    const planned = rail('PLN').map((e) => ({ ...e, id: `${e.id}-plan` }));
    const statuses = [4, 5, 6, 7, 8, 9, 10].map((n) => container(feed(snapshot([...actual.slice(0, n), ...planned])).stored).current_status);
    assert.deepEqual(statuses, ['awaiting_inland_transfer', 'on_rail', 'on_rail', 'on_rail', 'grounded', 'picked_up', 'empty_returned']);
  });

  test('availability at the inland ramp is announced there', () => {
    const unloaded = [...ocean, ...rail().slice(0, 4)];
    const ready = terminalReport(BOX, '2026-03-27T09:00:00Z', { terminalCode: 'CHI1', availableForPickup: true });
    const { diffs } = feed(snapshot(unloaded), snapshot(unloaded, { terminal: [ready] }));
    assert.deepEqual(
      diffs[1].transportEvents.map((e) => [e.event, e.locode, e.timezone, e.dataSource]),
      [['container.transport.available', 'USCHI', 'America/Chicago', 'terminal']],
    );
    assert.equal(diffs[1].containers[0].state.current_status, 'available');
  });

  test('a moved inland ETA is announced for the containers bound there', () => {
    const moved: CarrierEvent = { ...railEta, id: 'reta2', occurredAt: new Date('2026-03-27T08:00:00Z'), publishedAt: new Date('2026-03-24T00:00:00Z') };
    const before = [...ocean, rail()[0], rail()[1]];
    const { diffs, stored } = feed(snapshot([...before, railEta]), snapshot([...before, railEta, moved], { fetchedAt: '2026-03-24T01:00:00Z' }));
    assert.deepEqual(
      diffs[1].transportEvents.map((e) => [e.event, e.timestamp.toISOString(), e.locode]),
      [['container.transport.estimated.arrived_at_inland_destination', '2026-03-27T08:00:00.000Z', 'USCHI']],
    );
    assert.equal(container(stored).ind_eta_at, '2026-03-27T08:00:00Z');
    assert.deepEqual(apply(stored, snapshot([...before, railEta, moved], { fetchedAt: '2026-03-24T01:00:00Z' })).diff.transportEvents, []);
  });
});

describe('terminal holds, then release', () => {
  const atTerminal = [load, depart, arrive, discharge];
  const held = terminalReport(BOX, '2026-03-21T12:00:00Z', {
    availableForPickup: false,
    holds: [
      { name: 'freight', status: 'hold', description: null },
      { name: 'customs', status: 'hold', description: 'CBP exam' },
    ],
  });
  const released = terminalReport(BOX, '2026-03-23T12:00:00Z', {
    availableForPickup: true,
    lastFreeDay: '2026-03-26',
    fees: [{ type: 'demurrage', amount: 0, currency_code: 'USD' }],
    pickupAppointmentAt: new Date('2026-03-24T16:00:00Z'),
  });
  const { diffs, stored } = feed(
    snapshot(atTerminal),
    snapshot(atTerminal, { terminal: [held] }),
    snapshot(atTerminal, { terminal: [released] }),
    snapshot(atTerminal, { terminal: [released] }),
    snapshot([...atTerminal, fullOut], { terminal: [released] }),
  );

  test('status: grounded → not_available → available → picked_up', () => {
    assert.deepEqual(
      diffs.map((d) => d.containers[0].state.current_status),
      ['grounded', 'not_available', 'available', 'available', 'picked_up'],
    );
    assert.equal(container(stored).availability_known, true);
  });

  test('the changesets report what the terminal changed', () => {
    assert.deepEqual(diffs[1].containerChanges, [
      {
        containerNumber: BOX,
        changeset: {
          available_for_pickup: [null, false],
          holds_at_pod_terminal: [
            [],
            [
              { name: 'customs', status: 'hold', description: 'CBP exam' },
              { name: 'freight', status: 'hold', description: null },
            ],
          ],
          pod_terminal: [null, 'Y258'],
        },
        timestamp: new Date('2026-03-21T12:00:00Z'),
        timezone: 'America/Los_Angeles',
        terminalCode: 'Y258',
      },
    ]);
    assert.deepEqual(diffs[2].containerChanges[0].changeset, {
      available_for_pickup: [false, true],
      // The last free day begins at midnight in Los Angeles (PDT).
      pickup_lfd: [null, '2026-03-26T07:00:00Z'],
      fees_at_pod_terminal: [[], [{ type: 'demurrage', amount: 0, currency_code: 'USD' }]],
      holds_at_pod_terminal: [
        [
          { name: 'customs', status: 'hold', description: 'CBP exam' },
          { name: 'freight', status: 'hold', description: null },
        ],
        [],
      ],
      pickup_appointment_at: [null, '2026-03-24T16:00:00Z'],
    });
    assert.deepEqual(diffs[3].containerChanges, [], 'the same report again changes nothing');
  });

  test('availability from the terminal is announced once, as a terminal milestone', () => {
    assert.deepEqual(
      diffs.map((d) => d.transportEvents.map((e) => `${e.event}:${e.dataSource}`)),
      [
        [
          'container.transport.vessel_loaded:shipping_line',
          'container.transport.vessel_departed:shipping_line',
          'container.transport.vessel_arrived:shipping_line',
          'container.transport.vessel_discharged:shipping_line',
        ],
        [],
        ['container.transport.available:terminal'],
        [],
        ['container.transport.full_out:shipping_line'],
      ],
    );
    assert.equal(diffs[2].transportEvents[0].timestamp.toISOString(), '2026-03-23T12:00:00.000Z');
  });

  test('without terminal data, the carrier customs events hold and release the box', () => {
    const inspect = ev({ id: 'cusi', code: 'CUSI', at: '2026-03-21T11:00:00Z', locode: 'USLAX', container: BOX });
    const release = ev({ id: 'cusr', code: 'CUSR', at: '2026-03-22T11:00:00Z', locode: 'USLAX', container: BOX });
    const { diffs } = feed(snapshot(atTerminal), snapshot([...atTerminal, inspect]), snapshot([...atTerminal, inspect, release]));
    assert.deepEqual(diffs[1].containerChanges[0].changeset, { holds_at_pod_terminal: [[], [{ name: 'customs', status: 'hold', description: null }]] });
    assert.deepEqual(diffs[2].containerChanges[0].changeset, { holds_at_pod_terminal: [[{ name: 'customs', status: 'hold', description: null }], []] });
  });
});

describe('ETA changes', () => {
  const moved = ev({ id: 'eta2', code: 'ARRI', classifier: 'EST', at: '2026-03-22T06:00:00Z', published: '2026-03-10T00:00:00Z', locode: 'USLAX', mode: 'VESSEL', vessel: EVER_ACE, voyage: '012E' });
  const { diffs, stored } = feed(
    snapshot([load, depart, eta]),
    snapshot([load, depart, eta, moved]),
    snapshot([load, depart, eta, moved]),
    snapshot([load, depart, arrive]),
  );

  test('shipment.estimated.arrival when a known shipment ETA moves, not when the shipment first appears', () => {
    assert.deepEqual(
      diffs.map((d) => d.estimatedEvents.length),
      [0, 1, 0, 0],
    );
    assert.deepEqual(diffs[1].estimatedEvents[0], {
      event: 'shipment.estimated.arrival',
      estimatedTimestamp: new Date('2026-03-22T06:00:00Z'),
      previousTimestamp: new Date('2026-03-20T12:00:00Z'),
      timezone: 'America/Los_Angeles',
      locode: 'USLAX',
      voyageNumber: '012E',
      vessel: EVER_ACE,
      dataSource: 'shipping_line',
      publishedAt: new Date('2026-03-10T00:00:00Z'),
    });
  });

  test('an ETA that first appears after the shipment was created is announced too', () => {
    const { diffs } = feed(snapshot([load, depart]), snapshot([load, depart, eta]));
    assert.deepEqual(
      diffs[1].estimatedEvents.map((e) => [e.estimatedTimestamp.toISOString(), e.previousTimestamp]),
      [['2026-03-20T12:00:00.000Z', null]],
    );
    assert.equal(diffs[1].shipment.pod_original_eta_at, '2026-03-20T12:00:00Z');
  });

  test('pod_eta_at follows the latest estimate, pod_original_eta_at keeps the first', () => {
    assert.deepEqual(
      diffs.map((d) => [d.shipment.pod_eta_at, d.shipment.pod_original_eta_at, d.shipment.pod_ata_at]),
      [
        ['2026-03-20T12:00:00Z', '2026-03-20T12:00:00Z', null],
        ['2026-03-22T06:00:00Z', '2026-03-20T12:00:00Z', null],
        ['2026-03-22T06:00:00Z', '2026-03-20T12:00:00Z', null],
        // The carrier dropped its estimate once the vessel arrived: the last one stays.
        ['2026-03-22T06:00:00Z', '2026-03-20T12:00:00Z', '2026-03-20T14:00:00Z'],
      ],
    );
    assert.equal(stored.shipment!.pod_eta_at, '2026-03-22T06:00:00Z');
  });
});

// ---------------------------------------------------------------------------------------------
// Properties over generated journeys: the order of events never matters, a replayed snapshot
// announces nothing, and polling as the journey advances announces each milestone exactly once.

const T0 = Date.parse('2026-03-01T00:00:00Z');

interface Journey {
  containers: string[];
  shape: 'direct' | 'feeder' | 'relay';
  rail: boolean;
  /** How many of the journey's events have happened (the rest are planned). */
  progress: number;
  /** Actual events the carrier sends again under a new id: the same time, or one corrected by minutes either way. */
  resent: { event: number; correction: number }[];
  /** Actual times differ from the plan by up to two hours. */
  jitter: number[];
  terminal: { available: boolean | null; holds: string[]; lfd: string | null } | null;
}

const LEGS = {
  direct: [{ from: 'CNSHA', to: 'USLAX', hours: 336, vessel: EVER_ACE }],
  feeder: [
    { from: 'KRPUS', to: 'CNSHA', hours: 40, vessel: FEEDER },
    { from: 'CNSHA', to: 'USLAX', hours: 336, vessel: EVER_ACE },
  ],
  relay: [
    { from: 'CNSHA', to: 'SGSIN', hours: 150, vessel: EVER_ACE },
    { from: 'SGSIN', to: 'NLRTM', hours: 570, vessel: { imo: '9700002', name: 'MSC ANNA' } },
  ],
};

/** The whole journey as a plan, in time order: each event is at least six hours from the next of its container. */
function planned(j: Journey): EventSpec[] {
  const legs = LEGS[j.shape];
  const specs: EventSpec[] = [];
  let h = 0;
  const at = () => new Date(T0 + h * HOUR).toISOString();
  const each = (make: (c: string) => Omit<EventSpec, 'at'>) => j.containers.forEach((c) => specs.push({ ...make(c), at: at() }));
  const origin = legs[0].from;
  each((c) => ({ id: `eo-${c}`, code: 'GTOT', locode: origin, container: c, empty: true, facility: 'DEPO' }));
  h += 24;
  each((c) => ({ id: `fi-${c}`, code: 'GTIN', locode: origin, container: c, facility: 'POTE' }));
  legs.forEach((leg, i) => {
    const ship = { mode: 'VESSEL' as const, vessel: leg.vessel, voyage: `V${i}` };
    h += 24;
    each((c) => ({ ...ship, id: `l${i}-${c}`, code: 'LOAD', locode: leg.from, container: c }));
    h += 12;
    specs.push({ ...ship, id: `d${i}`, code: 'DEPA', locode: leg.from, at: at() });
    h += leg.hours;
    specs.push({ ...ship, id: `a${i}`, code: 'ARRI', locode: leg.to, at: at() });
    h += 12;
    each((c) => ({ ...ship, id: `u${i}-${c}`, code: 'DISC', locode: leg.to, container: c }));
  });
  let last = legs.at(-1)!.to;
  if (j.rail && last === 'USLAX') {
    h += 24;
    each((c) => ({ id: `rl-${c}`, code: 'LOAD', locode: 'USLAX', container: c, mode: 'RAIL' }));
    h += 12;
    specs.push({ id: 'rd', code: 'DEPA', locode: 'USLAX', mode: 'RAIL', at: at() });
    h += 72;
    specs.push({ id: 'ra', code: 'ARRI', locode: 'USCHI', mode: 'RAIL', at: at() });
    h += 12;
    each((c) => ({ id: `ru-${c}`, code: 'DISC', locode: 'USCHI', container: c, mode: 'RAIL' }));
    last = 'USCHI';
  }
  h += 48;
  each((c) => ({ id: `fo-${c}`, code: 'GTOT', locode: last, container: c }));
  h += 48;
  each((c) => ({ id: `ei-${c}`, code: 'GTIN', locode: last, container: c, empty: true, facility: 'DEPO' }));
  return specs;
}

/** What the carrier says once the first `progress` events of the plan have happened. */
function carrierSays(j: Journey, progress: number, withTerminal: boolean): CarrierSnapshot {
  const events = planned(j).flatMap((spec, i): CarrierEvent[] => {
    if (i >= progress) return [ev({ ...spec, classifier: 'PLN', published: '2026-02-25T00:00:00Z' })];
    const at = new Date(Date.parse(spec.at) + (j.jitter[i % j.jitter.length] ?? 0) * 60_000).toISOString();
    const actual = ev({ ...spec, at });
    const again = j.resent.filter((r) => r.event === i);
    return [
      actual,
      ...again.map((r, n) => {
        const corrected = new Date(Date.parse(at) + r.correction * 60_000).toISOString();
        // A copy without a correction may carry the same publication time: only the id tells them apart.
        const published = r.correction === 0 ? at : new Date(Date.parse(at) + (n + 1) * HOUR).toISOString();
        return ev({ ...spec, id: `${spec.id}-again${n}`, at: corrected, published });
      }),
    ];
  });
  const terminal =
    withTerminal && j.terminal
      ? j.containers.map((c) =>
          terminalReport(c, '2026-05-01T00:00:00Z', {
            availableForPickup: j.terminal!.available,
            holds: j.terminal!.holds.map((name) => ({ name, status: 'hold' as const, description: null })),
            lastFreeDay: j.terminal!.lfd,
          }),
        )
      : [];
  return snapshot(events, {
    containers: j.containers.map((number) => ({ number, isoEquipmentCode: '45G1', sealNumber: null, weightKg: 12000 })),
    terminal,
  });
}

const journeys: fc.Arbitrary<Journey> = fc.record({
  containers: fc.subarray(['MSKU1000001', 'MSKU1000002', 'TGHU2000003'], { minLength: 1 }),
  shape: fc.constantFrom('direct', 'feeder', 'relay'),
  rail: fc.boolean(),
  progress: fc.integer({ min: 0, max: 40 }),
  resent: fc.array(fc.record({ event: fc.integer({ min: 0, max: 40 }), correction: fc.constantFrom(0, -30, 45) }), { maxLength: 6 }),
  jitter: fc.array(fc.integer({ min: -120, max: 120 }), { minLength: 1, maxLength: 8 }),
  terminal: fc.option(
    fc.record({
      available: fc.option(fc.boolean()),
      holds: fc.subarray(['customs', 'freight', 'USDA']),
      lfd: fc.option(fc.constantFrom('2026-04-01', '2026-04-02')),
    }),
  ),
});

function reordered(snap: CarrierSnapshot, seed: number): CarrierSnapshot {
  return { ...snap, events: shuffled(snap.events, seed), containers: shuffled(snap.containers, seed + 1), terminal: shuffled(snap.terminal, seed + 2) };
}

describe('properties', () => {
  test('the order of events, containers and terminal reports does not matter', () => {
    fc.assert(
      fc.property(journeys, fc.integer(), (j, seed) => {
        const earlier = apply(nothingStored(), carrierSays(j, Math.floor(j.progress / 2), false)).stored;
        const snap = carrierSays(j, j.progress, true);
        assert.deepEqual(diffSnapshot(earlier, reordered(snap, seed), ctx), diffSnapshot(earlier, snap, ctx));
      }),
      { numRuns: 300 },
    );
  });

  test('a snapshot fed twice changes nothing the second time', () => {
    fc.assert(
      fc.property(journeys, (j) => {
        const snap = carrierSays(j, j.progress, true);
        const first = apply(nothingStored(), snap);
        const keys = first.diff.transportEvents.map((e) => e.key);
        assert.equal(new Set(keys).size, keys.length, 'no milestone twice in one diff');
        const second = apply(first.stored, snap);
        assert.deepEqual(second.diff.transportEvents, []);
        assert.deepEqual(second.diff.estimatedEvents, []);
        assert.deepEqual(second.diff.containerChanges, []);
        assert.deepEqual(second.stored.shipment, first.stored.shipment);
        assert.deepEqual(second.stored.containers, first.stored.containers);
      }),
      { numRuns: 300 },
    );
  });

  test('polling as the journey advances announces each milestone once, the same ones as a single late poll', () => {
    fc.assert(
      fc.property(journeys, (j) => {
        const polls = Array.from({ length: j.progress + 1 }, (_, p) => carrierSays(j, p, false));
        const announced = feed(...polls).diffs.flatMap((d) => d.transportEvents.map((e) => e.key));
        assert.equal(new Set(announced).size, announced.length, 'no milestone announced twice');
        const atOnce = feed(polls.at(-1)!).diffs[0].transportEvents.map((e) => e.key);
        assert.deepEqual([...announced].sort(), [...atOnce].sort());
      }),
      { numRuns: 150 },
    );
  });
});
