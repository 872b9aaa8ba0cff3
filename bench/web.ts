// `npm run bench:web`: how fast the web app's pages are in a real browser. Tracks BENCH_SHIPMENTS
// sandbox shipments (default 1,000) some days into their journeys, then opens the shipments list and
// a shipment page (with its map) in headless Chromium, each BENCH_RUNS times with a cold cache, and
// prints first contentful paint, interactive (DOMContentLoaded: every page script has run; for the
// shipment page also the map drawn) and page weight, JavaScript measured gzipped without MapLibre.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { ManualClock, systemClock } from '../src/clock.ts';
import { HOUR } from '../src/domain/time-units.ts';
import { buildApp } from '../src/http/app.ts';
import { mountWeb, pageNotFound } from '../src/main/web.ts';
import { TrackingWorker } from '../src/services/tracking/worker.ts';
import { createUser } from '../src/services/users.ts';
import { insertAccount } from '../src/store/accounts.ts';
import { createPool } from '../src/store/db.ts';
import { ASSETS_DIR } from '../src/web/assets.ts';
import { launchChromium } from '../test/support/browser.ts';
import { benchDatabase } from './database.ts';
import { BENCH_SCACS, startSandboxCarriers } from './sandbox-carriers.ts';

const N = Number(process.env.BENCH_SHIPMENTS ?? 1000);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const DAYS = 20;

const database = await benchDatabase();
const db = createPool(database.url, 10);
const clock = new ManualClock('2026-06-01T00:00:00Z');
const { sandbox, registry } = await startSandboxCarriers(clock);
const app = await buildApp({ db, clock: systemClock, trackingClock: clock, isTrackable: (scac) => registry.has(scac), pageNotFound });
await mountWeb(app, { db, clock: systemClock });
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

const account = await insertAccount(db, 'bench');
const password = 'bench password 1';
await createUser(db, systemClock, { accountId: account.id, email: 'bench@example.com', password });
await db.query(
  `INSERT INTO tracking_requests (account_id, request_number, request_type, scac, ref_numbers, next_attempt_at, created_at, updated_at)
   SELECT $1, ($2::text[])[1 + (i % 5)] || lpad(i::text, 9, '0'), 'bill_of_lading', ($2::text[])[1 + (i % 5)], ARRAY['PO-' || i], $3, $3, $3 FROM generate_series(1, $4) AS i`,
  [account.id, BENCH_SCACS, clock.now(), N],
);
const worker = new TrackingWorker({ db, clock, connectors: registry });
const seeded = performance.now();
for (let day = 0; day < DAYS; day++) {
  for (;;) {
    const done = await worker.runDue(50);
    if (done.requests + done.shipments === 0) break;
  }
  clock.advance(24 * HOUR);
}
const { rows } = await db.query<{ shipments: string; containers: string; events: string; id: string }>(
  `SELECT (SELECT count(*) FROM shipments) AS shipments, (SELECT count(*) FROM containers) AS containers,
          (SELECT count(*) FROM transport_events) AS events,
          (SELECT s.id FROM shipments s JOIN containers c ON c.shipment_id = s.id GROUP BY s.id ORDER BY count(*) DESC, s.id LIMIT 1) AS id`,
);
const stats = rows[0];
console.log(`seeded ${stats.shipments} shipments, ${stats.containers} containers, ${stats.events} transport events in ${((performance.now() - seeded) / 1000).toFixed(1)} s (${DAYS} virtual days)`);

const browser = await launchChromium();
const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
const signIn = await context.newPage();
await signIn.goto(`${base}/sign-in`);
await signIn.getByLabel('E-mail address').fill('bench@example.com');
await signIn.getByLabel('Password').fill(password);
await signIn.getByRole('button', { name: 'Sign in' }).click();
await signIn.waitForURL(`${base}/shipments`);
const cookies = await context.cookies();
await context.close();

interface Sample {
  ttfb: number;
  fcp: number;
  interactive: number;
  ready: number;
  bytes: number;
  jsBytes: number;
  requests: number;
  scripts: string[];
}

/** One cold visit: a new context (empty cache) with the session cookie. */
async function visit(url: string, readySelector?: string): Promise<Sample> {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await ctx.addCookies(cookies);
  const page = await ctx.newPage();
  await page.goto(url, { waitUntil: 'load' });
  if (readySelector) await page.waitForSelector(readySelector, { timeout: 60_000 });
  const readyAt = await page.evaluate(() => performance.now());
  // The paint entry may be recorded after the load event: wait for it.
  const fcp = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        new PerformanceObserver((list) => {
          const entry = list.getEntries().find((e) => e.name === 'first-contentful-paint');
          if (entry) resolve(entry.startTime);
        }).observe({ type: 'paint', buffered: true });
      }),
  );
  const m = await page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
    return {
      ttfb: nav.responseStart,
      interactive: nav.domContentLoadedEventEnd,
      bytes: nav.transferSize + resources.reduce((s, r) => s + r.transferSize, 0),
      jsBytes: resources.filter((r) => r.initiatorType === 'script' || r.name.endsWith('.js') || r.name.endsWith('.mjs')).reduce((s, r) => s + r.transferSize, 0),
      requests: 1 + resources.length,
      scripts: resources.filter((r) => /\.m?js(\?|$)/.test(r.name)).map((r) => new URL(r.name).pathname),
    };
  });
  await ctx.close();
  return { ...m, fcp, ready: readySelector ? readyAt : m.interactive };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x: number) => `${x.toFixed(0)} ms`;
const kb = (x: number) => `${(x / 1024).toFixed(1)} KB`;

/** Our own scripts a page loaded, gzipped as the issue counts them (MapLibre GL excluded). */
async function ownJsGzipped(scripts: string[]): Promise<number> {
  let total = 0;
  for (const p of new Set(scripts)) {
    if (!p.startsWith('/assets/') || p.startsWith('/assets/vendor/')) continue;
    total += gzipSync(await readFile(path.join(ASSETS_DIR, p.slice('/assets/'.length)))).length;
  }
  return total;
}

const pages: [string, string, string | undefined][] = [
  [`shipments list (first page of ${stats.shipments})`, `${base}/shipments`, undefined],
  ['shipments list, search', `${base}/shipments?q=PO-77`, undefined],
  ['shipment page with map', `${base}/shipments/${stats.id}`, '[data-route-map][data-state="ready"]'],
];
console.log(`\nChromium, cold cache, median of ${RUNS} runs (first run discarded as warm-up)`);
console.log('page | TTFB | first paint | interactive | map drawn | transferred | requests | own JS gzipped');
for (const [name, url, ready] of pages) {
  await visit(url, ready);
  const samples: Sample[] = [];
  for (let i = 0; i < RUNS; i++) samples.push(await visit(url, ready));
  const js = await ownJsGzipped(samples[0].scripts);
  console.log(
    `${name} | ${ms(median(samples.map((s) => s.ttfb)))} | ${ms(median(samples.map((s) => s.fcp)))} | ${ms(median(samples.map((s) => s.interactive)))} | ${ready ? ms(median(samples.map((s) => s.ready))) : '–'} | ${kb(median(samples.map((s) => s.bytes)))} | ${samples[0].requests} | ${kb(js)}`,
  );
}
console.log('\ngoals: interactive ≤ 1,000 ms; own JavaScript ≤ 300 KB gzipped (MapLibre GL excluded)');

await browser.close();
await app.close();
await sandbox.close();
await db.end();
await database.drop();
