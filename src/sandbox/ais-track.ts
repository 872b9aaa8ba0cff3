// Where a sandbox ship truly is at a moment: the AIS feed adds noise to this, the ground truth
// reports it as is. Journeys are planned independently, so one ship can be given legs of two
// journeys at once; the rule that settles it (docs/sandbox.md, "AIS feed") is that the active leg
// that departed first wins (ties: the lowest journey key) and the others are shadowed. Between
// legs a ship lies moored at the port its last leg reached, or, before its first leg, at the port
// that leg leaves from.
import { haversineKm, type LonLat } from '../geo/distance.ts';
import { seaRoute } from '../geo/searoute.ts';
import { bearing, interpolator } from '../geo/great-circle.ts';
import type { Journey, Leg } from './journey.ts';
import type { Place } from './world.ts';

/** A leg sailed by a ship, with the journey it belongs to (`SCAC:number`, the registry's key). */
export interface ShipLeg {
  journeyKey: string;
  leg: Leg;
}

export interface ShipFix {
  state: 'under_way' | 'moored';
  lon: number;
  lat: number;
  /** Over ground, the leg's distance over its duration; 0 moored. */
  speedKnots: number;
  /** Degrees from north along the route here; null moored. */
  courseDeg: number | null;
  /** The leg being sailed (under way), or the one last reached or next to sail (moored). */
  leg: ShipLeg;
  /** Where the ship is bound: the leg's arrival port under way, the next leg's departure port moored (null when none is known). */
  destination: Place | null;
  /** Arrival at `destination`. */
  eta: Date | null;
}

export const journeyKey = (journey: Journey) => `${journey.scac}:${journey.number}`;

/** Every ship's legs among the journeys, by IMO, in the order the shadowing rule ranks them. */
export function shipLegs(journeys: readonly Journey[]): Map<string, ShipLeg[]> {
  const byImo = new Map<string, ShipLeg[]>();
  for (const journey of journeys) {
    for (const leg of journey.legs) {
      // Barges carry no vessel, trains are on land: only ships transmit.
      if (leg.mode !== 'VESSEL' || !leg.vessel) continue;
      const list = byImo.get(leg.vessel.imo) ?? [];
      list.push({ journeyKey: journeyKey(journey), leg });
      byImo.set(leg.vessel.imo, list);
    }
  }
  for (const list of byImo.values()) list.sort(rank);
  return byImo;
}

function rank(a: ShipLeg, b: ShipLeg): number {
  return a.leg.departAt.getTime() - b.leg.departAt.getTime() || (a.journeyKey < b.journeyKey ? -1 : a.journeyKey > b.journeyKey ? 1 : a.leg.index - b.leg.index);
}

/** The leg whose position the ship reports at `at`: active, departed first, lowest journey key. Legs must be ranked (shipLegs). */
export function activeLeg(legs: readonly ShipLeg[], at: Date): ShipLeg | null {
  const t = at.getTime();
  return legs.find((s) => s.leg.departAt.getTime() <= t && t < s.leg.arriveAt.getTime()) ?? null;
}

interface RoutePath {
  points: [number, number][];
  /** Kilometres from the start to each point. */
  cumulativeKm: number[];
}

// A leg's route is searched once: legs are long-lived objects of registered journeys.
const paths = new WeakMap<Leg, RoutePath>();

function pathOf(leg: Leg): RoutePath {
  const cached = paths.get(leg);
  if (cached) return cached;
  const from: LonLat = [leg.from.place.lon, leg.from.place.lat];
  const to: LonLat = [leg.to.place.lon, leg.to.place.lat];
  // As world.seaDistanceNm: should no sea route be found, the ship sails the great circle.
  const points = seaRoute(from, to)?.coordinates ?? [[from[0], from[1]], [to[0], to[1]]];
  const cumulativeKm = [0];
  for (let i = 1; i < points.length; i++) cumulativeKm.push(cumulativeKm[i - 1] + haversineKm(points[i - 1], points[i]));
  const path = { points, cumulativeKm };
  paths.set(leg, path);
  return path;
}

/** The sea route a leg follows, from its departure port to its arrival port. */
export function legRoute(leg: Leg): readonly [number, number][] {
  return pathOf(leg).points;
}

/** Position and course a fraction of the way along the leg's route (by distance). */
function alongRoute(leg: Leg, fraction: number): { lon: number; lat: number; courseDeg: number } {
  const { points, cumulativeKm } = pathOf(leg);
  const target = Math.min(1, Math.max(0, fraction)) * cumulativeKm[cumulativeKm.length - 1];
  // The segment holding the target distance (first point past it).
  let lo = 1;
  let hi = points.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cumulativeKm[mid] < target) lo = mid + 1;
    else hi = mid;
  }
  const a = points[lo - 1];
  const b = points[lo];
  const length = cumulativeKm[lo] - cumulativeKm[lo - 1];
  const f = length > 0 ? (target - cumulativeKm[lo - 1]) / length : 1;
  const [lon, lat] = interpolator(a, b)(f);
  // Course towards the end of the segment; at its very end, the segment's own direction.
  const courseDeg = f < 1 - 1e-9 ? bearing([lon, lat], b) : bearing(a, b);
  return { lon, lat, courseDeg };
}

/** Knots over ground on a leg: its sea distance over its time at sea. */
export function legSpeedKnots(leg: Leg): number {
  const hours = (leg.arriveAt.getTime() - leg.departAt.getTime()) / 3_600_000;
  return hours > 0 ? leg.distance / hours : 0;
}

/** Where a ship with these (ranked) legs truly is at `at`; null when it has no legs. */
export function shipFixAt(legs: readonly ShipLeg[], at: Date): ShipFix | null {
  if (legs.length === 0) return null;
  const active = activeLeg(legs, at);
  if (active) {
    const { leg } = active;
    const fraction = (at.getTime() - leg.departAt.getTime()) / (leg.arriveAt.getTime() - leg.departAt.getTime());
    return { state: 'under_way', ...alongRoute(leg, fraction), speedKnots: legSpeedKnots(leg), leg: active, destination: leg.to.place, eta: leg.arriveAt };
  }
  const t = at.getTime();
  let reached: ShipLeg | null = null;
  let next: ShipLeg | null = null;
  for (const s of legs) {
    if (s.leg.arriveAt.getTime() <= t && (!reached || s.leg.arriveAt > reached.leg.arriveAt)) reached = s;
    if (s.leg.departAt.getTime() > t && !next) next = s; // ranked by departure: the first one found is the next
  }
  const port = reached ? reached.leg.to.place : next!.leg.from.place;
  return {
    state: 'moored',
    lon: port.lon,
    lat: port.lat,
    speedKnots: 0,
    courseDeg: null,
    leg: (reached ?? next)!,
    destination: next ? next.leg.from.place : null,
    eta: null,
  };
}
