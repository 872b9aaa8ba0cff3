// The pool reports connections it loses while idle, through the log it was given, instead of
// swallowing them, and without letting them crash the process.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { createPool, withTransaction, type Db } from '../src/store/db.ts';
import { freshDatabase, type TestDatabase } from './support/database.ts';
import { forFile } from './support/for-file.ts';

let database: TestDatabase;
forFile(() => freshDatabase(), (s) => (database = s), (s) => s.drop());

/** Checks out `n` connections at once and returns them to the pool, idle; their backend pids. */
async function idleConnections(pool: Db, n: number): Promise<number[]> {
  const clients = await Promise.all(Array.from({ length: n }, () => pool.connect()));
  const pids = await Promise.all(clients.map(async (c) => (await c.query('SELECT pg_backend_pid() AS pid')).rows[0].pid as number));
  for (const c of clients) c.release();
  return pids;
}

/** Ends those backends from another connection, as a database restart or an administrator would. */
async function terminate(pids: number[]): Promise<void> {
  await database.db.query('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [pids]);
}

test('idle connections lost together are logged once as an outage, then the recovery, and the pool carries on', async () => {
  const lines: { msg: string; fields?: Record<string, unknown> }[] = [];
  const pool = createPool(database.url, 3, (msg, fields) => lines.push({ msg, fields }));
  try {
    const pids = await idleConnections(pool, 3);
    const lost = new Promise<void>((resolve) => {
      let errors = 0;
      pool.on('error', () => ++errors === pids.length && resolve());
    });
    await terminate(pids);
    await lost;
    assert.equal(lines.length, 1, JSON.stringify(lines));
    assert.match(lines[0].msg, /database unreachable \(an idle database connection was lost\)/);
    assert.match(String((lines[0].fields?.err as Error).message), /terminating connection due to administrator command/);

    // The next query gets a new connection: the database is back, said once.
    const { rows } = await pool.query('SELECT 1 AS one', []);
    assert.equal(rows[0].one, 1);
    assert.deepEqual(lines.slice(1).map((l) => l.msg), ['database reachable again']);
  } finally {
    await pool.end();
  }
});

test('without a log (tests, one-off commands) a lost idle connection is still no crash', async () => {
  const pool = createPool(database.url, 1);
  try {
    const pids = await idleConnections(pool, 1);
    // Listening for 'error' here would hide a missing listener: wait for the pool to drop the client.
    // (events.once would listen for 'error' too.)
    const removed = new Promise((resolve) => pool.once('remove', resolve));
    await terminate(pids);
    await removed;
    assert.equal((await pool.query('SELECT 2 AS two', [])).rows[0].two, 2);
  } finally {
    await pool.end();
  }
});

test('a connection lost inside a transaction fails its next query, does not crash the process, and is not reused', async () => {
  const pool = createPool(database.url, 2, () => {});
  try {
    const outcome = await withTransaction(pool, async (tx) => {
      const pid = (await tx.query('SELECT pg_backend_pid() AS pid')).rows[0].pid as number;
      // Lost while the transaction waits between statements: the client's 'error' event comes with
      // no query to fail (the test listens to nothing, as the code under test does not).
      await terminate([pid]);
      for (let i = 0; i < 250 && (await database.db.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid])).rowCount! > 0; i++) await delay(20);
      await delay(200);
      return tx.query('SELECT 1').then(
        () => 'answered',
        (err: Error) => err.message,
      );
    }).catch((err: Error) => `transaction failed: ${err.message}`);
    assert.match(outcome, /not queryable|Connection terminated|terminating connection/i);
    // The pool hands out a working connection next.
    assert.equal((await pool.query('SELECT 1 AS one')).rows[0].one, 1);
  } finally {
    await pool.end();
  }
});
