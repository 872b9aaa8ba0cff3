// A closed-loop HTTP load generator: `concurrency` requests in flight for `seconds`, client i
// using headers[i % headers.length]; GETs, or POSTs of `body` when given (MCP's JSON-RPC calls). Runs in a worker thread so the client does not share the
// server's event loop. Plain JavaScript: worker threads do not inherit tsx's loader on Node 20.
import http from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

const agent = new http.Agent({ keepAlive: true, maxSockets: 1024 });

function send(url, headers, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { agent, headers, method: body === undefined ? 'GET' : 'POST' }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** @returns {Promise<{ requests: number, errors: number, seconds: number, latenciesMs: number[] }>} */
async function run({ url, headers, concurrency, seconds, body }) {
  const latencies = [];
  let errors = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, i) => {
      while (performance.now() < end) {
        const t0 = performance.now();
        const status = await send(url, headers[i % headers.length], body);
        latencies.push(performance.now() - t0);
        if (status >= 400) errors++;
      }
    }),
  );
  return { requests: latencies.length, errors, seconds: (performance.now() - start) / 1000, latenciesMs: latencies };
}

// With workerData.persistent the worker stays up and runs each load it is sent ({ url, headers,
// concurrency, seconds }), answering each with its result: short loads taking turns keep their
// connections and skip a worker's start-up each time.
if (workerData.persistent) parentPort.on('message', async (load) => parentPort.postMessage(await run(load)));
else parentPort.postMessage(await run(workerData));
