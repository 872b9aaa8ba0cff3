// `npm run bench:tracking`: tracks BENCH_SHIPMENTS sandbox shipments (default 10,000) from the
// first lookup to the end of tracking, in virtual time, through the real path: DCSA over HTTP on
// loopback to the sandbox, the diff engine, PostgreSQL. Prints lookups and events per second.
import { ManualClock } from '../src/clock.ts';
import { HOUR } from '../src/domain/time-units.ts';
import { TrackingWorker } from '../src/services/tracking/worker.ts';
import { insertAccount } from '../src/store/accounts.ts';
import { createPool } from '../src/store/db.ts';
import { benchDatabase } from './database.ts';
import { BENCH_SCACS, startSandboxCarriers } from './sandbox-carriers.ts';

const N = Number(process.env.BENCH_SHIPMENTS ?? 10_000);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 2);
const STEP_HOURS = Number(process.env.BENCH_STEP_HOURS ?? 24);
const MAX_DAYS = 120;

const database = await benchDatabase();
const db = createPool(database.url, 20);
const clock = new ManualClock('2026-06-01T00:00:00Z');
const { sandbox, registry } = await startSandboxCarriers(clock);
const scacs = BENCH_SCACS;
const workers = Array.from({ length: WORKERS }, () => new TrackingWorker({ db, clock, connectors: registry }));

// Ordinary well-formed bill of lading numbers: each gets its own deterministic journey.
const account = await insertAccount(db, 'bench');
await db.query(
  `INSERT INTO tracking_requests (account_id, request_number, request_type, scac, next_attempt_at, created_at, updated_at)
   SELECT $1, ($2::text[])[1 + (i % 5)] || lpad(i::text, 9, '0'), 'bill_of_lading', ($2::text[])[1 + (i % 5)], $3, $3, $3 FROM generate_series(1, $4) AS i`,
  [account.id, scacs, clock.now(), N],
);

const count = async (sql: string) => Number((await db.query(sql)).rows[0].n);
let lookups = 0;
const started = performance.now();
let simulatedDays = 0;
console.log(`tracking ${N} shipments, ${WORKERS} workers, ${STEP_HOURS} h steps of virtual time`);
while (simulatedDays < MAX_DAYS) {
  // Each worker drains what is due; together they share the work through leases.
  const done = await Promise.all(
    workers.map(async (w) => {
      let n = 0;
      for (;;) {
        const r = await w.runDue(50);
        if (r.requests + r.shipments === 0) return n;
        n += r.requests + r.shipments;
      }
    }),
  );
  lookups += done.reduce((a, b) => a + b, 0);
  const active = await count('SELECT count(*) AS n FROM shipments WHERE line_tracking_stopped_at IS NULL');
  const pending = await count("SELECT count(*) AS n FROM tracking_requests WHERE status IN ('pending', 'awaiting_manifest')");
  if (simulatedDays % 10 === 0) {
    const secs = (performance.now() - started) / 1000;
    console.log(`  day ${simulatedDays}: ${active} shipments tracked, ${pending} requests pending, ${lookups} lookups so far (${(lookups / secs).toFixed(0)}/s)`);
  }
  if (active === 0 && pending === 0 && simulatedDays > 0) break;
  clock.advance(STEP_HOURS * HOUR);
  simulatedDays += STEP_HOURS / 24;
}
const seconds = (performance.now() - started) / 1000;
const events = await count('SELECT count(*) AS n FROM transport_events');
const outbox = await count('SELECT count(*) AS n FROM domain_events');
const shipments = await count('SELECT count(*) AS n FROM shipments');
const stopped = await count('SELECT count(*) AS n FROM shipments WHERE line_tracking_stopped_at IS NOT NULL');
console.log(`\n${shipments} shipments created, ${stopped} tracked to the end, ${simulatedDays} virtual days in ${seconds.toFixed(1)} s`);
console.log(`lookups (carrier requests + refreshes): ${lookups}, ${(lookups / seconds).toFixed(0)}/s`);
console.log(`transport events recorded: ${events}, ${(events / seconds).toFixed(0)}/s; outbox events: ${outbox}, ${(outbox / seconds).toFixed(0)}/s`);

await sandbox.close();
await db.end();
await database.drop();
