// The sandbox never books a ship on two journeys at once: over hundreds of journeys anchored
// through the registry (as the carrier endpoints anchor them), every ship's legs are apart by at
// least a port stay and the passage between their ports, no leg is shadowed in the ground truth,
// and each ship's true track, sampled every two hours, is one a ship could sail.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { ManualClock } from '../src/clock.ts';
import { plausibleTrack } from '../src/ais/plausible-positions.ts';
import { DAY, HOUR } from '../src/domain/time-units.ts';
import { aisFleet } from '../src/sandbox/ais-identity.ts';
import { shipFixAt, shipLegs } from '../src/sandbox/ais-track.ts';
import { NO_DIRT } from '../src/sandbox/dirt.ts';
import { vesselTruth } from '../src/sandbox/ground-truth.ts';
import type { Journey } from '../src/sandbox/journey.ts';
import { containerNumber } from '../src/sandbox/iso6346.ts';
import { JourneyRegistry } from '../src/sandbox/registry.ts';
import { turnaroundMs } from '../src/sandbox/ship-calendar.ts';
import { loadSandboxWorld, SANDBOX_SCACS, type SandboxWorld } from '../src/sandbox/world.ts';

const START = new Date('2026-03-10T00:00:00Z');
let world: SandboxWorld;
let journeys: Journey[];

before(async () => {
  world = await loadSandboxWorld();
  const clock = new ManualClock(START);
  const registry = new JourneyRegistry(world, clock, undefined, NO_DIRT);
  const seen = new Map<string, Journey>();
  // Journeys anchored a few hours apart over two months, as users would look them up.
  for (let i = 0; i < 40; i++) {
    for (const scac of SANDBOX_SCACS.filter((s) => s !== 'TEST')) {
      const carrier = world.carrier(scac)!;
      const serial = 200_000 + i * 7919;
      const resolved = registry.resolve(scac, 'container', containerNumber(carrier.containerPrefixes[i % carrier.containerPrefixes.length], serial));
      if (resolved.kind === 'journey') seen.set(`${scac}:${resolved.journey.number}`, resolved.journey);
      clock.advance(1.5 * HOUR);
    }
  }
  journeys = [...seen.values()];
});

describe('sandbox ship bookings', () => {
  test('no ship sails two legs at once, nor starts a leg before it could reach its port', () => {
    assert.ok(journeys.length >= 400, `${journeys.length} journeys`);
    const byImo = shipLegs(journeys);
    let shared = 0;
    for (const [imo, legs] of byImo) {
      if (legs.length > 1) shared++;
      const sorted = legs.map((s) => s.leg).sort((a, b) => a.departAt.getTime() - b.departAt.getTime());
      for (let i = 1; i < sorted.length; i++) {
        const gap = sorted[i].departAt.getTime() - sorted[i - 1].arriveAt.getTime();
        assert.ok(gap >= turnaroundMs(world, sorted[i - 1], sorted[i]), `${imo}: leg to ${sorted[i - 1].to.place.locode} arrives ${sorted[i - 1].arriveAt.toISOString()}, next departs ${sorted[i].from.place.locode} ${sorted[i].departAt.toISOString()}`);
      }
    }
    assert.ok(shared > 10, `ships are reused across journeys (${shared} ships sail more than one leg)`);
  });

  test('the ground truth shows no shadowed leg, every fifteen days', () => {
    const fleet = aisFleet(world);
    const imos = [...shipLegs(journeys).keys()];
    for (let t = START.getTime(); t < START.getTime() + 90 * DAY; t += 15 * DAY) {
      for (const imo of imos) {
        const truth = vesselTruth(fleet, journeys, imo, new Date(t));
        assert.ok(!truth?.legs.some((l) => l.status === 'shadowed'), `${imo} at ${new Date(t).toISOString()}`);
      }
    }
  });

  test("every ship's true track, every two hours, passes the speed and two-places filter", () => {
    for (const [imo, legs] of shipLegs(journeys)) {
      const track = [];
      for (let t = START.getTime(); t < START.getTime() + 90 * DAY; t += 2 * HOUR) {
        const fix = shipFixAt(legs, new Date(t))!;
        track.push({ lon: fix.lon, lat: fix.lat, atMs: t });
      }
      const kept = plausibleTrack(track);
      const lost = track.find((f, i) => kept[i] !== f);
      assert.equal(kept.length, track.length, `${imo}: ${lost && new Date(lost.atMs).toISOString()}`);
    }
  });
});
