// Great-circle distances on a spherical Earth. Every geo module uses these so that route lengths,
// A* heuristics and snapping agree on one radius.

/** A position in GeoJSON order: longitude first, then latitude, both in degrees. */
export type LonLat = readonly [lon: number, lat: number];

/** IUGG mean Earth radius; the sphere error against the ellipsoid stays within about 0.5 %. */
export const EARTH_RADIUS_KM = 6371.0088;
export const KM_PER_NM = 1.852;

const RAD = Math.PI / 180;

export function haversineKm(a: LonLat, b: LonLat): number {
  const dLat = (b[1] - a[1]) * RAD;
  const dLon = (b[0] - a[0]) * RAD;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a[1] * RAD) * Math.cos(b[1] * RAD) * Math.sin(dLon / 2) ** 2;
  // min() guards against h creeping past 1 through rounding for antipodal points.
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

export function haversineNm(a: LonLat, b: LonLat): number {
  return haversineKm(a, b) / KM_PER_NM;
}
