// Synthetic AIS tracks for tests and benches: a vessel waiting in one place, or sailing a straight
// line at the steady speed that covers it in the given time. A report every `stepMs`.
import { MINUTE, HOUR } from '../../src/domain/time-units.ts';
import { haversineNm } from '../../src/geo/distance.ts';
import type { VesselPosition } from '../../src/store/vessel-positions.ts';

const position = (mmsi: number, at: number, [lon, lat]: readonly [number, number], speedKnots: number): VesselPosition => ({
  mmsi,
  at: new Date(at),
  latitude: lat,
  longitude: lon,
  speedKnots,
  courseDegrees: null,
  headingDegrees: null,
});

/** At anchor or moored at `where` from `from` to `to` (drifting at 0.1 kn). */
export function stay(mmsi: number, where: readonly [number, number], from: number, to: number, stepMs = 10 * MINUTE): VesselPosition[] {
  const out: VesselPosition[] = [];
  for (let at = from; at <= to; at += stepMs) out.push(position(mmsi, at, where, 0.1));
  return out;
}

/** Sailing from `a` (at `from`) to `b` (at `to`) along the straight line. */
export function sail(mmsi: number, a: readonly [number, number], b: readonly [number, number], from: number, to: number, stepMs = 10 * MINUTE): VesselPosition[] {
  const knots = haversineNm(a, b) / ((to - from) / HOUR);
  const out: VesselPosition[] = [];
  for (let at = from; at < to; at += stepMs) {
    const f = (at - from) / (to - from);
    out.push(position(mmsi, at, [a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f], knots));
  }
  return out;
}
