// `npm run bench:lists`: the time of one request to each list, filter and search route over real
// HTTP on loopback (one client, so the figure is a request's latency, not the machine's
// throughput), on an account of BENCH_CONTAINERS containers (default 100,000: half as many
// shipments and tracking requests, as many webhook notifications) beside another as large.
// BENCH_BASELINE=<another checkout of svc> runs the same requests against that code on its own
// database, seeded alike, in interleaved rounds (BENCH_ROUNDS, default 5), and prints the ratio of
// the medians: how a change to the SQL moved each route on this machine, whatever else it runs.
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { seedLists } from '../test/support/list-seed.ts';

const CONTAINERS = Number(process.env.BENCH_CONTAINERS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const here = path.resolve(import.meta.dirname, '..');
const baselineRoot = process.env.BENCH_BASELINE ? path.resolve(process.env.BENCH_BASELINE) : undefined;

if (!process.env.SVC_TEST_DATABASE_URL) process.env.SVC_TEST_DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

interface Target {
  name: string;
  base: string;
  headers: Record<string, string>;
  close(): Promise<void>;
}

/** svc as checked out at `root`, on a fresh database of its own schema, seeded alike (list-seed.ts). */
async function start(name: string, root: string): Promise<Target & { sample: Record<string, string> }> {
  const load = (p: string) => import(path.join(root, p));
  const { freshDatabase } = await load('test/support/database.ts');
  const { buildApp } = await load('src/http/app.ts');
  const { createApiKey } = await load('src/services/api-keys.ts');
  const { createPool } = await load('src/store/db.ts');
  const database = await freshDatabase();
  const seeded = await seedLists(database.db, { accounts: 2, containersPerAccount: CONTAINERS });
  const sample = { account: seeded.accounts[0], number: seeded.number, port: seeded.port };
  // Each reading of the clock is a second later, so the rate limit (100 a minute) never refuses.
  let tick = Date.parse('2026-01-01T00:00:00Z');
  const db = createPool(database.url);
  const app: FastifyInstance = await buildApp({ db, clock: { now: () => new Date((tick += 1000)) } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const { key } = await createApiKey(database.db, sample.account);
  return {
    name,
    sample,
    base: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    headers: { authorization: `Token ${key}` },
    async close() {
      await app.close();
      await db.end();
      await database.drop();
    },
  };
}

const roots: [string, string][] = [['this checkout', here], ...(baselineRoot ? ([['baseline', baselineRoot]] as [string, string][]) : [])];
process.stdout.write(`seeding ${CONTAINERS} containers per account, two accounts, for ${roots.map(([n]) => n).join(' and ')}…\n`);
const targets: Awaited<ReturnType<typeof start>>[] = [];
for (const [name, root] of roots) targets.push(await start(name, root));
const { number, port } = targets[0].sample;

const routes: [string, string][] = [
  ['search, a whole container number', `/v2/search?query=${number}`],
  ['search, part of a number', `/v2/search?query=${number.slice(4, 10)}`],
  ['search, a reference number', '/v2/search?query=PO-1-33333'],
  ['shipments', '/v2/shipments'],
  ['shipments, page 50', '/v2/shipments?page[number]=50'],
  ['shipments?q=container number', `/v2/shipments?q=${number}`],
  ['shipments?filter[status]=available', '/v2/shipments?filter[status]=available'],
  ['shipments?filter[pod_locode]=', `/v2/shipments?filter[pod_locode]=${port}`],
  ['shipments?filter[tracking_stopped]=true', '/v2/shipments?filter[tracking_stopped]=true'],
  ['shipments?sort=-updated_at', '/v2/shipments?sort=-updated_at'],
  ['containers', '/v2/containers'],
  ['containers?filter[status]=available', '/v2/containers?filter[status]=available'],
  ['containers?filter[number]=', `/v2/containers?filter[number]=${number}`],
  ['tracking_requests', '/v2/tracking_requests'],
  ['tracking_requests?filter[status]=pending', '/v2/tracking_requests?filter[status]=pending'],
  ['tracking_requests?q=', '/v2/tracking_requests?q=PO-1-4444'],
  ['webhook_notifications', '/v2/webhook_notifications'],
];

async function median(target: Target, url: string): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    const res = await fetch(target.base + url, { headers: target.headers });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${target.name} ${url}: ${res.status}`);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[RUNS >> 1];
}

// Each round asks every route of every target in turn, so both see the same load.
const figures = routes.map(() => targets.map(() => [] as number[]));
for (let round = 0; round < ROUNDS; round++) {
  for (const [r, [, url]] of routes.entries()) for (const [t, target] of targets.entries()) figures[r][t].push(await median(target, url));
}

const mid = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const range = (xs: number[]) => `${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)}`;
process.stdout.write(`\nms per request (median of ${RUNS} per round, median and range over ${ROUNDS} rounds)\n`);
process.stdout.write(`${'route'.padEnd(44)}${targets.map((t) => t.name.padStart(24)).join('')}${targets.length > 1 ? 'ratio'.padStart(9) : ''}\n`);
for (const [r, [name]] of routes.entries()) {
  const cells = figures[r].map((xs) => `${mid(xs).toFixed(1)} (${range(xs)})`.padStart(24)).join('');
  const ratio = targets.length > 1 ? `${(mid(figures[r][1]) / mid(figures[r][0])).toFixed(1)}x`.padStart(9) : '';
  process.stdout.write(`${name.padEnd(44)}${cells}${ratio}\n`);
}
if (targets.length > 1) process.stdout.write('ratio: baseline median / this checkout median (above 1: this checkout is faster)\n');
for (const target of targets) await target.close();
