// `npm run bench:scale`: how svc's list, filter, search and show routes hold up as the data grows.
// For each size (BENCH_SIZES, default 10k,100k,1m containers; about ten transport events each and
// one tracking request per ten containers, over ten accounts) it builds or reuses a database
// (scale-seed.ts) and serves it with svc's app on loopback, all sizes at once. Each route is then
// driven from a worker thread (BENCH_CONCURRENCY clients for BENCH_SECONDS) as the largest account,
// the sizes taking turns (one way, then back) for BENCH_ROUNDS rounds. Per route: p50 at each size
// and the ratio of the largest size's p50 to the smallest's (the median of the rounds' ratios, each
// from two turns close in time, so a busy spell of the machine weighs on both), against the goal
// of 1.5×; search's p50 against 20 ms; and the shared buffers one request's statements touch at
// the smallest and largest size (EXPLAIN ANALYZE BUFFERS, statement-plans.ts), which the machine's
// load does not move. BENCH_REBUILD=1 builds the databases again; BENCH_ROUTES (a regular
// expression) picks routes by name; BENCH_EXPLAIN=1 prints each statement's plan at each size.
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { Worker } from 'node:worker_threads';
import { buildApp } from '../src/http/app.ts';
import { createApiKey } from '../src/services/api-keys.ts';
import { startEmbeddedPostgres } from '../src/store/embedded.ts';
import { createPool, type Db } from '../src/store/db.ts';
import { NOW } from './scale-data.ts';
import { SCALE_SIZES, scaleDatabase, type ScaleDatabase, type ScaleSize } from './scale-seed.ts';
import { statementCosts, statementRecorder, type StatementCost } from './statement-plans.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 1.5);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 4);
const rounds = Number(process.env.BENCH_ROUNDS ?? 6);
const explain = process.env.BENCH_EXPLAIN === '1';
const sizes = (process.env.BENCH_SIZES ?? '10k,100k,1m').split(',').map((s) => s.trim().toLowerCase()) as ScaleSize[];
for (const s of sizes) if (!(s in SCALE_SIZES)) throw new Error(`BENCH_SIZES: unknown size ${s} (known: ${Object.keys(SCALE_SIZES).join(', ')})`);
/** BENCH_ROUTES: only the routes whose name matches this regular expression (all by default). */
const only = process.env.BENCH_ROUTES ? new RegExp(process.env.BENCH_ROUTES) : undefined;
const GOAL_RATIO = 1.5;
const SEARCH_GOAL_MS = 20;
/** The name of the keys a run makes (it takes its own away again). */
const KEY_NAME = 'bench:scale';

/** The server the databases live on: BENCH_DATABASE_URL, SVC_TEST_DATABASE_URL, DATABASE_URL, else the embedded one the tests use. */
async function server(): Promise<{ url: string; stop(): Promise<void> }> {
  const url = process.env.BENCH_DATABASE_URL ?? process.env.SVC_TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  if (url) return { url, stop: async () => {} };
  const embedded = await startEmbeddedPostgres(path.resolve(import.meta.dirname, '../.test-pg'), 54339);
  return { url: embedded.url, stop: embedded.stop };
}

interface Samples {
  container: { id: string; number: string; shipment_id: string };
  shipment: { bill_of_lading_number: string; pol: string; pod: string };
  trackingRequestId: string;
  trackingRequestNumber: string;
}

/**
 * Records of the same kind at every size: a container of a finished journey half a year back
 * (all its milestones), its shipment, and a pending tracking request, all of the large account.
 */
async function samples(db: Db, accountId: string): Promise<Samples> {
  const half = new Date(NOW - 180 * 86_400_000);
  const { rows: containers } = await db.query<Samples['container'] & { status: string }>(
    `SELECT id, number, shipment_id, state->>'current_status' AS status FROM containers
      WHERE account_id = $1 AND created_at < $2 ORDER BY created_at DESC, id DESC LIMIT 50`,
    [accountId, half],
  );
  const container = containers.find((c) => c.status === 'empty_returned') ?? containers[0];
  const { rows: shipment } = await db.query<Samples['shipment']>(
    `SELECT coalesce(bill_of_lading_number, request_number) AS bill_of_lading_number, state->>'port_of_lading_locode' AS pol,
            state->>'port_of_discharge_locode' AS pod FROM shipments WHERE id = $1`,
    [container.shipment_id],
  );
  const { rows: request } = await db.query<{ id: string; request_number: string }>(
    `SELECT id, request_number FROM tracking_requests WHERE account_id = $1 AND status = 'pending' ORDER BY created_at DESC LIMIT 1`,
    [accountId],
  );
  return { container, shipment: shipment[0], trackingRequestId: request[0].id, trackingRequestNumber: request[0].request_number };
}

/** Every list, filter, search and show route, by a name that is the same at every size. */
function routes(s: Samples): [string, string][] {
  const day = (daysBefore: number) => new Date(NOW - daysBefore * 86_400_000).toISOString();
  const c = s.container;
  const partial = c.number.slice(4, 10);
  const ranged = (param: string, from: number, to: number) => `${param}[start]=${day(from)}&${param}[end]=${day(to)}`;
  return [
    ['GET /v2/shipments', '/v2/shipments'],
    ['  shipments filter[status]=on_ship', '/v2/shipments?filter[status]=on_ship'],
    ['  shipments filter[port]=<pod>', `/v2/shipments?filter[port]=${s.shipment.pod}`],
    ['  shipments filter[pol_locode]', `/v2/shipments?filter[pol_locode]=${s.shipment.pol}`],
    ['  shipments filter[pod_locode]', `/v2/shipments?filter[pod_locode]=${s.shipment.pod}`],
    ['  shipments filter[line_scac]=MAEU', '/v2/shipments?filter[line_scac]=MAEU'],
    ['  shipments filter[updated_at] one day', `/v2/shipments?${ranged('filter[updated_at]', 10, 9)}`],
    ['  shipments filter[tracking_stopped]=false', '/v2/shipments?filter[tracking_stopped]=false'],
    ['  shipments filter[on_hold]=true', '/v2/shipments?filter[on_hold]=true'],
    // The seed puts a shipment on hold by the same rule at every size (a container discharged and
    // not yet available holds in three cases of ten), but at 10k few containers are in that
    // window: the large account has 4 shipments on hold (0.12% of 3,338) against 852 at 1M
    // (0.26% of 331,619), so the default page holds 4 records at 10k and 30 at 1M, and its ratio
    // counts the 26 more. The same route with a page every size fills compares like with like:
    // the verdict is that route's (JUDGED_BY); both are reported, the records of each page beside.
    ['  shipments filter[on_hold]=true page[size]=4', '/v2/shipments?filter[on_hold]=true&page[size]=4'],
    ['  shipments filter[pod_eta_at] next week', `/v2/shipments?${ranged('filter[pod_eta_at]', 0, -7)}`],
    ['  shipments number=<B/L>', `/v2/shipments?number=${s.shipment.bill_of_lading_number}`],
    ['  shipments q=<partial number>', `/v2/shipments?q=${partial}`],
    ['  shipments sort=-updated_at', '/v2/shipments?sort=-updated_at'],
    ['  shipments sort=pod_arrival_at', '/v2/shipments?sort=pod_arrival_at'],
    ['GET /v2/containers', '/v2/containers'],
    ['  containers filter[status]=available', '/v2/containers?filter[status]=available'],
    ['  containers filter[port]=<pod>', `/v2/containers?filter[port]=${s.shipment.pod}`],
    ['  containers filter[pod_locode]', `/v2/containers?filter[pod_locode]=${s.shipment.pod}`],
    ['  containers filter[line_scac]=MAEU', '/v2/containers?filter[line_scac]=MAEU'],
    ['  containers filter[updated_at] one day', `/v2/containers?${ranged('filter[updated_at]', 10, 9)}`],
    ['  containers filter[number]', `/v2/containers?filter[number]=${c.number}`],
    ['  containers filter[shipment_id]', `/v2/containers?filter[shipment_id]=${c.shipment_id}`],
    ['GET /v2/tracking_requests', '/v2/tracking_requests'],
    ['  tracking_requests filter[status]=pending', '/v2/tracking_requests?filter[status]=pending'],
    ['  tracking_requests filter[status]=failed', '/v2/tracking_requests?filter[status]=failed'],
    ['  tracking_requests filter[scac]=MAEU', '/v2/tracking_requests?filter[scac]=MAEU'],
    ['  tracking_requests filter[request_number]', `/v2/tracking_requests?filter[request_number]=${s.trackingRequestNumber}`],
    ['GET /v2/search?query=<full number>', `/v2/search?query=${c.number}`],
    ['GET /v2/search?query=<partial number>', `/v2/search?query=${partial}`],
    ['GET /v2/containers/{id}', `/v2/containers/${c.id}`],
    ['  container ?include=shipment,pod_terminal,transport_events', `/v2/containers/${c.id}?include=shipment,pod_terminal,transport_events`],
    ['GET /v2/containers/{id}/transport_events', `/v2/containers/${c.id}/transport_events`],
    ['GET /v2/shipments/{id}', `/v2/shipments/${c.shipment_id}`],
    ['GET /v2/tracking_requests/{id}', `/v2/tracking_requests/${s.trackingRequestId}`],
    ['GET /v2/webhook_notifications', '/v2/webhook_notifications'],
  ];
}

/**
 * Routes whose page holds more records at one size than at another by the data's own make-up, not
 * by the code: each is judged by the route named here (the same filter with pages every size
 * fills), its own ratio printed beside with the records of each page.
 */
const JUDGED_BY = new Map([['  shipments filter[on_hold]=true', '  shipments filter[on_hold]=true page[size]=4']]);

interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  latenciesMs: number[];
}

// The clients: one worker kept up for the run, sent one turn's load after another (no worker
// start-up per turn, connections kept).
const loader = new Worker(new URL('./load-worker.js', import.meta.url), { workerData: { persistent: true } });
function load(url: string, headers: Record<string, string>[]): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    loader.once('error', reject);
    loader.once('message', (r: LoadResult) => {
      loader.off('error', reject);
      resolve(r);
    });
    loader.postMessage({ url, headers, concurrency, seconds });
  });
}

interface Figures {
  p50: number;
  p99: number;
  rps: number;
  errors: number;
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

/** svc's app serving one size's database, with a key per client of the large account. */
interface Served {
  size: ScaleSize;
  base: string;
  /** Notes the statements svc runs during a request. */
  recorder: ReturnType<typeof statementRecorder>;
  /** A connection of its own for EXPLAIN. */
  explainer: pg.Client;
  headers: Record<string, string>[];
  routes: Map<string, string>;
  close(): Promise<void>;
}

async function serve(database: ScaleDatabase): Promise<Served> {
  const db = createPool(database.url);
  const recorder = statementRecorder(db);
  const explainer = new pg.Client({ connectionString: database.url });
  await explainer.connect();
  // Each reading of this clock is a second later, so the rate limiter runs its real query on every
  // request without ever refusing one (with one key per client, as bench:api does).
  let tick = NOW;
  const clock = { now: () => new Date((tick += 1000)) };
  const app = await buildApp({ db, clock });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const keys = await Promise.all(Array.from({ length: concurrency }, () => createApiKey(db, database.accountId, KEY_NAME)));
  const headers = keys.map(({ key }) => ({ authorization: `Token ${key}` }));
  // The explaining connection's first statements read the catalogue (the rate limiter's function
  // compiled, tables opened): done here once, so no route's buffers count them.
  const warm = await recorder.during(() => fetch(`${base}/v2/shipments`, { headers: headers[0] }).then((r) => r.text()));
  await statementCosts(explainer, warm.statements);
  return {
    size: database.size,
    recorder,
    explainer,
    base,
    headers,
    routes: new Map(routes(await samples(db, database.accountId))),
    async close() {
      await app.close();
      // Its own keys only: another run may be using the same database.
      await db.query('DELETE FROM api_keys WHERE id = ANY($1::uuid[])', [keys.map((k) => k.row.id)]);
      await db.end();
      await explainer.end();
    },
  };
}

/** What one request of a route costs the database at one size: its statements, EXPLAINed, and the records it answers with; undefined (and the reason printed) when it does not answer 200. */
async function costOf(served: Served, name: string): Promise<{ statements: StatementCost[]; records: number } | undefined> {
  const url = served.base + served.routes.get(name);
  // A route that fails is reported as such, neither explained nor timed. The statements are those
  // of a second request: the first may pay for what a connection or key does once.
  const get = async () => {
    const res = await fetch(url, { headers: served.headers[0] });
    return { status: res.status, body: await res.text() };
  };
  await get();
  const { result: probe, statements } = await served.recorder.during(get);
  if (probe.status !== 200) {
    console.log(`  ${name.trim()} at ${served.size}: HTTP ${probe.status}: ${probe.body.slice(0, 200)}`);
    return undefined;
  }
  const data = (JSON.parse(probe.body) as { data?: unknown }).data;
  return { statements: await statementCosts(served.explainer, statements, explain), records: Array.isArray(data) ? data.length : data ? 1 : 0 };
}

/** One route at one size, BENCH_SECONDS of load. */
async function measure(served: Served, name: string): Promise<Figures> {
  const url = served.base + served.routes.get(name);
  const r = await load(url, served.headers);
  const sorted = r.latenciesMs.sort((a, b) => a - b);
  return { p50: pct(sorted, 50), p99: pct(sorted, 99), rps: r.requests / r.seconds, errors: r.errors };
}

const pgServer = await server();
const servers: Served[] = [];
const fmt = (v: number | undefined, digits = 1) => (v === undefined ? '-' : v.toFixed(digits));
let misses = 0;
let measured = 0;
try {
  console.log(`svc scale benchmark: sizes ${sizes.join(', ')}; ${concurrency} clients, ${seconds} s per route and size, ${rounds} interleaved rounds; ${pgServer.url.replace(/\/\/[^@]*@/, '//')}`);
  for (const size of sizes) {
    const started = performance.now();
    const database = await scaleDatabase(size, pgServer.url, { rebuild: process.env.BENCH_REBUILD === '1', log: (l) => console.log(l) });
    const rows = Object.entries(database.rows).map(([t, n]) => `${t} ${n}`).join(', ');
    const phases = Object.entries(database.phases).map(([p, t]) => `${p} ${t.toFixed(1)} s`).join('; ');
    console.log(`${size}: ${database.built ? `built in ${((performance.now() - started) / 1000).toFixed(0)} s` : `kept, built in ${database.buildSeconds.toFixed(0)} s`} (${phases}); ${mb(database.bytes)} on disk; ${rows}`);
    servers.push(await serve(database));
  }
  // Sizes take turns on each route, round after round, so a busy moment of the machine falls on
  // all of them alike; each figure is the median of its rounds.
  const first = sizes[0];
  const last = sizes[sizes.length - 1];
  console.log(
    `\nper route: p50 ms at each size (p99 and req/s of the largest), medians of ${rounds} turns of ${seconds} s; ratio = p50 at ${last} / p50 at ${first} (median of the rounds' ratios), goal ≤ ${GOAL_RATIO}×; search: p50 ≤ ${SEARCH_GOAL_MS} ms at ${last}; buffers: shared buffers one request's statements touch at ${first} → ${last}; load: 1-minute load average after the route; (records a → b): the records a response holds at ${first} and ${last}, where they differ`,
  );
  console.log('route'.padEnd(58), ...sizes.map((s) => `p50 ${s}`.padStart(10)), `p99 ${last}`.padStart(10), 'req/s'.padStart(7), 'ratio'.padStart(7), 'buffers'.padStart(13), 'load'.padStart(5), ' verdict');
  for (const name of [...servers[0].routes.keys()].filter((n) => !only || only.test(n))) {
    const costs = new Map<ScaleSize, { statements: StatementCost[]; records: number } | undefined>();
    for (const served of servers) costs.set(served.size, await costOf(served, name));
    const answering = servers.filter((s) => costs.get(s.size));
    const runs = new Map<ScaleSize, Figures[]>(sizes.map((s) => [s, []]));
    const ratios: number[] = [];
    for (let round = 0; round < rounds; round++) {
      // One way, then back: a machine getting busier or quieter weighs on every size alike.
      const turn = round % 2 === 0 ? answering : [...answering].reverse();
      const p50s = new Map<ScaleSize, number>();
      for (const served of turn) {
        const f = await measure(served, name);
        runs.get(served.size)?.push(f);
        p50s.set(served.size, f.p50);
      }
      const [a, b] = [p50s.get(first), p50s.get(last)];
      if (a !== undefined && b !== undefined && sizes.length > 1) ratios.push(b / a);
    }
    const figure = (size: ScaleSize, key: keyof Figures) => {
      const values = runs.get(size)?.map((f) => f[key]) ?? [];
      return values.length ? median(values) : undefined;
    };
    const p50 = sizes.map((s) => figure(s, 'p50'));
    const b = p50[p50.length - 1];
    const ratio = ratios.length ? median(ratios) : undefined;
    const buffers = (size: ScaleSize) => costs.get(size)?.statements.reduce((n, c) => n + c.buffers, 0);
    const records = (size: ScaleSize) => costs.get(size)?.records ?? '-';
    const marks: string[] = [];
    const judge = JUDGED_BY.get(name);
    if (ratio !== undefined && ratio > GOAL_RATIO && !judge) marks.push(`MISS ratio > ${GOAL_RATIO}×`);
    if (name.startsWith('GET /v2/search') && b !== undefined && b > SEARCH_GOAL_MS) marks.push(`MISS p50 > ${SEARCH_GOAL_MS} ms`);
    const errors = sizes.reduce((n, s) => n + (runs.get(s)?.reduce((m, f) => m + f.errors, 0) ?? 0), 0);
    if (errors) marks.push(`${errors} errors`);
    if (p50.includes(undefined)) marks.push('not measured at every size');
    if (marks.length) misses++;
    // Said whatever its ratio, so that the reader knows which figure the verdict rests on.
    const verdict = `${marks.length ? marks.join('; ') : 'ok'}${judge ? `, judged by ${judge.trim()}` : ''}`;
    measured++;
    console.log(
      name.padEnd(58),
      ...p50.map((v) => fmt(v).padStart(10)),
      fmt(figure(last, 'p99')).padStart(10),
      fmt(figure(last, 'rps'), 0).padStart(7),
      (ratio === undefined ? '-' : `${ratio.toFixed(2)}×`).padStart(7),
      `${buffers(first) ?? '-'} → ${buffers(last) ?? '-'}`.padStart(13),
      os.loadavg()[0].toFixed(0).padStart(5),
      ` ${verdict}`,
      // A page fuller at one size than at another does more than the data's growth asks: said
      // beside the verdict, so such a ratio is read for what it is.
      records(first) === records(last) ? '' : `(records ${records(first)} → ${records(last)})`,
    );
    if (explain) {
      for (const [size, cost] of costs) {
        for (const c of cost?.statements ?? []) console.log(`\n--- ${name.trim()} at ${size}: ${c.buffers} buffers, ${c.executionMs.toFixed(2)} ms\n${c.statement.text}\n${JSON.stringify(c.statement.values)}\n${c.plan}`);
      }
    }
  }
} finally {
  for (const served of servers) await served.close();
  await loader.terminate();
  await pgServer.stop();
}
console.log(`\n${misses} of ${measured} routes miss a goal.`);
