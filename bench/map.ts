// `npm run bench:map`: GET /v2/containers/{id}/map_geojson for a container on a three-leg journey
// (Shanghai → Singapore → Colombo → Rotterdam, at sea on the last leg) with 30 days of AIS
// positions, beside GET /v2/containers/{id} as the baseline; over real HTTP on loopback, the load
// generator in a worker thread. Goal: p99 ≤ 50 ms.
import { Worker } from 'node:worker_threads';
import { ManualClock } from '../src/clock.ts';
import { buildApp } from '../src/http/app.ts';
import { createApiKey } from '../src/services/api-keys.ts';
import { insertAccount } from '../src/store/accounts.ts';
import { createPool } from '../src/store/db.ts';
import { insertJourney, insertTrack, positionsAlong, seaPath, type Vessel } from '../test/support/route-journeys.ts';
import { benchDatabase } from './database.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 16);
const database = await benchDatabase();

// The API clock ticks a second per reading so the rate limiter never refuses (see bench/api.ts);
// the route map reads the tracking clock, which stays put so the vessel stays "now" at sea.
let tick = Date.parse('2026-01-01T00:00:00Z');
const clock = { now: () => new Date((tick += 1000)) };
const trackingClock = new ManualClock('2026-02-04T00:00:00Z');
const db = createPool(database.url);
const app = await buildApp({ db, clock, trackingClock });
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

const account = await insertAccount(database.db, 'bench');
const headers = await Promise.all(Array.from({ length: concurrency }, async () => ({ authorization: `Token ${(await createApiKey(database.db, account.id)).key}` })));

const CNSHA: [number, number] = [121.5, 31.21667];
const SGSIN: [number, number] = [103.85191, 1.28992];
const LKCMB: [number, number] = [79.85, 6.95];
const NLRTM: [number, number] = [4.48333, 51.9];
const vessels: Vessel[] = [
  { imo: '9800001', name: 'BENCH ONE', mmsi: 563100001 },
  { imo: '9800002', name: 'BENCH TWO', mmsi: 563100002 },
  { imo: '9800003', name: 'BENCH THREE', mmsi: 563100003 },
];
const day = (d: string) => new Date(`${d}T00:00:00Z`);
const { containerId } = await insertJourney(database.db, {
  accountId: account.id,
  state: { port_of_lading_locode: 'CNSHA', port_of_discharge_locode: 'NLRTM', transshipment_locodes: ['SGSIN', 'LKCMB'], pol_atd_at: '2026-01-05T00:00:00Z', pod_eta_at: '2026-02-20T00:00:00Z' },
  milestones: [
    { event: 'vessel_departed', at: '2026-01-05T00:00:00Z', locode: 'CNSHA', vessel: vessels[0] },
    { event: 'transshipment_arrived', at: '2026-01-11T00:00:00Z', locode: 'SGSIN', vessel: vessels[0] },
    { event: 'transshipment_departed', at: '2026-01-12T00:00:00Z', locode: 'SGSIN', vessel: vessels[1] },
    { event: 'transshipment_arrived', at: '2026-01-16T00:00:00Z', locode: 'LKCMB', vessel: vessels[1] },
    { event: 'transshipment_departed', at: '2026-01-17T00:00:00Z', locode: 'LKCMB', vessel: vessels[2] },
  ],
});
// 30 days of reports, one every three minutes while under way (14,400 positions).
const EVERY_3_MIN = 20 * 24;
const legs: [Vessel, [number, number], [number, number], string, string][] = [
  [vessels[0], CNSHA, SGSIN, '2026-01-05', '2026-01-11'],
  [vessels[1], SGSIN, LKCMB, '2026-01-12', '2026-01-16'],
  [vessels[2], LKCMB, NLRTM, '2026-01-17', '2026-02-20'],
];
let stored = 0;
for (const [vessel, from, to, start, end] of legs) {
  const days = (day(end).getTime() - day(start).getTime()) / 86_400_000;
  const positions = positionsAlong(vessel, seaPath(from, to), day(start), day(end), Math.round(days * EVERY_3_MIN)).filter((p) => p.at <= trackingClock.now());
  await insertTrack(database.db, vessel, positions);
  stored += positions.length;
}
await database.db.query('ANALYZE');

interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  latenciesMs: number[];
}
function load(url: string): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./load-worker.js', import.meta.url), { workerData: { url, headers, concurrency, seconds } });
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

const map = await (await fetch(`${base}/v2/containers/${containerId}/map_geojson`, { headers: headers[0] })).json();
const points = map.features.reduce((n: number, f: { geometry: { type: string; coordinates: unknown[] } }) => n + (f.geometry.type === 'LineString' ? f.geometry.coordinates.length : 1), 0);
console.log(`svc route map benchmark: ${concurrency} concurrent clients, ${seconds} s per route, ${stored} AIS positions stored, map of ${map.features.length} features / ${points} points`);
console.log('route'.padEnd(40), 'req/s'.padStart(8), 'p50 ms'.padStart(8), 'p99 ms'.padStart(8), 'errors'.padStart(7), 'vs baseline'.padStart(12));

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
let baseline = 0;
let mapP99 = 0;
for (const [name, path] of [
  ['GET /v2/containers/{id} (baseline)', `/v2/containers/${containerId}`],
  ['GET /v2/containers/{id}/map_geojson', `/v2/containers/${containerId}/map_geojson`],
]) {
  const r = await load(base + path);
  const sorted = r.latenciesMs.sort((a, b) => a - b);
  const rps = r.requests / r.seconds;
  baseline ||= rps;
  mapP99 = pct(sorted, 99);
  console.log(name.padEnd(40), rps.toFixed(0).padStart(8), pct(sorted, 50).toFixed(2).padStart(8), mapP99.toFixed(2).padStart(8), String(r.errors).padStart(7), `${(rps / baseline).toFixed(2)}x`.padStart(12));
}
console.log(`map_geojson p99 ${mapP99.toFixed(1)} ms: ${mapP99 <= 50 ? 'within' : 'OVER'} the 50 ms goal`);

await app.close();
await db.end();
await database.drop();
