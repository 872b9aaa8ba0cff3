// `npm run bench:webhooks`, two parts.
//
// 1. Throughput: fans BENCH_EVENTS events (default 10,000) out to one webhook on a loopback
//    receiver through svc's real path (outbox fan-out in the recording transaction, then
//    BENCH_WORKERS DeliveryWorkers claiming, rendering, signing, POSTing and recording), and
//    compares it with the ceiling: a bare undici POST loop, same concurrency and body, against
//    that receiver. Workers and bare loop run in one child process (webhook-delivery-process.ts),
//    never at once; each receiver runs in a process of its own (webhook-receiver-process.ts), the
//    same for both sides, and the event recorder stays in this one. svc runs twice a round:
//    - from a backlog (the goal's measure): the events are recorded and committed before its
//      workers start, and its time runs from their start, as the bare loop sends requests it
//      already holds: delivery against delivery;
//    - while recording: the same events are recorded (10 transactions of 1,000) while the workers
//      deliver, from the first record to the last arrival. The recording is tracking's work, not
//      delivery's (its CPU per event is printed), but on a 2-core machine it takes a core from
//      svc's rounds that the bare loop's have, so this ratio is lower; it shows a burst as it
//      comes in production.
//    The three take turns for BENCH_ROUNDS rounds (default 5), which goes first rotating, so a
//    busy machine weighs on all alike; each ratio is printed as the rounds' median, range and
//    values. Besides deliveries per second (noisy on a loaded 2-core machine), it compares the
//    sending process's CPU time per delivery (process.cpuUsage), and that plus the workers'
//    PostgreSQL backends' (/proc): ratios of CPU costs move far less with the machine's load than
//    wall throughput.
// 2. Fairness: a fast receiver of one account gets an event every BENCH_FAIR_EVERY_MS (default
//    20) for BENCH_FAIR_SECONDS (default 10), alone, then beside a slow receiver of another
//    account that answers in BENCH_SLOW_MS (default 5,000) with a backlog of BENCH_SLOW_BACKLOG
//    (default 200) notifications, in BENCH_FAIR_ROUNDS turns (default 3); the fast receiver's
//    commit → arrival latency, p50 and p99, with svc's per-receiver cap
//    (SVC_WEBHOOK_RECEIVER_CONCURRENCY's default), and once with the cap lifted to show what it
//    prevents.
// 3. Only with BENCH_PART=statements: the worker's statements without HTTP (claim, render, record)
//    in batches of 32, 128 and 256, with the CPU per notification of each in Node and PostgreSQL.
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Db, Tx } from '../src/store/db.ts';
import { claimDueNotifications, recordAttempts, type Attempt } from '../src/store/webhook-notifications.ts';
import { CLAIMED } from '../src/webhooks/delivery-worker.ts';
import { deliveryBodies } from '../src/webhooks/notification-document.ts';
import { defaultDeliveryPolicy } from '../src/webhooks/policy.ts';
import { recordBurstEvents, seedBurst, type Burst } from '../test/support/webhook-burst.ts';
import { benchDatabase } from './database.ts';
import { processCpuMs } from './process-cpu.ts';
import { startDeliveryProcess } from './webhook-delivery-process.ts';
import { monotonicMs, startReceiverProcess, type Sample } from './webhook-receiver-process.ts';

const N = Number(process.env.BENCH_EVENTS ?? 10_000);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 5));
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2_000); // events of the untimed first turn of each side
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32); // per worker, as in svc's policy
const WORKERS = Number(process.env.BENCH_WORKERS ?? 1);
const POOL = Number(process.env.BENCH_POOL ?? 10); // svc's own pool size (createPool's default)
const PROBES = Math.max(1, Number(process.env.BENCH_PROBES ?? 100));
const FAIR_SECONDS = Number(process.env.BENCH_FAIR_SECONDS ?? 10);
const FAIR_EVERY_MS = Number(process.env.BENCH_FAIR_EVERY_MS ?? 20);
const FAIR_ROUNDS = Math.max(1, Number(process.env.BENCH_FAIR_ROUNDS ?? 3));
const SLOW_MS = Number(process.env.BENCH_SLOW_MS ?? 5_000);
const SLOW_BACKLOG = Number(process.env.BENCH_SLOW_BACKLOG ?? 200);
const CAP = defaultDeliveryPolicy.receiverConcurrency;
const GOAL = 0.5; // issue 14: svc's deliveries/s at least half the bare loop's
const BATCH = 1000; // events per recording transaction
const INTERVAL_MS = 20;
const DEADLINE = Date.now() + 15 * 60_000; // the whole run fails rather than hangs past this
setTimeout(() => (console.error('bench:webhooks: gave up after 15 minutes'), process.exit(1)), DEADLINE - Date.now() + 30_000).unref();

const pct = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
const stats = (xs: number[]) => ({ p50: +pct(xs, 0.5).toFixed(1), p99: +pct(xs, 0.99).toFixed(1), max: +pct(xs, 1).toFixed(1) });
const row = (name: string, ...cells: unknown[]) => console.log(name.padEnd(52) + cells.map((x) => String(x).padStart(9)).join(''));
const trackingRequestOf = async (db: Db, burst: Burst) => (await db.query('SELECT id FROM tracking_requests WHERE account_id = $1', [burst.accountId])).rows[0].id as string;

const ownCpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/**
 * Records events one at a time, each at its own created_at, and notes when each committed, so a
 * notification maps back to its commit (created_at ms → monotonicMs() at commit). Records on its
 * own connection, and counts what recording costs: this process's CPU while a record runs, and
 * that connection's backend's.
 */
class EventRecorder {
  /** created_at ms → monotonicMs() at commit, the clock the receivers' arrivals are on. */
  readonly committedAt = new Map<number, number>();
  readonly cpuMs = { node: 0, pg: 0 };
  #at = 0;
  constructor(
    private readonly db: Db,
    private readonly writer: Tx,
    private readonly burst: Burst,
    private readonly trackingRequestId: string,
  ) {}
  async record(count: number): Promise<void> {
    this.#at = Math.max(Date.now(), this.#at + 1);
    const pid = (this.writer as unknown as { processID: number }).processID;
    const [node, pg] = [ownCpuMs(), processCpuMs(pid) ?? 0];
    await recordBurstEvents(this.writer, this.burst.accountId, this.trackingRequestId, count, new Date(this.#at));
    this.committedAt.set(this.#at, monotonicMs());
    this.cpuMs.node += ownCpuMs() - node;
    this.cpuMs.pg += (processCpuMs(pid) ?? 0) - pg;
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
  add(pid: number): void {
    this.#pids.add(pid);
  }
  #sample(): void {
    for (const pid of this.#pids) {
      const ms = processCpuMs(pid);
      if (ms === undefined) this.#pids.delete(pid); // gone (or not on this machine): keep its last sample
      else this.#last.set(pid, ms);
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
/** The connection events are recorded on (its backend's CPU is the recording's). */
const writer = await db.connect();
const backends = new BackendCpu();
const host = await startDeliveryProcess({
  databaseUrl: database.url,
  workers: WORKERS,
  pool: POOL,
  concurrency: CONCURRENCY,
  intervalMs: INTERVAL_MS,
  onBackend: (pid) => backends.add(pid),
  execArgv: process.env.BENCH_CHILD_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CHILD_PROF}`] : [],
});
const fast = await startReceiverProcess(0, DEADLINE);
const slow = await startReceiverProcess(SLOW_MS, DEADLINE);
/** What svc sent the fast receiver first: the bare loop sends this body and these headers. */
let sample: Sample | undefined;

/** The sending process's CPU (ms) and statements, and the workers' backends' CPU (ms), so far. */
const usage = async () => ({ ...(await host.usage()), pgMs: backends.total() });

/**
 * One svc burst of `n` events to a fresh webhook, delivered from a backlog (recorded before the
 * workers start, timed from their start) or while they are recorded (timed from the first
 * record); every one must end succeeded after one attempt.
 */
async function svcBurst(backlog: boolean, probes: number, n = N) {
  await fast.reset();
  const burst = await seedBurst(db, fast.url, 0);
  const events = new EventRecorder(db, writer, burst, await trackingRequestOf(db, burst));
  const recordAll = async () => {
    for (let done = 0; done < n; done += BATCH) await events.record(Math.min(BATCH, n - done));
  };
  // One receiver, nobody to be fair to: the cap is lifted (to all the worker may hold, claimed or
  // in flight), so both sides keep CONCURRENCY requests in flight.
  const receiverCap = CLAIMED * CONCURRENCY;
  if (backlog) await recordAll();
  else await host.start(receiverCap);
  const before = await usage();
  const started = monotonicMs();
  if (backlog) await host.start(receiverCap);
  else await recordAll();
  const recordedIn = backlog ? 0 : monotonicMs() - started;
  const seconds = ((await fast.arrived(n)) - started) / 1000;
  const { arrivals, requests } = await fast.arrivals();
  // Commit → arrival; from a backlog, all committed before the workers started, it would only
  // say how long the burst took.
  const burstLatency = backlog ? [] : await events.latencies(arrivals);
  const duplicates = requests - n;
  // CPU and statements count up to the last attempt's record: a delivery's cost includes its durable record.
  while ((await db.query(`SELECT 1 FROM webhook_notifications WHERE account_id = $1 AND delivery_status = 'pending' LIMIT 1`, [burst.accountId])).rowCount) await sleep(INTERVAL_MS);
  const after = await usage();
  const cpuMs = after.cpuMs - before.cpuMs;
  const pgCpuMs = after.pgMs === undefined || before.pgMs === undefined ? undefined : after.pgMs - before.pgMs;
  const burstStatements = after.statements - before.statements;
  const recordCpu = { ...events.cpuMs };

  // Idle probes: one event at a time with the workers idle, so the latency is svc's own path
  // (wake-up by NOTIFY, claim, render, sign, POST) without a queue in front of it. The random
  // pause lets the worker go idle, so an event lands at a random point of its cycle.
  const probeLatency: number[] = [];
  for (let i = 0; i < probes; i++) {
    await sleep(INTERVAL_MS * (1 + Math.random()));
    await events.record(1);
    const committed = monotonicMs();
    probeLatency.push((await fast.arrived(n + i + 1)) - committed);
  }
  await host.stop();
  const check = await db.query(`SELECT count(*) FILTER (WHERE delivery_status = 'succeeded') AS ok, sum(attempts) AS attempts FROM webhook_notifications WHERE account_id = $1`, [burst.accountId]);
  const { ok, attempts } = check.rows[0];
  if (ok !== n + probes || attempts !== n + probes) throw new Error(`expected ${n + probes} succeeded single attempts, got ${ok} succeeded and ${attempts} attempts`);
  sample ??= await fast.sample();
  return { rate: n / seconds, seconds, recordedIn, cpuMs, pgCpuMs, recordCpu, burstLatency, probeLatency, duplicates, statements: burstStatements };
}

/** The ceiling: the same receiver, `n` POSTs of an svc body and its headers, as many in flight, from the same kind of process. */
async function bareLoop(n = N) {
  await fast.reset();
  const headers: Record<string, string> = {};
  for (const h of ['content-type', 'user-agent', 'x-svc-webhook-signature', 'webhook-timestamp', 'webhook-signature']) headers[h] = String(sample!.headers[h]);
  const before = await host.usage();
  const { seconds, latency } = await host.bare({ url: fast.url, n, concurrency: CONCURRENCY * WORKERS, headers, body: sample!.body });
  const cpuMs = (await host.usage()).cpuMs - before.cpuMs;
  const { arrivals } = await fast.arrivals();
  if (arrivals.size !== n) throw new Error(`bare loop: ${arrivals.size} of ${n} arrived`);
  return { rate: n / seconds, cpuMs, latency };
}

/**
 * The fast receiver's latency while events arrive steadily for it, with a slow receiver's backlog
 * beside it or not; the slow account's leftovers are removed afterwards so no scenario inherits them.
 */
async function fairness(withSlow: boolean, receiverConcurrency: number) {
  await Promise.all([fast.reset(), slow.reset()]);
  const fastBurst = await seedBurst(db, fast.url, 0);
  const events = new EventRecorder(db, writer, fastBurst, await trackingRequestOf(db, fastBurst));
  const slowBurst = withSlow ? await seedBurst(db, slow.url, SLOW_BACKLOG) : undefined;
  await host.start(receiverConcurrency);
  const count = Math.round((FAIR_SECONDS * 1000) / FAIR_EVERY_MS);
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    await events.record(1);
    const wait = started + (i + 1) * FAIR_EVERY_MS - performance.now();
    if (wait > 0) await sleep(wait);
  }
  await fast.arrived(count);
  const latency = await events.latencies((await fast.arrivals()).arrivals);
  const slowDelivered = (await slow.arrivals()).arrivals.size;
  await host.stop();
  if (slowBurst) await db.query(`DELETE FROM webhook_notifications WHERE webhook_id = $1`, [slowBurst.webhookId]);
  return { latency, slowDelivered };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
/** "median (min–max; each round's)" of per-round ratios. */
const spread = (xs: number[], digits = 3) => `${median(xs).toFixed(digits)} (range ${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)}; rounds ${xs.map((x) => x.toFixed(digits)).join(', ')})`;
const summary = (xs: number[]) => ({ median: +median(xs).toFixed(3), min: +Math.min(...xs).toFixed(3), max: +Math.max(...xs).toFixed(3), rounds: xs.map((x) => +x.toFixed(3)) });

/** Part 1: svc from a backlog, svc while recording, and the bare loop taking turns; what the JSON line reports of it. */
async function throughputPart() {
  // Each side runs once untimed first, so no round 1 pays for compiling the code it runs.
  await svcBurst(true, 1, WARMUP);
  await svcBurst(false, 1, WARMUP);
  await bareLoop(WARMUP);
  type Burst = Awaited<ReturnType<typeof svcBurst>>;
  const rounds: { backlog: Burst; live: Burst; bare: Awaited<ReturnType<typeof bareLoop>>; load: string }[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // Which side goes first rotates, so none always runs on another's leftovers (vacuum, caches).
    const sides = ['backlog', 'live', 'bare'] as const;
    const order = [...sides.slice(round % 3), ...sides.slice(0, round % 3)];
    const got: Partial<(typeof rounds)[number]> = {};
    for (const side of order) {
      if (side === 'bare') got.bare = await bareLoop();
      else got[side] = await svcBurst(side === 'backlog', side === 'backlog' && round === 0 ? PROBES : 1);
    }
    rounds.push({ backlog: got.backlog!, live: got.live!, bare: got.bare!, load: readFileSync('/proc/loadavg', 'utf8').split(' ')[0] });
  }
  const [b, p, c] = [rounds.flatMap((r) => r.live.burstLatency), rounds[0].backlog.probeLatency, rounds.flatMap((r) => r.bare.latency)].map(stats);
  const perDelivery = (ms: number) => (ms * 1000) / N;
  const cpuOf = (pick: (r: (typeof rounds)[number]) => Burst) => ({
    node: rounds.map((r) => perDelivery(pick(r).cpuMs)),
    pg: rounds.every((r) => pick(r).pgCpuMs !== undefined) ? rounds.map((r) => perDelivery(pick(r).pgCpuMs!)) : undefined,
  });
  const backlogCpu = cpuOf((r) => r.backlog);
  const liveCpu = cpuOf((r) => r.live);
  const bareCpu = rounds.map((r) => perDelivery(r.bare.cpuMs));
  const recordCpu = { node: rounds.map((r) => perDelivery(r.live.recordCpu.node)), pg: rounds.map((r) => perDelivery(r.live.recordCpu.pg)) };
  const rateRatios = rounds.map((r) => r.backlog.rate / r.bare.rate);
  const liveRatios = rounds.map((r) => r.live.rate / r.bare.rate);
  const cpuRatios = rounds.map((r) => r.bare.cpuMs / r.backlog.cpuMs);
  const cpuPgRatios = backlogCpu.pg && rounds.map((r, i) => bareCpu[i] / (backlogCpu.node[i] + backlogCpu.pg![i]));
  const bodyBytes = Buffer.byteLength(sample!.body);
  const us = (xs: number[] | undefined) => (xs ? median(xs).toFixed(0) : '?');
  const rate = (pick: (r: (typeof rounds)[number]) => { rate: number }) => median(rounds.map((r) => pick(r).rate));
  console.log(`\nwebhook delivery: ${N} events × ${ROUNDS} rounds, ${WORKERS} worker(s) × ${CONCURRENCY} in flight, pool ${POOL} per worker, body ${bodyBytes} B; load average ${rounds.map((r) => r.load).join(', ')}`);
  row('(medians of the rounds; latencies over all)', 'deliv/s', 'p50 ms', 'p99 ms', 'max ms', 'µs CPU', 'µs PG');
  row('svc from a backlog: workers\' start → last arrival', rate((r) => r.backlog).toFixed(0), '', '', '', us(backlogCpu.node), us(backlogCpu.pg));
  row('svc while recording: batch commit → arrival', rate((r) => r.live).toFixed(0), b.p50, b.p99, b.max, us(liveCpu.node), us(liveCpu.pg));
  row('svc idle, 1 event at a time: commit → arrival', '', p.p50, p.p99, p.max, '');
  row('bare undici POST loop: request round trip', rate((r) => r.bare).toFixed(0), c.p50, c.p99, c.max, us(bareCpu));
  console.log(`svc from a backlog / bare deliveries per second:   ${spread(rateRatios)}`);
  console.log(`svc while recording / bare deliveries per second:  ${spread(liveRatios)}`);
  console.log(`bare / svc CPU per delivery (sending process, from a backlog): ${spread(cpuRatios)}`);
  if (cpuPgRatios) console.log(`bare / (svc + its PostgreSQL) CPU per delivery (from a backlog): ${spread(cpuPgRatios)}`);
  console.log(
    `recording the events (tracking's work, not delivery's: ${Math.ceil(N / BATCH)} transactions of ${BATCH}, within ${(rounds[0].live.recordedIn / 1000).toFixed(2)} s of the burst while recording): ` +
      `${us(recordCpu.node)} µs of this process's CPU and ${us(recordCpu.pg)} µs of PostgreSQL's per event, beside svc's rounds alone`,
  );
  console.log(`µs CPU: the sending process's CPU time per delivery (svc's workers up to the last attempt's record, or the bare loop; receivers run in processes of their own, event recording in the bench's); µs PG: the workers' PostgreSQL backends' (from /proc). Latency while recording counts from each batch's commit, so it is mostly queueing. ${rounds.reduce((a, r) => a + r.backlog.duplicates + r.live.duplicates, 0)} duplicate requests.`);
  const statementsPer = rounds.reduce((a, r) => a + r.backlog.statements + r.live.statements, 0) / (2 * ROUNDS * N);
  console.log(`statements per delivery: ${statementsPer.toFixed(3)} (the workers' pools, bursts only: claims, renders, records, health)`);
  if (WORKERS > 1) console.log(`the ${WORKERS} workers share one process's thread: this shows them sharing the work (see duplicates), not scale-out across cores.`);
  const met = median(rateRatios) >= GOAL;
  console.log(
    `goal (svc ≥ ${GOAL} of the bare loop's deliveries/s delivering a backlog, full durability): ${met ? 'MET' : 'NOT MET'} — median ratio ${median(rateRatios).toFixed(3)}, ${rateRatios.filter((r) => r >= GOAL).length} of ${ROUNDS} rounds at or above (while recording: ${median(liveRatios).toFixed(3)}); ` +
      `CPU per delivery, svc ${us(backlogCpu.node)} µs Node + ${us(backlogCpu.pg)} µs PostgreSQL against ${us(bareCpu)} µs for the bare loop; load average ${rounds.map((r) => r.load).join(', ')}`,
  );

  const svc = { deliveries_per_s: +rate((r) => r.backlog).toFixed(1), statements_per_delivery: +statementsPer.toFixed(3), cpu_us: summary(backlogCpu.node), pg_cpu_us: backlogCpu.pg ? summary(backlogCpu.pg) : null, idle_latency_ms: p };
  const whileRecording = {
    deliveries_per_s: +rate((r) => r.live).toFixed(1),
    ratio: summary(liveRatios),
    cpu_us: summary(liveCpu.node),
    pg_cpu_us: liveCpu.pg ? summary(liveCpu.pg) : null,
    burst_latency_ms: b,
    recording_cpu_us_per_event: { node: summary(recordCpu.node), pg: summary(recordCpu.pg) },
  };
  const bare = { deliveries_per_s: +rate((r) => r.bare).toFixed(1), cpu_us: summary(bareCpu), latency_ms: c };
  return {
    events: N,
    rounds: ROUNDS,
    workers: WORKERS,
    concurrency: CONCURRENCY,
    pool: POOL,
    body_bytes: bodyBytes,
    load: rounds.map((r) => +r.load),
    svc,
    svc_while_recording: whileRecording,
    bare,
    ratio: summary(rateRatios),
    goal: { ratio: GOAL, met },
    cpu_ratio: summary(cpuRatios),
    cpu_with_pg_ratio: cpuPgRatios ? summary(cpuPgRatios) : null,
  };
}

/** Part 2: the fast receiver alone and beside the slow one, in turns, with the cap; once more without it. */
async function fairnessPart() {
  const rounds: { alone: ReturnType<typeof stats>; beside: ReturnType<typeof stats>; slowGot: number; load: string }[] = [];
  // Every round's latencies together: a p99 of FAIR_ROUNDS times more arrivals than one round's.
  const pooled = { alone: [] as number[], beside: [] as number[] };
  console.log(`\nfairness: a fast receiver gets an event every ${FAIR_EVERY_MS} ms for ${FAIR_SECONDS} s; another account's receiver answers in ${SLOW_MS} ms, ${SLOW_BACKLOG} notifications due; one worker × ${CONCURRENCY}`);
  row('fast receiver, commit → arrival', 'p50 ms', 'p99 ms', 'max ms', 'slow got', 'load');
  for (let round = 0; round < FAIR_ROUNDS; round++) {
    // Alternating which goes first, as in part 1.
    const order = round % 2 === 0 ? [false, true] : [true, false];
    const got: Record<string, Awaited<ReturnType<typeof fairness>>> = {};
    for (const withSlow of order) got[String(withSlow)] = await fairness(withSlow, CAP);
    const load = readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
    pooled.alone.push(...got.false.latency);
    pooled.beside.push(...got.true.latency);
    const alone = stats(got.false.latency);
    const beside = stats(got.true.latency);
    row(`round ${round + 1}: alone`, alone.p50, alone.p99, alone.max, '', load);
    row(`round ${round + 1}: beside the slow one, cap ${CAP} per receiver`, beside.p50, beside.p99, beside.max, got.true.slowDelivered, load);
    rounds.push({ alone, beside, slowGot: got.true.slowDelivered, load });
  }
  const uncapped = await fairness(true, CONCURRENCY);
  const u = stats(uncapped.latency);
  row(`beside the slow one, cap lifted to ${CONCURRENCY}`, u.p50, u.p99, u.max, uncapped.slowDelivered, readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
  const p99Ratios = rounds.map((r) => r.beside.p99 / r.alone.p99);
  const p50Ratios = rounds.map((r) => r.beside.p50 / r.alone.p50);
  const aloneP99 = median(rounds.map((r) => r.alone.p99));
  const [pooledAlone, pooledBeside] = [stats(pooled.alone), stats(pooled.beside)];
  console.log(`fast p99 beside the slow receiver / alone: ${spread(p99Ratios, 2)}; all rounds' arrivals together: ${pooledBeside.p99} / ${pooledAlone.p99} ms = ${(pooledBeside.p99 / pooledAlone.p99).toFixed(2)}`);
  console.log(`fast p50 beside the slow receiver / alone: ${spread(p50Ratios, 2)}`);
  console.log(`without the cap: fast p99 ${u.p99} ms, ${(u.p99 / aloneP99).toFixed(1)}× the median p99 alone`);
  return {
    rounds: rounds.map((r) => ({ alone: r.alone, beside_slow_capped: r.beside, load: +r.load })),
    p99_ratio: summary(p99Ratios),
    pooled: { alone: pooledAlone, beside_slow_capped: pooledBeside, p99_ratio: +(pooledBeside.p99 / pooledAlone.p99).toFixed(2) },
    p50_ratio: summary(p50Ratios),
    beside_slow_uncapped: u,
    uncapped_p99_ratio: +(u.p99 / aloneP99).toFixed(2),
    cap: CAP,
    slow_ms: SLOW_MS,
  };
}

/**
 * Part 3, only with BENCH_PART=statements: the worker's statements alone, no HTTP: claim, render
 * and record (all delivered) BENCH_EVENTS notifications in batches of each size, one connection;
 * the CPU per notification of this process and of its PostgreSQL backend, phase by phase. Steadier
 * than part 1 on a loaded machine, and it shows what a statement's fixed cost weighs per batch size.
 */
async function statementsPart() {
  console.log(`\nthe worker's statements alone: ${N} notifications claimed, rendered and recorded as delivered, in batches; CPU µs per notification`);
  row('batch', 'PG claim', 'PG rendr', 'PG recrd', 'JS claim', 'JS rendr', 'JS recrd', 'load');
  const out: Record<string, unknown>[] = [];
  for (const size of [32, 128, 256]) {
    const burst = await seedBurst(db, 'http://127.0.0.1:9/never-sent', N);
    const client = await db.connect();
    try {
      const pid = (client as unknown as { processID: number }).processID;
      const pgMs = () => processCpuMs(pid) ?? 0;
      const jsMs = ownCpuMs;
      const pg = { claim: 0, render: 0, record: 0 };
      const js = { claim: 0, render: 0, record: 0 };
      const timed = async <T>(phase: keyof typeof pg, run: () => Promise<T>): Promise<T> => {
        const [p0, j0] = [pgMs(), jsMs()];
        const result = await run();
        pg[phase] += pgMs() - p0;
        js[phase] += jsMs() - j0;
        return result;
      };
      let done = 0;
      for (;;) {
        const now = new Date();
        const claimed = await timed('claim', () => claimDueNotifications(client, now, new Date(now.getTime() + 60_000), size));
        if (claimed.length === 0) break;
        await timed('render', () => deliveryBodies(client, burst.accountId, claimed, now));
        const attempts: Attempt[] = claimed.map((n) => ({
          log: { notificationId: n.id, accountId: n.account_id, attempt: n.attempts, url: n.url, succeeded: true, statusCode: 200, durationMs: 1, error: null, responseBody: 'ok' },
          outcome: { status: 'succeeded' },
          at: now,
        }));
        await timed('record', () => recordAttempts(client, attempts));
        done += claimed.length;
      }
      const us = (ms: number) => +((ms * 1000) / done).toFixed(1);
      const load = readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
      row(String(size), us(pg.claim), us(pg.render), us(pg.record), us(js.claim), us(js.render), us(js.record), load);
      out.push({ batch: size, pg_us: { claim: us(pg.claim), render: us(pg.render), record: us(pg.record) }, js_us: { claim: us(js.claim), render: us(js.render), record: us(js.record) }, load: +load });
    } finally {
      client.release();
    }
  }
  console.log('PG: the backend\'s CPU (from /proc, 10 ms ticks); JS: this process\'s, building the statements and parsing the answers (render: the documents too).');
  return out;
}

try {
  // BENCH_PART=throughput or fairness runs one part (statements runs the third, only on demand);
  // BENCH_CHILD_PROF=<dir> profiles the sending process.
  const part = process.env.BENCH_PART;
  if (part === 'statements') console.log(JSON.stringify({ bench: 'webhooks', statements: await statementsPart() }));
  else {
    const throughput = part === 'fairness' ? undefined : await throughputPart();
    const fairnessJson = part === 'throughput' ? undefined : await fairnessPart();
    console.log(JSON.stringify({ bench: 'webhooks', ...throughput, fairness: fairnessJson }));
  }
} finally {
  backends.stop();
  writer.release();
  await host.close();
  await fast.close();
  await slow.close();
  await database.drop();
}
