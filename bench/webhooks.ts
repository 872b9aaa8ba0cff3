// `npm run bench:webhooks`: fans BENCH_EVENTS events (default 10,000) out to one webhook on a
// loopback receiver through svc's real path (outbox fan-out in the recording transaction, then
// BENCH_WORKERS DeliveryWorkers claiming, rendering, signing, POSTing and settling), and compares
// it with the ceiling: a bare undici POST loop, same concurrency and body, against that receiver.
// Receiver, workers and client share this process (and its cores with PostgreSQL) in both runs.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { systemClock } from '../src/clock.ts';
import { createPool } from '../src/store/db.ts';
import { DeliveryWorker } from '../src/webhooks/delivery-worker.ts';
import { recordBurstEvents, seedBurst } from '../test/support/webhook-burst.ts';
import { benchDatabase } from './database.ts';

const N = Number(process.env.BENCH_EVENTS ?? 10_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32); // per worker, as in svc's policy
const WORKERS = Number(process.env.BENCH_WORKERS ?? 1);
const POOL = Number(process.env.BENCH_POOL ?? 10); // svc's own pool size (createPool's default)
const PROBES = Math.max(1, Number(process.env.BENCH_PROBES ?? 100));
const BATCH = 1000; // events per recording transaction
const INTERVAL_MS = 20;
const DEADLINE = Date.now() + 5 * 60_000; // the whole run fails rather than hangs past this
setTimeout(() => (console.error('bench:webhooks: gave up after 5 minutes'), process.exit(1)), DEADLINE - Date.now() + 30_000).unref();

// The receiver notes the first arrival of each id (performance.now(), the clock the recorder uses
// too) and answers 200 once it has read the whole body, as a real receiver would.
const arrivals = new Map<string, number>();
let requests = 0;
let lastArrival = 0; // of a new id
let sample: { body: string; headers: IncomingHttpHeaders } | undefined;
let waiter: { n: number; done: () => void } | undefined;
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    requests++;
    const id = String(req.headers['webhook-id']);
    if (!arrivals.has(id)) arrivals.set(id, (lastArrival = performance.now()));
    sample ??= { body: Buffer.concat(chunks).toString('utf8'), headers: req.headers };
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    if (waiter && arrivals.size >= waiter.n) waiter.done();
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;

/** Resolves once `n` distinct ids have arrived; rejects at the deadline instead of waiting on. */
function arrived(n: number): Promise<void> {
  if (arrivals.size >= n) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out: ${arrivals.size} of ${n} deliveries arrived`)), DEADLINE - Date.now());
    waiter = { n, done: () => (clearTimeout(timer), (waiter = undefined), resolve()) };
  });
}

const pct = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
const stats = (xs: number[]) => ({ p50: +pct(xs, 0.5).toFixed(1), p99: +pct(xs, 0.99).toFixed(1), max: +pct(xs, 1).toFixed(1) });

const database = await benchDatabase();
const pools = Array.from({ length: WORKERS }, () => createPool(database.url, POOL));
const workers = pools.map((db) => new DeliveryWorker({ db, clock: systemClock, allowInsecure: true, policy: { concurrency: CONCURRENCY } }));
// stop() closes each worker's HTTP agent, which undici refuses to do twice: stop them once.
let stopped: Promise<unknown> | undefined;
const stopWorkers = () => (stopped ??= Promise.all(workers.map((w) => w.stop())));
const agent = new Agent({ connections: CONCURRENCY * WORKERS, keepAliveTimeout: 30_000 });
try {
  // The account and webhook first (no events), so every event below is timed from its commit.
  const db = database.db;
  const burst = await seedBurst(db, url, 0);
  const trackingRequestId = (await db.query('SELECT id FROM tracking_requests WHERE account_id = $1', [burst.accountId])).rows[0].id as string;
  for (const w of workers) w.start(INTERVAL_MS);

  // 1. Burst: record N events in transactions of BATCH while the workers deliver. Each batch gets
  // its own created_at, which maps a notification back to the moment its batch committed.
  const committedAt = new Map<number, number>(); // created_at ms → performance.now() at commit
  const started = performance.now();
  let at = 0;
  for (let done = 0; done < N; done += BATCH) {
    at = Math.max(Date.now(), at + 1);
    await recordBurstEvents(db, burst.accountId, trackingRequestId, Math.min(BATCH, N - done), new Date(at));
    committedAt.set(at, performance.now());
  }
  const recordedIn = performance.now() - started;
  await arrived(N);
  const burstSeconds = (lastArrival - started) / 1000;
  const created = await db.query<{ id: string; created_at: Date }>('SELECT id, created_at FROM webhook_notifications');
  const burstLatency = created.rows.map((r) => arrivals.get(r.id)! - committedAt.get(r.created_at.getTime())!);
  const burstRequests = requests;

  // 2. Idle probes: one event at a time with the workers idle, so the latency is svc's own path
  // (poll wait of up to INTERVAL_MS, claim, render, sign, POST) without a queue in front of it.
  // The random pause lets the worker settle and go idle, so an event lands at a random point of
  // its poll instead of in step with the claim that follows each delivery.
  const probeLatency: number[] = [];
  for (let i = 0; i < PROBES; i++) {
    await sleep(INTERVAL_MS * (1 + Math.random()));
    await recordBurstEvents(db, burst.accountId, trackingRequestId, 1, new Date());
    const committed = performance.now();
    await arrived(N + i + 1);
    probeLatency.push(lastArrival - committed);
  }
  await stopWorkers();
  // Every notification must be settled as succeeded, with exactly one attempt logged.
  const check = await db.query(`SELECT count(*) FILTER (WHERE delivery_status = 'succeeded') AS ok, sum(attempts) AS attempts FROM webhook_notifications`);
  const { ok, attempts } = check.rows[0];
  if (ok !== N + PROBES || attempts !== N + PROBES) throw new Error(`expected ${N + PROBES} succeeded single attempts, got ${ok} succeeded and ${attempts} attempts`);

  // 3. The ceiling: the same receiver, N POSTs of an svc body and its headers, as many in flight.
  arrivals.clear();
  const headers: Record<string, string> = {};
  for (const h of ['content-type', 'user-agent', 'x-svc-webhook-signature', 'webhook-timestamp', 'webhook-signature']) headers[h] = String(sample!.headers[h]);
  const bareLatency: number[] = [];
  let next = 0;
  const bareStarted = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY * WORKERS }, async () => {
      while (next < N) {
        const id = `bare-${String(next++).padStart(31, '0')}`; // as long as a uuid
        const t0 = performance.now();
        const res = await request(url, { method: 'POST', dispatcher: agent, headers: { ...headers, 'webhook-id': id }, body: sample!.body });
        await res.body.text();
        if (res.statusCode !== 200) throw new Error(`bare POST answered ${res.statusCode}`);
        bareLatency.push(performance.now() - t0);
      }
    }),
  );
  const bareSeconds = (performance.now() - bareStarted) / 1000;
  if (arrivals.size !== N) throw new Error(`bare loop: ${arrivals.size} of ${N} arrived`);

  const [svcRate, bareRate, bodyBytes] = [N / burstSeconds, N / bareSeconds, Buffer.byteLength(sample!.body)];
  const [b, p, c] = [burstLatency, probeLatency, bareLatency].map(stats);
  const row = (name: string, ...cells: unknown[]) => console.log(name.padEnd(48) + cells.map((x, i) => String(x).padStart(i ? 9 : 8)).join(''));
  console.log(`\nwebhook delivery: ${N} events, ${WORKERS} worker(s) × ${CONCURRENCY} in flight, pool ${POOL} per worker, poll ${INTERVAL_MS} ms, body ${bodyBytes} B`);
  row('', 'deliv/s', 'p50 ms', 'p99 ms', 'max ms');
  row('svc burst: batch commit → arrival', svcRate.toFixed(0), b.p50, b.p99, b.max);
  row('svc idle, 1 event at a time: commit → arrival', '', p.p50, p.p99, p.max);
  row('bare undici POST loop: request round trip', bareRate.toFixed(0), c.p50, c.p99, c.max);
  console.log(`svc / bare deliveries per second: ${(svcRate / bareRate).toFixed(3)}`);
  console.log(`burst: ${N} events recorded in ${Math.ceil(N / BATCH)} transactions of ${BATCH} within ${(recordedIn / 1000).toFixed(2)} s while delivering; deliv/s = ${N} / (first record → last arrival, ${burstSeconds.toFixed(2)} s).`);
  console.log(`burst latency counts from each batch's commit, so it is mostly queueing: ${BATCH} notifications become due at once, behind the burst's backlog; idle latency is the path itself. ${burstRequests - N} duplicate requests.`);
  // Several workers here share one event loop: that tests lease sharing, not CPU scale-out.
  if (WORKERS > 1) console.log(`the ${WORKERS} workers share this process's one thread: this shows them sharing the work (see duplicates), not scale-out across cores.`);
  const svc = { deliveries_per_s: +svcRate.toFixed(1), burst_latency_ms: b, idle_latency_ms: p, duplicates: burstRequests - N };
  const bare = { deliveries_per_s: +bareRate.toFixed(1), latency_ms: c };
  console.log(JSON.stringify({ bench: 'webhooks', events: N, workers: WORKERS, concurrency: CONCURRENCY, pool: POOL, body_bytes: bodyBytes, svc, bare, ratio: +(svcRate / bareRate).toFixed(3) }));
} finally {
  await stopWorkers();
  await agent.close();
  await Promise.all(pools.map((p) => p.end()));
  await new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())));
  await database.drop();
}
