// `npm run bench:rate-limit`: the ceiling of authenticated requests with each rate limiter
// (memory, Redis, PostgreSQL) beside the same requests with the limiter off (the API-key read
// alone), over real HTTP on loopback. The route does nothing else (BENCH_PATH=/v2/account for a
// real one), so the difference is the limiter's cost. Scenarios take turns in BENCH_ROUNDS rounds
// (in a rotated order each round), so a machine busy with other work weighs on all alike; ratios
// are given in total and as each round's range.
//
// On a machine busy with other work req/s move with the neighbours, so the benchmark also
// measures what each request costs in CPU: the API process (the load runs in a child process of
// its own), the PostgreSQL backends of the benchmark's database (from /proc, when PostgreSQL runs
// on this machine) and the Redis server (INFO cpu). Their sum bounds the ceiling on an idle
// machine, and its ratio to the limiter off is the figure that holds under load.
import { spawn } from 'node:child_process';
import { Redis } from 'ioredis';
import { buildApp } from '../src/http/app.ts';
import type { AnyRouteSpec } from '../src/http/route.ts';
import { createApiKey } from '../src/services/api-keys.ts';
import { memoryRateLimiter, postgresRateLimiter, type RateLimiter } from '../src/services/rate-limiters.ts';
import { redisRateLimiter } from '../src/services/redis-rate-limiter.ts';
import { findLiveKey, insertAccount } from '../src/store/accounts.ts';
import { createPool } from '../src/store/db.ts';
import { REDIS_URL, redisAnswers } from '../test/support/rate-limit-backends.ts';
import { benchDatabase } from './database.ts';
import { processCpuMs } from './process-cpu.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 32);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const path = process.env.BENCH_PATH ?? '/v2/bench/ping';

const database = await benchDatabase();
// Each reading of this clock is a second later, so every limiter counts every request without
// ever refusing one (a key's log holds at most 60 hits of clock time, under the limit of 100).
let tick = Date.parse('2026-01-01T00:00:00Z');
const clock = { now: () => new Date((tick += 1000)) };

/** The limiter off: the API-key read that every limiter does, and nothing counted. */
const authReadOnly: RateLimiter = {
  backend: 'memory',
  fallbacks: 0,
  ready: async () => {},
  admit: async (db, keyHash) => {
    const key = await findLiveKey(db, keyHash);
    return key && { ...key, wait_ms: 0 };
  },
  close: async () => {},
};

const scenarios: { name: string; limiter: RateLimiter }[] = [
  { name: 'auth read only (limiter off)', limiter: authReadOnly },
  { name: 'auth + memory limiter', limiter: memoryRateLimiter() },
];
if (await redisAnswers()) {
  const redis = redisRateLimiter({ url: REDIS_URL, keyPrefix: `svc-bench:${process.pid}:` });
  await redis.ready();
  scenarios.push({ name: 'auth + Redis limiter', limiter: redis });
} else {
  console.log(`no Redis at ${REDIS_URL}: the Redis limiter is left out`);
}
scenarios.push({ name: 'auth + PostgreSQL limiter', limiter: postgresRateLimiter() });

const ping: AnyRouteSpec = { method: 'GET', url: '/v2/bench/ping', summary: 'bench', tag: 'bench', plainJson: true, handler: async () => ({ body: { ok: true } }) };
// One pool as large as svc's own, shared by the apps as one svc process would hold it.
const db = createPool(database.url);
const apps = await Promise.all(
  scenarios.map(async (s) => {
    const app = await buildApp({ db, clock, rateLimiter: s.limiter, routes: [ping] });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    return { app, url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}${path}` };
  }),
);

// One key per client, as in production where each key is held to its own limit: a single key's
// counter would otherwise serialise every request of the benchmark (the PostgreSQL row lock).
const account = await insertAccount(database.db, 'bench');
const headers = await Promise.all(Array.from({ length: concurrency }, async () => ({ authorization: `Token ${(await createApiKey(database.db, account.id)).key}` })));

interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  latenciesMs: number[];
}

// The load generator (load-worker.js, a worker thread) in a child process, so that this process's
// CPU time is the server's alone.
const LOADER = `const { Worker } = require('node:worker_threads');
process.once('message', ({ worker, workerData }) => {
  const w = new Worker(new URL(worker), { workerData });
  w.once('message', (m) => process.send(m, () => process.exit(0)));
  w.once('error', (e) => { console.error(e.message); process.exit(1); });
});`;
function load(url: string, forSeconds: number): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--eval', LOADER], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.send({ worker: new URL('./load-worker.js', import.meta.url).href, workerData: { url, headers, concurrency, seconds: forSeconds } });
    child.once('message', (m) => resolve(m as LoadResult));
    child.once('exit', (code) => code !== 0 && reject(new Error(`load generator exited with ${code}`)));
  });
}

// CPU seconds used so far by each part that serves a request.
const procCpu = (pid: number): number | undefined => {
  const ms = processCpuMs(pid);
  return ms === undefined ? undefined : ms / 1000;
};
const backendPids = async (): Promise<number[]> =>
  (await database.db.query('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()', [])).rows.map((r) => r.pid);
const redisInfo = scenarios.some((s) => s.limiter.backend === 'redis') ? new Redis(REDIS_URL) : undefined;
const redisCpu = async (): Promise<number> => {
  if (!redisInfo) return 0;
  const info = await redisInfo.info('cpu');
  const value = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1] ?? 0);
  return value('used_cpu_user') + value('used_cpu_sys');
};
interface CpuMark {
  node: number;
  postgres: Map<number, number>;
  redis: number;
}
const cpuMark = async (): Promise<CpuMark> => {
  const postgres = new Map<number, number>();
  for (const pid of await backendPids()) {
    const cpu = procCpu(pid);
    if (cpu !== undefined) postgres.set(pid, cpu);
  }
  const { user, system } = process.cpuUsage();
  return { node: (user + system) / 1e6, postgres, redis: await redisCpu() };
};
/** CPU seconds between two marks; a backend that started in between counts from its start. */
const cpuSpent = (a: CpuMark, b: CpuMark) => ({
  node: b.node - a.node,
  postgres: [...b.postgres].reduce((sum, [pid, cpu]) => sum + cpu - (a.postgres.get(pid) ?? 0), 0),
  redis: b.redis - a.redis,
});

console.log(
  `svc rate-limit benchmark: GET ${path}, ${concurrency} clients (one API key each), ${seconds} s per scenario, ${rounds} rounds, ${process.env.SVC_TEST_DATABASE_URL?.replace(/\/\/[^@]*@/, '//') ?? 'embedded PostgreSQL'}`,
);
// A short warm-up of each, so the first round does not pay for JIT and connections.
for (const a of apps) await load(a.url, 1);

interface RoundResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** CPU µs per request: the API process, PostgreSQL, Redis. */
  node: number;
  postgres: number;
  redis: number;
}
const perRound = scenarios.map(() => [] as RoundResult[]);
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
for (let round = 0; round < rounds; round++) {
  for (let k = 0; k < scenarios.length; k++) {
    const i = (k + round) % scenarios.length;
    const before = await cpuMark();
    const r = await load(apps[i].url, seconds);
    const cpu = cpuSpent(before, await cpuMark());
    const sorted = r.latenciesMs.sort((a, b) => a - b);
    const perRequest = (sec: number) => (sec * 1e6) / r.requests;
    perRound[i].push({
      rps: r.requests / r.seconds,
      p50: pct(sorted, 50),
      p99: pct(sorted, 99),
      errors: r.errors,
      node: perRequest(cpu.node),
      postgres: perRequest(cpu.postgres),
      redis: perRequest(cpu.redis),
    });
  }
  process.stdout.write(`round ${round + 1}: ${scenarios.map((s, i) => `${s.name.replace(/ \(.*\)/, '')} ${perRound[i][round].rps.toFixed(0)}`).join(', ')}\n`);
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const baseline = perRound[0];
const cpuOf = (r: RoundResult) => r.node + r.postgres + r.redis;
console.log();
console.log(
  'scenario'.padEnd(30),
  'req/s'.padStart(7),
  'range'.padStart(11),
  'p50 ms'.padStart(7),
  'p99 ms'.padStart(7),
  'err'.padStart(4),
  'ratio'.padStart(6),
  'rounds'.padStart(10),
  'CPU µs/req: node'.padStart(17),
  'pg'.padStart(5),
  'redis'.padStart(6),
  'sum'.padStart(5),
  'CPU ratio'.padStart(10),
);
scenarios.forEach((s, i) => {
  const rps = perRound[i].map((r) => r.rps);
  const ratios = perRound[i].map((r, round) => r.rps / baseline[round].rps);
  const cpu = (f: (r: RoundResult) => number) => median(perRound[i].map(f));
  console.log(
    s.name.padEnd(30),
    mean(rps).toFixed(0).padStart(7),
    `${Math.min(...rps).toFixed(0)}–${Math.max(...rps).toFixed(0)}`.padStart(11),
    median(perRound[i].map((r) => r.p50)).toFixed(2).padStart(7),
    median(perRound[i].map((r) => r.p99)).toFixed(2).padStart(7),
    String(perRound[i].reduce((n, r) => n + r.errors, 0)).padStart(4),
    (mean(rps) / mean(baseline.map((r) => r.rps))).toFixed(2).padStart(6),
    `${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}`.padStart(10),
    cpu((r) => r.node).toFixed(0).padStart(17),
    cpu((r) => r.postgres).toFixed(0).padStart(5),
    cpu((r) => r.redis).toFixed(0).padStart(6),
    cpu(cpuOf).toFixed(0).padStart(5),
    (median(baseline.map(cpuOf)) / cpu(cpuOf)).toFixed(2).padStart(10),
  );
});
console.log('ratio: req/s against the limiter off (total, and each round\'s range); CPU ratio: CPU per request of the limiter off / this one (medians).');
console.log('goal: every limiter ≥ 0.90 of the limiter off');

for (const a of apps) await a.app.close();
for (const s of scenarios) await s.limiter.close();
redisInfo?.disconnect();
await db.end();
await database.drop();
