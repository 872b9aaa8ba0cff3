// Points at a fixed distance from one another along a route: where a vessel steaming at a steady
// speed is every minute. Between two vertices the points lie on the great circle (the distances
// are great-circle ones too), so a long ocean edge and an antimeridian crossing need no care.
import { EARTH_RADIUS_KM, haversineKm, type LonLat } from './distance.ts';

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

const RAD = Math.PI / 180;

type Vec = [number, number, number];
const toVec = ([lon, lat]: LonLat): Vec => [Math.cos(lat * RAD) * Math.cos(lon * RAD), Math.cos(lat * RAD) * Math.sin(lon * RAD), Math.sin(lat * RAD)];
const toLonLat = ([x, y, z]: Vec): [number, number] => [Math.atan2(y, x) / RAD, Math.asin(Math.max(-1, Math.min(1, z))) / RAD];

/** Initial bearing from a to b, whole degrees 0–359. */
export function bearing(a: LonLat, b: LonLat): number {
  const dLon = (b[0] - a[0]) * RAD;
  const y = Math.sin(dLon) * Math.cos(b[1] * RAD);
  const x = Math.cos(a[1] * RAD) * Math.sin(b[1] * RAD) - Math.sin(a[1] * RAD) * Math.cos(b[1] * RAD) * Math.cos(dLon);
  return Math.round((Math.atan2(y, x) / RAD + 360) % 360) % 360;
}

/**
 * Points along the great circle from a to b (`km` apart) by the fraction of the way: the unit
 * vectors and the sine are worked out once per segment, as a segment holds thousands of points.
 */
function segment(a: LonLat, b: LonLat, km: number): (fraction: number) => [number, number] {
  const angle = km / EARTH_RADIUS_KM;
  // Under a metre apart the great circle and the chord agree; sin(angle) would lose precision.
  if (angle < 1e-7) return () => [a[0], a[1]];
  const [va, vb, sin] = [toVec(a), toVec(b), Math.sin(angle)];
  return (fraction) => {
    const [wa, wb] = [Math.sin((1 - fraction) * angle) / sin, Math.sin(fraction * angle) / sin];
    return toLonLat([wa * va[0] + wb * vb[0], wa * va[1] + wb * vb[1], wa * va[2] + wb * vb[2]]);
  };
}

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
    const at = segment(a, b, km);
    for (; offset < km; offset += stepKm) {
      if (points.length === maxPoints) return { points, complete: false, totalKm: totalKm + restKm(coordinates, i) };
      const [lon, lat] = at(offset / km);
      points.push({ lon, lat, heading: bearing([lon, lat], b) });
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
