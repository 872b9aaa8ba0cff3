// The scheduler's statements (the claims the workers take due work with, and the backlog count the
// metrics read) must cost what is due, not what is tracked: on tables seeded with many rows and
// few due, their plans read the due-time indexes and never scan a table. Plans, not timings: the
// same plan holds on a loaded machine. Checked as PostgreSQL plans them for given values and as
// it may plan a statement svc runs prepared (store/db.ts) once for any value.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dueWorkBacklogSql, BACKLOG_COUNT_CAP } from '../src/store/due-work.ts';
import { claimDueSql } from '../src/store/leases.ts';
import { insertAccount } from '../src/store/accounts.ts';
import { freshDatabase, type TestDatabase } from './support/database.ts';

const ROWS = 20_000;
const NOW = new Date('2026-06-01T00:00:00Z');
const LEASE = new Date('2026-06-01T00:02:00Z');

/** Every node of a JSON plan, depth first. */
function nodes(plan: Record<string, unknown>): Record<string, unknown>[] {
  return [plan, ...((plan.Plans as Record<string, unknown>[] | undefined) ?? []).flatMap(nodes)];
}

describe('due work is found through the due-time indexes', () => {
  let database: TestDatabase;

  before(async () => {
    database = await freshDatabase();
    const { db } = database;
    const account = await insertAccount(db, 'plans');
    // Shipments: most due days from now or stopped (no next refresh), ten due.
    await db.query(
      `WITH s AS (
         INSERT INTO shipments (account_id, scac, request_type, request_number, line_tracking_stopped_at, created_at, updated_at)
         SELECT $1, 'MAEU', 'bill_of_lading', 'MAEU' || i, CASE WHEN i > 10 AND i % 3 = 0 THEN $2::timestamptz END, $2, $2
           FROM generate_series(1, $3) AS i
         RETURNING id, substr(request_number, 5)::int AS i
       )
       INSERT INTO shipment_refreshes (shipment_id, next_refresh_at)
       SELECT id, CASE WHEN i <= 10 THEN $2::timestamptz - interval '1 minute' WHEN i % 3 = 0 THEN NULL ELSE $2::timestamptz + i * interval '1 minute' END FROM s`,
      [account.id, NOW, ROWS],
    );
    // Tracking requests: most settled (no next attempt), ten pending and due.
    await db.query(
      `INSERT INTO tracking_requests (account_id, request_number, request_type, scac, status, next_attempt_at, created_at, updated_at)
       SELECT $1, 'MAEU' || i, 'bill_of_lading', 'MAEU', CASE WHEN i <= 10 THEN 'pending' ELSE 'failed' END,
              CASE WHEN i <= 10 THEN $2::timestamptz - interval '1 minute' END, $2, $2
         FROM generate_series(1, $3) AS i`,
      [account.id, NOW, ROWS],
    );
    // Notifications: most delivered, ten pending.
    const { rows: hooks } = await db.query(
      `INSERT INTO webhooks (account_id, url, events, secret, created_at, updated_at) VALUES ($1, 'https://example.com/hook', '{container.updated}', 'x', $2, $2) RETURNING id`,
      [account.id, NOW],
    );
    const { rows: events } = await db.query(
      `INSERT INTO domain_events (account_id, name, reference_type, reference_id, created_at) VALUES ($1, 'container.updated', 'container', gen_random_uuid(), $2) RETURNING id`,
      [account.id, NOW],
    );
    await db.query(
      `INSERT INTO webhook_notifications (account_id, webhook_id, domain_event_id, event, delivery_status, next_attempt_at, created_at, updated_at)
       SELECT $1, $2, $3, 'container.updated', CASE WHEN i <= 10 THEN 'pending' ELSE 'succeeded' END,
              CASE WHEN i <= 10 THEN '-infinity'::timestamptz ELSE $4::timestamptz END, $4, $4
         FROM generate_series(1, $5) AS i`,
      [account.id, hooks[0].id, events[0].id, NOW, ROWS],
    );
    await db.query('VACUUM ANALYZE shipments, shipment_refreshes, tracking_requests, webhook_notifications, webhook_delivery_queue');
  });

  after(async () => {
    await database?.drop();
  });

  /** The plan of `sql` for `values`, in a transaction rolled back (a claim is an UPDATE); generic: as prepared for any value. */
  async function plan(sql: string, values: unknown[], generic: boolean): Promise<Record<string, unknown>> {
    const client = await database.db.connect();
    try {
      await client.query('BEGIN');
      if (!generic) return (await client.query(`EXPLAIN (FORMAT JSON) ${sql}`, values)).rows[0]['QUERY PLAN'][0].Plan;
      await client.query('SET LOCAL plan_cache_mode = force_generic_plan');
      await client.query(`PREPARE due_work_probe AS ${sql}`);
      const literals = values.map((v) => (v instanceof Date ? `'${v.toISOString()}'` : String(v)));
      return (await client.query(`EXPLAIN (FORMAT JSON) EXECUTE due_work_probe(${literals.join(', ')})`)).rows[0]['QUERY PLAN'][0].Plan;
    } finally {
      await client.query('ROLLBACK');
      await client.query('DEALLOCATE ALL');
      client.release();
    }
  }

  // The claims and the backlog count run prepared: planned for their values, and as PostgreSQL may plan them once for any.
  const statements: [string, string, unknown[], string[], boolean][] = [
    ['claim of due shipment refreshes', claimDueSql('shipment_refreshes'), [NOW, LEASE, 25], ['shipment_refreshes_due'], true],
    ['claim of due tracking requests', claimDueSql('tracking_requests'), [NOW, LEASE, 25], ['tracking_requests_due'], true],
    ['backlog count of the metrics', dueWorkBacklogSql, [NOW, NOW, BACKLOG_COUNT_CAP], ['shipment_refreshes_due', 'tracking_requests_due'], true],
  ];
  for (const [name, sql, values, indexes, prepared] of statements) {
    for (const generic of prepared ? [false, true] : [false]) {
      test(`${name}${generic ? ', prepared for any value,' : ''} reads ${indexes.join(', ')} and scans no table`, async () => {
        const all = nodes(await plan(sql, values, generic));
        // The delivery queue holds pending notifications only (migration 030): reading it costs what is pending.
        const scans = all.filter((n) => n['Node Type'] === 'Seq Scan' && n['Relation Name'] !== 'webhook_delivery_queue').map((n) => n['Relation Name']);
        assert.deepEqual(scans, [], `sequential scans of ${scans.join(', ')}`);
        const used = new Set(all.map((n) => n['Index Name']).filter(Boolean));
        for (const index of indexes) assert.ok(used.has(index), `${index} is read (plan reads ${[...used].join(', ') || 'no index'})`);
      });
    }
  }

  test('the claim takes the due rows, and only them', async () => {
    const client = await database.db.connect();
    try {
      await client.query('BEGIN');
      const { rows } = await client.query(claimDueSql('shipment_refreshes'), [NOW, LEASE, 100]);
      assert.equal(rows.length, 10);
      assert.ok(rows.every((r) => r.next_refresh_at <= NOW && r.locked_until.getTime() === LEASE.getTime()));
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });
});
