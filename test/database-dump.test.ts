// A backup of svc's database restores whole: pg_dump of a migrated database holding a shipment,
// its container and its tracking request, then pg_restore into an empty database, stopping at the
// first error. pg_restore builds indexes with an empty search_path, so a function an index is built
// on must find everything it calls there (migration 040): before, the number indexes failed to
// build and pg_restore only counted the errors as "ignored", leaving searches without them.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { emptyDatabase, freshDatabase, serverUrl, type TestDatabase } from './support/database.ts';

const run = promisify(execFile);

/**
 * Why this machine cannot run the test, if it cannot: pg_dump and pg_restore of its PostgreSQL
 * client are needed, of the server's major version or later (an older pg_dump refuses the server).
 */
async function missingTools(): Promise<string | false> {
  try {
    const { stdout } = await run('pg_dump', ['--version']);
    await run('pg_restore', ['--version']);
    const client = new pg.Client({ connectionString: serverUrl() });
    await client.connect();
    const server = await client.query<{ v: string }>("SELECT current_setting('server_version_num') AS v").finally(() => client.end());
    const [clientMajor, serverMajor] = [Number(/(\d+)\./.exec(stdout)?.[1]), Math.floor(Number(server.rows[0].v) / 10_000)];
    return clientMajor >= serverMajor ? false : `pg_dump ${clientMajor} is older than the server (${serverMajor})`;
  } catch {
    return 'pg_dump and pg_restore are not installed';
  }
}

const indexesOf = async (client: pg.Client | pg.Pool) =>
  (await client.query<{ indexname: string; indexdef: string }>(`SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY indexname`)).rows;

describe('a dump of the database restores with every index', { skip: await missingTools() }, () => {
  let database: TestDatabase;
  let target: Awaited<ReturnType<typeof emptyDatabase>>;
  let restored: pg.Client;
  let dir: string;

  before(async () => {
    database = await freshDatabase();
    const { db } = database;
    const account = await db.query<{ id: string }>(`INSERT INTO accounts (name) VALUES ('dump') RETURNING id`);
    const accountId = account.rows[0].id;
    const shipment = await db.query<{ id: string }>(
      `INSERT INTO shipments (account_id, scac, request_type, request_number, ref_numbers, state, created_at, updated_at)
       VALUES ($1, 'MAEU', 'bill_of_lading', 'maeu 2468-13579', '{PO-77 123}', '{"port_of_lading_locode": "CNSHA"}', now(), now()) RETURNING id`,
      [accountId],
    );
    await db.query(
      `INSERT INTO containers (account_id, shipment_id, number, ref_numbers, state, created_at, updated_at)
       VALUES ($1, $2, 'MSKU1234565', '{ref-9 8765}', '{"current_status": "on_ship"}', now(), now())`,
      [accountId, shipment.rows[0].id],
    );
    await db.query(
      `INSERT INTO tracking_requests (account_id, request_number, request_type, scac, status, ref_numbers, shipment_id, created_at, updated_at)
       VALUES ($1, 'maeu 2468-13579', 'bill_of_lading', 'MAEU', 'created', '{PO-77 123}', $2, now(), now())`,
      [accountId, shipment.rows[0].id],
    );
    dir = await mkdtemp(path.join(tmpdir(), 'svc-dump-'));
    target = await emptyDatabase();
    restored = new pg.Client({ connectionString: target.url });
    await restored.connect();
  });

  after(async () => {
    await restored?.end();
    await target?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
    await database?.drop();
  });

  test('pg_restore stops at no error, and the restored database has the same indexes, which find the shipment', async () => {
    const file = path.join(dir, 'svc.dump');
    await run('pg_dump', ['--format=custom', '--no-owner', `--file=${file}`, database.url]);
    // --exit-on-error: an index that cannot be built fails the restore instead of being counted.
    await run('pg_restore', ['--exit-on-error', '--no-owner', `--dbname=${target.url}`, file]);
    const [before, after] = [await indexesOf(database.db), await indexesOf(restored)];
    assert.ok(before.some((i) => i.indexname === 'containers_number_pieces'));
    assert.deepEqual(after, before);
    // Through the number indexes, as a search reads them.
    await restored.query('SET enable_seqscan = off');
    const found = await restored.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM shipments
        WHERE number_pieces(ARRAY[request_number, bill_of_lading_number, booking_number] || ref_numbers) @> ARRAY['24681', 'PO771']
          AND bare_numbers_text(ARRAY[request_number, bill_of_lading_number, booking_number] || ref_numbers) LIKE '%MAEU246813579%'`,
    );
    assert.equal(found.rows[0].n, 1);
  });
});
