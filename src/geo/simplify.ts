// Helpers that prepare route lines for map display. Both work in plain degrees, which is what a
// web map draws; neither is meant for distance calculations.
import type { LonLat } from './distance.ts';

function samePoint(a: LonLat, b: LonLat): boolean {
  return a[0] === b[0] && a[1] === b[1];
}

function pushDistinct(line: [number, number][], point: [number, number]): void {
  const last = line[line.length - 1];
  if (last === undefined || !samePoint(last, point)) line.push(point);
}

/**
 * Cuts a line wherever a step jumps more than 180° in longitude (the short way round crosses the
 * antimeridian), so a map does not draw it across the whole world. Each cut ends one part at ±180
 * and starts the next at ∓180, at a latitude interpolated along the step. Parts that shrink to a
 * single point (a vertex lying exactly on ±180) are dropped.
 */
export function splitAtAntimeridian(coords: readonly LonLat[]): [number, number][][] {
  const parts: [number, number][][] = [];
  let current: [number, number][] = [];
  coords.forEach((point, i) => {
    const prior = coords[i - 1];
    if (prior !== undefined && Math.abs(point[0] - prior[0]) > 180) {
      const side = prior[0] > 0 ? 180 : -180;
      // Unwrap the new longitude onto the prior side so the crossing is a plain linear interpolation.
      const unwrapped = point[0] + 2 * side;
      const t = (side - prior[0]) / (unwrapped - prior[0]);
      const lat = prior[1] + t * (point[1] - prior[1]);
      pushDistinct(current, [side, lat]);
      parts.push(current);
      current = [[-side, lat]];
    }
    pushDistinct(current, [point[0], point[1]]);
  });
  parts.push(current);
  return parts.filter((part) => part.length >= 2);
}

/** Distance in degrees from p to the segment a–b (to the nearer end when the foot falls outside it). */
function segmentDistance(p: LonLat, a: LonLat, b: LonLat): number {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const lengthSquared = dx * dx + dy * dy;
  const t = lengthSquared === 0 ? 0 : Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / lengthSquared));
  return Math.hypot(p[0] - (a[0] + t * dx), p[1] - (a[1] + t * dy));
}

/**
 * Douglas–Peucker simplification: keeps the end points and every vertex that lies more than
 * `toleranceDeg` degrees off the simplified line. Run it on each part from splitAtAntimeridian,
 * since a ±180 jump would make the planar distances meaningless.
 */
export function simplifyLine(coords: readonly LonLat[], toleranceDeg: number): [number, number][] {
  if (coords.length <= 2) return coords.map((c): [number, number] => [c[0], c[1]]);
  const keep = new Uint8Array(coords.length);
  keep[0] = 1;
  keep[coords.length - 1] = 1;
  // An explicit stack of index ranges instead of recursion: long lines cannot overflow the call stack.
  const ranges: [number, number][] = [[0, coords.length - 1]];
  while (ranges.length > 0) {
    const [first, last] = ranges.pop()!;
    let farthest = -1;
    let farthestDistance = toleranceDeg;
    for (let i = first + 1; i < last; i++) {
      const d = segmentDistance(coords[i], coords[first], coords[last]);
      if (d > farthestDistance) {
        farthest = i;
        farthestDistance = d;
      }
    }
    if (farthest < 0) continue;
    keep[farthest] = 1;
    ranges.push([first, farthest], [farthest, last]);
  }
  return coords.filter((_, i) => keep[i] === 1).map((c): [number, number] => [c[0], c[1]]);
}
