// Sea routes between two positions over the MARNET maritime network (refdata/marnet.geojson).
// The network is turned into a compact adjacency graph once, then each query snaps both ends to
// the nearest usable node and runs A* with the great-circle distance to the goal as heuristic.
// A hand-written A* over typed arrays is used instead of ngraph.path: the network is small (~6k
// nodes), passage avoidance is a per-edge bit test, and it keeps svc free of two more packages.
import { readFileSync } from 'node:fs';
import { EARTH_RADIUS_KM, haversineKm, KM_PER_NM, type LonLat } from './distance.ts';
import { NodeHeap } from './heap.ts';

/** Straits and canals tagged in MARNET that a route may be told to avoid. */
export const PASSAGES = [
  'babalmandab',
  'bering',
  'bosporus',
  'chili',
  'dardanelles',
  'gibraltar',
  'malacca',
  'ormuz',
  'panama',
  'south_africa',
  'suez',
  'sunda',
] as const;
export type Passage = (typeof PASSAGES)[number];

// The Northwest Passage is ice-bound for most of the year and not a container route.
const ALWAYS_EXCLUDED = 'northwest';

export interface SeaRouteOptions {
  avoid?: readonly Passage[];
}

export interface SeaRoute {
  distanceNm: number;
  distanceKm: number;
  /** From the start position to the end position, longitudes in [-180, 180). A Pacific crossing has one ±180 jump. */
  coordinates: [number, number][];
}

type Line = readonly (readonly number[])[];
type Geometry = { type: 'LineString'; coordinates: Line } | { type: 'MultiLineString'; coordinates: readonly Line[] } | { type: string };

/** The subset of a GeoJSON FeatureCollection the graph builder reads. */
export interface NetworkGeoJson {
  features: readonly { geometry: Geometry | null; properties?: { passage?: string | null } | null }[];
}

/** Compressed adjacency (CSR): the edges of node i are the indices [edgeStart[i], edgeStart[i + 1]). */
export interface SeaGraph {
  readonly lon: Float64Array;
  readonly lat: Float64Array;
  /** Unit vector (x, y, z) of each node, three entries per node; see greatCircleKm. */
  readonly xyz: Float64Array;
  readonly edgeStart: Int32Array;
  readonly edgeTo: Int32Array;
  readonly edgeKm: Float64Array;
  /** One bit per entry of PASSAGES, 0 for open sea. */
  readonly edgePassage: Uint16Array;
  /** Nodes of the largest connected component: snapping elsewhere could strand a route on an island of the network. */
  readonly snapNodes: Int32Array;
}

/** Maps any longitude into [-180, 180), so 180 and -180 become the same node and the Pacific joins up. */
export function normalizeLon(lon: number): number {
  // In-range values pass through untouched: the modulo arithmetic would turn 121.8 into 121.79999999999995.
  if (lon >= -180 && lon < 180) return lon;
  return ((((lon + 180) % 360) + 360) % 360) - 180;
}

// Vertices closer than ~1 m (1e-5 degrees) are one node, which merges endpoints that differ only in
// float noise (41.15205000000001 vs 41.15205). Both rounded parts fit in one exact double.
function nodeKey(lon: number, lat: number): number {
  return Math.round((lon + 180) * 1e5) * 2e7 + Math.round((lat + 90) * 1e5);
}

const RAD = Math.PI / 180;

function unitVectors(lon: readonly number[], lat: readonly number[]): Float64Array {
  const xyz = new Float64Array(3 * lon.length);
  for (let i = 0; i < lon.length; i++) xyz.set(toUnitVector([lon[i], lat[i]]), 3 * i);
  return xyz;
}

function toUnitVector([lon, lat]: LonLat): [number, number, number] {
  const cosLat = Math.cos(lat * RAD);
  return [cosLat * Math.cos(lon * RAD), cosLat * Math.sin(lon * RAD), Math.sin(lat * RAD)];
}

// Squared chord between node i and a unit vector. It grows with the great-circle distance, so the
// snapping scan can compare it directly, and with the node vectors precomputed it costs no trig.
function chordSquared(xyz: Float64Array, i: number, x: number, y: number, z: number): number {
  const dx = xyz[3 * i] - x;
  const dy = xyz[3 * i + 1] - y;
  const dz = xyz[3 * i + 2] - z;
  return dx * dx + dy * dy + dz * dz;
}

function chordToKm(squared: number): number {
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(squared) / 2));
}

function passageBit(passage: string | null | undefined): number {
  const index = PASSAGES.indexOf(passage as Passage);
  // Untagged and unknown tags are open sea: a new tag in the data must not silently cut routes.
  return index < 0 ? 0 : 1 << index;
}

function linesOf(geometry: Geometry | null): readonly Line[] {
  if (geometry?.type === 'LineString') return [(geometry as { coordinates: Line }).coordinates];
  if (geometry?.type === 'MultiLineString') return (geometry as { coordinates: readonly Line[] }).coordinates;
  return [];
}

export function buildSeaGraph(geojson: NetworkGeoJson): SeaGraph {
  const ids = new Map<number, number>();
  const lon: number[] = [];
  const lat: number[] = [];
  const nodeOf = (point: readonly number[]): number => {
    const x = normalizeLon(point[0]);
    const y = point[1];
    const key = nodeKey(x, y);
    let id = ids.get(key);
    if (id === undefined) {
      id = lon.length;
      ids.set(key, id);
      lon.push(x);
      lat.push(y);
    }
    return id;
  };

  // Undirected segments as parallel arrays; each becomes two directed CSR edges below.
  const from: number[] = [];
  const to: number[] = [];
  const bits: number[] = [];
  for (const feature of geojson.features) {
    const passage = feature.properties?.passage;
    if (passage === ALWAYS_EXCLUDED) continue;
    const bit = passageBit(passage);
    for (const line of linesOf(feature.geometry)) {
      let previous = -1;
      for (const point of line) {
        const id = nodeOf(point);
        if (previous >= 0 && previous !== id) {
          from.push(previous);
          to.push(id);
          bits.push(bit);
        }
        previous = id;
      }
    }
  }

  const nodeCount = lon.length;
  const edgeStart = new Int32Array(nodeCount + 1);
  for (let i = 0; i < from.length; i++) {
    edgeStart[from[i] + 1]++;
    edgeStart[to[i] + 1]++;
  }
  for (let i = 0; i < nodeCount; i++) edgeStart[i + 1] += edgeStart[i];
  const fill = edgeStart.slice(0, nodeCount);
  const edgeTo = new Int32Array(2 * from.length);
  const edgeKm = new Float64Array(2 * from.length);
  const edgePassage = new Uint16Array(2 * from.length);
  for (let i = 0; i < from.length; i++) {
    const a = from[i];
    const b = to[i];
    const km = haversineKm([lon[a], lat[a]], [lon[b], lat[b]]);
    for (const [u, v] of [[a, b], [b, a]]) {
      const e = fill[u]++;
      edgeTo[e] = v;
      edgeKm[e] = km;
      edgePassage[e] = bits[i];
    }
  }

  const graph = { lon: Float64Array.from(lon), lat: Float64Array.from(lat), xyz: unitVectors(lon, lat), edgeStart, edgeTo, edgeKm, edgePassage };
  return { ...graph, snapNodes: largestComponent(graph) };
}

function largestComponent(graph: Omit<SeaGraph, 'snapNodes'>): Int32Array {
  const nodeCount = graph.lon.length;
  const component = new Int32Array(nodeCount).fill(-1);
  const sizes: number[] = [];
  const stack: number[] = [];
  for (let seed = 0; seed < nodeCount; seed++) {
    if (component[seed] >= 0) continue;
    const label = sizes.length;
    let size = 0;
    component[seed] = label;
    stack.push(seed);
    while (stack.length > 0) {
      const node = stack.pop()!;
      size++;
      for (let e = graph.edgeStart[node]; e < graph.edgeStart[node + 1]; e++) {
        const next = graph.edgeTo[e];
        if (component[next] < 0) {
          component[next] = label;
          stack.push(next);
        }
      }
    }
    sizes.push(size);
  }
  const biggest = sizes.indexOf(Math.max(...sizes));
  const nodes: number[] = [];
  for (let i = 0; i < nodeCount; i++) if (component[i] === biggest) nodes.push(i);
  return Int32Array.from(nodes);
}

function avoidMask(avoid: readonly Passage[] = []): number {
  let mask = 0;
  for (const passage of avoid) {
    const bit = passageBit(passage);
    if (bit === 0) throw new RangeError(`unknown passage: ${passage}`);
    mask |= bit;
  }
  return mask;
}

function hasOpenEdge(graph: SeaGraph, node: number, mask: number): boolean {
  for (let e = graph.edgeStart[node]; e < graph.edgeStart[node + 1]; e++) if ((graph.edgePassage[e] & mask) === 0) return true;
  return false;
}

/** Nearest node a route can leave from; a full scan costs well under a millisecond at this size. */
function nearestNode(graph: SeaGraph, point: LonLat, mask: number): number {
  const [x, y, z] = toUnitVector(point);
  let best = -1;
  let bestChord = Infinity;
  for (const node of graph.snapNodes) {
    const chord = chordSquared(graph.xyz, node, x, y, z);
    // Skip nodes reachable only through an avoided passage, e.g. the inner vertices of the Suez Canal.
    if (chord < bestChord && hasOpenEdge(graph, node, mask)) {
      best = node;
      bestChord = chord;
    }
  }
  return best;
}

/** Node ids from start to goal, or null when avoided passages disconnect them. */
function aStar(graph: SeaGraph, start: number, goal: number, mask: number): number[] | null {
  const nodeCount = graph.lon.length;
  const cost = new Float64Array(nodeCount).fill(Infinity);
  const previous = new Int32Array(nodeCount).fill(-1);
  const closed = new Uint8Array(nodeCount);
  const [x, y, z] = graph.xyz.subarray(3 * goal, 3 * goal + 3);
  // Edge weights are great-circle lengths, so the great-circle distance never overestimates: A* stays exact.
  const estimate = (node: number) => chordToKm(chordSquared(graph.xyz, node, x, y, z));
  const open = new NodeHeap(graph.edgeTo.length + 1);
  cost[start] = 0;
  open.push(start, estimate(start));
  while (open.size > 0) {
    const node = open.pop();
    if (node === goal) {
      const path: number[] = [];
      for (let at = goal; at >= 0; at = previous[at]) path.push(at);
      return path.reverse();
    }
    if (closed[node]) continue; // a stale heap entry left behind by a later, cheaper push
    closed[node] = 1;
    for (let e = graph.edgeStart[node]; e < graph.edgeStart[node + 1]; e++) {
      if ((graph.edgePassage[e] & mask) !== 0) continue;
      const next = graph.edgeTo[e];
      if (closed[next]) continue;
      const nextCost = cost[node] + graph.edgeKm[e];
      if (nextCost < cost[next]) {
        cost[next] = nextCost;
        previous[next] = node;
        open.push(next, nextCost + estimate(next));
      }
    }
  }
  return null;
}

function checkPosition(point: LonLat): [number, number] {
  const [lon, lat] = point;
  if (!Number.isFinite(lon) || !Number.isFinite(lat) || Math.abs(lat) > 90) throw new RangeError(`not a position: [${lon}, ${lat}]`);
  return [normalizeLon(lon), lat];
}

/** Shortest sea route on a given graph, or null when the avoided passages leave no way through. */
export function routeOnGraph(graph: SeaGraph, from: LonLat, to: LonLat, options: SeaRouteOptions = {}): SeaRoute | null {
  const start = checkPosition(from);
  const end = checkPosition(to);
  const mask = avoidMask(options.avoid);
  const first = nearestNode(graph, start, mask);
  const last = nearestNode(graph, end, mask);
  if (first < 0 || last < 0) return null;
  const path = aStar(graph, first, last, mask);
  if (path === null) return null;

  const coordinates: [number, number][] = [start];
  for (const point of [...path.map((node): [number, number] => [graph.lon[node], graph.lat[node]]), end]) {
    const prior = coordinates[coordinates.length - 1];
    if (point[0] !== prior[0] || point[1] !== prior[1]) coordinates.push(point);
  }
  let distanceKm = 0;
  for (let i = 1; i < coordinates.length; i++) distanceKm += haversineKm(coordinates[i - 1], coordinates[i]);
  return { distanceKm, distanceNm: distanceKm / KM_PER_NM, coordinates };
}

const MARNET_URL = new URL('../../refdata/marnet.geojson', import.meta.url);
let marnet: SeaGraph | undefined;

/** The MARNET graph, built on first use and kept for the life of the process. */
export function loadSeaGraph(): SeaGraph {
  marnet ??= buildSeaGraph(JSON.parse(readFileSync(MARNET_URL, 'utf8')) as NetworkGeoJson);
  return marnet;
}

/**
 * Shortest sea route between two [lon, lat] positions over MARNET, with both positions as the end
 * points of `coordinates`. Returns null only when `avoid` disconnects them.
 */
export function seaRoute(from: LonLat, to: LonLat, options?: SeaRouteOptions): SeaRoute | null {
  return routeOnGraph(loadSeaGraph(), from, to, options);
}
