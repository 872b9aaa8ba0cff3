// bench:scale's loader (bench/scale-seed.ts) on a small size: the data it COPYs in satisfies svc's
// schema (the keys, unique indexes and foreign keys it takes off are all back, so the database
// checked every row against them), and has the shapes the benchmark relies on: valid container
// numbers, about ten milestones a container, tracking requests in every status, most data in one
// account of several.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { loadScaleData } from '../bench/scale-seed.ts';
import { checkContainerNumber } from '../src/domain/inference/iso6346.ts';
import { freshDatabase, type TestDatabase } from './support/database.ts';

let database: TestDatabase;
let loaded: Awaited<ReturnType<typeof loadScaleData>>;
let schemaBefore: string[];

/** Every index and constraint of the tables the loader fills, as definitions. */
async function schema(): Promise<string[]> {
  const { rows } = await database.db.query<{ def: string }>(
    `SELECT conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid) AS def FROM pg_constraint
      WHERE conrelid::regclass::text IN ('shipments', 'containers', 'transport_events', 'tracking_requests', 'domain_events', 'webhook_notifications', 'parties', 'webhooks', 'raw_events')
     UNION ALL
     SELECT indexdef FROM pg_indexes WHERE schemaname = 'public'
     ORDER BY 1`,
  );
  return rows.map((r) => r.def);
}

before(async () => {
  database = await freshDatabase();
  schemaBefore = await schema();
  loaded = await loadScaleData(database.url, { containers: 2_000, trackingRequests: 200 });
});
after(() => database.drop());

test('the loader puts back every index and constraint it took off, so every row passed them', async () => {
  assert.deepEqual(await schema(), schemaBefore);
  const { rows } = await database.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_constraint WHERE contype = 'f' AND conrelid = 'transport_events'::regclass`);
  assert.equal(rows[0].n, 3, 'transport_events keeps its foreign keys to accounts, shipments and containers');
});

test('the rows are as many as asked, each container with about ten milestones', async () => {
  assert.equal(loaded.rows.containers, 2_000);
  assert.equal(loaded.rows.tracking_requests, 200);
  const { rows } = await database.db.query<{ containers: number; events: number; shipments: number }>(
    'SELECT (SELECT count(*)::int FROM containers) AS containers, (SELECT count(*)::int FROM transport_events) AS events, (SELECT count(*)::int FROM shipments) AS shipments',
  );
  assert.equal(rows[0].containers, 2_000);
  const perContainer = rows[0].events / rows[0].containers;
  assert.ok(perContainer > 8 && perContainer < 12, `${perContainer} events per container`);
  const perShipment = rows[0].containers / rows[0].shipments;
  assert.ok(perShipment > 1.5 && perShipment < 3, `${perShipment} containers per shipment`);
});

test('container numbers carry valid ISO 6346 check digits and differ', async () => {
  const { rows } = await database.db.query<{ number: string }>('SELECT number FROM containers');
  for (const { number } of rows) assert.equal(checkContainerNumber(number).checkDigitPassed, true, number);
  assert.equal(new Set(rows.map((r) => r.number)).size, rows.length);
});

test('tracking requests come in every status, and created ones name their shipment by its number', async () => {
  const { rows } = await database.db.query<{ status: string }>('SELECT DISTINCT status FROM tracking_requests ORDER BY status');
  assert.deepEqual(rows.map((r) => r.status), ['awaiting_manifest', 'created', 'failed', 'pending', 'tracking_stopped']);
  const { rows: mismatched } = await database.db.query(
    `SELECT 1 FROM tracking_requests t JOIN shipments s ON s.id = t.shipment_id
      WHERE t.status = 'created' AND (s.request_number <> t.request_number OR s.account_id <> t.account_id OR s.scac <> t.scac)`,
  );
  assert.equal(mismatched.length, 0);
});

test('one account holds most containers, and every other account some', async () => {
  const { rows } = await database.db.query<{ account_id: string; n: number }>('SELECT account_id, count(*)::int AS n FROM containers GROUP BY account_id ORDER BY n DESC');
  assert.equal(rows.length, loaded.accounts.length);
  assert.equal(rows[0].account_id, loaded.accounts[0]);
  assert.ok(rows[0].n > 2_000 / 2, `the large account has ${rows[0].n} of 2,000`);
  // Nothing of one account points at another's records.
  const { rows: crossed } = await database.db.query(
    `SELECT 1 FROM transport_events e JOIN containers c ON c.id = e.container_id JOIN shipments s ON s.id = e.shipment_id
      WHERE e.account_id <> c.account_id OR e.account_id <> s.account_id OR c.shipment_id <> e.shipment_id LIMIT 1`,
  );
  assert.equal(crossed.length, 0);
});
