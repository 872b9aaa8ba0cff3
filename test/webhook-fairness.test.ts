// Fair delivery: a receiver that holds every request (it answers only when the test lets it)
// takes no more than its cap of the worker's slots, so another account's notifications are all
// delivered meanwhile, and no more than the cap requests are ever open at the held receiver.
// And the batched recording loses nothing: attempts whose record fails are delivered again once
// their lease ends; a stopping worker hands back what it claimed and never sent.
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { after, before, test } from 'node:test';
import { ManualClock, systemClock } from '../src/clock.ts';
import { DeliveryWorker } from '../src/webhooks/delivery-worker.ts';
import { freshDatabase, type TestDatabase } from './support/database.ts';
import { answerWith, startReceiver, type Receiver } from './support/receiver.ts';
import { seedBurst } from './support/webhook-burst.ts';

let database: TestDatabase;
let held: Receiver;
let fast: Receiver;

before(async () => {
  database = await freshDatabase();
  held = await startReceiver();
  fast = await startReceiver();
});
after(async () => {
  await held.close();
  await fast.close();
  await database.drop();
});

/** Resolves once `done` holds, checked now and at each request `receiver` gets (bounded by the test timeout). */
function whenReceived(receiver: Receiver, done: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    if (done()) return resolve();
    const answer = receiver.answer;
    receiver.answer = (req, res) => {
      answer(req, res);
      if (done()) {
        receiver.answer = answer;
        resolve();
      }
    };
  });
}

const distinct = (r: Receiver) => new Set(r.received.map((x) => String(x.headers['webhook-id']))).size;

test("a receiver that holds its requests keeps to its cap, and another account's deliveries all complete", async () => {
  const CAP = 2;
  const EACH = 20;
  // Account A's receiver answers nothing until released; it counts what is open at once.
  let open = 0;
  let mostOpen = 0;
  const waiting: ServerResponse[] = [];
  let released = false;
  held.answer = (_req, res) => {
    open++;
    mostOpen = Math.max(mostOpen, open);
    res.on('finish', () => open--);
    if (released) answerWith(204)(_req, res);
    else waiting.push(res);
  };
  const a = await seedBurst(database.db, held.url, EACH);
  const b = await seedBurst(database.db, fast.url, EACH);

  // Long attempts: the held requests stay open for as long as the test holds them.
  const worker = new DeliveryWorker({ db: database.db, clock: systemClock, allowInsecure: true, policy: { concurrency: 8, receiverConcurrency: CAP, timeoutMs: 120_000 } });
  worker.start(10);
  try {
    // All of B's notifications arrive while A's receiver holds the only requests it was sent: its cap.
    await whenReceived(fast, () => distinct(fast) === EACH);
    assert.equal(held.received.length, CAP, `A's receiver got exactly its cap of requests (${held.received.length})`);
    assert.equal(open, CAP);
  } finally {
    // Released, A's receiver answers what it holds and all that follows.
    released = true;
    for (const res of waiting.splice(0)) res.writeHead(204).end();
  }
  await whenReceived(held, () => distinct(held) === EACH);
  await worker.stop();
  assert.equal(mostOpen, CAP, `never more than ${CAP} requests open at A's receiver`);
  const { rows } = await database.db.query<{ account_id: string; n: number }>(
    `SELECT account_id, count(*)::int AS n FROM webhook_notifications WHERE delivery_status = 'succeeded' GROUP BY 1`,
  );
  assert.deepEqual(new Map(rows.map((r) => [r.account_id, r.n])), new Map([[a.accountId, EACH], [b.accountId, EACH]]));
});

test('attempts whose batched record fails are not lost: they are delivered again once their lease ends', async () => {
  fast.received.length = 0;
  fast.answer = answerWith(200, 'ok');
  const clock = new ManualClock(new Date());
  const burst = await seedBurst(database.db, fast.url, 5, clock.now());
  const worker = new DeliveryWorker({ db: database.db, clock, allowInsecure: true, policy: { timeoutMs: 2000 } });
  // A real failure of the recording statement: the log insert is refused.
  await database.db.query(`CREATE FUNCTION refuse_logs() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'no logs today'; END $$`);
  await database.db.query(`CREATE TRIGGER refuse_logs BEFORE INSERT ON webhook_notification_logs FOR EACH ROW EXECUTE FUNCTION refuse_logs()`);
  try {
    await worker.drain();
  } finally {
    await database.db.query('DROP TRIGGER refuse_logs ON webhook_notification_logs');
  }
  assert.equal(fast.received.length, 5, 'the five were sent');
  const unrecorded = await database.db.query(
    `SELECT n.delivery_status, q.attempts FROM webhook_notifications n JOIN webhook_delivery_queue q ON q.notification_id = n.id WHERE n.account_id = $1`,
    [burst.accountId],
  );
  assert.deepEqual(
    unrecorded.rows.map((r) => [r.delivery_status, r.attempts]),
    Array.from({ length: 5 }, () => ['pending', 1]),
    'nothing recorded: still pending, leased',
  );

  // Still leased, so not due yet; once the lease ends they go again, and are recorded.
  await worker.drain();
  assert.equal(fast.received.length, 5);
  clock.advance(60_000);
  await worker.drain();
  await worker.stop();
  assert.equal(fast.received.length, 10);
  assert.deepEqual(new Set(fast.received.slice(5).map((r) => r.headers['webhook-id'])), new Set(fast.received.slice(0, 5).map((r) => r.headers['webhook-id'])));
  const recorded = await database.db.query(
    `SELECT n.delivery_status, n.attempts, array_agg(l.attempt ORDER BY l.attempt) AS logged
       FROM webhook_notifications n JOIN webhook_notification_logs l ON l.webhook_notification_id = n.id
      WHERE n.account_id = $1 GROUP BY n.id`,
    [burst.accountId],
  );
  assert.deepEqual(
    recorded.rows.map((r) => [r.delivery_status, r.attempts, r.logged]),
    Array.from({ length: 5 }, () => ['succeeded', 2, [2]]),
  );
});

test('a stopping worker hands back the claims it never sent: due at once, their attempt not counted', async () => {
  const waiting: ServerResponse[] = [];
  let released = false;
  held.received.length = 0;
  held.answer = (req, res) => (released ? answerWith(204)(req, res) : waiting.push(res));
  const burst = await seedBurst(database.db, held.url, 10);
  // Two slots, so the worker claims six (its buffer), sends two and queues four.
  const worker = new DeliveryWorker({ db: database.db, clock: systemClock, allowInsecure: true, policy: { concurrency: 2, receiverConcurrency: 10, timeoutMs: 120_000 } });
  worker.start(10);
  await whenReceived(held, () => held.received.length === 2);
  const stopped = worker.stop();
  released = true;
  for (const res of waiting.splice(0)) res.writeHead(204).end();
  await stopped;

  assert.equal(held.received.length, 2, 'nothing new is sent once stopping');
  const { rows } = await database.db.query<{ delivery_status: string; attempts: number; due: boolean; n: number }>(
    `SELECT n.delivery_status, coalesce(q.attempts, n.attempts) AS attempts, coalesce(q.due_at, n.next_attempt_at) = '-infinity' AND coalesce(q.leased_until, '-infinity') = '-infinity' AS due, count(*)::int AS n
       FROM webhook_notifications n LEFT JOIN webhook_delivery_queue q ON q.notification_id = n.id WHERE n.account_id = $1 GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
    [burst.accountId],
  );
  assert.deepEqual(
    rows.map((r) => [r.delivery_status, r.attempts, r.due, r.n]),
    [
      ['pending', 0, true, 8],
      ['succeeded', 1, true, 2],
    ],
  );
});
