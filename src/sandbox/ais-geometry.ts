// Small offsets for the AIS feed's GPS noise. Points, bearings and angles along great circles are
// src/geo/great-circle.ts's, shared with svc.
import { EARTH_RADIUS_KM, type LonLat } from '../geo/distance.ts';
import { normalizeLon } from '../geo/searoute.ts';

const RAD = Math.PI / 180;
const METRES_PER_DEGREE_LAT = (EARTH_RADIUS_KM * 1000 * Math.PI) / 180;

/** `p` moved `east` and `north` metres (small distances: a flat approximation is plenty). */
export function offsetMetres(p: LonLat, east: number, north: number): [number, number] {
  const lat = p[1] + north / METRES_PER_DEGREE_LAT;
  const lon = p[0] + east / (METRES_PER_DEGREE_LAT * Math.max(0.01, Math.cos(p[1] * RAD)));
  return [normalizeLon(lon), Math.max(-90, Math.min(90, lat))];
}
