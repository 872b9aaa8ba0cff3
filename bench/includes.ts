// `npm run bench:includes`: svc's show routes (a container with its shipment, terminal and
// events; a shipment with its containers, port and terminal; a bare container) beside a raw
// node:http + node-postgres server answering the same documents with the fewest statements
// (each record read once, the shipment joined to its line, customer and container ids,
// independent reads in parallel). Both run in this process on the same database, in interleaved
// rounds; 32 clients load them from a worker thread (bench/load-worker.js).
//
// Two variants: "limit", where both sides authenticate the key and count it against its rate limit
// as svc does today (one statement calling svc_rate_limit_hit), and "no limit", where svc is
// reached with an in-process token (one account read, never limited) and the raw server reads
// the key by its hash only. The raw server's documents are built with svc's own serializers, and
// checked equal to svc's before any load runs, so both sides answer the same bytes' worth of work.
import http from 'node:http';
import { loadavg } from 'node:os';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { Worker } from 'node:worker_threads';
import { apiKeyOfHeader } from '../src/domain/api-key-header.ts';
import { buildApp } from '../src/http/app.ts';
import { inProcessToken } from '../src/http/in-process-auth.ts';
import { LIMITS, WINDOW_MS } from '../src/http/rate-limit.ts';
import type { Resource } from '../src/jsonapi/document.ts';
import { portResource, terminalResource } from '../src/jsonapi/serializers/reference.ts';
import { containerResource, shipmentResource, transportEventResource } from '../src/jsonapi/serializers/tracking.ts';
import { createApiKey, hashApiKey } from '../src/services/api-keys.ts';
import { insertAccount } from '../src/store/accounts.ts';
import { createPool, type Db } from '../src/store/db.ts';
import { findLocationsByIds, findTerminalsByIds } from '../src/store/reference.ts';
import { containerFreshnessColumn, freshnessOf, shipmentFreshnessColumn } from '../src/store/freshness.ts';
import type { ContainerRow, ShipmentRow } from '../src/store/shipments.ts';
import { EVENTS_WITH_PLACES, type TransportEventRow } from '../src/store/transport-events.ts';
import { benchDatabase } from './database.ts';
import { processCpuMs } from './process-cpu.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 3);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 32);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const eventsPerContainer = Number(process.env.BENCH_EVENTS ?? 12);
// BENCH_PROFILE=<folder>: a V8 CPU profile of the main thread per run (side, scenario, variant,
// round, and the requests it answered), to open in Chrome's DevTools; sampling costs CPU, so figures of such a run are not comparable.
const profileDir = process.env.BENCH_PROFILE;
// BENCH_HEAP_PROFILE=<folder>: a sampling allocation profile of each run instead (every object
// allocated, whether collected or not, in .heapprofile files DevTools opens).
const heapProfileDir = process.env.BENCH_HEAP_PROFILE;

const database = await benchDatabase();

// Each reading of this clock is a second later, so the rate limiter runs its real statement on
// every request without refusing one (fewer than 100 requests per key per minute of clock time).
let tick = Date.parse('2026-01-01T00:00:00Z');
const clock = { now: () => new Date((tick += 1000)) };

// Statements each server sends, counted while one probe request runs.
let statements = 0;
function counted(db: Db): Db {
  const query = db.query.bind(db) as (...args: unknown[]) => unknown;
  db.query = ((...args: unknown[]) => (statements++, query(...args))) as typeof db.query;
  return db;
}

// ---- data: one account, a customer, a shipment at its port of discharge with three containers
const account = await insertAccount(database.db, 'bench');
const keys = await Promise.all(Array.from({ length: concurrency }, async () => (await createApiKey(database.db, account.id)).key));
const seed = await database.db.query<{ shipment_id: string; container_id: string }>(
  `WITH t AS (SELECT id FROM terminals WHERE firms_code IS NOT NULL ORDER BY id LIMIT 1),
        p AS (INSERT INTO parties (account_id, company_name, created_at, updated_at) VALUES ($1, 'Bench Co', now(), now()) RETURNING id),
        s AS (INSERT INTO shipments (account_id, scac, request_type, request_number, ref_numbers, customer_id, state, created_at, updated_at)
              SELECT $1, 'MAEU', 'bill_of_lading', 'BENCHINC1', '{}', p.id,
                     jsonb_build_object('port_of_lading_locode', 'CNSHA', 'port_of_discharge_locode', 'USLAX', 'pod_terminal_id', t.id,
                                        'pod_vessel_name', 'BENCH VESSEL', 'pod_eta_at', '2026-01-10T00:00:00Z'),
                     now(), now() FROM p, t RETURNING id),
        c AS (INSERT INTO containers (account_id, shipment_id, number, state, created_at, updated_at)
              SELECT $1, s.id, 'BNCU000000' || i, jsonb_build_object('pod_terminal_id', t.id, 'current_status', 'on_ship', 'equipment_type', 'dry'),
                     now(), now() FROM s, t, generate_series(1, 3) i RETURNING id, shipment_id, number),
        e AS (INSERT INTO transport_events (account_id, shipment_id, container_id, event, key, timestamp, location_locode, vessel_imo, vessel_name,
                                            voyage_number, data_source, created_at)
              SELECT $1, c.shipment_id, c.id, 'container.transport.vessel_departed', 'k' || i, now() - i * interval '1 day',
                     'CNSHA', '9000001', 'BENCH VESSEL', '001E', 'shipping_line', now()
                FROM c, generate_series(1, $2::int) i)
   SELECT c.shipment_id, c.id AS container_id FROM c ORDER BY c.number LIMIT 1`,
  [account.id, eventsPerContainer],
);
const { shipment_id: shipmentId, container_id: containerId } = seed.rows[0];

// ---- svc
const svcDb = counted(createPool(database.url));
const app = await buildApp({ db: svcDb, clock });
await app.listen({ port: 0, host: '127.0.0.1' });
const svcBase = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;

// ---- the raw server
const rawDb = counted(createPool(database.url));

// The PostgreSQL backends each side's pool talks to, whose CPU time a request costs too: on two
// cores the database's share of the work limits req/s as much as the server's own.
const backends = { svc: backendsOf(svcDb), raw: backendsOf(rawDb) };
function backendsOf(db: Db): Set<number> {
  const pids = new Set<number>();
  db.on('acquire', (client) => pids.add((client as unknown as { processID: number }).processID));
  return pids;
}
type Auth = { account_id: string } | 'unauthorized' | 'limited';

async function authenticate(header: string | undefined, limited: boolean): Promise<Auth> {
  const token = apiKeyOfHeader(header);
  if (!token) return 'unauthorized';
  const hash = hashApiKey(token);
  const { rows } = limited
    ? await rawDb.query<{ account_id: string; wait_ms: number }>(
        `SELECT k.id, k.account_id, a.disabled_features, svc_rate_limit_hit(k.id, $2, $3, make_interval(secs => $4::float8 / 1000), $5) AS wait_ms
           FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.key_hash = $1 AND k.revoked_at IS NULL`,
        [hash, 'default', LIMITS.default.limit, WINDOW_MS, clock.now()],
      )
    : await rawDb.query<{ account_id: string; wait_ms: number }>(
        'SELECT k.id, k.account_id, a.disabled_features FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.key_hash = $1 AND k.revoked_at IS NULL',
        [hash],
      );
  if (!rows[0]) return 'unauthorized';
  return rows[0].wait_ms > 0 ? 'limited' : rows[0];
}

type JoinedShipment = ShipmentRow & { line_name: string | null; line_short_name: string | null; customer_name: string | null; container_ids: string[]; data_freshness: unknown };
type FreshContainer = ContainerRow & { data_freshness: unknown };
const joinedShipment = async (accountId: string, id: string) =>
  (
    await rawDb.query<JoinedShipment>(
      `SELECT s.*, l.name AS line_name, l.short_name AS line_short_name, p.company_name AS customer_name,
              coalesce((SELECT json_agg(c.id ORDER BY c.number) FROM containers c WHERE c.shipment_id = s.id), '[]') AS container_ids,
              ${shipmentFreshnessColumn('s')} AS data_freshness
         FROM shipments s LEFT JOIN shipping_lines l ON l.scac = s.scac LEFT JOIN parties p ON p.id = s.customer_id
        WHERE s.account_id = $1 AND s.id = $2`,
      [accountId, id],
    )
  ).rows[0];
const shipmentOf = (s: JoinedShipment) =>
  shipmentResource(s, s.container_ids, freshnessOf(s.data_freshness), s.line_name ? { name: s.line_name, short_name: s.line_short_name ?? '' } : undefined, s.customer_name, null);
const eventsOf = async (containerId: string) =>
  (await rawDb.query<TransportEventRow>(`${EVENTS_WITH_PLACES} WHERE e.container_id = $1 ORDER BY e.timestamp NULLS LAST, e.created_at, e.id`, [containerId])).rows;
const containerRow = async (accountId: string, id: string) =>
  (await rawDb.query<FreshContainer>(`SELECT c.*, ${containerFreshnessColumn('c')} AS data_freshness FROM containers c WHERE c.account_id = $1 AND c.id = $2`, [accountId, id])).rows[0];
const terminalOf = (id: unknown) => (typeof id === 'string' ? findTerminalsByIds(rawDb, [id]) : Promise.resolve([]));

/** The documents, each with the fewest statements: independent reads in parallel. */
const rawRoutes: [RegExp, (accountId: string, id: string, include: string | null) => Promise<{ data: Resource; included?: Resource[] } | undefined>][] = [
  [
    /^\/v2\/containers\/([0-9a-f-]{36})$/,
    async (accountId, id, include) => {
      if (include === null) {
        const { rows } = await rawDb.query<FreshContainer & { event_ids: string[] }>(
          `SELECT c.*, coalesce((SELECT json_agg(e.id ORDER BY e.timestamp NULLS LAST, e.created_at, e.id) FROM transport_events e WHERE e.container_id = c.id), '[]') AS event_ids,
                  ${containerFreshnessColumn('c')} AS data_freshness
             FROM containers c WHERE c.account_id = $1 AND c.id = $2`,
          [accountId, id],
        );
        return rows[0] && { data: containerResource(rows[0], freshnessOf(rows[0].data_freshness), rows[0].event_ids) };
      }
      const row = await containerRow(accountId, id);
      if (!row) return undefined;
      const [events, shipment, terminals] = await Promise.all([eventsOf(id), joinedShipment(accountId, row.shipment_id), terminalOf(row.state.pod_terminal_id)]);
      return {
        data: containerResource(row, freshnessOf(row.data_freshness), events.map((e) => e.id)),
        included: [shipmentOf(shipment), ...terminals.map(terminalResource), ...events.map(transportEventResource)],
      };
    },
  ],
  [
    /^\/v2\/shipments\/([0-9a-f-]{36})$/,
    async (accountId, id) => {
      const shipment = await joinedShipment(accountId, id);
      if (!shipment) return undefined;
      const [containers, ports, terminals] = await Promise.all([
        rawDb.query<FreshContainer & { event_ids: string[] }>(
          `SELECT c.*, coalesce((SELECT json_agg(e.id ORDER BY e.timestamp NULLS LAST, e.created_at, e.id) FROM transport_events e WHERE e.container_id = c.id), '[]') AS event_ids,
                  ${containerFreshnessColumn('c')} AS data_freshness
             FROM containers c WHERE c.shipment_id = $1 ORDER BY c.number`,
          [id],
        ),
        findLocationsByIds(rawDb, [shipmentOf(shipment).relationships!.port_of_discharge.data as { id: string }].map((r) => r.id)),
        terminalOf(shipment.state.pod_terminal_id),
      ]);
      return {
        data: shipmentOf(shipment),
        included: [...containers.rows.map((c) => containerResource(c, freshnessOf(c.data_freshness), c.event_ids)), ...ports.map(portResource), ...terminals.map(terminalResource)],
      };
    },
  ],
];

function rawServer(limited: boolean): http.Server {
  return http.createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/vnd.api+json' });
      res.end(JSON.stringify(body));
    };
    (async () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const auth = await authenticate(req.headers.authorization, limited);
      if (auth === 'unauthorized') return send(401, { errors: [{ status: '401' }] });
      if (auth === 'limited') return send(429, { errors: [{ status: '429' }] });
      for (const [re, handle] of rawRoutes) {
        const id = re.exec(url.pathname)?.[1];
        if (!id) continue;
        const doc = await handle(auth.account_id, id, url.searchParams.get('include'));
        return doc ? send(200, doc) : send(404, { errors: [{ status: '404' }] });
      }
      send(404, { errors: [{ status: '404' }] });
    })().catch((err) => send(500, { errors: [{ status: '500', detail: String(err) }] }));
  });
}

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}
const raw = { limit: rawServer(true), 'no limit': rawServer(false) };
const rawBase = { limit: await listen(raw.limit), 'no limit': await listen(raw['no limit']) };

// ---- scenarios
// BENCH_VARIANTS=limit (or "no limit") runs one variant only; BENCH_SCENARIOS=1,3 some scenarios only.
const allVariants = ['limit', 'no limit'] as const;
type Variant = (typeof allVariants)[number];
const variants = allVariants.filter((v) => !process.env.BENCH_VARIANTS || process.env.BENCH_VARIANTS.split(',').includes(v));
const keyHeaders = keys.map((key) => ({ authorization: `Token ${key}` }));
const svcHeaders: Record<Variant, Record<string, string>[]> = { limit: keyHeaders, 'no limit': [{ authorization: `Token ${inProcessToken(account.id)}` }] };
// Each with the svc/raw req/s ratio it should reach (the "limit" variant, median of the rounds):
// issue 14's goal for the container with includes, and for the others the figure measured before
// (README), which a change must not lose.
const scenarios: [string, string, { least: number; why: string }][] = ([
  ['GET /v2/containers/{id}?include=shipment,pod_terminal,transport_events', `/v2/containers/${containerId}?include=shipment,pod_terminal,transport_events`, { least: 0.9, why: 'goal (issue 14)' }],
  ['GET /v2/shipments/{id}?include=containers,port_of_discharge,pod_terminal', `/v2/shipments/${shipmentId}?include=containers,port_of_discharge,pod_terminal`, { least: 0.9, why: 'as measured before' }],
  ['GET /v2/containers/{id}', `/v2/containers/${containerId}`, { least: 0.87, why: 'as measured before' }],
] as [string, string, { least: number; why: string }][]).filter((_, i) => !process.env.BENCH_SCENARIOS || process.env.BENCH_SCENARIOS.split(',').includes(String(i + 1)));
/** A scenario's number as BENCH_SCENARIOS names it (its place in the full list). */
const numberOf = (name: string) => ['GET /v2/containers/{id}?include', 'GET /v2/shipments/{id}?include', 'GET /v2/containers/{id}'].findIndex((n) => name.startsWith(n)) + 1;

// Both sides must answer the same document, and we count what each one sends to the database.
const statementsOf: Record<string, { svc: number; raw: number }> = {};
for (const [name, path] of scenarios) {
  const probe = async (base: string, headers: Record<string, string>) => {
    statements = 0;
    const res = await fetch(base + path, { headers });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`${base}${path}: ${res.status} ${body}`);
    return { body: JSON.parse(body), statements };
  };
  const s = await probe(svcBase, keyHeaders[0]);
  const r = await probe(rawBase.limit, keyHeaders[0]);
  if (JSON.stringify(s.body) !== JSON.stringify(r.body)) {
    throw new Error(`${name}: the raw server's document differs from svc's\nsvc: ${JSON.stringify(s.body)}\nraw: ${JSON.stringify(r.body)}`);
  }
  statementsOf[name] = { svc: s.statements, raw: r.statements };
}

interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  latenciesMs: number[];
}

// The clients of the measured runs: one worker kept up, sent one short load after another.
const sliceSeconds = profileDir || heapProfileDir ? seconds : Number(process.env.BENCH_SLICE_SECONDS ?? 0.5);
const turns = Math.max(1, Math.round(seconds / sliceSeconds));
const loader = new Worker(new URL('./load-worker.js', import.meta.url), { workerData: { persistent: true } });
function loadSlice(url: string, headers: Record<string, string>[], forSeconds: number): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    loader.once('error', onError);
    loader.once('message', (r: LoadResult) => {
      loader.off('error', onError);
      resolve(r);
    });
    loader.postMessage({ url, headers, concurrency, seconds: forSeconds });
  });
}

function load(url: string, headers: Record<string, string>[], forSeconds = seconds): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./load-worker.js', import.meta.url), { workerData: { url, headers, concurrency, seconds: forSeconds } });
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
interface Run {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** Main-thread CPU time per request, µs: both servers run on this thread, the clients on another. */
  cpuUs: number;
  /** The part of it spent in the kernel (system calls: sockets, timers). */
  sysUs: number;
  /** CPU time of the side's PostgreSQL backends per request, µs. */
  pgUs: number;
}

// The main thread's own CPU time (Linux: its /proc task entry, in clock ticks of 10 ms), so a
// loaded machine's waiting is not counted as the server's work.
const mainThreadStat = `/proc/self/task/${process.pid}/stat`;
function mainThreadCpuMs(): { total: number; sys: number } {
  const fields = readFileSync(mainThreadStat, 'utf8').split(') ')[1].split(' ');
  return { total: (Number(fields[11]) + Number(fields[12])) * 10, sys: Number(fields[12]) * 10 };
}

/** CPU time of these processes (user and system), ms; one that has gone counts nothing. */
function processesCpuMs(pids: Set<number>): number {
  let ms = 0;
  // A backend that closed (the pool ended an idle client) has no entry any more.
  for (const pid of pids) ms += processCpuMs(pid) ?? 0;
  return ms;
}

const profiler = profileDir || heapProfileDir ? new Session() : undefined;
if (profiler) {
  mkdirSync((profileDir ?? heapProfileDir)!, { recursive: true });
  profiler.connect();
  await profiler.post(profileDir ? 'Profiler.enable' : 'HeapProfiler.enable');
}

async function startProfile(): Promise<void> {
  if (profileDir) await profiler?.post('Profiler.start');
  else await profiler?.post('HeapProfiler.startSampling', { samplingInterval: 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
}

async function stopProfile(name: string): Promise<void> {
  if (profileDir) writeFileSync(`${profileDir}/${name}.cpuprofile`, JSON.stringify((await profiler!.post('Profiler.stop')).profile));
  else if (heapProfileDir) writeFileSync(`${heapProfileDir}/${name}.heapprofile`, JSON.stringify((await profiler!.post('HeapProfiler.stopSampling')).profile));
}

/** One side's share of a turn: its requests, latencies and main-thread CPU. */
interface Slice {
  result: LoadResult;
  cpuMs: number;
  sysMs: number;
  pgMs: number;
}

async function slice(side: keyof typeof backends, url: string, headers: Record<string, string>[], forSeconds: number): Promise<Slice> {
  const before = mainThreadCpuMs();
  const pgBefore = processesCpuMs(backends[side]);
  const result = await loadSlice(url, headers, forSeconds);
  const after = mainThreadCpuMs();
  return { result, cpuMs: after.total - before.total, sysMs: after.sys - before.sys, pgMs: processesCpuMs(backends[side]) - pgBefore };
}

function runOf(slices: Slice[]): Run {
  const requests = slices.reduce((n, s) => n + s.result.requests, 0);
  const secs = slices.reduce((n, s) => n + s.result.seconds, 0);
  const sorted = slices.flatMap((s) => s.result.latenciesMs).sort((a, b) => a - b);
  const cpuMs = slices.reduce((n, s) => n + s.cpuMs, 0);
  const sysMs = slices.reduce((n, s) => n + s.sysMs, 0);
  const pgMs = slices.reduce((n, s) => n + s.pgMs, 0);
  return { rps: requests / secs, p50: pct(sorted, 50), p99: pct(sorted, 99), errors: slices.reduce((n, s) => n + s.result.errors, 0), cpuUs: (cpuMs * 1000) / requests, sysUs: (sysMs * 1000) / requests, pgUs: (pgMs * 1000) / requests };
}

/**
 * Both sides' runs of one round: `seconds` each, cut into turns of BENCH_SLICE_SECONDS taking
 * turns (svc, raw, raw, svc, …), so the machine's other work, which comes and goes within seconds
 * on a shared machine, falls on both sides alike. One turn each when profiling (a profile per run).
 */
async function measurePair(svc: () => Promise<Slice>, raw: () => Promise<Slice>, svcFirst: boolean, turns: number): Promise<{ svc: Run; raw: Run }> {
  const slices = { svc: [] as Slice[], raw: [] as Slice[] };
  for (let turn = 0; turn < turns; turn++) {
    const order = (turn % 2 === 0) === svcFirst ? (['svc', 'raw'] as const) : (['raw', 'svc'] as const);
    for (const side of order) slices[side].push(await (side === 'svc' ? svc() : raw()));
  }
  return { svc: runOf(slices.svc), raw: runOf(slices.raw) };
}

async function profiled(profileName: string, take: () => Promise<Slice>): Promise<Slice> {
  await startProfile();
  const s = await take();
  if (profiler) await stopProfile(`${profileName}-${s.result.requests}req`);
  return s;
}

// One short run of each side first, so neither is measured while its code is still being compiled.
for (const [, path] of scenarios) for (const base of [svcBase, rawBase.limit]) await load(base + path, keyHeaders, 1);

console.log(
  `svc show/include benchmark: ${concurrency} clients, ${seconds} s per run in turns of ${(seconds / turns).toFixed(2)} s, ${rounds} interleaved rounds, ` +
    `${eventsPerContainer} events per container; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`,
);
const runs = new Map<string, { svc: Run[]; raw: Run[] }>();
for (let round = 0; round < rounds; round++) {
  // Each round's own ratios beside the load it met: on a shared machine they move together.
  const roundRatios: string[] = [];
  const roundLoad = loadavg()[0];
  for (const [name, path] of scenarios) {
    for (const variant of variants) {
      const entry = runs.get(`${name}|${variant}`) ?? runs.set(`${name}|${variant}`, { svc: [], raw: [] }).get(`${name}|${variant}`)!;
      // Alternate which side goes first, so neither always meets the other's leftovers.
      const profileName = (side: string) => `${side}-${numberOf(name)}-${variant.replace(' ', '-')}-${round}`;
      const pair = await measurePair(
        () => profiled(profileName('svc'), () => slice('svc', svcBase + path, svcHeaders[variant], seconds / turns)),
        () => profiled(profileName('raw'), () => slice('raw', rawBase[variant] + path, keyHeaders, seconds / turns)),
        round % 2 === 0,
        turns,
      );
      entry.svc.push(pair.svc);
      entry.raw.push(pair.raw);
      roundRatios.push(`${numberOf(name)}/${variant}: ${(entry.svc[round].rps / entry.raw[round].rps).toFixed(2)}`);
    }
  }
  console.log(`round ${round + 1}: load average ${roundLoad.toFixed(1)} → ${loadavg()[0].toFixed(1)}; svc/raw req/s ${roundRatios.join(', ')}`);
}

const range = (xs: number[], digits = 0) => `${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)}`;
console.log(
  'route'.padEnd(72),
  'variant'.padEnd(9),
  'stmts svc/raw'.padStart(13),
  'svc req/s'.padStart(12),
  'raw req/s'.padStart(12),
  'svc p50/p99 ms'.padStart(15),
  'raw p50/p99 ms'.padStart(15),
  'CPU µs svc/raw'.padStart(16),
  'sys µs svc/raw'.padStart(16),
  'PG µs svc/raw'.padStart(15),
  'errors'.padStart(7),
  'svc/raw'.padStart(16),
);
for (const [name] of scenarios) {
  for (const variant of variants) {
    const { svc, raw: r } = runs.get(`${name}|${variant}`)!;
    const ratios = svc.map((s, i) => s.rps / r[i].rps);
    const latency = (xs: Run[]) => `${median(xs.map((x) => x.p50)).toFixed(1)}/${median(xs.map((x) => x.p99)).toFixed(1)}`;
    console.log(
      name.padEnd(72),
      variant.padEnd(9),
      `${statementsOf[name].svc}/${statementsOf[name].raw}`.padStart(13),
      range(svc.map((x) => x.rps)).padStart(12),
      range(r.map((x) => x.rps)).padStart(12),
      latency(svc).padStart(15),
      latency(r).padStart(15),
      `${median(svc.map((x) => x.cpuUs)).toFixed(0)}/${median(r.map((x) => x.cpuUs)).toFixed(0)}`.padStart(16),
      `${median(svc.map((x) => x.sysUs)).toFixed(0)}/${median(r.map((x) => x.sysUs)).toFixed(0)}`.padStart(16),
      `${median(svc.map((x) => x.pgUs)).toFixed(0)}/${median(r.map((x) => x.pgUs)).toFixed(0)}`.padStart(15),
      String([...svc, ...r].reduce((n, x) => n + x.errors, 0)).padStart(7),
      `${median(ratios).toFixed(2)} (${range(ratios, 2)})`.padStart(16),
    );
  }
}
console.log(
  `load average at the end ${loadavg().map((l) => l.toFixed(1)).join(' ')}; statements counted with the "limit" variant (auth + limit is one); ` +
    'CPU µs: main-thread (server) CPU time per request, median of the rounds; sys µs: the part of it in the kernel; ' +
    "PG µs: the CPU time of the side's PostgreSQL backends per request",
);
for (const [name, , { least, why }] of scenarios) {
  if (!variants.includes('limit')) break;
  const { svc, raw: r } = runs.get(`${name}|limit`)!;
  const ratio = median(svc.map((s, i) => s.rps / r[i].rps));
  console.log(`${ratio >= least ? 'MET    ' : 'NOT MET'} ${name} (limit): svc/raw ${ratio.toFixed(2)}, at least ${least.toFixed(2)} (${why})`);
}

await loader.terminate();
await app.close();
for (const server of Object.values(raw)) server.close();
await Promise.all([svcDb.end(), rawDb.end()]);
await database.drop();
