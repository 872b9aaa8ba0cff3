// bench:webhooks' receivers, each in a process of its own: a loopback HTTP server that notes the
// first arrival of each webhook-id and answers 200 after `delayMs`. Apart from the bench's own
// process, which records the events during svc's rounds (and not during the bare loop's), so
// neither side's receiver shares an event loop with anything else. Times are CLOCK_MONOTONIC in
// ms (process.hrtime), the same clock in every process of the machine, so the parent compares
// them with its own commits. Talks over IPC.
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { askerOf } from './ipc.ts';

/** Milliseconds on the machine's monotonic clock, comparable across processes. */
export const monotonicMs = (): number => Number(process.hrtime.bigint()) / 1e6;

export interface Sample {
  body: string;
  headers: IncomingHttpHeaders;
}

type Ask = { reset?: true; arrived?: number; arrivals?: true; sample?: true };
type Answer = { id?: number; error?: string; url?: string; lastArrival?: number; arrivals?: [string, number][]; requests?: number; sample?: Sample };

export interface Receiver {
  url: string;
  /** Forgets what arrived so far. */
  reset(): Promise<void>;
  /** Once `n` distinct ids have arrived: the time the last of them first arrived; rejects at the deadline instead of waiting on. */
  arrived(n: number): Promise<number>;
  /** Each id's first arrival, and how many requests came (duplicates too). */
  arrivals(): Promise<{ arrivals: Map<string, number>; requests: number }>;
  /** The first request that arrived since the receiver started. */
  sample(): Promise<Sample>;
  close(): Promise<void>;
}

/** A receiver in a child process; `deadline` (Date.now() ms) bounds every wait for arrivals. */
export async function startReceiverProcess(delayMs: number, deadline: number): Promise<Receiver> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), [String(delayMs), String(deadline)], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  const ask = askerOf<Ask, Answer>(child);
  const [ready] = (await once(child, 'message')) as [Answer];
  return {
    url: ready.url!,
    reset: async () => void (await ask({ reset: true })),
    arrived: async (n) => (await ask({ arrived: n })).lastArrival!,
    async arrivals() {
      const a = await ask({ arrivals: true });
      return { arrivals: new Map(a.arrivals), requests: a.requests! };
    },
    sample: async () => (await ask({ sample: true })).sample!,
    async close() {
      child.disconnect();
      if (child.exitCode === null) await once(child, 'exit');
    },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.send) {
  const delayMs = Number(process.argv[2]);
  const deadline = Number(process.argv[3]);
  const send = (a: Answer) => process.send!(a);
  const arrivals = new Map<string, number>();
  let requests = 0;
  let lastArrival = 0;
  let sample: Sample | undefined;
  let waiter: { n: number; id: number; timer: NodeJS.Timeout } | undefined;
  const answerWaiter = () => {
    if (!waiter || arrivals.size < waiter.n) return;
    clearTimeout(waiter.timer);
    send({ id: waiter.id, lastArrival });
    waiter = undefined;
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests++;
      const id = String(req.headers['webhook-id']);
      if (!arrivals.has(id)) arrivals.set(id, (lastArrival = monotonicMs()));
      sample ??= { body: Buffer.concat(chunks).toString('utf8'), headers: req.headers };
      const answer = () => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      if (delayMs > 0) setTimeout(answer, delayMs);
      else answer();
      answerWaiter();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  send({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks` });
  process.on('message', (q: Ask & { id: number }) => {
    if (q.reset) {
      arrivals.clear();
      requests = 0;
      send({ id: q.id });
    } else if (q.arrived !== undefined) {
      const n = q.arrived;
      const timer = setTimeout(() => {
        send({ id: q.id, error: `timed out: ${arrivals.size} of ${n} deliveries arrived` });
        waiter = undefined;
      }, deadline - Date.now());
      waiter = { n, id: q.id, timer };
      answerWaiter();
    } else if (q.arrivals) send({ id: q.id, arrivals: [...arrivals], requests });
    else if (q.sample) send({ id: q.id, sample });
  });
  process.on('disconnect', () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
}
