// `npm run bench:tracking`, in two parts (BENCH_PART=throughput|scheduler, both by default).
//
// Throughput: tracks BENCH_SHIPMENTS sandbox shipments through the real path (DCSA over HTTP on
// loopback to the sandbox, which runs in a process of its own, the diff engine, PostgreSQL).
// Rounds alternate: "day", a virtual day passes (news for many shipments), and "again", every
// shipment is made due at once with the clocks standing (the carrier has nothing new, as real
// carriers mostly have); BENCH_KINDS=again (or day) runs only that kind after the first round. Each round the same lookups are then replayed by a bare loop: the same
// HTTP requests the connector made (event pages one after the other, then the terminal requests
// side by side), with undici, at the same concurrency, bodies read, nothing parsed, diffed or
// stored. Then the "stored" loop replays them again, keeping the bodies of each lookup whose
// answer svc wrote in one INSERT, in a transaction of its own: the least a tracker that loses
// nothing it found pays beyond the bare loop (the two loops take turns at going first). Prints per
// round and per kind of round lookups/s of each, the ratio svc/bare and whether it meets the goal
// (0.5), the stored loop's ratio to the bare loop and svc's to it, how many lookups had news, a new
// answer with nothing announced, or the answer applied already (a conditional refresh), and the
// CPU per lookup of svc, PostgreSQL and the sandbox against the loops' (on this shared machine the
// ratio follows the CPU).
// `npm run bench:tracking` runs it with node's young generation as npm start gives svc's
// (--max-semi-space-size=32, package.json): the workers run in this process.

// Scheduler: the cost of a tick (claiming due work, and the metrics' backlog count) with the
// same due work at 1k and at BENCH_TRACKED (100k) tracked shipments: milliseconds, statements and
// buffers from EXPLAIN (ANALYZE, BUFFERS), and the ratio.
import { readFileSync } from 'node:fs';
import diagnostics from 'node:diagnostics_channel';
import pg from 'pg';
import { request } from 'undici';
import { ManualClock } from '../src/clock.ts';
import { ConnectorRegistry } from '../src/carriers/registry.ts';
import type { CarrierConnector } from '../src/carriers/types.ts';
import { HOUR, MINUTE } from '../src/domain/time-units.ts';
import { TrackingWorker } from '../src/services/tracking/worker.ts';
import { insertAccount } from '../src/store/accounts.ts';
import { createPool, type Db } from '../src/store/db.ts';
import { dueWorkBacklog } from '../src/store/due-work.ts';
import { claimDueSql, dueAt1, DUE_COLUMN } from '../src/store/leases.ts';
import { benchDatabase } from './database.ts';
import { processCpuMs } from './process-cpu.ts';
import { BENCH_SCACS } from './sandbox-carriers.ts';
import { startSandboxProcess } from './sandbox-process.ts';

const PART = process.env.BENCH_PART ?? 'all';
const N = Number(process.env.BENCH_SHIPMENTS ?? 1_000);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 2);
const BATCH = Number(process.env.BENCH_CONCURRENCY ?? 25);
const STEP_HOURS = Number(process.env.BENCH_STEP_HOURS ?? 24);
// Which kinds of round to run: both in turn, or only "again" (checks: the answer applied already) or only "day".
const KINDS = (process.env.BENCH_KINDS ?? 'both') as 'both' | 'again' | 'day';
// With BENCH_CACHED_ANSWERS=1 (with BENCH_KINDS=again), every lookup after a number's first is
// answered from memory with that first answer: svc's rounds then cost the worker's own work alone
// (claims, checks, the schedule), no HTTP; there is no bare loop to compare with.
const CACHED = process.env.BENCH_CACHED_ANSWERS === '1';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 150);
const TRACKED = Number(process.env.BENCH_TRACKED ?? 100_000);
const DUE = Number(process.env.BENCH_DUE ?? 50);
const START = new Date('2026-06-01T00:00:00Z');

// Every statement any pool runs, BEGIN and COMMIT included; with BENCH_PROFILE=1, the time each
// kind of statement took from sending to answer (where svc's time goes), printed at the end.
let statements = 0;
const PROFILE = process.env.BENCH_PROFILE === '1';
const profile = new Map<string, { n: number; ms: number; pg: number }>();
/** CPU ms so far of the PostgreSQL backend with this pid (from /proc: the server runs here), 0 where unreadable. */
const backendCpuOf = (pid: number): number => processCpuMs(pid) ?? 0;
const clientQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  statements++;
  if (!PROFILE) return (clientQuery as (...a: unknown[]) => unknown).apply(this, args);
  const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text: string }).text;
  const key = text.replace(/\s+/g, ' ').slice(0, 90);
  const t0 = performance.now();
  // A backend runs one statement at a time: its CPU meanwhile is the statement's (in 10 ms ticks, so only totals mean much).
  const pid = (this as unknown as { processID: number }).processID;
  const pg0 = backendCpuOf(pid);
  const done = () => {
    const p = profile.get(key) ?? { n: 0, ms: 0, pg: 0 };
    profile.set(key, { n: p.n + 1, ms: p.ms + performance.now() - t0, pg: p.pg + backendCpuOf(pid) - pg0 });
  };
  // The pool passes a callback; a client checked out for a transaction is given none and returns a promise.
  const last = args.length - 1;
  if (typeof args[last] === 'function') {
    const callback = args[last] as (...a: unknown[]) => void;
    args[last] = (...a: unknown[]) => (done(), callback(...a));
  }
  const result = (clientQuery as (...a: unknown[]) => unknown).apply(this, args);
  if (result instanceof Promise) void result.then(done, () => {});
  return result;
} as typeof clientQuery;
// With BENCH_PROFILE=1, the time lookups spent asking the carrier (the connector's call, sent to answered).
const carrier = { n: 0, ms: 0 };
const pooled = { n: 0, ms: 0 };
const printProfile = () => {
  if (!PROFILE) return;
  const sent = [...profile.values()].reduce((a, p) => ({ n: a.n + p.n, ms: a.ms + p.ms }), { n: 0, ms: 0 });
  console.log(`\nafter the first round, per lookup: ${(carrier.ms / carrier.n).toFixed(1)} ms asking the carrier, ${(sent.ms / carrier.n).toFixed(1)} ms waiting for ${(sent.n / carrier.n).toFixed(1)} statements`);
  console.log(`pool.query incl. waiting for a connection: ${(pooled.ms / carrier.n).toFixed(1)} ms for ${(pooled.n / carrier.n).toFixed(1)}`);
  console.log('statement time (sent to answered) and PostgreSQL CPU per statement, top 15:');
  for (const [key, p] of [...profile].sort((a, b) => b[1].ms - a[1].ms).slice(0, 15)) {
    console.log(`${p.ms.toFixed(0).padStart(8)} ms ${String(p.n).padStart(7)}× ${(p.pg / p.n).toFixed(2).padStart(6)} ms CPU  ${key}`);
  }
  profile.clear();
};

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
/**
 * CPU time so far of the PostgreSQL backends serving `db`'s database (user + system, in ms, from
 * /proc: the server runs on this machine), by backend: PostgreSQL's share of a lookup's cost.
 * Empty where /proc cannot be read.
 */
const backendCpu = async (db: Db): Promise<Map<number, number>> => {
  const { rows } = await db.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database()');
  return new Map(rows.map(({ pid }) => [pid, backendCpuOf(pid)]));
};
const backendCpuSince = (before: Map<number, number>, after: Map<number, number>) => [...after].reduce((ms, [pid, t]) => ms + t - (before.get(pid) ?? 0), 0);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const range = (xs: number[]) => `${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)}`;

/** One lookup as the connector made it: its event pages in order, then its terminal requests. */
interface Lookup {
  pages: string[];
  terminal: string[];
  /** Whether svc wrote what this lookup found (its shipment's answer digest changed): the "stored" loop keeps its bodies. */
  wrote: boolean;
  number: string;
}
// The headers the DCSA 2.2 client sends with each event page.
const DCSA_HEADERS = { accept: 'application/json', 'API-Version': '2' };

async function throughput(): Promise<void> {
  const database = await benchDatabase();
  const db = createPool(database.url, 20);
  if (PROFILE) {
    const poolQuery = db.query.bind(db) as (...a: unknown[]) => Promise<unknown>;
    (db as { query: unknown }).query = (...a: unknown[]) => {
      const t0 = performance.now();
      return poolQuery(...a).finally(() => (pooled.ms += performance.now() - t0, pooled.n++));
    };
  }
  const clock = new ManualClock(START);
  const sandbox = await startSandboxProcess(START);

  // undici announces each request it creates: while svc's lookups run, each request's origin and
  // path is noted, and after the round each one is put under the lookup that made it, found by
  // the number its URL names (an event page names the shipment's number, a terminal request a
  // container, whose shipment the database tells). Sorted out after the round, not as the
  // requests are made, so that svc's timed part carries no more of the bench's own work than a
  // push per request and per lookup. Not through an AsyncLocalStorage: its promise hooks, on for
  // the rest of the process, cost svc's promises more than the bare loop's.
  let requests: string[] = [];
  let recording = false;
  /** The numbers looked up in the round, in turn (a shipment not looked up keeps its digest too). */
  let askedNumbers: string[] = [];
  /** The numbers whose answer svc wrote in the round (news or quiet: the digest changed). */
  let wrote = new Set<string>();
  diagnostics.subscribe('undici:request:create', (message) => {
    if (!recording) return;
    const { origin, path } = (message as { request: { origin: string; path: string } }).request;
    requests.push(`${origin}${path}`);
  });
  /** The round's lookups, in turn, each with the requests it made (terminal requests placed by their container's shipment). */
  const lookupsOfRound = async (): Promise<Lookup[]> => {
    const lookups = askedNumbers.map((number): Lookup => ({ pages: [], terminal: [], wrote: wrote.has(number), number }));
    // A number asked twice in a round: its requests go under the later lookup, as they are found by number.
    const byNumber = new Map(askedNumbers.map((number, i) => [number, lookups[i]]));
    const terminalAsks: { container: string; url: string }[] = [];
    for (const url of requests) {
      const terminal = /\/terminal\/containers\/([^/?]+)/.exec(url);
      if (terminal) terminalAsks.push({ container: decodeURIComponent(terminal[1]), url });
      else byNumber.get(decodeURIComponent(/[?&](?:transportDocumentReference|carrierBookingReference|equipmentReference)=([^&]+)/.exec(url)?.[1] ?? ''))?.pages.push(url);
    }
    if (terminalAsks.length > 0) {
      const { rows } = await db.query<{ container: string; number: string }>('SELECT c.number AS container, s.request_number AS number FROM containers c JOIN shipments s ON s.id = c.shipment_id');
      const numberOf = new Map(rows.map((r) => [r.container, r.number]));
      let placed = 0;
      for (const { container, url } of terminalAsks) {
        const lookup = byNumber.get(numberOf.get(container) ?? '');
        if (lookup) placed++, lookup.terminal.push(url);
      }
      if (placed !== terminalAsks.length) console.log(`(${terminalAsks.length - placed} of ${terminalAsks.length} terminal requests were not placed under a lookup: the bare loop leaves them out)`);
    }
    return lookups;
  };
  const registry = new ConnectorRegistry(
    BENCH_SCACS.map((scac) => ({ scac, baseUrl: `${sandbox.url}/carriers/${scac}`, version: '2.2' as const, terminalBaseUrl: `${sandbox.url}/terminal` })),
    clock,
  );
  /** With BENCH_CACHED_ANSWERS=1, each number's first answer, given again without asking the sandbox. */
  const answers = new Map<string, Awaited<ReturnType<CarrierConnector['lookup']>>>();
  /** Each line's connector as svc's workers see it: the registry's, noting the number asked (and with BENCH_PROFILE or BENCH_CACHED_ANSWERS, more). */
  const noting = new Map(
    BENCH_SCACS.map((scac): [string, Pick<CarrierConnector, 'lookup'>] => {
      const connector = registry.get(scac)!;
      const lookup = (r: Parameters<CarrierConnector['lookup']>[0]) => {
        askedNumbers.push(r.number);
        if (!CACHED && !PROFILE) return connector.lookup(r);
        const cached = CACHED && answers.get(r.number);
        if (cached) return Promise.resolve(cached);
        const t0 = performance.now();
        return connector.lookup(r)
          .then((outcome) => (answers.set(r.number, outcome), outcome))
          .finally(() => (carrier.ms += performance.now() - t0, carrier.n++));
      };
      return [scac, { lookup }];
    }),
  );
  const connectors = { get: (scac: string) => noting.get(scac.toUpperCase()) };
  const workers = Array.from({ length: WORKERS }, () => new TrackingWorker({ db, clock, connectors }));

  const account = await insertAccount(db, 'bench');
  await db.query(
    `INSERT INTO tracking_requests (account_id, request_number, request_type, scac, next_attempt_at, created_at, updated_at)
     SELECT $1, ($2::text[])[1 + (i % 5)] || lpad(i::text, 9, '0'), 'bill_of_lading', ($2::text[])[1 + (i % 5)], $3, $3, $3 FROM generate_series(1, $4) AS i`,
    [account.id, BENCH_SCACS, clock.now(), N],
  );

  /** Each worker drains what is due, claiming BATCH at a time: WORKERS × BATCH lookups in flight at most. */
  const runSvc = async () => {
    const done = await Promise.all(
      workers.map(async (w) => {
        let n = 0;
        for (;;) {
          const r = await w.runDue(BATCH);
          if (r.requests + r.shipments === 0) return n;
          n += r.requests + r.shipments;
        }
      }),
    );
    return done.reduce((a, b) => a + b, 0);
  };
  /**
   * The same requests, WORKERS × BATCH lookups in flight, bodies read and dropped. With `store`
   * (the "stored" loop), the bodies of each lookup whose answer svc wrote are kept: one INSERT of
   * their text, in a transaction of its own, the least a tracker that loses nothing it found can
   * do (no parsing, diff, events, outbox or webhooks): what any storing path pays beyond the bare loop.
   */
  const runBare = async (lookups: Lookup[], store?: pg.Pool) => {
    let next = 0;
    const get = async (url: string, headers?: Record<string, string>) => {
      const { body } = await request(url, { headers });
      return body.text();
    };
    await Promise.all(
      Array.from({ length: WORKERS * BATCH }, async () => {
        while (next < lookups.length) {
          const lookup = lookups[next++];
          const pages: string[] = [];
          for (const url of lookup.pages) pages.push(await get(url, DCSA_HEADERS));
          const terminal = await Promise.all(lookup.terminal.map((url) => get(url, { accept: 'application/json' })));
          if (store && lookup.wrote) {
            await store.query({ name: 'bare_answer', text: 'INSERT INTO bench_bare_answers (number, body) VALUES ($1, $2)', values: [lookup.number, JSON.stringify([...pages, ...terminal])] });
          }
        }
      }),
    );
  };
  // The stored loop's own connections (node-postgres, kept open between rounds), as many as svc's pool.
  const store = new pg.Pool({ connectionString: database.url, max: 20, idleTimeoutMillis: 0 });
  await store.query('CREATE TABLE bench_bare_answers (id bigserial PRIMARY KEY, number text NOT NULL, body text NOT NULL)');

  console.log(`\nthroughput: ${N} shipments, ${WORKERS} workers × ${BATCH} lookups in flight, ~${SECONDS} s`);
  console.log(`rounds alternate: "day": ${STEP_HOURS} h of virtual time pass (svc and sandbox), everything tracked is due; "again": every shipment is made due at once, the clocks stand (the carrier has nothing new, as it mostly has)`);
  console.log('each round, svc drains what is due, then the bare loop replays the same requests; kinds of lookup: news (something announced), quiet (a new answer, nothing announced), same (the answer applied already: digest unchanged)');
  console.log('then the stored loop does it again, keeping the answers svc wrote (one INSERT of the bodies per such lookup, in its own transaction): what any tracker that loses nothing pays beyond the bare loop');
  console.log('round kind   lookups  news quiet  same  svc/s  bare/s  ratio  ms CPU/lookup: svc  PostgreSQL  sandbox | bare  sandbox  statements/lookup | stored/s  ms CPU  stored/bare  svc/stored');
  type Totals = {
    n: number; s: number; cpu: number; pg: number; sandbox: number; bareN: number; bareS: number; bareCpu: number; bareSandbox: number;
    storedS: number; storedCpu: number; storedPg: number; storedSandbox: number; statements: number; news: number; quiet: number; same: number;
  };
  const zero = (): Totals => ({
    n: 0, s: 0, cpu: 0, pg: 0, sandbox: 0, bareN: 0, bareS: 0, bareCpu: 0, bareSandbox: 0, storedS: 0, storedCpu: 0, storedPg: 0, storedSandbox: 0, statements: 0, news: 0, quiet: 0, same: 0,
  });
  const totals = { day: zero(), again: zero() };
  const ratios = { day: [] as number[], again: [] as number[] };
  /** Per round: the stored loop's rate over the bare loop's, and svc's over the stored loop's. */
  const storedRatios = { day: [] as number[], again: [] as number[] };
  const toStored = { day: [] as number[], again: [] as number[] };
  const loads: string[] = [];
  // Each shipment's digest, and its number: a lookup that found its answer applied already leaves the digest as it was.
  const digests = async () =>
    new Map((await db.query<{ id: string; d: string | null; number: string }>('SELECT id, carrier_answer_digest AS d, request_number AS number FROM shipments')).rows.map((r) => [r.id, r]));
  const started = performance.now();
  for (let round = 0; performance.now() - started < SECONDS * 1000; round++) {
    const kind = KINDS === 'both' ? (round % 2 === 1 ? 'day' : 'again') : KINDS;
    if (round > 0 && kind === 'day') {
      clock.advance(STEP_HOURS * HOUR);
      await sandbox.advance(STEP_HOURS * HOUR);
    } else if (round > 0) {
      await db.query('UPDATE shipment_refreshes SET next_refresh_at = $1 WHERE next_refresh_at IS NOT NULL', [clock.now()]);
    }
    const before = await digests();
    const lastEvent = Number((await db.query('SELECT coalesce(max(id), 0) AS n FROM domain_events')).rows[0].n);
    requests = [];
    askedNumbers = [];
    const pg0 = await backendCpu(db);
    const sb0 = await sandbox.cpuMs();
    const s0 = statements;
    const c0 = cpuMs();
    const t0 = performance.now();
    recording = true;
    const lookups = await runSvc();
    const svcSeconds = (performance.now() - t0) / 1000;
    const svcCpu = cpuMs() - c0;
    recording = false;
    const stmts = statements - s0;
    const pgCpu = backendCpuSince(pg0, await backendCpu(db));
    const sb1 = await sandbox.cpuMs();
    if (lookups === 0 && round > 0) break;
    // What each lookup of the round made of its answer, read from the rows it wrote.
    const after = await digests();
    wrote = new Set([...after.values()].filter((a) => a.d !== before.get(a.id)?.d).map((a) => a.number));
    const replay = CACHED && round > 0 ? [] : await lookupsOfRound();
    // The bare loop and the stored loop replay the round, each first in two rounds of four (so in turn within each kind when kinds alternate).
    const timed = async (keep?: pg.Pool) => {
      const sandbox0 = await sandbox.cpuMs();
      const pgBefore = keep ? await backendCpu(db) : undefined;
      const cpu0 = cpuMs();
      const start = performance.now();
      await runBare(replay, keep);
      const seconds = (performance.now() - start) / 1000;
      const cpu = cpuMs() - cpu0;
      return { seconds, cpu, pg: pgBefore ? backendCpuSince(pgBefore, await backendCpu(db)) : 0, sandbox: (await sandbox.cpuMs()) - sandbox0 };
    };
    const storedFirst = round % 4 >= 2;
    const storedRun = storedFirst ? await timed(store) : undefined;
    const { seconds: bareSeconds, cpu: bareCpu, sandbox: bareSandbox } = await timed();
    const { seconds: storedSeconds, cpu: storedCpu, pg: storedPg, sandbox: storedSandbox } = storedRun ?? (await timed(store));
    const news = Number((await db.query('SELECT count(DISTINCT shipment_id) AS n FROM domain_events WHERE id > $1', [lastEvent])).rows[0].n);
    const asked = new Set(askedNumbers);
    const same = [...after.values()].filter((a) => a.d !== null && before.get(a.id)?.d === a.d && asked.has(a.number)).length;
    if (round === 0) {
      console.log(`    0 first  ${String(lookups).padStart(7)}  (the first lookups, which create the shipments: not counted) ${(lookups / svcSeconds).toFixed(0)}/s, ${(svcCpu / lookups).toFixed(2)} ms CPU/lookup`);
    } else if (lookups > 0) {
      const ratio = lookups / svcSeconds / (replay.length / bareSeconds);
      // The rounds' ranges leave out the last few rounds, where a handful of shipments still tracked make ratios of noise.
      if (lookups >= Math.min(100, N / 10)) {
        ratios[kind].push(ratio);
        storedRatios[kind].push(bareSeconds / storedSeconds);
        toStored[kind].push(lookups / svcSeconds / (replay.length / storedSeconds));
      }
      const t = totals[kind];
      loads.push(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
      console.log(
        `${String(round).padStart(5)} ${kind.padEnd(5)}  ${String(lookups).padStart(7)}  ${String(news).padStart(4)} ${String(lookups - news - same).padStart(5)} ${String(same).padStart(5)}  ${(lookups / svcSeconds).toFixed(0).padStart(5)}  ${(replay.length / bareSeconds).toFixed(0).padStart(6)}  ${ratio.toFixed(2).padStart(5)}  ${(svcCpu / lookups).toFixed(2).padStart(18)}  ${(pgCpu / lookups).toFixed(2).padStart(10)}  ${((sb1 - sb0) / lookups).toFixed(2).padStart(7)} | ${(bareCpu / replay.length).toFixed(2).padStart(4)}  ${(bareSandbox / replay.length).toFixed(2).padStart(7)}  ${(stmts / lookups).toFixed(1).padStart(17)} | ${(replay.length / storedSeconds).toFixed(0).padStart(8)}  ${((storedCpu + storedPg + storedSandbox) / replay.length).toFixed(2).padStart(6)}  ${(bareSeconds / storedSeconds).toFixed(2).padStart(10)}  ${(lookups / svcSeconds / (replay.length / storedSeconds)).toFixed(2).padStart(9)}`,
      );
      Object.assign(t, {
        n: t.n + lookups, s: t.s + svcSeconds, cpu: t.cpu + svcCpu, pg: t.pg + pgCpu, sandbox: t.sandbox + sb1 - sb0,
        bareN: t.bareN + replay.length, bareS: t.bareS + bareSeconds, bareCpu: t.bareCpu + bareCpu, bareSandbox: t.bareSandbox + bareSandbox,
        storedS: t.storedS + storedSeconds, storedCpu: t.storedCpu + storedCpu, storedPg: t.storedPg + storedPg, storedSandbox: t.storedSandbox + storedSandbox,
        statements: t.statements + stmts, news: t.news + news, quiet: t.quiet + lookups - news - same, same: t.same + same,
      });
    }
    // The profile shows the refreshes of later rounds, not the first lookups that create the shipments.
    if (round === 0) {
      profile.clear();
      Object.assign(carrier, { n: 0, ms: 0 });
      Object.assign(pooled, { n: 0, ms: 0 });
    }
  }
  const count = async (sql: string) => Number((await db.query(sql)).rows[0].n);
  console.log(`\nload average (1 min) during the rounds: ${range(loads.map(Number))} (${loads.join(' ')})`);
  const all = zero();
  for (const t of [totals.day, totals.again]) for (const k of Object.keys(all) as (keyof Totals)[]) all[k] += t[k];
  const both = (r: { day: number[]; again: number[] }) => [...r.day, ...r.again];
  for (const [name, t, rs, srs, trs] of [
    ['day', totals.day, ratios.day, storedRatios.day, toStored.day],
    ['again', totals.again, ratios.again, storedRatios.again, toStored.again],
    ['all', all, both(ratios), both(storedRatios), both(toStored)],
  ] as const) {
    if (t.n === 0) continue;
    const svcRate = t.n / t.s;
    if (CACHED) {
      console.log(`${name.padEnd(5)} ${t.n} lookups answered from memory: svc ${svcRate.toFixed(0)}/s; CPU per lookup: svc ${(t.cpu / t.n).toFixed(3)} ms + PostgreSQL ${(t.pg / t.n).toFixed(3)} ms; ${(t.statements / t.n).toFixed(2)} statements per lookup (no bare loop)`);
      continue;
    }
    const bareRate = t.bareN / t.bareS;
    const ratio = svcRate / bareRate;
    const rounds = (xs: readonly number[]) => (xs.length === 0 ? 'no round large enough for a range' : `rounds ${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}`);
    console.log(
      `${name.padEnd(5)} ${t.n} lookups (${t.news} news, ${t.quiet} quiet, ${t.same} same): svc ${svcRate.toFixed(0)}/s, bare ${bareRate.toFixed(0)}/s, ratio ${ratio.toFixed(2)} (${rounds(rs)}), goal ≥ 0.5 ${ratio >= 0.5 ? 'met' : 'NOT met'}`,
    );
    console.log(
      `      CPU per lookup: svc ${(t.cpu / t.n).toFixed(2)} ms + PostgreSQL ${(t.pg / t.n).toFixed(2)} ms + sandbox ${(t.sandbox / t.n).toFixed(2)} ms = ${((t.cpu + t.pg + t.sandbox) / t.n).toFixed(2)} ms; bare ${(t.bareCpu / t.bareN).toFixed(2)} ms + sandbox ${(t.bareSandbox / t.bareN).toFixed(2)} ms = ${((t.bareCpu + t.bareSandbox) / t.bareN).toFixed(2)} ms; ${(t.statements / t.n).toFixed(1)} statements per lookup`,
    );
    const storedRate = t.bareN / t.storedS;
    console.log(
      `      the stored loop (the bare loop keeping the ${t.news + t.quiet} answers svc wrote): ${storedRate.toFixed(0)}/s, ${(storedRate / bareRate).toFixed(2)} of the bare loop (${rounds(srs)}), CPU per lookup ${(t.storedCpu / t.bareN).toFixed(2)} ms + PostgreSQL ${(t.storedPg / t.bareN).toFixed(2)} ms + sandbox ${(t.storedSandbox / t.bareN).toFixed(2)} ms; svc ${(svcRate / storedRate).toFixed(2)} of it (${rounds(trs)})`,
    );
  }
  // What the goal leaves a lookup that writes, on a machine where the ratio follows the CPU: "day"
  // rounds may cost twice the bare loop's CPU per lookup, checks cost what they cost in "again" rounds.
  const day = totals.day;
  const writes = day.news + day.quiet;
  if (!CACHED && writes > 0 && totals.again.n > 0) {
    const per = (ms: number) => ms / day.n;
    const bare = per(day.bareCpu + day.bareSandbox) * (day.n / day.bareN);
    const check = (totals.again.cpu + totals.again.pg + totals.again.sandbox) / totals.again.n;
    const share = writes / day.n;
    const budget = (2 * bare - (day.same / day.n) * check) / share;
    const stored = bare + ((day.storedCpu + day.storedPg + day.storedSandbox) / day.bareN - bare) / share;
    const svc = (per(day.cpu + day.pg + day.sandbox) - (day.same / day.n) * check) / share;
    console.log(
      `for 0.5 of the bare loop in "day" rounds (the ratio following the CPU, checks at their "again" cost of ${check.toFixed(2)} ms), a lookup that writes may cost ${budget.toFixed(2)} ms of CPU with the sandbox's; the stored loop's cost ${stored.toFixed(2)} ms, svc's ${svc.toFixed(2)} ms`,
    );
  }
  console.log(
    `recorded: ${await count('SELECT count(*) AS n FROM shipments')} shipments, ${await count('SELECT count(*) AS n FROM transport_events')} transport events, ${await count('SELECT count(*) AS n FROM domain_events')} outbox events`,
  );
  printProfile();
  await sandbox.close();
  await store.end();
  await db.end();
  await database.drop();
}

async function scheduler(): Promise<void> {
  const database = await benchDatabase();
  const db: Db = createPool(database.url, 4);
  const clock = new ManualClock(START);
  const now = clock.now();
  // No connector: every due lookup fails at once and is rescheduled, so a tick costs its scheduling alone.
  const worker = new TrackingWorker({ db, clock, connectors: { get: () => undefined }, ais: false });
  const account = await insertAccount(db, 'bench');

  // Tracked shipments at sea, their next refresh hours to days away; `due` more due now.
  const seed = async (from: number, to: number) => {
    await db.query(
      `WITH s AS (
         INSERT INTO shipments (account_id, scac, request_type, request_number, state, line_tracking_last_succeeded_at, line_tracking_last_changed_at, created_at, updated_at)
         SELECT $1, 'MAEU', 'bill_of_lading', 'MAEU' || lpad(i::text, 9, '0'),
                jsonb_build_object('pol_atd_at', $2::timestamptz - interval '5 days', 'pod_vessel_imo', (9000000 + i % 500)::text, 'port_of_discharge_locode', 'NLRTM'),
                $2, $2, $2, $2
           FROM generate_series($3::int, $4::int) AS i
         RETURNING id, substr(request_number, 5)::int AS i
       )
       INSERT INTO shipment_refreshes (shipment_id, next_refresh_at) SELECT id, $2 + (1 + i % 168) * interval '1 hour' FROM s`,
      [account.id, now, from, to],
    );
    // As autovacuum would have it on a settled table: the dead index entries earlier ticks left are gone.
    await db.query('VACUUM ANALYZE shipments, shipment_refreshes, tracking_requests');
  };
  const makeDue = async () => {
    await db.query(
      `UPDATE shipment_refreshes SET next_refresh_at = $1::timestamptz - interval '1 minute' WHERE shipment_id IN (SELECT id FROM shipments WHERE request_number LIKE 'DUE%')`,
      [now],
    );
    await db.query(`UPDATE tracking_requests SET next_attempt_at = $1::timestamptz - interval '1 minute', retry_count = 0, is_retrying = false, locked_until = NULL`, [now]);
  };
  await db.query(
    `WITH s AS (INSERT INTO shipments (account_id, scac, request_type, request_number, created_at, updated_at)
                SELECT $1, 'MAEU', 'bill_of_lading', 'DUE' || i, $2, $2 FROM generate_series(1, $3) AS i RETURNING id)
     INSERT INTO shipment_refreshes (shipment_id, next_refresh_at) SELECT id, $2 FROM s`,
    [account.id, now, DUE],
  );
  await db.query(
    `INSERT INTO tracking_requests (account_id, request_number, request_type, scac, next_attempt_at, created_at, updated_at)
     SELECT $1, 'DUEREQ' || i, 'bill_of_lading', 'MAEU', $2, $2, $2 FROM generate_series(1, $3) AS i`,
    [account.id, now, DUE],
  );

  /** Shared buffers (hit + read) and execution ms of a statement, run in a transaction rolled back. */
  const explain = async (sql: string, values: unknown[]) => {
    const client = await db.connect();
    try {
      await client.query('BEGIN');
      const { rows } = await client.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql}`, values);
      await client.query('ROLLBACK');
      const plan = rows[0]['QUERY PLAN'][0];
      return { buffers: plan.Plan['Shared Hit Blocks'] + plan.Plan['Shared Read Blocks'], ms: plan['Execution Time'] as number };
    } finally {
      client.release();
    }
  };
  const measure = async (tracked: number) => {
    const ticks: number[] = [];
    let stmts = 0;
    for (let i = 0; i < 7; i++) {
      await makeDue();
      const s0 = statements;
      const t0 = performance.now();
      const done = await worker.runDue(DUE);
      ticks.push(performance.now() - t0);
      stmts = statements - s0;
      if (done.shipments !== DUE || done.requests !== DUE) throw new Error(`tick handled ${JSON.stringify(done)}, expected ${DUE} of each`);
    }
    const lease = new Date(now.getTime() + MINUTE);
    // Finding the due work (the claim's scan, without locking: it takes the rows' ctids, as the
    // claim does) and the whole claim (locks and writes the lease), each the median of 5 runs.
    const find = (table: 'shipment_refreshes' | 'tracking_requests') =>
      explain(`SELECT ctid FROM ${table} WHERE ${dueAt1(table)} ORDER BY ${DUE_COLUMN[table]} LIMIT $2`, [now, DUE]);
    const runs = { find: [] as number[], findBuffers: 0, claim: [] as number[], claimBuffers: 0, backlog: [] as number[] };
    for (let i = 0; i < 5; i++) {
      await makeDue();
      const f = [await find('shipment_refreshes'), await find('tracking_requests')];
      const c = [await explain(claimDueSql('shipment_refreshes'), [now, lease, DUE]), await explain(claimDueSql('tracking_requests'), [now, lease, DUE])];
      runs.find.push(f[0].ms + f[1].ms);
      runs.findBuffers = f[0].buffers + f[1].buffers;
      runs.claim.push(c[0].ms + c[1].ms);
      runs.claimBuffers = c[0].buffers + c[1].buffers;
      const b0 = performance.now();
      await dueWorkBacklog(db, now, now);
      runs.backlog.push(performance.now() - b0);
    }
    const due = (await dueWorkBacklog(db, now, now)).find((q) => q.queue === 'shipment_refreshes')!.due;
    const result = {
      tracked,
      tickMs: median(ticks.slice(2)),
      stmts,
      findMs: median(runs.find),
      findBuffers: runs.findBuffers,
      claimMs: median(runs.claim),
      claimBuffers: runs.claimBuffers,
      backlogMs: median(runs.backlog),
    };
    console.log(
      `${String(tracked).padStart(8)}  ${String(DUE).padStart(4)}+${DUE}  ${result.tickMs.toFixed(1).padStart(7)} (${range(ticks.slice(2))})  ${String(stmts).padStart(10)}  ${result.findMs.toFixed(2).padStart(7)} ms ${String(result.findBuffers).padStart(5)}  ${result.claimMs.toFixed(2).padStart(8)} ms ${String(result.claimBuffers).padStart(5)}  ${result.backlogMs.toFixed(1).padStart(7)} ms (${due} due)`,
    );
    return result;
  };

  console.log(`\nscheduler: a tick with ${DUE} shipment refreshes and ${DUE} tracking requests due, the lookups failing at once (no connector)`);
  console.log(' tracked   due   tick ms (range)    statements  find (buffers)    claim (buffers)    backlog');
  await seed(1, 1_000);
  const small = await measure(1_000 + DUE);
  await seed(1_001, TRACKED);
  const large = await measure(TRACKED + DUE);
  const ratio = (k: 'tickMs' | 'stmts' | 'findMs' | 'findBuffers' | 'claimMs' | 'claimBuffers' | 'backlogMs') => (large[k] / small[k]).toFixed(2);
  console.log(
    `ratio ${large.tracked}/${small.tracked} tracked (${(large.tracked / small.tracked).toFixed(0)}× the rows): tick ms ${ratio('tickMs')}, statements ${ratio('stmts')}, find ms ${ratio('findMs')} and buffers ${ratio('findBuffers')}, claim ms ${ratio('claimMs')} and buffers ${ratio('claimBuffers')}, backlog ms ${ratio('backlogMs')}`,
  );
  await db.end();
  await database.drop();
}

if (PART !== 'scheduler') await throughput();
if (PART !== 'throughput') await scheduler();
