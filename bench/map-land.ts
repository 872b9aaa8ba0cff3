// `npm run bench:map-land`: what the sandbox's ships would draw on a map, over the 1:50m Natural
// Earth land mask (world-atlas). Plans the same journeys twice, each on its own (ships may be
// double-booked, the old way) and through the registry's ship calendar, samples every ship's true
// position hourly over 90 days, and prints the straight jumps no ship could sail (over 40 kn) and
// how many of their kilometres cross land.
import { feature } from 'topojson-client';
import land50m from 'world-atlas/land-50m.json' with { type: 'json' };
import { ManualClock } from '../src/clock.ts';
import { plausibility } from '../src/ais/plausible-positions.ts';
import { DAY, HOUR } from '../src/domain/time-units.ts';
import { haversineKm } from '../src/geo/distance.ts';
import { interpolator } from '../src/geo/great-circle.ts';
import { shipFixAt, shipLegs } from '../src/sandbox/ais-track.ts';
import { NO_DIRT } from '../src/sandbox/dirt.ts';
import { containerNumber } from '../src/sandbox/iso6346.ts';
import type { Journey } from '../src/sandbox/journey.ts';
import { planJourney } from '../src/sandbox/planner.ts';
import { JourneyRegistry } from '../src/sandbox/registry.ts';
import { loadSandboxWorld, SANDBOX_SCACS } from '../src/sandbox/world.ts';

type Ring = [number, number][];
const topology = land50m as unknown as Parameters<typeof feature>[0] & { objects: { land: Parameters<typeof feature>[1] } };
const collection = feature(topology, topology.objects.land) as unknown as { features: { geometry: { type: string; coordinates: unknown } }[] };
const polygons: { bbox: [number, number, number, number]; rings: Ring[] }[] = [];
for (const f of collection.features) {
  const polys = (f.geometry.type === 'Polygon' ? [f.geometry.coordinates] : f.geometry.coordinates) as Ring[][];
  for (const rings of polys) {
    const xs = rings[0].map((p) => p[0]);
    const ys = rings[0].map((p) => p[1]);
    polygons.push({ bbox: [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)], rings });
  }
}
function inRing([x, y]: [number, number], ring: Ring): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i];
    const [xj, yj] = ring[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}
const onLand = (p: [number, number]) => polygons.some(({ bbox, rings }) => p[0] >= bbox[0] && p[0] <= bbox[2] && p[1] >= bbox[1] && p[1] <= bbox[3] && inRing(p, rings[0]) && !rings.slice(1).some((h) => inRing(p, h)));
/** Kilometres of the straight (great-circle) line from a to b over land, sampled every 2 km. */
function kmOverLand(a: [number, number], b: [number, number]): number {
  const km = haversineKm(a, b);
  const steps = Math.max(1, Math.ceil(km / 2));
  const at = interpolator(a, b);
  let land = 0;
  for (let i = 0; i < steps; i++) if (onLand(at((i + 0.5) / steps) as [number, number])) land += km / steps;
  return land;
}

const world = await loadSandboxWorld();
const START = new Date('2026-03-10T00:00:00Z');
const numbers: [string, string][] = [];
for (let i = 0; i < 40; i++)
  for (const scac of SANDBOX_SCACS.filter((s) => s !== 'TEST')) {
    const carrier = world.carrier(scac)!;
    numbers.push([scac, containerNumber(carrier.containerPrefixes[i % carrier.containerPrefixes.length], 200_000 + i * 7919)]);
  }

function measure(name: string, journeys: Journey[]): void {
  let jumps = 0;
  let landKm = 0;
  let worst = 0;
  for (const legs of shipLegs(journeys).values()) {
    let last: { lon: number; lat: number; atMs: number } | null = null;
    for (let t = START.getTime(); t < START.getTime() + 90 * DAY; t += HOUR) {
      const fix = shipFixAt(legs, new Date(t))!;
      const here = { lon: fix.lon, lat: fix.lat, atMs: t };
      if (last && plausibility(last, here) !== 'accepted') {
        jumps++;
        const km = kmOverLand([last.lon, last.lat], [here.lon, here.lat]);
        landKm += km;
        worst = Math.max(worst, haversineKm([last.lon, last.lat], [here.lon, here.lat]));
      }
      last = here;
    }
  }
  console.log(`${name.padEnd(44)} ${String(journeys.length).padStart(8)} ${String(jumps).padStart(6)} ${landKm.toFixed(0).padStart(14)} ${worst.toFixed(0).padStart(14)}`);
}

console.log(`${'ships sampled hourly over 90 days'.padEnd(44)} ${'journeys'.padStart(8)} ${'jumps'.padStart(6)} ${'km over land'.padStart(14)} ${'longest km'.padStart(14)}`);
const clock = new ManualClock(START);
const registry = new JourneyRegistry(world, clock, undefined, NO_DIRT);
const booked: Journey[] = [];
const alone: Journey[] = [];
for (const [scac, number] of numbers) {
  const r = registry.resolve(scac, 'container', number);
  if (r.kind === 'journey') {
    booked.push(r.journey);
    alone.push(planJourney(world, scac, r.journey.numberType, r.journey.number, r.journey.startAt, NO_DIRT));
  }
  clock.advance(1.5 * HOUR);
}
measure('journeys planned alone (ships double-booked)', alone);
measure('journeys booked on the ship calendar', booked);
