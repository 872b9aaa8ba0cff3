// Where a sandbox ship truly is at a moment: the AIS feed adds noise to this, the ground truth
// reports it as is. Journeys are planned independently, so one ship can be given legs of two
// journeys at once; the rule that settles it (docs/sandbox.md, "AIS feed") is that the active leg
// that departed first wins (ties: the lowest journey key) and the others are shadowed; the
// registry books ships on a calendar (ship-calendar.ts), so its journeys never need the rule.
// Between legs a ship lies moored at the port its last leg reached, or, before its first leg, at
// the port that leg leaves from; when its next leg leaves from another port it sails there empty,
// arriving half a port stay before that leg departs.
import { HOUR } from '../domain/time-units.ts';
import { haversineKm, KM_PER_NM, type LonLat } from '../geo/distance.ts';
import { seaRoute } from '../geo/searoute.ts';
import { bearing, interpolator } from '../geo/great-circle.ts';
import type { Journey, Leg } from './journey.ts';
import { PORT_STAY_MS, REPOSITION_KNOTS } from './ship-calendar.ts';
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

// A route between two ports is searched once: there are a few hundred ports, and every ship between two of them sails the same one.
const paths = new Map<string, RoutePath>();

const pathOf = (leg: Leg): RoutePath => pathBetween(leg.from.place, leg.to.place);

function pathBetween(a: Place, b: Place): RoutePath {
  const key = `${a.locode}>${b.locode}`;
  const cached = paths.get(key);
  if (cached) return cached;
  const from: LonLat = [a.lon, a.lat];
  const to: LonLat = [b.lon, b.lat];
  // As world.seaDistanceNm: should no sea route be found, the ship sails the great circle.
  const points = seaRoute(from, to)?.coordinates ?? [[from[0], from[1]], [to[0], to[1]]];
  const cumulativeKm = [0];
  for (let i = 1; i < points.length; i++) cumulativeKm.push(cumulativeKm[i - 1] + haversineKm(points[i - 1], points[i]));
  const path = { points, cumulativeKm };
  paths.set(key, path);
  return path;
}

/** The sea route a leg follows, from its departure port to its arrival port. */
export function legRoute(leg: Leg): readonly [number, number][] {
  return pathOf(leg).points;
}

/** Position and course a fraction of the way along a route (by distance). */
function alongRoute({ points, cumulativeKm }: RoutePath, fraction: number): { lon: number; lat: number; courseDeg: number } {
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

/** Under way empty from the port `arrived` reached to the one `next` leaves from; null before the passage, 'arrived' after it. */
function repositioning(arrived: Leg, next: Leg, t: number): Omit<ShipFix, 'leg' | 'destination'> | 'arrived' | null {
  const path = pathBetween(arrived.to.place, next.from.place);
  const km = path.cumulativeKm[path.cumulativeKm.length - 1];
  const end = Math.max(arrived.arriveAt.getTime(), next.departAt.getTime() - PORT_STAY_MS / 2);
  const start = Math.max(arrived.arriveAt.getTime(), end - (km / (REPOSITION_KNOTS * KM_PER_NM)) * HOUR);
  if (t >= end) return 'arrived';
  if (t < start) return null;
  return {
    state: 'under_way',
    ...alongRoute(path, (t - start) / (end - start)),
    speedKnots: km / KM_PER_NM / ((end - start) / HOUR),
    eta: new Date(end),
  };
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
    return { state: 'under_way', ...alongRoute(pathOf(leg), fraction), speedKnots: legSpeedKnots(leg), leg: active, destination: leg.to.place, eta: leg.arriveAt };
  }
  const t = at.getTime();
  let reached: ShipLeg | null = null;
  let next: ShipLeg | null = null;
  for (const s of legs) {
    if (s.leg.arriveAt.getTime() <= t && (!reached || s.leg.arriveAt > reached.leg.arriveAt)) reached = s;
    if (s.leg.departAt.getTime() > t && !next) next = s; // ranked by departure: the first one found is the next
  }
  let port = reached ? reached.leg.to.place : next!.leg.from.place;
  if (reached && next && reached.leg.to.place.locode !== next.leg.from.place.locode) {
    const passage = repositioning(reached.leg, next.leg, t);
    if (passage === 'arrived') port = next.leg.from.place;
    else if (passage) return { ...passage, leg: next, destination: next.leg.from.place };
  }
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
