// Points at a fixed distance from one another along a route: where a vessel steaming at a steady
// speed is every minute. Between two vertices the points lie on the great circle (the distances
// are great-circle ones too), so a long ocean edge and an antimeridian crossing need no care.
import { haversineKm, type LonLat } from './distance.ts';
import { bearing, interpolator } from './great-circle.ts';

export interface RoutePoint {
  lon: number;
  lat: number;
  /** Initial great-circle bearing toward the next vertex, whole degrees from north (0–359). */
  heading: number;
}

export interface PointsAlong {
  /** The start, then one point every `stepKm`; the last is the route's end, at most `stepKm` after the one before. */
  points: RoutePoint[];
  /** False when `maxPoints` stopped the walk before the route's end. */
  complete: boolean;
  totalKm: number;
}

/** Whole degrees 0–359, as the vessel endpoints report headings. */
const wholeDegrees = (degrees: number) => Math.round(degrees) % 360;

/**
 * Walks `coordinates` ([lon, lat], at least one) from the first to the last, putting a point every
 * `stepKm`, and ends on the last coordinate exactly. At most `maxPoints` points.
 */
export function pointsAlong(coordinates: readonly LonLat[], stepKm: number, maxPoints: number): PointsAlong {
  if (!(stepKm > 0) || coordinates.length === 0 || maxPoints < 1) throw new RangeError('pointsAlong needs a route, a positive step and room for a point');
  const points: RoutePoint[] = [];
  let totalKm = 0;
  // How far into the current segment the next point falls.
  let offset = 0;
  for (let i = 1; i < coordinates.length; i++) {
    const [a, b] = [coordinates[i - 1], coordinates[i]];
    const km = haversineKm(a, b);
    totalKm += km;
    const at = interpolator(a, b, km);
    for (; offset < km; offset += stepKm) {
      if (points.length === maxPoints) return { points, complete: false, totalKm: totalKm + restKm(coordinates, i) };
      const [lon, lat] = at(offset / km);
      points.push({ lon, lat, heading: wholeDegrees(bearing([lon, lat], b)) });
    }
    offset -= km;
  }
  const end = coordinates[coordinates.length - 1];
  if (points.length === maxPoints) return { points, complete: false, totalKm };
  const before = points.at(-1);
  points.push({ lon: end[0], lat: end[1], heading: before ? before.heading : 0 });
  return { points, complete: true, totalKm };
}

function restKm(coordinates: readonly LonLat[], from: number): number {
  let km = 0;
  for (let i = from + 1; i < coordinates.length; i++) km += haversineKm(coordinates[i - 1], coordinates[i]);
  return km;
}
