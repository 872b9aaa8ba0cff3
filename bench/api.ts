// `npm run bench:api`: requests per second and latency of representative read routes, over real
// HTTP on loopback, each through the full path (auth, rate limit, query, serialisation).
// The server runs in this process; the load generator in a worker thread (the second core).
import { Worker } from 'node:worker_threads';
import { buildApp } from '../src/http/app.ts';
import { createApiKey } from '../src/services/api-keys.ts';
import { insertAccount } from '../src/store/accounts.ts';
import { createPool } from '../src/store/db.ts';
import { benchDatabase } from './database.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 32);

const database = await benchDatabase();

// Each reading of this clock is a second later, so the rate limiter runs its real query on every
// request without ever refusing one (60 requests per minute of clock time < 100).
let tick = Date.parse('2026-01-01T00:00:00Z');
const clock = { now: () => new Date((tick += 1000)) };

// The server gets a pool as large as svc's own (the test pool is smaller).
const db = createPool(database.url);
const app = await buildApp({ db, clock });
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
// One key per client, as in production where each key is held to 100 requests a minute: the
// per-key rate-limit row would otherwise serialise every request of the benchmark.
const account = await insertAccount(database.db, 'bench');
const headers = await Promise.all(
  Array.from({ length: concurrency }, async () => ({ authorization: `Token ${(await createApiKey(database.db, account.id)).key}` })),
);
const party = await fetch(`${base}/v2/parties`, {
  method: 'POST',
  headers: { ...headers[0], 'content-type': 'application/vnd.api+json' },
  body: JSON.stringify({ data: { type: 'party', attributes: { company_name: 'Bench Co' } } }),
}).then((r) => r.json() as Promise<{ data: { id: string } }>);

const scenarios: [string, string, Record<string, string>[]][] = [
  ['GET /healthz (one shared ping, baseline)', '/healthz', [{}]],
  ['GET /v2/parties/{id}', `/v2/parties/${party.data.id}`, headers],
  ['GET /v2/parties (page of 1)', '/v2/parties', headers],
  ['GET /v2/ports/USLAX', '/v2/ports/USLAX', headers],
  ['GET /v2/terminals/{id}?include=port', '', headers],
  ['GET /v2/shipping_lines (all lines)', '/v2/shipping_lines', headers],
];
// 30 shipments at sea on 10 vessels, each with an AIS estimate of its arrival: a page of the list
// and one shipment both read it. The estimates are dated ahead, so the fast clock never ages them out.
await database.db.query(
  `WITH s AS (
     INSERT INTO shipments (account_id, scac, request_type, request_number, ref_numbers, state, created_at, updated_at)
     SELECT $1, 'MAEU', 'bill_of_lading', 'BENCH' || i, '{}',
            jsonb_build_object('pod_vessel_imo', (9000000 + i % 10)::text, 'port_of_discharge_locode', 'USLAX',
                               'pol_atd_at', '2025-12-20T00:00:00Z', 'pod_eta_at', '2026-01-10T00:00:00Z'),
            now(), now()
       FROM generate_series(1, 30) i RETURNING id)
   INSERT INTO ais_port_etas (vessel_imo, port_locode, eta_at, distance_nm, speed_knots, position_at, latitude, longitude, computed_at)
   SELECT (9000000 + i)::text, 'USLAX', '2026-01-09T12:00:00Z', 500, 15, $2, 30, -130, $2 FROM generate_series(0, 9) i`,
  [account.id, new Date('2030-01-01T00:00:00Z')],
);
const shipment = await database.db.query('SELECT id FROM shipments ORDER BY id LIMIT 1');
scenarios.push(['GET /v2/shipments (page of 30)', '/v2/shipments', headers], ['GET /v2/shipments/{id}', `/v2/shipments/${shipment.rows[0].id}`, headers]);
const terminal = await database.db.query('SELECT id FROM terminals WHERE firms_code IS NOT NULL ORDER BY id LIMIT 1');
scenarios[4][1] = `/v2/terminals/${terminal.rows[0]?.id}?include=port`;

interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  latenciesMs: number[];
}

function load(url: string, h: Record<string, string>[]): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./load-worker.js', import.meta.url), { workerData: { url, headers: h, concurrency, seconds } });
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
console.log(`svc API benchmark: ${concurrency} concurrent clients, ${seconds} s per route, ${process.env.SVC_TEST_DATABASE_URL?.replace(/\/\/[^@]*@/, '//')}`);
console.log('route'.padEnd(42), 'req/s'.padStart(8), 'p50 ms'.padStart(8), 'p99 ms'.padStart(8), 'errors'.padStart(7), 'vs baseline'.padStart(12));
let baseline = 0;
for (const [name, p, h] of scenarios) {
  const r = await load(base + p, h);
  const sorted = r.latenciesMs.sort((a, b) => a - b);
  const rps = r.requests / r.seconds;
  baseline ||= rps;
  console.log(name.padEnd(42), rps.toFixed(0).padStart(8), pct(sorted, 50).toFixed(2).padStart(8), pct(sorted, 99).toFixed(2).padStart(8), String(r.errors).padStart(7), `${(rps / baseline).toFixed(2)}x`.padStart(12));
}

await app.close();
await db.end();
await database.drop();
