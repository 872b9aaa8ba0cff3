// Points and bearings on the sphere for the AIS feed: where a ship is along a route, which way it
// heads, and a small random offset for GPS noise. MARNET has ocean edges hundreds of kilometres
// long, so positions are interpolated along great circles rather than linearly in degrees.
import { EARTH_RADIUS_KM, haversineKm, type LonLat } from '../geo/distance.ts';
import { normalizeLon } from '../geo/searoute.ts';

const RAD = Math.PI / 180;
const METRES_PER_DEGREE_LAT = (EARTH_RADIUS_KM * 1000 * Math.PI) / 180;

/** The point a fraction `f` of the way from `a` to `b` along the great circle. */
export function interpolate(a: LonLat, b: LonLat, f: number): [number, number] {
  const d = haversineKm(a, b) / EARTH_RADIUS_KM;
  if (d < 1e-12) return [a[0], a[1]];
  const [lon1, lat1, lon2, lat2] = [a[0] * RAD, a[1] * RAD, b[0] * RAD, b[1] * RAD];
  const wa = Math.sin((1 - f) * d) / Math.sin(d);
  const wb = Math.sin(f * d) / Math.sin(d);
  const x = wa * Math.cos(lat1) * Math.cos(lon1) + wb * Math.cos(lat2) * Math.cos(lon2);
  const y = wa * Math.cos(lat1) * Math.sin(lon1) + wb * Math.cos(lat2) * Math.sin(lon2);
  const z = wa * Math.sin(lat1) + wb * Math.sin(lat2);
  return [normalizeLon(Math.atan2(y, x) / RAD), Math.atan2(z, Math.hypot(x, y)) / RAD];
}

/** Initial great-circle bearing from `a` to `b`, degrees clockwise from north in [0, 360). */
export function bearing(a: LonLat, b: LonLat): number {
  const [lon1, lat1, lon2, lat2] = [a[0] * RAD, a[1] * RAD, b[0] * RAD, b[1] * RAD];
  const y = Math.sin(lon2 - lon1) * Math.cos(lat2);
  const x = Math.cos(lat1) * Math.sin(lat2) - Math.sin(lat1) * Math.cos(lat2) * Math.cos(lon2 - lon1);
  return normalizeDegrees(Math.atan2(y, x) / RAD);
}

export function normalizeDegrees(deg: number): number {
  return ((deg % 360) + 360) % 360;
}

/** `p` moved `east` and `north` metres (small distances: a flat approximation is plenty). */
export function offsetMetres(p: LonLat, east: number, north: number): [number, number] {
  const lat = p[1] + north / METRES_PER_DEGREE_LAT;
  const lon = p[0] + east / (METRES_PER_DEGREE_LAT * Math.max(0.01, Math.cos(p[1] * RAD)));
  return [normalizeLon(lon), Math.max(-90, Math.min(90, lat))];
}
