import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { haversineNm } from './distance.ts';
import { buildSeaGraph, loadSeaGraph, routeOnGraph, seaRoute, type NetworkGeoJson, type Passage, type SeaRoute } from './searoute.ts';

// Timings are printed as diagnostics, never asserted: speed is measured, not tested.

const SHANGHAI: [number, number] = [121.8, 31.2];
const LOS_ANGELES: [number, number] = [-118.26, 33.73];
const ROTTERDAM: [number, number] = [4.0, 51.95];
const NEW_YORK: [number, number] = [-74.0, 40.6];
const SINGAPORE: [number, number] = [103.8, 1.26];

function antimeridianJumps(route: SeaRoute): number {
  let jumps = 0;
  for (let i = 1; i < route.coordinates.length; i++) {
    if (Math.abs(route.coordinates[i][0] - route.coordinates[i - 1][0]) > 180) jumps++;
  }
  return jumps;
}

function maxAbsLat(route: SeaRoute): number {
  return Math.max(...route.coordinates.map(([, lat]) => Math.abs(lat)));
}

function passesNear(route: SeaRoute, point: [number, number], nm: number): boolean {
  return route.coordinates.some((c) => haversineNm(c, point) < nm);
}

const SUEZ: [number, number] = [32.5, 30.0];
const PANAMA: [number, number] = [-79.7, 9.1];
const CAPE_OF_GOOD_HOPE: [number, number] = [18.5, -34.6];

describe('MARNET sea graph', () => {
  test('builds quickly and stitches the antimeridian', (t) => {
    const geojson = JSON.parse(readFileSync(new URL('../../refdata/marnet.geojson', import.meta.url), 'utf8')) as NetworkGeoJson;
    const started = performance.now();
    const graph = buildSeaGraph(geojson);
    const ms = performance.now() - started;
    t.diagnostic(`build ${ms.toFixed(1)} ms (parsed JSON in, ${graph.lon.length} nodes, ${graph.edgeTo.length / 2} edges)`);
    for (const lon of graph.lon) assert.ok(lon >= -180 && lon < 180, `longitude ${lon} not normalised`);
    assert.ok(graph.snapNodes.length > 0.95 * graph.lon.length, 'the network should be one main component');
  });

  test('lazy load is cached', (t) => {
    const started = performance.now();
    const graph = loadSeaGraph();
    t.diagnostic(`first loadSeaGraph (read + parse + build) ${(performance.now() - started).toFixed(1)} ms`);
    assert.equal(loadSeaGraph(), graph);
  });
});

describe('seaRoute', () => {
  function timed(t: { diagnostic(message: string): void }, name: string, from: [number, number], to: [number, number], avoid?: Passage[]): SeaRoute {
    loadSeaGraph(); // keep the one-off build out of the per-route timing
    const started = performance.now();
    const route = seaRoute(from, to, { avoid });
    const ms = performance.now() - started;
    assert.ok(route, `${name}: no route`);
    t.diagnostic(`${name}: ${route.distanceNm.toFixed(0)} nm / ${route.distanceKm.toFixed(0)} km, ${route.coordinates.length} points, ${ms.toFixed(2)} ms`);
    assert.deepEqual(route.coordinates[0], from);
    assert.deepEqual(route.coordinates.at(-1), to);
    assert.ok(Math.abs(route.distanceKm / route.distanceNm - 1.852) < 1e-9);
    assert.ok(maxAbsLat(route) < 72, `${name} crosses the Arctic`);
    return route;
  }

  test('Shanghai → Los Angeles crosses the Pacific', (t) => {
    const route = timed(t, 'Shanghai → Los Angeles', SHANGHAI, LOS_ANGELES);
    assert.ok(route.distanceNm > 5_700 && route.distanceNm < 6_000, `${route.distanceNm} nm`);
    assert.equal(antimeridianJumps(route), 1);
    // Everything stays between East Asia and the US west coast: nowhere near Suez or Panama.
    for (const [lon] of route.coordinates) assert.ok(lon >= 100 || lon <= -110, `longitude ${lon} is off the Pacific`);
  });

  test('Shanghai → Rotterdam goes through Suez, and round it when told to avoid Suez', (t) => {
    const viaSuez = timed(t, 'Shanghai → Rotterdam', SHANGHAI, ROTTERDAM);
    assert.ok(viaSuez.distanceNm > 10_200 && viaSuez.distanceNm < 10_800, `${viaSuez.distanceNm} nm`);
    assert.ok(passesNear(viaSuez, SUEZ, 100));

    const noSuez = timed(t, 'Shanghai → Rotterdam avoiding Suez', SHANGHAI, ROTTERDAM, ['suez']);
    assert.ok(noSuez.distanceNm > 13_000, `${noSuez.distanceNm} nm`);
    assert.ok(!passesNear(noSuez, SUEZ, 100));

    const noCanals = timed(t, 'Shanghai → Rotterdam avoiding Suez and Panama', SHANGHAI, ROTTERDAM, ['suez', 'panama']);
    assert.ok(noCanals.distanceNm > noSuez.distanceNm);
    assert.ok(passesNear(noCanals, CAPE_OF_GOOD_HOPE, 300));
    assert.ok(!passesNear(noCanals, PANAMA, 100));
  });

  test('Rotterdam → New York crosses the North Atlantic', (t) => {
    const route = timed(t, 'Rotterdam → New York', ROTTERDAM, NEW_YORK);
    assert.ok(route.distanceNm > 3_100 && route.distanceNm < 3_500, `${route.distanceNm} nm`);
  });

  test('Singapore → New York is plausible', (t) => {
    const route = timed(t, 'Singapore → New York', SINGAPORE, NEW_YORK);
    // Via Suez is about 10,100 nm; via the Cape about 11,700 nm.
    assert.ok(route.distanceNm > 9_800 && route.distanceNm < 12_000, `${route.distanceNm} nm`);
    assert.equal(antimeridianJumps(route), 0);
  });

  test('is symmetric in distance', () => {
    const there = seaRoute(SHANGHAI, LOS_ANGELES)!;
    const back = seaRoute(LOS_ANGELES, SHANGHAI)!;
    assert.ok(Math.abs(there.distanceKm - back.distanceKm) < 1e-6);
  });

  test('rejects unknown passages and impossible positions', () => {
    assert.throws(() => seaRoute(SHANGHAI, ROTTERDAM, { avoid: ['kiel' as 'suez'] }), RangeError);
    assert.throws(() => seaRoute([Number.NaN, 0], ROTTERDAM), RangeError);
    assert.throws(() => seaRoute([0, 91], ROTTERDAM), RangeError);
  });
});

describe('routeOnGraph on a small network', () => {
  // Two lines meeting at the antimeridian, one written with 180 and one with -180, plus a shorter
  // canal and a Northwest-Passage shortcut that must never be used.
  const network: NetworkGeoJson = {
    features: [
      { geometry: { type: 'LineString', coordinates: [[170, 0], [180, 0]] }, properties: {} },
      { geometry: { type: 'LineString', coordinates: [[-180, 0], [-170, 0]] }, properties: null },
      { geometry: { type: 'LineString', coordinates: [[-170, 0], [-170, 10], [-160, 10]] }, properties: {} },
      { geometry: { type: 'LineString', coordinates: [[-170, 0], [-165, 5], [-160, 10]] }, properties: { passage: 'panama' } },
      { geometry: { type: 'LineString', coordinates: [[190, 0], [-160, 10]] }, properties: { passage: 'northwest' } },
    ],
  };
  const graph = buildSeaGraph(network);

  test('joins 180 and -180 into one node and skips the Northwest Passage', () => {
    const route = routeOnGraph(graph, [170, 0], [-160, 10])!;
    assert.deepEqual(route.coordinates, [[170, 0], [-180, 0], [-170, 0], [-165, 5], [-160, 10]]);
  });

  test('avoids a passage when asked', () => {
    const route = routeOnGraph(graph, [170, 0], [-160, 10], { avoid: ['panama'] })!;
    assert.deepEqual(route.coordinates, [[170, 0], [-180, 0], [-170, 0], [-170, 10], [-160, 10]]);
  });

  test('returns null when avoided passages disconnect the ends', () => {
    const cut = buildSeaGraph({
      features: [
        { geometry: { type: 'LineString', coordinates: [[0, 0], [1, 0]] }, properties: {} },
        { geometry: { type: 'LineString', coordinates: [[1, 0], [2, 0]] }, properties: { passage: 'suez' } },
        { geometry: { type: 'LineString', coordinates: [[2, 0], [3, 0]] }, properties: {} },
      ],
    });
    assert.equal(routeOnGraph(cut, [0, 0], [3, 0], { avoid: ['suez'] }), null);
  });
});
