// The sandbox's carriers send their events as untidily as real ones (src/sandbox/dirt.ts): svc
// must still show every milestone a user should see, with the right time, place and zone, and
// nothing that did not happen. Hundreds of journeys go through svc's reader and diff engine at
// once here; test/sandbox-accuracy.test.ts measures journeys tracked over HTTP.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { toCarrierEvents } from '../src/carriers/dcsa/normalize.ts';
import { buildSnapshot } from '../src/carriers/dcsa/snapshot.ts';
import { diffSnapshot } from '../src/domain/tracking/diff.ts';
import { nothingStored } from '../src/domain/tracking/fixtures.ts';
import { toDcsaEvents } from '../src/sandbox/dcsa-serialise.ts';
import { NO_DIRT, REALISTIC_DIRT } from '../src/sandbox/dirt.ts';
import { groundTruth } from '../src/sandbox/ground-truth.ts';
import { containerNumber } from '../src/sandbox/iso6346.ts';
import type { Journey, Quirk } from '../src/sandbox/journey.ts';
import { planJourney } from '../src/sandbox/planner.ts';
import { findTestNumber, TEST_NUMBERS } from '../src/sandbox/test-numbers.ts';
import { loadSandboxWorld, SANDBOX_SCACS, type SandboxWorld } from '../src/sandbox/world.ts';

const START = new Date('2026-03-10T00:00:00Z');

let world: SandboxWorld;
let journeys: Journey[];

/** 30 numbers per sandbox carrier, of every number type, and the test numbers with a journey. */
function sample(dirt = REALISTIC_DIRT): Journey[] {
  const out: Journey[] = [];
  for (const scac of SANDBOX_SCACS) {
    const carrier = world.carrier(scac)!;
    for (let i = 0; i < 30; i++) {
      const serial = 300_000 + i * 4_801;
      if (i % 3 === 0) out.push(planJourney(world, scac, 'bill_of_lading', `${carrier.blPrefixes[0]}${serial}${i}`, START, dirt));
      if (i % 3 === 1) out.push(planJourney(world, scac, 'booking_number', `DT${serial}${i}`, START, dirt));
      if (i % 3 === 2) out.push(planJourney(world, scac, 'container', containerNumber(carrier.containerPrefixes[i % carrier.containerPrefixes.length], serial), START, dirt));
    }
  }
  for (const t of TEST_NUMBERS) if (t.shape) out.push(planJourney(world, t.scac, t.numberType, t.number, START, dirt));
  return out;
}

before(async () => {
  world = await loadSandboxWorld();
  journeys = sample();
});

describe('the sandbox is dirty by default', () => {
  test('every quirk of real feeds occurs, at realistic shares', () => {
    const events = journeys.flatMap((j) => j.events);
    const counts = new Map<Quirk | 'reissued', number>();
    for (const e of events) {
      for (const q of e.quirks) counts.set(q, (counts.get(q) ?? 0) + 1);
      if (e.reissueOf) counts.set('reissued', (counts.get('reissued') ?? 0) + 1);
    }
    for (const q of ['repeated', 'reissued', 'respelt', 'swapped', 'offset-none', 'offset-utc', 'offset-compact', 'placeless', 'bad-imo'] as const) {
      assert.ok((counts.get(q) ?? 0) > 0, `no event sent ${q} among ${events.length}`);
    }
    const quirked = events.filter((e) => e.quirks.length > 0 || e.reissueOf).length / events.length;
    assert.ok(quirked > 0.05 && quirked < 0.2, `${(quirked * 100).toFixed(1)} % of events garbled`);
  });

  test('dirt changes how events are sent, never what happens', () => {
    const clean = sample(NO_DIRT);
    journeys.forEach((j, i) => {
      const sent = j.events.filter((e) => !e.reissueOf).map((e) => [e.id, e.occurredAt.toISOString(), e.publishedAt.toISOString(), e.milestones.join()]);
      assert.deepEqual(sent, clean[i].events.map((e) => [e.id, e.occurredAt.toISOString(), e.publishedAt.toISOString(), e.milestones.join()]));
      assert.ok(clean[i].events.every((e) => e.quirks.length === 0));
    });
  });
});

describe('svc reads the dirty feed', () => {
  test('every milestone a user should see, with the right time, place and zone, and none that did not happen', (t) => {
    const ctx = { timezoneOf: (locode: string) => world.place(locode)?.timeZone ?? null };
    let expected = 0;
    let right = 0;
    let unshowable = 0;
    const wrong: string[] = [];
    const spurious: string[] = [];
    for (const j of journeys.filter((x) => x.route)) {
      const end = new Date(Math.max(...j.events.map((e) => e.publishedAt.getTime())));
      const truth = groundTruth(j, findTestNumber(j.scac, j.number), START, end).milestones.filter((m) => m.source === 'dcsa');
      const events = toCarrierEvents(toDcsaEvents(j, j.events), '2.2');
      const snapshot = buildSnapshot({ scac: j.scac, numberType: j.numberType, number: j.number }, events, end);
      const shown = diffSnapshot(nothingStored(), snapshot, ctx).transportEvents;
      for (const m of truth) {
        if (!m.showable) {
          unshowable++;
          continue;
        }
        expected++;
        const got = shown.find((s) => s.containerNumber === m.container && s.event === m.event && s.locode === m.shown_locode);
        if (got && got.timestamp.toISOString() === m.timestamp && got.timezone === m.shown_timezone) right++;
        else wrong.push(`${j.scac}:${j.number} ${m.container} ${m.event}@${m.locode} ${m.timestamp} [${m.quirks.join()}] → ${got ? `${got.timestamp.toISOString()} ${got.timezone}` : 'missing'}`);
      }
      for (const s of shown) {
        if (!truth.some((m) => m.container === s.containerNumber && m.event === s.event && m.shown_locode === s.locode)) spurious.push(`${j.scac}:${j.number} ${s.containerNumber} ${s.event}@${s.locode}`);
      }
    }
    const accuracy = right / expected;
    t.diagnostic(`${journeys.length} journeys: ${right}/${expected} milestones right (${(accuracy * 100).toFixed(2)} %), ${unshowable} vessel moves sent with no place svc could find, ${spurious.length} spurious`);
    assert.ok(accuracy >= 0.995, `accuracy ${(accuracy * 100).toFixed(2)} %:\n${wrong.slice(0, 20).join('\n')}`);
    assert.deepEqual(spurious, []);
    // The carrier publishes the planned call at both ends of every leg with the booking, under the
    // same transport call id as the actual moves, so a vessel move sent without a place always
    // takes its call's place from the plan (facts.ts withCallPlaces).
    assert.equal(unshowable, 0, 'every vessel move sent without a place is placed from its planned call');
  });
});
