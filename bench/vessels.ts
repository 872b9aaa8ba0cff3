// `npm run bench:vessels`: what the vessel position endpoints cost over real HTTP on loopback.
// A predicted path across the Pacific (one position a minute, ~24k) and one cut at the cap (43,200),
// each timed from request to parsed body; and the routing 403 beside GET /v2/account, to show the
// feature check adds no query (the flags come with the API key).
import { performance } from 'node:perf_hooks';
import { buildApp } from '../src/http/app.ts';
import { createApiKey } from '../src/services/api-keys.ts';
import { setFeature } from '../src/services/features.ts';
import { insertAccount } from '../src/store/accounts.ts';
import { createPool } from '../src/store/db.ts';
import { findPort } from '../src/store/reference.ts';
import { benchDatabase } from './database.ts';

const database = await benchDatabase();
const db = createPool(database.url);
// Each reading of the clock is a second later, so the rate limiter never refuses a request (see bench/api.ts).
let tick = Date.parse('2026-01-01T00:00:00Z');
const clock = { now: () => new Date((tick += 1000)) };
const app = await buildApp({ db, clock });
const base = await app.listen({ port: 0, host: '127.0.0.1' });

async function key(name: string): Promise<{ id: string; key: string }> {
  const account = await insertAccount(db, name);
  return { id: account.id, key: (await createApiKey(db, account.id, 'bench')).key };
}

/** Median milliseconds of `runs` sequential requests, after two to warm up; the status and size of the last. */
async function median(path: string, token: string, runs: number) {
  const times: number[] = [];
  let last = { status: 0, bytes: 0 };
  for (let i = 0; i < runs + 2; i++) {
    const start = performance.now();
    const res = await fetch(base + path, { headers: { authorization: `Token ${token}` } });
    const text = await res.text();
    JSON.parse(text);
    if (i >= 2) times.push(performance.now() - start);
    last = { status: res.status, bytes: text.length };
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(times.length / 2)], ...last };
}

try {
  const [shanghai, losAngeles, rotterdam] = await Promise.all(['CNSHA', 'USLAX', 'NLRTM'].map(async (code) => (await findPort(db, code))!));
  const enabled = await key('enabled');
  const disabled = await key('disabled');
  await setFeature(db, disabled.id, 'routing', false);
  const path = (from: { latitude: number | null; longitude: number | null }, to: string, previous: string) =>
    `/v2/vessels/9811000/future_positions_with_coordinates?port_id=${to}&previous_port_id=${previous}&latitude=${from.latitude}&longitude=${from.longitude}`;

  const rows = [
    ['Pacific path, Shanghai to Los Angeles at 14 kn', await median(path(shanghai, losAngeles.id, shanghai.id), enabled.key, 10)],
    ['Shanghai to Rotterdam at 14 kn, cut at 43,200 positions', await median(path(shanghai, rotterdam.id, shanghai.id), enabled.key, 10)],
    ['GET /v2/account', await median('/v2/account', enabled.key, 200)],
    ['GET /v2/vessels/9811000 (latest position)', await median('/v2/vessels/9811000', enabled.key, 200)],
    ['403: show_positions without the routing feature', await median('/v2/vessels/9811000?show_positions=true', disabled.key, 200)],
    ['403: future_positions without the routing feature', await median(path(shanghai, losAngeles.id, shanghai.id), disabled.key, 200)],
  ] as const;
  for (const [label, r] of rows) console.log(`${label.padEnd(62)} ${String(r.status).padEnd(4)} ${r.ms.toFixed(2).padStart(8)} ms median  ${(r.bytes / 1e6).toFixed(2)} MB`);
  console.log(`403 / GET /v2/account latency ratio: ${(rows[4][1].ms / rows[2][1].ms).toFixed(2)}`);
} finally {
  await app.close();
  await db.end();
  await database.drop();
}
