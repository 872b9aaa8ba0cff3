// A closed-loop HTTP load generator: `concurrency` requests in flight for `seconds`, client i
// using headers[i % headers.length]. Runs in a worker thread so the client does not share the
// server's event loop. Plain JavaScript: worker threads do not inherit tsx's loader on Node 20.
import http from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

const agent = new http.Agent({ keepAlive: true, maxSockets: 1024 });

function get(url, headers) {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    req.on('error', reject);
  });
}

/** @returns {Promise<{ requests: number, errors: number, seconds: number, latenciesMs: number[] }>} */
async function run({ url, headers, concurrency, seconds }) {
  const latencies = [];
  let errors = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, i) => {
      while (performance.now() < end) {
        const t0 = performance.now();
        const status = await get(url, headers[i % headers.length]);
        latencies.push(performance.now() - t0);
        if (status >= 400) errors++;
      }
    }),
  );
  return { requests: latencies.length, errors, seconds: (performance.now() - start) / 1000, latenciesMs: latencies };
}

parentPort.postMessage(await run(workerData));
