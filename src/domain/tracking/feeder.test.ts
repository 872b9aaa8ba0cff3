// Feeder legs (anchors §2.7 row 11): which legs are feeders, from what a carrier's DCSA events
// carry (the mode of each call, the vessel that groups calls into legs, the order and times of the
// legs, actual or planned), and how a milestone first recorded under a mainline name is corrected
// under its key once the route shows its leg was a feeder.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { HOUR } from '../time-units.ts';
import type { CarrierEvent, CarrierSnapshot } from './carrier-events.ts';
import { diffSnapshot } from './diff.ts';
import { apply, ctx, ev, feed, feedFrom, nothingStored, recorded, shuffled, snapshot, vesselLeg } from './fixtures.ts';
import type { Diff, VesselRef } from './types.ts';

const BOX = 'MSKU1234565';
const BOX2 = 'TGHU2000003';
const T0 = Date.parse('2026-03-01T00:00:00Z');

const TONGALA = { imo: '9278105', name: 'TONGALA' };
const ELBSPRING = { imo: '9412529', name: 'ELBSPRING' };
const NYK_THEMIS = { imo: '9356696', name: 'NYK THEMIS' };
const EMMA_MAERSK = { imo: '9321483', name: 'EMMA MAERSK' };
const MAERSK_GARONNE = { imo: '9235531', name: 'MAERSK GARONNE' };
const MADRID_MAERSK = { imo: '9778791', name: 'MADRID MAERSK' };
const EVER_ACE = { imo: '9893890', name: 'EVER ACE' };
const MSC_ANNA = { imo: '9700002', name: 'MSC ANNA' };

interface LegPlan {
  from: string;
  to: string;
  /** Departure to arrival. */
  hours: number;
  vessel: VesselRef | null;
  mode?: 'VESSEL' | 'BARGE';
}

interface Published {
  /** The planned departure from the port of lading and arrival at the port of discharge, sent with the booking. */
  planned: CarrierEvent[];
  /** Every actual move, in the order it happens. */
  actual: CarrierEvent[];
}

/**
 * A journey as the sandbox (and carriers like it) publish it: the booking's planned departure and
 * arrival at the ends, then each load, departure, arrival and discharge as it happens. Boxes are
 * loaded 12 h before the vessel leaves, discharged 12 h after it arrives and wait two days at a hub.
 */
function journey(id: string, legs: LegPlan[], containers: readonly string[] = [BOX]): Published {
  const iso = (ms: number) => new Date(ms).toISOString();
  let t = T0;
  const actual: CarrierEvent[] = [];
  const times: { depart: number; arrive: number }[] = [];
  legs.forEach((leg, i) => {
    const depart = t + 12 * HOUR;
    const arrive = depart + leg.hours * HOUR;
    times.push({ depart, arrive });
    actual.push(
      ...vesselLeg({
        id: `${id}${i}`,
        containers,
        vessel: leg.vessel,
        voyage: `${id.toUpperCase()}${i}`,
        mode: leg.mode,
        from: leg.from,
        to: leg.to,
        times: [iso(t), iso(depart), iso(arrive), iso(arrive + 12 * HOUR)],
      }),
    );
    t = arrive + 12 * HOUR + 48 * HOUR;
  });
  const first = legs[0];
  const last = legs.at(-1)!;
  const plan = (leg: LegPlan, i: number) => ({ mode: leg.mode ?? 'VESSEL', vessel: leg.vessel ?? undefined, voyage: `${id.toUpperCase()}${i}`, classifier: 'PLN', published: iso(T0 - 24 * HOUR) }) as const;
  return {
    planned: [
      ev({ ...plan(first, 0), id: `${id}-pln-depa`, code: 'DEPA', at: iso(times[0].depart), locode: first.from }),
      ev({ ...plan(last, legs.length - 1), id: `${id}-pln-arri`, code: 'ARRI', at: iso(times.at(-1)!.arrive), locode: last.to }),
    ],
    actual,
  };
}

/** What the carrier says once the first `n` actual moves have happened. */
const after = (j: Published, n: number): CarrierSnapshot => snapshot([...j.planned, ...j.actual.slice(0, n)]);
/** Every poll from the booking to the end. */
const everyStep = (j: Published) => Array.from({ length: j.actual.length + 1 }, (_, n) => after(j, n));

const names = (d: Diff) => d.transportEvents.map((e) => `${e.event.replace('container.transport.', '')}@${e.locode}`);
const corrections = (d: Diff) => d.transportEvents.filter((e) => e.correctionOf).map((e) => `${e.correctionOf!.replace('container.transport.', '')}→${e.event.replace('container.transport.', '')}@${e.locode}`);
/** The milestones of one poll of everything. */
const atOnce = (j: Published) => names(feed(after(j, j.actual.length)).diffs[0]);
/** What the store holds after polling every step, in the single poll's journey order. */
function storedAfterPolling(j: Published): string[] {
  const late = feed(after(j, j.actual.length)).diffs[0].transportEvents;
  const held = recorded(feed(...everyStep(j)).diffs);
  assert.deepEqual([...held.keys()].sort(), late.map((e) => e.key).sort(), 'the same milestones, one record each');
  return late.map((e) => `${held.get(e.key)!.replace('container.transport.', '')}@${e.locode}`);
}

// Ho Chi Minh City → (feeder ship) Singapore → Tanger Med → Savannah: TEST-TS2-FEEDER.
const TS2 = journey('ts2', [
  { from: 'VNSGN', to: 'SGSIN', hours: 45, vessel: TONGALA },
  { from: 'SGSIN', to: 'MAPTM', hours: 412, vessel: NYK_THEMIS },
  { from: 'MAPTM', to: 'USSAV', hours: 219, vessel: EMMA_MAERSK },
]);
const TS2_MILESTONES = [
  'feeder_loaded@VNSGN',
  'feeder_departed@VNSGN',
  'feeder_arrived@SGSIN',
  'feeder_discharged@SGSIN',
  'transshipment_loaded@SGSIN',
  'transshipment_departed@SGSIN',
  'transshipment_arrived@MAPTM',
  'transshipment_discharged@MAPTM',
  'transshipment_loaded@MAPTM',
  'transshipment_departed@MAPTM',
  'vessel_arrived@USSAV',
  'vessel_discharged@USSAV',
];

// Yantian → (feeder ship, three days) Busan → Panama → New York: the audited MAEU261234567.
const MAEU = journey('maeu', [
  { from: 'CNYTN', to: 'KRPUS', hours: 75, vessel: ELBSPRING },
  { from: 'KRPUS', to: 'PAMIT', hours: 420, vessel: MAERSK_GARONNE },
  { from: 'PAMIT', to: 'USNYC', hours: 139, vessel: MADRID_MAERSK },
]);

// Singapore → Rotterdam on the mother vessel, then a feeder ship across to Felixstowe.
const FEEDER_AFTER = journey('after', [
  { from: 'SGSIN', to: 'NLRTM', hours: 576, vessel: EVER_ACE },
  { from: 'NLRTM', to: 'GBFXT', hours: 20, vessel: TONGALA },
]);

// Port Klang → (barge, no vessel named) Singapore → Rotterdam: TEST-BARGE.
const BARGE = journey('barge', [
  { from: 'MYPKG', to: 'SGSIN', hours: 30, vessel: null, mode: 'BARGE' },
  { from: 'SGSIN', to: 'NLRTM', hours: 494, vessel: MSC_ANNA },
]);

const DIRECT = journey('direct', [{ from: 'NLRTM', to: 'USNYC', hours: 196, vessel: EVER_ACE }]);
const SHORT_DIRECT = journey('hop', [{ from: 'NLRTM', to: 'GBFXT', hours: 20, vessel: TONGALA }]);

// Shanghai → Singapore on a mainline ship (just over four days), then Rotterdam: TEST-TS1's shape.
const RELAY = journey('relay', [
  { from: 'CNSHA', to: 'SGSIN', hours: 100, vessel: EVER_ACE },
  { from: 'SGSIN', to: 'NLRTM', hours: 494, vessel: MSC_ANNA },
]);

// A short hub-to-hub leg between two long ones is a relay between mainline services.
const MIDDLE = journey('middle', [
  { from: 'CNSHA', to: 'SGSIN', hours: 150, vessel: EVER_ACE },
  { from: 'SGSIN', to: 'MYPKG', hours: 20, vessel: TONGALA },
  { from: 'MYPKG', to: 'NLRTM', hours: 480, vessel: MSC_ANNA },
]);

// Three days, then two legs under five days: only the full route shows there is no mother vessel
// twice as long, so the first leg, taken for a feeder on its arrival, is a transshipment after all.
const OVERTURNED = journey('over', [
  { from: 'CNSHA', to: 'KRPUS', hours: 72, vessel: ELBSPRING },
  { from: 'KRPUS', to: 'JPTYO', hours: 110, vessel: EVER_ACE },
  { from: 'JPTYO', to: 'USLAX', hours: 110, vessel: MSC_ANNA },
]);

describe('a feeder on an ordinary vessel before the mainline', () => {
  test('with the full event set every move of its leg is a feeder milestone, the POL ones included', () => {
    assert.deepEqual(atOnce(TS2), TS2_MILESTONES);
    const { stored } = feed(after(TS2, TS2.actual.length));
    const s = stored.shipment!;
    assert.deepEqual([s.port_of_lading_locode, s.port_of_discharge_locode, s.transshipment_locodes], ['VNSGN', 'USSAV', ['SGSIN', 'MAPTM']]);
    // The container's departure from the port of lading is the feeder's.
    assert.equal(stored.containers[0].pol_vessel_departed_at, '2026-03-01T12:00:00Z');
  });

  test('polled as it happens: the arrival is named a feeder when first seen, the load and departure are corrected under their keys', () => {
    const { diffs } = feed(...everyStep(TS2));
    const firstSeen = diffs.flatMap(names);
    // Nothing tells a feeder from a mainline ship while it is still on its way to the hub.
    assert.deepEqual(firstSeen.slice(0, 2), ['vessel_loaded@VNSGN', 'vessel_departed@VNSGN']);
    // Its arrival, short beside the rest of the way to Savannah, shows it was one.
    const arrival = diffs.findIndex((d) => names(d).includes('feeder_arrived@SGSIN'));
    assert.deepEqual(names(diffs[arrival]), ['feeder_loaded@VNSGN', 'feeder_departed@VNSGN', 'feeder_arrived@SGSIN']);
    assert.deepEqual(corrections(diffs[arrival]), ['vessel_loaded→feeder_loaded@VNSGN', 'vessel_departed→feeder_departed@VNSGN']);
    const loaded = diffs[arrival].transportEvents[0];
    assert.equal(loaded.key, diffs[1].transportEvents[0].key, 'the same milestone, renamed');
    assert.equal(loaded.sourceEventId, `ts20-load-${BOX}`);
    assert.deepEqual(diffs.flatMap(corrections).length, 2, 'nothing else is ever corrected');
    assert.deepEqual(storedAfterPolling(TS2), TS2_MILESTONES);
  });

  test('each poll is idempotent: the same snapshot again records nothing, corrections included', () => {
    for (let n = 0; n <= TS2.actual.length; n++) {
      const { stored } = feed(...everyStep(TS2).slice(0, n + 1));
      assert.deepEqual(apply(stored, after(TS2, n)).diff.transportEvents, [], `after ${n} moves`);
    }
  });

  test('a store that does not report recorded names keeps the first name and records nothing twice', () => {
    const { diffs } = feedFrom({ ...nothingStored(), emittedEvents: undefined }, ...everyStep(TS2));
    const all = diffs.flatMap(names);
    assert.equal(new Set(diffs.flatMap((d) => d.transportEvents.map((e) => e.key))).size, all.length);
    assert.deepEqual(all.slice(0, 4), ['vessel_loaded@VNSGN', 'vessel_departed@VNSGN', 'feeder_arrived@SGSIN', 'feeder_discharged@SGSIN']);
  });

  test('Yantian → Busan (three days) before the Busan → Panama crossing is a feeder', () => {
    const expected = [
      'feeder_loaded@CNYTN',
      'feeder_departed@CNYTN',
      'feeder_arrived@KRPUS',
      'feeder_discharged@KRPUS',
      'transshipment_loaded@KRPUS',
      'transshipment_departed@KRPUS',
      'transshipment_arrived@PAMIT',
      'transshipment_discharged@PAMIT',
      'transshipment_loaded@PAMIT',
      'transshipment_departed@PAMIT',
      'vessel_arrived@USNYC',
      'vessel_discharged@USNYC',
    ];
    assert.deepEqual(atOnce(MAEU), expected);
    assert.deepEqual(storedAfterPolling(MAEU), expected);
  });
});

describe('a feeder after the mainline', () => {
  const expected = [
    'vessel_loaded@SGSIN',
    'vessel_departed@SGSIN',
    'transshipment_arrived@NLRTM',
    'transshipment_discharged@NLRTM',
    'feeder_loaded@NLRTM',
    'feeder_departed@NLRTM',
    // Rows 12 and 14: the arrival at the port of discharge is the vessel's, whatever the vessel.
    'vessel_arrived@GBFXT',
    'vessel_discharged@GBFXT',
  ];

  test('its load and departure at the hub are feeder milestones, its arrival at the POD vessel_arrived', () => {
    assert.deepEqual(atOnce(FEEDER_AFTER), expected);
    const { stored } = feed(after(FEEDER_AFTER, FEEDER_AFTER.actual.length));
    assert.deepEqual(stored.shipment!.transshipment_locodes, ['NLRTM']);
    assert.equal(stored.shipment!.pod_vessel_name, 'TONGALA');
  });

  test('with the mother leg behind it and its planned arrival known, it is a feeder from its first move', () => {
    const { diffs } = feed(...everyStep(FEEDER_AFTER));
    assert.deepEqual(diffs.flatMap(names), expected);
    assert.deepEqual(diffs.flatMap(corrections), []);
  });
});

describe('a barge feeder', () => {
  test('modeOfTransport BARGE is a feeder from its first move, with no vessel named', () => {
    const expected = [
      'feeder_loaded@MYPKG',
      'feeder_departed@MYPKG',
      'feeder_arrived@SGSIN',
      'feeder_discharged@SGSIN',
      'transshipment_loaded@SGSIN',
      'transshipment_departed@SGSIN',
      'vessel_arrived@NLRTM',
      'vessel_discharged@NLRTM',
    ];
    assert.deepEqual(atOnce(BARGE), expected);
    const { diffs, stored } = feed(...everyStep(BARGE));
    assert.deepEqual(diffs.flatMap(names), expected);
    assert.deepEqual(diffs.flatMap(corrections), []);
    assert.equal(stored.shipment!.port_of_lading_locode, 'MYPKG');
  });
});

describe('no feeder', () => {
  test('a direct voyage, long or short, is the vessel’s', () => {
    for (const [j, pol, pod] of [[DIRECT, 'NLRTM', 'USNYC'], [SHORT_DIRECT, 'NLRTM', 'GBFXT']] as const) {
      const expected = [`vessel_loaded@${pol}`, `vessel_departed@${pol}`, `vessel_arrived@${pod}`, `vessel_discharged@${pod}`];
      assert.deepEqual(atOnce(j), expected);
      const { diffs } = feed(...everyStep(j));
      assert.deepEqual(diffs.flatMap(names), expected);
    }
  });

  test('a first leg longer than a feeder’s (four days) and a short hub-to-hub relay are transshipments', () => {
    assert.deepEqual(atOnce(RELAY).slice(0, 4), ['vessel_loaded@CNSHA', 'vessel_departed@CNSHA', 'transshipment_arrived@SGSIN', 'transshipment_discharged@SGSIN']);
    assert.deepEqual(atOnce(MIDDLE).slice(4, 8), ['transshipment_loaded@SGSIN', 'transshipment_departed@SGSIN', 'transshipment_arrived@MYPKG', 'transshipment_discharged@MYPKG']);
    for (const j of [RELAY, MIDDLE]) assert.deepEqual(feed(...everyStep(j)).diffs.flatMap(corrections), []);
  });

  test('a leg taken for a feeder on its arrival is corrected back once the route shows no mother vessel twice as long', () => {
    const { diffs } = feed(...everyStep(OVERTURNED));
    assert.ok(diffs.flatMap(names).includes('feeder_arrived@KRPUS'), 'taken for a feeder at first');
    assert.deepEqual(diffs.flatMap(corrections), [
      'vessel_loaded→feeder_loaded@CNSHA',
      'vessel_departed→feeder_departed@CNSHA',
      'feeder_loaded→vessel_loaded@CNSHA',
      'feeder_departed→vessel_departed@CNSHA',
      'feeder_arrived→transshipment_arrived@KRPUS',
      'feeder_discharged→transshipment_discharged@KRPUS',
    ]);
    assert.deepEqual(storedAfterPolling(OVERTURNED), atOnce(OVERTURNED));
    assert.deepEqual(atOnce(OVERTURNED).slice(0, 4), ['vessel_loaded@CNSHA', 'vessel_departed@CNSHA', 'transshipment_arrived@KRPUS', 'transshipment_discharged@KRPUS']);
  });
});

// ---------------------------------------------------------------------------------------------
// Properties over these journeys, polled at any moments, with one or two boxes: the store ends
// with exactly the milestones of one late poll (names included), one record per milestone, a
// replayed poll records nothing, and the order of the carrier's events does not matter.

const SHAPES: Record<string, LegPlan[]> = {
  ts2: [
    { from: 'VNSGN', to: 'SGSIN', hours: 45, vessel: TONGALA },
    { from: 'SGSIN', to: 'MAPTM', hours: 412, vessel: NYK_THEMIS },
    { from: 'MAPTM', to: 'USSAV', hours: 219, vessel: EMMA_MAERSK },
  ],
  after: [
    { from: 'SGSIN', to: 'NLRTM', hours: 576, vessel: EVER_ACE },
    { from: 'NLRTM', to: 'GBFXT', hours: 20, vessel: TONGALA },
  ],
  barge: [
    { from: 'MYPKG', to: 'SGSIN', hours: 30, vessel: null, mode: 'BARGE' },
    { from: 'SGSIN', to: 'NLRTM', hours: 494, vessel: MSC_ANNA },
  ],
  direct: [{ from: 'NLRTM', to: 'USNYC', hours: 196, vessel: EVER_ACE }],
  relay: [
    { from: 'CNSHA', to: 'SGSIN', hours: 100, vessel: EVER_ACE },
    { from: 'SGSIN', to: 'NLRTM', hours: 494, vessel: MSC_ANNA },
  ],
  overturned: [
    { from: 'CNSHA', to: 'KRPUS', hours: 72, vessel: ELBSPRING },
    { from: 'KRPUS', to: 'JPTYO', hours: 110, vessel: EVER_ACE },
    { from: 'JPTYO', to: 'USLAX', hours: 110, vessel: MSC_ANNA },
  ],
};

const cases = fc.record({
  shape: fc.constantFrom(...Object.keys(SHAPES)),
  containers: fc.constantFrom([BOX], [BOX, BOX2]),
  /** The moments (counts of actual moves so far) svc polls at. */
  polls: fc.uniqueArray(fc.integer({ min: 0, max: 16 }), { minLength: 1, maxLength: 8 }),
  seed: fc.integer(),
});

describe('properties of feeder classification', () => {
  test('polled at any moments, the store ends with the milestones of one late poll, one record each', () => {
    fc.assert(
      fc.property(cases, ({ shape, containers, polls, seed }) => {
        const j = journey(shape, SHAPES[shape], containers);
        const moments = [...polls.map((p) => Math.min(p, j.actual.length)), j.actual.length].sort((a, b) => a - b);
        const snaps = moments.map((n) => after(j, n));
        const { diffs, stored } = feed(...snaps);
        for (const d of diffs) assert.equal(new Set(d.transportEvents.map((e) => e.key)).size, d.transportEvents.length, 'no milestone twice in one diff');
        const late = feed(snaps.at(-1)!).diffs[0].transportEvents;
        assert.deepEqual(recorded(diffs), new Map(late.map((e) => [e.key, e.event])));
        assert.deepEqual(apply(stored, snaps.at(-1)!).diff.transportEvents, []);
        const previous = feed(...snaps.slice(0, -1)).stored;
        const last = snaps.at(-1)!;
        assert.deepEqual(diffSnapshot(previous, { ...last, events: shuffled(last.events, seed) }, ctx), diffSnapshot(previous, last, ctx));
      }),
      { numRuns: 200 },
    );
  });
});
