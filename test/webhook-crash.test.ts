// Nothing accepted is lost: a delivery worker process killed with SIGKILL in the middle of a
// burst of 10,000 notifications is restarted, and every notification reaches the receiver and
// ends `succeeded`. The killed worker's attempts that were in flight, or answered and not yet
// recorded, may arrive twice; they are counted.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { UNRECORDED } from '../src/webhooks/delivery-worker.ts';
import { answerWith, startReceiver, type Receiver } from './support/receiver.ts';
import { freshDatabase, type TestDatabase } from './support/database.ts';
import { seedBurst } from './support/webhook-burst.ts';

const BURST = 10_000;
const CONCURRENCY = 32;
const root = path.resolve(import.meta.dirname, '..');

let database: TestDatabase;
let receiver: Receiver;
const seen = new Map<string, number>();
let waiters: { done: () => boolean; resolve: () => void }[] = [];

/** Every worker started, so that none outlives the file (a timed-out test would otherwise leave one holding it open). */
const workers: ChildProcess[] = [];

function startWorker(): ChildProcess {
  const worker = spawn(process.execPath, [path.join(root, 'bin/svc.js'), 'deliver'], {
    env: {
      ...process.env,
      DATABASE_URL: database.url,
      SVC_WEBHOOK_ALLOW_INSECURE: 'true',
      SVC_WEBHOOK_CONCURRENCY: String(CONCURRENCY),
      // One receiver: no one to be fair to, so it may have all the worker's slots.
      SVC_WEBHOOK_RECEIVER_CONCURRENCY: String(CONCURRENCY),
      SVC_DELIVERY_INTERVAL_MS: '20',
      // Short attempts make short leases, so the restarted worker soon retakes the dead one's claims.
      SVC_WEBHOOK_TIMEOUT_MS: '1000',
      // An attempt that times out on a busy machine is retried within the test's time, not after
      // the default 30 s (then 60 s, 120 s), which once ran a CI pass past the 120 s test timeout.
      SVC_WEBHOOK_RETRY_BASE_MS: '100',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  workers.push(worker);
  return worker;
}

/** Resolves once `done` holds, checked at each arrival (bounded by the test timeout). */
const arrivals = (done: () => boolean) =>
  new Promise<void>((resolve) => {
    if (done()) resolve();
    else waiters.push({ done, resolve });
  });

const exited = (child: ChildProcess) => new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));

before(async () => {
  database = await freshDatabase();
  receiver = await startReceiver();
  const ok = answerWith(204);
  receiver.answer = (req, res) => {
    const id = String(req.headers['webhook-id']);
    seen.set(id, (seen.get(id) ?? 0) + 1);
    waiters = waiters.filter((w) => (w.done() ? (w.resolve(), false) : true));
    ok(req, res);
  };
});
after(async () => {
  for (const worker of workers) if (worker.exitCode === null && worker.signalCode === null) worker.kill('SIGKILL');
  await receiver.close();
  await database.drop();
});

test(`kill -9 of the delivery worker mid-burst of ${BURST.toLocaleString('en')} loses nothing`, async (t) => {
  await seedBurst(database.db, receiver.url, BURST);

  const first = startWorker();
  await arrivals(() => seen.size >= BURST / 5);
  first.kill('SIGKILL');
  await exited(first);
  const atKill = seen.size;
  assert.ok(atKill < BURST, `the worker was killed mid-burst (${atKill} delivered)`);
  // What the dead worker had claimed and not settled: each must arrive (again) once its lease ends.
  const { rows: stranded } = await database.db.query<{ id: string }>(`SELECT notification_id AS id FROM webhook_delivery_queue WHERE attempts > 0`);
  const before = new Map(stranded.map((r) => [r.id, seen.get(r.id) ?? 0]));

  const second = startWorker();
  await arrivals(() => seen.size >= BURST && [...before].every(([id, n]) => (seen.get(id) ?? 0) > n));
  // A graceful stop lets the last attempts record their outcome.
  second.kill('SIGTERM');
  await exited(second);

  const received = [...seen.values()].reduce((a, b) => a + b, 0);
  const duplicates = received - seen.size;
  t.diagnostic(`delivered before the kill: ${atKill}; stranded by it: ${before.size}; received in all: ${received}; distinct: ${seen.size}; duplicates: ${duplicates}`);
  assert.equal(seen.size, BURST, 'every notification reached the receiver');
  // A worker has at most CONCURRENCY attempts in flight and starts no new one while UNRECORDED times
  // CONCURRENCY answered attempts wait for their record (which goes in batches, usually of two
  // concurrencies' worth): only those may repeat.
  assert.ok(duplicates <= (UNRECORDED + 1) * CONCURRENCY, `only the killed worker's unrecorded attempts may repeat (${duplicates})`);

  const { rows } = await database.db.query(`SELECT delivery_status, count(*)::int AS n FROM webhook_notifications GROUP BY 1`);
  assert.deepEqual(rows, [{ delivery_status: 'succeeded', n: BURST }]);
  const ids = await database.db.query<{ id: string }>('SELECT id FROM webhook_notifications');
  assert.ok(ids.rows.every((r) => seen.has(r.id)), 'the receiver saw exactly the recorded notifications');
});
