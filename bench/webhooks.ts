// `npm run bench:webhooks`, two parts.
//
// 1. Throughput: fans BENCH_EVENTS events (default 10,000) out to one webhook on a loopback
//    receiver through svc's real path (outbox fan-out in the recording transaction, then
//    BENCH_WORKERS DeliveryWorkers claiming, rendering, signing, POSTing and recording), and
//    compares it with the ceiling: a bare undici POST loop, same concurrency and body, against
//    that receiver. The two take turns for BENCH_ROUNDS rounds (default 3), so a busy machine
//    weighs on both alike; the ratio is given in total and as each round's range. Receiver,
//    workers and client share this process (and its cores with PostgreSQL) in both runs.
// 2. Fairness: a fast receiver of one account gets an event every BENCH_FAIR_EVERY_MS (default
//    20) for BENCH_FAIR_SECONDS (default 10), alone, then beside a slow receiver of another
//    account that answers in BENCH_SLOW_MS (default 5,000) with a backlog of BENCH_SLOW_BACKLOG
//    (default 200) notifications; the fast receiver's commit → arrival latency, p50 and p99, with
//    svc's per-receiver cap (SVC_WEBHOOK_RECEIVER_CONCURRENCY's default), and once with the cap
//    lifted to show what it prevents.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { systemClock } from '../src/clock.ts';
import { createPool, type Db } from '../src/store/db.ts';
import { BUFFER, DeliveryWorker } from '../src/webhooks/delivery-worker.ts';
import { defaultDeliveryPolicy } from '../src/webhooks/policy.ts';
import { recordBurstEvents, seedBurst, type Burst } from '../test/support/webhook-burst.ts';
import { benchDatabase } from './database.ts';

const N = Number(process.env.BENCH_EVENTS ?? 10_000);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2_000); // events of the untimed first turn of each side
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32); // per worker, as in svc's policy
const WORKERS = Number(process.env.BENCH_WORKERS ?? 1);
const POOL = Number(process.env.BENCH_POOL ?? 10); // svc's own pool size (createPool's default)
const PROBES = Math.max(1, Number(process.env.BENCH_PROBES ?? 100));
const FAIR_SECONDS = Number(process.env.BENCH_FAIR_SECONDS ?? 10);
const FAIR_EVERY_MS = Number(process.env.BENCH_FAIR_EVERY_MS ?? 20);
const SLOW_MS = Number(process.env.BENCH_SLOW_MS ?? 5_000);
const SLOW_BACKLOG = Number(process.env.BENCH_SLOW_BACKLOG ?? 200);
const CAP = defaultDeliveryPolicy.receiverConcurrency;
const BATCH = 1000; // events per recording transaction
const INTERVAL_MS = 20;
const DEADLINE = Date.now() + 15 * 60_000; // the whole run fails rather than hangs past this
setTimeout(() => (console.error('bench:webhooks: gave up after 15 minutes'), process.exit(1)), DEADLINE - Date.now() + 30_000).unref();

/** A loopback receiver that notes the first arrival of each id (performance.now()) and answers 200 after `delayMs`, once it has read the whole body. */
interface Receiver {
  url: string;
  arrivals: Map<string, number>;
  requests: number;
  lastArrival: number;
  sample?: { body: string; headers: IncomingHttpHeaders };
  /** Resolves once `n` distinct ids have arrived; rejects at the deadline instead of waiting on. */
  arrived(n: number): Promise<void>;
  close(): Promise<void>;
}

async function startReceiver(delayMs = 0): Promise<Receiver> {
  let waiter: { n: number; done: () => void } | undefined;
  const r: Receiver = {
    url: '',
    arrivals: new Map(),
    requests: 0,
    lastArrival: 0,
    arrived(n) {
      if (r.arrivals.size >= n) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`timed out: ${r.arrivals.size} of ${n} deliveries arrived`)), DEADLINE - Date.now());
        waiter = { n, done: () => (clearTimeout(timer), (waiter = undefined), resolve()) };
      });
    },
    close: async () => {},
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      r.requests++;
      const id = String(req.headers['webhook-id']);
      if (!r.arrivals.has(id)) r.arrivals.set(id, (r.lastArrival = performance.now()));
      r.sample ??= { body: Buffer.concat(chunks).toString('utf8'), headers: req.headers };
      const answer = () => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      if (delayMs > 0) setTimeout(answer, delayMs);
      else answer();
      if (waiter && r.arrivals.size >= waiter.n) waiter.done();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  r.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  r.close = () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())));
  return r;
}

const pct = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
const stats = (xs: number[]) => ({ p50: +pct(xs, 0.5).toFixed(1), p99: +pct(xs, 0.99).toFixed(1), max: +pct(xs, 1).toFixed(1) });
const row = (name: string, ...cells: unknown[]) => console.log(name.padEnd(52) + cells.map((x) => String(x).padStart(9)).join(''));
const trackingRequestOf = async (db: Db, burst: Burst) => (await db.query('SELECT id FROM tracking_requests WHERE account_id = $1', [burst.accountId])).rows[0].id as string;

/**
 * Records events one at a time, each at its own created_at, and notes when each committed, so a
 * notification maps back to its commit (created_at ms → performance.now() at commit).
 */
class EventRecorder {
  readonly committedAt = new Map<number, number>();
  #at = 0;
  constructor(
    private readonly db: Db,
    private readonly burst: Burst,
    private readonly trackingRequestId: string,
  ) {}
  async record(count: number): Promise<void> {
    this.#at = Math.max(Date.now(), this.#at + 1);
    await recordBurstEvents(this.db, this.burst.accountId, this.trackingRequestId, count, new Date(this.#at));
    this.committedAt.set(this.#at, performance.now());
  }
  /** Commit → first arrival of each notification of the account. */
  async latencies(arrivals: Map<string, number>): Promise<number[]> {
    const { rows } = await this.db.query<{ id: string; created_at: Date }>('SELECT id, created_at FROM webhook_notifications WHERE account_id = $1', [this.burst.accountId]);
    return rows.filter((r) => this.committedAt.has(r.created_at.getTime())).map((r) => arrivals.get(r.id)! - this.committedAt.get(r.created_at.getTime())!);
  }
}

/**
 * CPU time of the PostgreSQL backends serving the workers, read from /proc (when PostgreSQL runs
 * on this machine), sampled often so a connection the pool closes keeps what it had used.
 */
class BackendCpu {
  readonly #pids = new Set<number>();
  readonly #last = new Map<number, number>();
  readonly #timer = setInterval(() => this.#sample(), 200);
  watch(pool: Db): void {
    pool.on('connect', (client) => this.#pids.add((client as unknown as { processID: number }).processID));
  }
  #sample(): void {
    for (const pid of this.#pids) {
      try {
        const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
        this.#last.set(pid, ((Number(fields[11]) + Number(fields[12])) * 1000) / 100); // utime + stime, 100 ticks a second
      } catch {
        this.#pids.delete(pid); // gone (or not on this machine): keep its last sample
      }
    }
  }
  /** Milliseconds used so far, or undefined when the backends cannot be seen. */
  total(): number | undefined {
    this.#sample();
    return this.#last.size > 0 ? [...this.#last.values()].reduce((a, b) => a + b, 0) : undefined;
  }
  stop(): void {
    clearInterval(this.#timer);
  }
}

const database = await benchDatabase();
const db = database.db;
const pools = Array.from({ length: WORKERS }, () => createPool(database.url, POOL));
const backends = new BackendCpu();
for (const pool of pools) backends.watch(pool);
// Statements the workers send, by the start of their SQL.
const statements = new Map<string, number>();
for (const pool of pools) {
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  pool.query = ((...args: unknown[]) => {
    const text = typeof args[0] === 'string' ? args[0] : String((args[0] as { text?: string }).text);
    const kind = text.replace(/\s+/g, ' ').trim().slice(0, 90);
    statements.set(kind, (statements.get(kind) ?? 0) + 1);
    return query(...args);
  }) as typeof pool.query;
}
const statementCount = () => [...statements.values()].reduce((a, b) => a + b, 0);
const fast = await startReceiver();
const slow = await startReceiver(SLOW_MS);
const agent = new Agent({ connections: CONCURRENCY * WORKERS, keepAliveTimeout: 30_000 });
let workers: DeliveryWorker[] = [];
const startWorkers = (receiverConcurrency: number) => {
  workers = pools.map((pool) => new DeliveryWorker({ db: pool, clock: systemClock, allowInsecure: true, policy: { concurrency: CONCURRENCY, receiverConcurrency } }));
  for (const w of workers) w.start(INTERVAL_MS);
};
// stop() closes each worker's HTTP agent, which undici refuses to do twice: stop each set once.
const stopWorkers = async () => {
  const stopping = workers;
  workers = [];
  await Promise.all(stopping.map((w) => w.stop()));
};

/** One svc burst of `n` events to a fresh webhook; every one must end succeeded after one attempt. */
async function svcBurst(probes: number, n = N) {
  fast.arrivals.clear();
  fast.requests = 0;
  const burst = await seedBurst(db, fast.url, 0);
  const events = new EventRecorder(db, burst, await trackingRequestOf(db, burst));
  // One receiver, nobody to be fair to: the cap is lifted (to all the worker may hold, claimed or
  // in flight), so both sides keep CONCURRENCY requests in flight.
  startWorkers(BUFFER * CONCURRENCY);
  const cpu = process.cpuUsage();
  const pgBefore = backends.total() ?? 0;
  const statementsBefore = statementCount();
  const started = performance.now();
  for (let done = 0; done < n; done += BATCH) await events.record(Math.min(BATCH, n - done));
  const recordedIn = performance.now() - started;
  await fast.arrived(n);
  const seconds = (fast.lastArrival - started) / 1000;
  const cpuMs = (({ user, system }) => (user + system) / 1000)(process.cpuUsage(cpu));
  const pgAfter = backends.total();
  const pgCpuMs = pgAfter === undefined ? undefined : pgAfter - pgBefore;
  const burstLatency = await events.latencies(fast.arrivals);
  const duplicates = fast.requests - n;
  // Every statement of the burst, up to the last attempt's record.
  while ((await db.query(`SELECT 1 FROM webhook_notifications WHERE account_id = $1 AND delivery_status = 'pending' LIMIT 1`, [burst.accountId])).rowCount) await sleep(INTERVAL_MS);
  const burstStatements = statementCount() - statementsBefore;

  // Idle probes: one event at a time with the workers idle, so the latency is svc's own path
  // (wake-up by NOTIFY, claim, render, sign, POST) without a queue in front of it. The random
  // pause lets the worker go idle, so an event lands at a random point of its cycle.
  const probeLatency: number[] = [];
  for (let i = 0; i < probes; i++) {
    await sleep(INTERVAL_MS * (1 + Math.random()));
    await events.record(1);
    const committed = performance.now();
    await fast.arrived(n + i + 1);
    probeLatency.push(fast.lastArrival - committed);
  }
  await stopWorkers();
  const check = await db.query(`SELECT count(*) FILTER (WHERE delivery_status = 'succeeded') AS ok, sum(attempts) AS attempts FROM webhook_notifications WHERE account_id = $1`, [burst.accountId]);
  const { ok, attempts } = check.rows[0];
  if (ok !== n + probes || attempts !== n + probes) throw new Error(`expected ${n + probes} succeeded single attempts, got ${ok} succeeded and ${attempts} attempts`);
  return { rate: n / seconds, seconds, recordedIn, cpuMs, pgCpuMs, burstLatency, probeLatency, duplicates, statements: burstStatements };
}

/** The ceiling: the same receiver, `n` POSTs of an svc body and its headers, as many in flight. */
async function bareLoop(n = N) {
  fast.arrivals.clear();
  const headers: Record<string, string> = {};
  for (const h of ['content-type', 'user-agent', 'x-svc-webhook-signature', 'webhook-timestamp', 'webhook-signature']) headers[h] = String(fast.sample!.headers[h]);
  const latency: number[] = [];
  let next = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY * WORKERS }, async () => {
      while (next < n) {
        const id = `bare-${String(next++).padStart(31, '0')}`; // as long as a uuid
        const t0 = performance.now();
        const res = await request(fast.url, { method: 'POST', dispatcher: agent, headers: { ...headers, 'webhook-id': id }, body: fast.sample!.body });
        await res.body.text();
        if (res.statusCode !== 200) throw new Error(`bare POST answered ${res.statusCode}`);
        latency.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpuMs = (({ user, system }) => (user + system) / 1000)(process.cpuUsage(cpu));
  if (fast.arrivals.size !== n) throw new Error(`bare loop: ${fast.arrivals.size} of ${n} arrived`);
  return { rate: n / seconds, cpuMs, latency };
}

/**
 * The fast receiver's latency while events arrive steadily for it, with a slow receiver's backlog
 * beside it or not; the slow account's leftovers are removed afterwards so no scenario inherits them.
 */
async function fairness(withSlow: boolean, receiverConcurrency: number) {
  fast.arrivals.clear();
  slow.arrivals.clear();
  const fastBurst = await seedBurst(db, fast.url, 0);
  const events = new EventRecorder(db, fastBurst, await trackingRequestOf(db, fastBurst));
  const slowBurst = withSlow ? await seedBurst(db, slow.url, SLOW_BACKLOG) : undefined;
  startWorkers(receiverConcurrency);
  const count = Math.round((FAIR_SECONDS * 1000) / FAIR_EVERY_MS);
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    await events.record(1);
    const wait = started + (i + 1) * FAIR_EVERY_MS - performance.now();
    if (wait > 0) await sleep(wait);
  }
  await fast.arrived(count);
  const latency = await events.latencies(fast.arrivals);
  const slowDelivered = slow.arrivals.size;
  await stopWorkers();
  if (slowBurst) await db.query(`DELETE FROM webhook_notifications WHERE webhook_id = $1`, [slowBurst.webhookId]);
  return { latency, slowDelivered };
}

/** Part 1: svc and the bare loop taking turns; what the JSON line reports of it. */
async function throughputPart() {
  // Both sides run once untimed first, so neither round 1 pays for compiling the code it runs
  // (the bare loop shares svc's warm undici otherwise, svc does not).
  await svcBurst(1, WARMUP);
  await bareLoop(WARMUP);
  const rounds: { svc: Awaited<ReturnType<typeof svcBurst>>; bare: Awaited<ReturnType<typeof bareLoop>> }[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const svc = await svcBurst(round === 0 ? PROBES : 1);
    const bare = await bareLoop();
    rounds.push({ svc, bare });
  }
  const all = <T>(pick: (r: (typeof rounds)[number]) => T[]) => rounds.flatMap(pick);
  const svcRate = rounds.reduce((a, r) => a + N, 0) / rounds.reduce((a, r) => a + r.svc.seconds, 0);
  const bareRate = (rounds.length * N) / rounds.reduce((a, r) => a + N / r.bare.rate, 0);
  const ratios = rounds.map((r) => r.svc.rate / r.bare.rate);
  const [b, p, c] = [all((r) => r.svc.burstLatency), rounds[0].svc.probeLatency, all((r) => r.bare.latency)].map(stats);
  const cpuPer = (ms: number) => ((ms * 1000) / N).toFixed(0);
  const bodyBytes = Buffer.byteLength(fast.sample!.body);
  console.log(`\nwebhook delivery: ${N} events × ${ROUNDS} rounds, ${WORKERS} worker(s) × ${CONCURRENCY} in flight, pool ${POOL} per worker, body ${bodyBytes} B`);
  const pgCpu = rounds.every((r) => r.svc.pgCpuMs !== undefined) ? rounds.reduce((a, r) => a + r.svc.pgCpuMs!, 0) / ROUNDS : undefined;
  row('', 'deliv/s', 'p50 ms', 'p99 ms', 'max ms', 'µs CPU', 'µs PG');
  row('svc burst: batch commit → arrival', svcRate.toFixed(0), b.p50, b.p99, b.max, cpuPer(rounds.reduce((a, r) => a + r.svc.cpuMs, 0) / ROUNDS), pgCpu === undefined ? '?' : cpuPer(pgCpu));
  row('svc idle, 1 event at a time: commit → arrival', '', p.p50, p.p99, p.max, '');
  row('bare undici POST loop: request round trip', bareRate.toFixed(0), c.p50, c.p99, c.max, cpuPer(rounds.reduce((a, r) => a + r.bare.cpuMs, 0) / ROUNDS));
  console.log(`svc / bare deliveries per second: ${(svcRate / bareRate).toFixed(3)} (rounds: ${ratios.map((x) => x.toFixed(3)).join(', ')}; range ${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)})`);
  console.log(`each svc burst records ${N} events in ${Math.ceil(N / BATCH)} transactions of ${BATCH} (within ${(rounds[0].svc.recordedIn / 1000).toFixed(2)} s) while delivering; deliv/s = ${N} / (first record → last arrival).`);
  console.log(`µs CPU: this process's CPU time (receiver, client or workers) per delivery; µs PG: the workers' PostgreSQL backends' (from /proc). Burst latency counts from each batch's commit, so it is mostly queueing. ${rounds.reduce((a, r) => a + r.svc.duplicates, 0)} duplicate requests.`);
  const perDelivery = rounds.reduce((a, r) => a + r.svc.statements, 0) / (ROUNDS * N);
  console.log(`statements per delivery: ${perDelivery.toFixed(3)} (the workers' pools, burst only: claims, renders, records, health)`);
  if (process.env.BENCH_STATEMENTS) for (const [text, n] of [...statements].sort((a, b) => b[1] - a[1])) console.log(String(n).padStart(8), text);
  if (WORKERS > 1) console.log(`the ${WORKERS} workers share this process's one thread: this shows them sharing the work (see duplicates), not scale-out across cores.`);

  const svc = { deliveries_per_s: +svcRate.toFixed(1), statements_per_delivery: +perDelivery.toFixed(3), cpu_us: +cpuPer(rounds.reduce((a, r) => a + r.svc.cpuMs, 0) / ROUNDS), pg_cpu_us: pgCpu === undefined ? null : +cpuPer(pgCpu), burst_latency_ms: b, idle_latency_ms: p };
  const bare = { deliveries_per_s: +bareRate.toFixed(1), cpu_us: +cpuPer(rounds.reduce((a, r) => a + r.bare.cpuMs, 0) / ROUNDS), latency_ms: c };
  return { events: N, rounds: ROUNDS, workers: WORKERS, concurrency: CONCURRENCY, pool: POOL, body_bytes: bodyBytes, svc, bare, ratio: +(svcRate / bareRate).toFixed(3), ratios: ratios.map((x) => +x.toFixed(3)) };
}

/** Part 2: the fast receiver alone and beside the slow one, with the cap and without. */
async function fairnessPart() {
  const alone = await fairness(false, CAP);
  const capped = await fairness(true, CAP);
  const alone2 = await fairness(false, CAP);
  const capped2 = await fairness(true, CAP);
  const uncapped = await fairness(true, CONCURRENCY);
  const fair = (name: string, r: Awaited<ReturnType<typeof fairness>>) => {
    const s = stats(r.latency);
    row(name, s.p50, s.p99, s.max, r.slowDelivered || '');
    return s;
  };
  console.log(`\nfairness: a fast receiver gets an event every ${FAIR_EVERY_MS} ms for ${FAIR_SECONDS} s; another account's receiver answers in ${SLOW_MS} ms, ${SLOW_BACKLOG} notifications due; one worker × ${CONCURRENCY}`);
  row('fast receiver, commit → arrival', 'p50 ms', 'p99 ms', 'max ms', 'slow got');
  const a1 = fair('alone', alone);
  const c1 = fair(`beside the slow one, cap ${CAP} per receiver`, capped);
  const a2 = fair('alone (again)', alone2);
  const c2 = fair(`beside the slow one, cap ${CAP} per receiver (again)`, capped2);
  const u = fair(`beside the slow one, cap lifted to ${CONCURRENCY}`, uncapped);
  const p99Ratio = (c1.p99 + c2.p99) / (a1.p99 + a2.p99);
  console.log(`fast p99 beside the slow receiver / alone: ${p99Ratio.toFixed(2)} (rounds: ${(c1.p99 / a1.p99).toFixed(2)}, ${(c2.p99 / a2.p99).toFixed(2)}); without the cap: ${(u.p99 / ((a1.p99 + a2.p99) / 2)).toFixed(1)}`);

  return { alone: [a1, a2], beside_slow_capped: [c1, c2], beside_slow_uncapped: u, cap: CAP, slow_ms: SLOW_MS };
}

try {
  // BENCH_PART=throughput or fairness runs one part (e.g. under node --cpu-prof).
  const part = process.env.BENCH_PART;
  const throughput = part === 'fairness' ? undefined : await throughputPart();
  const fairnessJson = part === 'throughput' ? undefined : await fairnessPart();
  console.log(JSON.stringify({ bench: 'webhooks', ...throughput, fairness: fairnessJson }));
} finally {
  backends.stop();
  await stopWorkers();
  await agent.close();
  await Promise.all(pools.map((p) => p.end()));
  await fast.close();
  await slow.close();
  await database.drop();
}
