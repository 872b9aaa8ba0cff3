// The sandbox labels feeders by the physical rule a real network follows, the one svc infers from
// carrier data alone (src/domain/tracking/route.ts): a first or last sea leg of a journey with two
// or more, served by a feeder ship or a barge, taking at most four days beside a mother leg (the
// longest other vessel leg) at least twice as long. Every other leg is mainline, on a mainline
// ship. Checked on the ground truth of many generated journeys, and against svc's own reading of
// the DCSA events the sandbox publishes.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { DAY, HOUR } from '../src/domain/time-units.ts';
import { toDcsaEvents } from '../src/sandbox/dcsa-serialise.ts';
import { groundTruth } from '../src/sandbox/ground-truth.ts';
import { containerNumber } from '../src/sandbox/iso6346.ts';
import type { Journey } from '../src/sandbox/journey.ts';
import { planJourney } from '../src/sandbox/planner.ts';
import { findTestNumber, TEST_NUMBERS } from '../src/sandbox/test-numbers.ts';
import { loadSandboxWorld, SANDBOX_SCACS, type SandboxWorld } from '../src/sandbox/world.ts';
import { toCarrierEvents } from '../src/carriers/dcsa/normalize.ts';
import { deriveRoute } from '../src/domain/tracking/route.ts';
import { withCallPlaces } from '../src/domain/tracking/facts.ts';

const START = new Date('2026-03-10T00:00:00Z');

let world: SandboxWorld;
let journeys: Journey[];

/** 20 numbers per sandbox SCAC (240), of every number type, plus the test numbers with a journey. */
function sample(): Journey[] {
  const out: Journey[] = [];
  for (const scac of SANDBOX_SCACS) {
    const carrier = world.carrier(scac)!;
    for (let i = 0; i < 20; i++) {
      const serial = 200_000 + i * 6_113;
      if (i % 3 === 0) out.push(planJourney(world, scac, 'bill_of_lading', `${carrier.blPrefixes[0]}${serial}${i}`, START));
      if (i % 3 === 1) out.push(planJourney(world, scac, 'booking_number', `FD${serial}${i}`, START));
      if (i % 3 === 2) out.push(planJourney(world, scac, 'container', containerNumber(carrier.containerPrefixes[i % carrier.containerPrefixes.length], serial), START));
    }
  }
  for (const t of TEST_NUMBERS) if (t.shape && t.behaviour.kind !== 'booking_cancelled') out.push(planJourney(world, t.scac, t.numberType, t.number, START));
  return out;
}

type TruthLeg = { kind: string; mode: string; vessel: { imo: string } | null; depart_at: string; arrive_at: string; from: { locode: string }; to: { locode: string } };

const seaLegsOf = (j: Journey): TruthLeg[] =>
  groundTruth(j, findTestNumber(j.scac, j.number), START, START).legs.filter((l) => l.mode !== 'RAIL') as TruthLeg[];
const hours = (l: TruthLeg) => (Date.parse(l.arrive_at) - Date.parse(l.depart_at)) / HOUR;
const describeLegs = (j: Journey, legs: TruthLeg[]) =>
  `${j.scac}:${j.number} ${legs.map((l) => `${l.kind}/${l.mode} ${l.from.locode}→${l.to.locode} ${hours(l).toFixed(1)} h`).join(', ')}`;

/** The rule, written out here on the ground truth's own terms rather than taken from the planner. */
function meetsFeederRule(legs: TruthLeg[], i: number): boolean {
  const leg = legs[i];
  if (legs.length < 2 || (i !== 0 && i !== legs.length - 1)) return false;
  const mother = Math.max(0, ...legs.filter((o, j) => j !== i && o.mode === 'VESSEL').map(hours));
  return hours(leg) <= 4 * 24 && mother > 0 && 2 * hours(leg) <= mother;
}

before(async () => {
  world = await loadSandboxWorld();
  journeys = sample();
});

describe('feeder legs follow the physical rule', () => {
  test('every feeder leg meets the rule on a feeder ship or a barge; no mainline first or last leg does', () => {
    const feederImos = new Set(world.feederVessels.map((v) => v.imo));
    const mainlineImos = new Set(world.mainlineVessels.map((v) => v.imo));
    let feeders = 0;
    let lastLegFeeders = 0;
    let mainlineEnds = 0;
    for (const j of journeys.filter((x) => x.route)) {
      const legs = seaLegsOf(j);
      legs.forEach((leg, i) => {
        const what = `${describeLegs(j, legs)}: leg ${i}`;
        if (leg.kind === 'feeder') {
          feeders++;
          if (i === legs.length - 1) lastLegFeeders++;
          assert.ok(meetsFeederRule(legs, i), `${what} is labelled a feeder against the rule`);
          if (leg.mode === 'VESSEL') assert.ok(leg.vessel && feederImos.has(leg.vessel.imo), `${what}: a feeder on ${leg.vessel?.imo}, not a feeder ship`);
          else assert.equal(leg.vessel, null, `${what}: a barge names no vessel`);
        } else {
          assert.equal(leg.kind, 'mainline', what);
          assert.equal(leg.mode, 'VESSEL', `${what}: a barge is always a feeder`);
          assert.ok(leg.vessel && mainlineImos.has(leg.vessel.imo), `${what}: a mainline leg on ${leg.vessel?.imo}, not a mainline ship`);
          if (i === 0 || i === legs.length - 1) {
            if (legs.length > 1) mainlineEnds++;
            assert.ok(!meetsFeederRule(legs, i), `${what} meets the feeder rule but is labelled mainline`);
          }
        }
      });
      // svc tells legs apart by vessel: no ship sails two legs of one journey.
      const imos = legs.flatMap((l) => (l.vessel ? [l.vessel.imo] : []));
      assert.equal(new Set(imos).size, imos.length, `${describeLegs(j, legs)}: a vessel sails two legs`);
    }
    // The sample covers the cases: feeders at either end, and short-ish end legs that stay mainline.
    assert.ok(feeders > 20, `only ${feeders} feeder legs`);
    assert.ok(lastLegFeeders > 0, 'no feeder after the mother leg');
    assert.ok(mainlineEnds > 50, `only ${mainlineEnds} mainline first or last legs of multi-leg journeys`);
  });

  test('svc reads the same feeders from the DCSA events the sandbox publishes', () => {
    for (const j of journeys.filter((x) => x.route)) {
      // As svc reads them: the sandbox's quirks included, an unplaced event placed by its call.
      const events = withCallPlaces(toCarrierEvents(toDcsaEvents(j, j.events), '2.2'));
      const route = deriveRoute(events);
      const legs = seaLegsOf(j);
      assert.deepEqual(
        route.legs.map((l) => `${l.from}→${l.to} ${l.feeder ? 'feeder' : 'mainline'}`),
        legs.map((l) => `${l.from.locode}→${l.to.locode} ${l.kind}`),
        describeLegs(j, legs),
      );
    }
  });

  test('the test numbers keep their documented shapes', () => {
    const truth = (number: string) => {
      const j = journeys.find((x) => x.scac === 'TEST' && x.number === number)!;
      return seaLegsOf(j).map((l) => `${l.kind}/${l.mode} ${l.from.locode}→${l.to.locode}`);
    };
    assert.deepEqual(truth('TEST-TS1'), ['mainline/VESSEL CNXMN→SGSIN', 'mainline/VESSEL SGSIN→NLRTM']);
    assert.deepEqual(truth('TEST-TS2-FEEDER'), ['feeder/VESSEL VNSGN→SGSIN', 'mainline/VESSEL SGSIN→MAPTM', 'mainline/VESSEL MAPTM→USSAV']);
    assert.deepEqual(truth('TEST-BARGE'), ['feeder/BARGE MYPKG→SGSIN', 'mainline/VESSEL SGSIN→NLRTM']);
    // Every test number that asks for a feeder first leg gets one.
    for (const t of TEST_NUMBERS.filter((x) => x.shape?.route?.feeder)) {
      const first = journeys.find((x) => x.scac === t.scac && x.number === t.number)!.legs[0];
      assert.equal(first.kind, 'feeder', t.number);
      assert.equal(first.mode, t.shape!.route!.feeder, t.number);
    }
  });

  test('a leg of four days or more beside a long one stays mainline (Xiamen → Singapore at 17 knots)', () => {
    const ts1 = journeys.find((x) => x.number === 'TEST-TS1')!;
    assert.ok(ts1.legs[0].arriveAt.getTime() - ts1.legs[0].departAt.getTime() > 4 * DAY);
  });
});
