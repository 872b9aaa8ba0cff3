// A closed-loop HTTP load generator: `concurrency` requests in flight for `seconds`.
// Runs in a worker thread so the client does not share the server's event loop.
import { parentPort, workerData } from 'node:worker_threads';

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  latenciesMs: number[];
}

async function run({ url, headers, concurrency, seconds }: { url: string; headers: Record<string, string>; concurrency: number; seconds: number }): Promise<LoadResult> {
  const latencies: number[] = [];
  let errors = 0;
  const end = performance.now() + seconds * 1000;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const t0 = performance.now();
        const res = await fetch(url, { headers });
        await res.arrayBuffer();
        latencies.push(performance.now() - t0);
        if (res.status >= 400) errors++;
      }
    }),
  );
  return { requests: latencies.length, errors, seconds: (performance.now() - start) / 1000, latenciesMs: latencies };
}

if (parentPort) parentPort.postMessage(await run(workerData));
