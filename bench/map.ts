// `npm run bench:map`: GET /v2/containers/{id}/map_geojson for a container on a three-leg journey
// (bench/map-journey.ts: 30 days of AIS positions, at sea on the last leg) beside
// GET /v2/containers/{id} as the baseline, over real HTTP on loopback, the load generator in a
// worker thread; once per client count in BENCH_CONCURRENCY (default "1,16"). Then the service
// call alone in process, one call at a time: with the tracks it keeps, and with nothing kept (a
// server's first map of a container). Goal: p99 ≤ 50 ms. The load average is printed with each
// figure: on a shared machine it says how far they can be trusted.
import { loadavg } from 'node:os';
import { Worker } from 'node:worker_threads';
import { ManualClock } from '../src/clock.ts';
import { buildApp } from '../src/http/app.ts';
import { createApiKey } from '../src/services/api-keys.ts';
import { containerRouteMap } from '../src/services/route-map.ts';
import { insertAccount } from '../src/store/accounts.ts';
import { createPool } from '../src/store/db.ts';
import { benchDatabase } from './database.ts';
import { insertMapJourney } from './map-journey.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const clientCounts = (process.env.BENCH_CONCURRENCY ?? '1,16').split(',').map(Number);
const calls = Number(process.env.BENCH_CALLS ?? 300);
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
const headers = await Promise.all(Array.from({ length: Math.max(...clientCounts) }, async () => ({ authorization: `Token ${(await createApiKey(database.db, account.id)).key}` })));
const { containerId, stored } = await insertMapJourney(database.db, account.id, trackingClock.now());

interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  latenciesMs: number[];
}
function load(url: string, concurrency: number): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./load-worker.js', import.meta.url), { workerData: { url, headers, concurrency, seconds } });
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

const map = await (await fetch(`${base}/v2/containers/${containerId}/map_geojson`, { headers: headers[0] })).json();
const points = map.features.reduce((n: number, f: { geometry: { type: string; coordinates: unknown[] } }) => n + (f.geometry.type === 'LineString' ? f.geometry.coordinates.length : 1), 0);
console.log(`svc route map benchmark: ${seconds} s per route, ${stored} AIS positions stored, map of ${map.features.length} features / ${points} points`);
const load1 = () => loadavg()[0].toFixed(1);
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
const ms = (n: number) => n.toFixed(2).padStart(8);
console.log('route'.padEnd(40), 'clients'.padStart(7), 'req/s'.padStart(8), 'p50 ms'.padStart(8), 'p99 ms'.padStart(8), 'errors'.padStart(7), 'vs baseline'.padStart(12), 'load 1m'.padStart(8));

const mapP99 = new Map<number, number>();
for (const concurrency of clientCounts) {
  let baseline = 0;
  for (const [name, path] of [
    ['GET /v2/containers/{id} (baseline)', `/v2/containers/${containerId}`],
    ['GET /v2/containers/{id}/map_geojson', `/v2/containers/${containerId}/map_geojson`],
  ]) {
    const r = await load(base + path, concurrency);
    const sorted = r.latenciesMs.sort((a, b) => a - b);
    const rps = r.requests / r.seconds;
    baseline ||= rps;
    mapP99.set(concurrency, pct(sorted, 99));
    console.log(name.padEnd(40), String(concurrency).padStart(7), rps.toFixed(0).padStart(8), ms(pct(sorted, 50)), ms(pct(sorted, 99)), String(r.errors).padStart(7), `${(rps / baseline).toFixed(2)}x`.padStart(12), load1().padStart(8));
  }
}

// The service alone: no HTTP, no load generator, one call at a time. Tracks are kept per pool
// object, so a Queryable of its own for each call is a server that has kept nothing yet (the sea
// routes ahead stay kept: they are the same for every container sailing that way).
async function serviceCalls(name: string, queryable: () => Parameters<typeof containerRouteMap>[0]): Promise<void> {
  const latencies: number[] = [];
  for (let i = 0; i < calls; i++) {
    const t0 = performance.now();
    await containerRouteMap(queryable(), trackingClock.now(), account.id, containerId);
    latencies.push(performance.now() - t0);
  }
  const sorted = latencies.sort((a, b) => a - b);
  console.log(name.padEnd(40), ms(sorted[0]), ms(pct(sorted, 50)), ms(pct(sorted, 99)), load1().padStart(8));
}
console.log(`\ncontainerRouteMap in process, ${calls} calls in turn`.padEnd(40), 'min ms'.padStart(8), 'p50 ms'.padStart(8), 'p99 ms'.padStart(8), 'load 1m'.padStart(8));
await serviceCalls('tracks kept (every map but the first)', () => db);
await serviceCalls('nothing kept (a first map)', () => ({ query: db.query.bind(db) }));

for (const [concurrency, p99] of mapP99) console.log(`map_geojson p99 with ${concurrency} clients ${p99.toFixed(1)} ms: ${p99 <= 50 ? 'within' : 'OVER'} the 50 ms goal`);

await app.close();
await db.end();
await database.drop();
