// Points and bearings on great circles: where a vessel is part of the way along a route edge, and
// which way it heads. MARNET has ocean edges hundreds of kilometres long, so positions along an
// edge lie on its great circle rather than on a straight line in degrees.
import { EARTH_RADIUS_KM, haversineKm, type LonLat } from './distance.ts';
import { normalizeLon } from './searoute.ts';

const RAD = Math.PI / 180;

type Vec = [number, number, number];
const toVec = ([lon, lat]: LonLat): Vec => [Math.cos(lat * RAD) * Math.cos(lon * RAD), Math.cos(lat * RAD) * Math.sin(lon * RAD), Math.sin(lat * RAD)];

/** An angle in degrees brought into [0, 360). */
export const normalizeDegrees = (deg: number): number => ((deg % 360) + 360) % 360;

/** Initial great-circle bearing from `a` to `b`, degrees clockwise from north in [0, 360). */
export function bearing(a: LonLat, b: LonLat): number {
  const [lon1, lat1, lon2, lat2] = [a[0] * RAD, a[1] * RAD, b[0] * RAD, b[1] * RAD];
  const y = Math.sin(lon2 - lon1) * Math.cos(lat2);
  const x = Math.cos(lat1) * Math.sin(lat2) - Math.sin(lat1) * Math.cos(lat2) * Math.cos(lon2 - lon1);
  return normalizeDegrees(Math.atan2(y, x) / RAD);
}

/**
 * The point a fraction of the way from `a` to `b` along their great circle, as a function of the
 * fraction: the unit vectors and the sine are worked out once, since a walk along an edge asks
 * for thousands of points of it. `km` is the edge's length when the caller already has it.
 */
export function interpolator(a: LonLat, b: LonLat, km = haversineKm(a, b)): (fraction: number) => [number, number] {
  const angle = km / EARTH_RADIUS_KM;
  // Under a metre apart the ends are as good as one point; sin(angle) would lose precision.
  if (angle < 1e-7) return () => [a[0], a[1]];
  const [va, vb, sin] = [toVec(a), toVec(b), Math.sin(angle)];
  return (fraction) => {
    const [wa, wb] = [Math.sin((1 - fraction) * angle) / sin, Math.sin(fraction * angle) / sin];
    const [x, y, z] = [wa * va[0] + wb * vb[0], wa * va[1] + wb * vb[1], wa * va[2] + wb * vb[2]];
    return [normalizeLon(Math.atan2(y, x) / RAD), Math.atan2(z, Math.hypot(x, y)) / RAD];
  };
}
