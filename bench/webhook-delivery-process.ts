// bench:webhooks' sending side in a process of its own: svc's DeliveryWorkers (as `svc deliver`
// runs them) or the bare undici POST loop they are compared with, never both at once. The
// receivers and the event recorder stay in the parent, so this process's CPU time is the sending
// side's alone, and the two sides' CPU per delivery compare like for like. Talks over IPC.
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { systemClock } from '../src/clock.ts';
import { createPool, type Db } from '../src/store/db.ts';
import { DeliveryWorker } from '../src/webhooks/delivery-worker.ts';
import { askerOf } from './ipc.ts';

export interface BareLoop {
  url: string;
  n: number;
  concurrency: number;
  headers: Record<string, string>;
  body: string;
}

type Ask = { id: number; start?: { receiverConcurrency: number }; stop?: true; bare?: BareLoop; cpu?: true };
type Answer = { id: number; cpuMs: number; statements: number; bare?: { seconds: number; latency: number[] }; error?: string };
/** Sent unasked: a new PostgreSQL backend serving the workers (its pid, for its CPU time). */
type Backend = { backendPid: number };

export interface DeliveryProcess {
  /** Starts `workers` DeliveryWorkers with this per-receiver cap. */
  start(receiverConcurrency: number): Promise<void>;
  stop(): Promise<void>;
  bare(loop: BareLoop): Promise<{ seconds: number; latency: number[] }>;
  /** The process's CPU time so far (user + system, ms) and the statements its workers sent. */
  usage(): Promise<{ cpuMs: number; statements: number }>;
  close(): Promise<void>;
}

export interface DeliveryProcessOptions {
  databaseUrl: string;
  workers: number;
  pool: number;
  concurrency: number;
  intervalMs: number;
  /** Hears of each PostgreSQL backend the workers' pools open. */
  onBackend: (pid: number) => void;
  /** Extra node flags for the child (e.g. --cpu-prof). */
  execArgv?: string[];
}

export async function startDeliveryProcess(options: DeliveryProcessOptions): Promise<DeliveryProcess> {
  const { onBackend, execArgv = [], ...settings } = options;
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), [JSON.stringify(settings)], { execArgv: ['--import', 'tsx', ...execArgv], stdio: 'inherit' });
  const ask = askerOf<Omit<Ask, 'id'>, Answer>(child, (m) => onBackend((m as Backend).backendPid));
  await ask({ cpu: true });
  return {
    start: async (receiverConcurrency) => void (await ask({ start: { receiverConcurrency } })),
    stop: async () => void (await ask({ stop: true })),
    bare: async (loop) => (await ask({ bare: loop })).bare!,
    usage: async () => (({ cpuMs, statements }) => ({ cpuMs, statements }))(await ask({ cpu: true })),
    async close() {
      child.disconnect();
      if (child.exitCode === null) await once(child, 'exit');
    },
  };
}

/** `n` POSTs of the same body and headers (a fresh webhook-id each), `concurrency` in flight. */
async function bareLoop(agent: Agent, loop: BareLoop): Promise<{ seconds: number; latency: number[] }> {
  const latency: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: loop.concurrency }, async () => {
      while (next < loop.n) {
        const id = `bare-${String(next++).padStart(31, '0')}`; // as long as a uuid
        const t0 = performance.now();
        const res = await request(loop.url, { method: 'POST', dispatcher: agent, headers: { ...loop.headers, 'webhook-id': id }, body: loop.body });
        await res.body.text();
        if (res.statusCode !== 200) throw new Error(`bare POST answered ${res.statusCode}`);
        latency.push(performance.now() - t0);
      }
    }),
  );
  return { seconds: (performance.now() - started) / 1000, latency };
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.send) {
  const settings = JSON.parse(process.argv[2]) as Omit<DeliveryProcessOptions, 'onBackend' | 'execArgv'>;
  const send = (m: Answer | Backend) => process.send!(m);
  let statements = 0;
  // Statements by the start of their SQL, printed at the end with BENCH_STATEMENTS.
  const kinds = new Map<string, number>();
  const pools: Db[] = Array.from({ length: settings.workers }, () => {
    const pool = createPool(settings.databaseUrl, settings.pool);
    pool.on('connect', (client) => send({ backendPid: (client as unknown as { processID: number }).processID }));
    const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
    pool.query = ((...args: unknown[]) => {
      statements++;
      if (process.env.BENCH_STATEMENTS) {
        const text = typeof args[0] === 'string' ? args[0] : String((args[0] as { text?: string }).text);
        const kind = text.replace(/\s+/g, ' ').trim().slice(0, 90);
        kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      }
      return query(...args);
    }) as typeof pool.query;
    return pool;
  });
  const agent = new Agent({ connections: settings.concurrency * settings.workers, keepAliveTimeout: 30_000 });
  let workers: DeliveryWorker[] = [];
  const answer = async (q: Ask): Promise<Omit<Answer, 'id' | 'cpuMs' | 'statements'>> => {
    if (q.start) {
      const policy = { concurrency: settings.concurrency, receiverConcurrency: q.start.receiverConcurrency };
      workers = pools.map((db) => new DeliveryWorker({ db, clock: systemClock, allowInsecure: true, policy }));
      for (const w of workers) w.start(settings.intervalMs);
    }
    if (q.stop) {
      // stop() closes each worker's HTTP agent, which undici refuses to do twice: stop each set once.
      const stopping = workers;
      workers = [];
      await Promise.all(stopping.map((w) => w.stop()));
    }
    if (q.bare) return { bare: await bareLoop(agent, q.bare) };
    return {};
  };
  process.on('message', (q: Ask) => {
    answer(q).then(
      (a) => {
        const { user, system } = process.cpuUsage();
        send({ id: q.id, cpuMs: (user + system) / 1000, statements, ...a });
      },
      (err: unknown) => send({ id: q.id, cpuMs: 0, statements, error: String(err) }),
    );
  });
  process.on('disconnect', () => {
    for (const [text, n] of [...kinds].sort((a, b) => b[1] - a[1])) console.log(String(n).padStart(8), text);
    void Promise.all(workers.map((w) => w.stop()))
      .then(() => Promise.all([agent.close(), ...pools.map((p) => p.end())]))
      .finally(() => process.exit(0));
  });
}
