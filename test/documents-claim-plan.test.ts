// The document claim costs what the accounts with due work are, not the size of one account's
// backlog: with one account holding 20,000 due jobs and another 20,000 finished documents, its
// plan (for given values and as prepared for any) reads the per-account indexes of migration 041
// and scans no table; and it takes one job per account, at most the per-account cap running.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { insertAccount } from '../src/store/accounts.ts';
import { CLAIM_SQL, claimDueDocuments } from '../src/store/documents.ts';
import { freshDatabase, type TestDatabase } from './support/database.ts';

const NOW = new Date('2026-06-01T00:00:00Z');
const LEASE = new Date('2026-06-01T00:05:00Z');
const ROWS = 20_000;

const nodes = (plan: Record<string, unknown>): Record<string, unknown>[] => [plan, ...((plan.Plans as Record<string, unknown>[] | undefined) ?? []).flatMap(nodes)];

describe('the document claim goes account by account through their own indexes', () => {
  let database: TestDatabase;
  const accounts: string[] = [];

  before(async () => {
    database = await freshDatabase();
    const { db } = database;
    for (let i = 0; i < 5; i++) accounts.push((await insertAccount(db, `plans ${i}`)).id);
    const { rows } = await db.query(`INSERT INTO document_blobs (account_id, filename, byte_size, checksum, created_at) VALUES ($1, 'x', 1, 'x', $2) RETURNING id`, [accounts[0], NOW]);
    const insert = (account: string, count: number, due: string, tag: string) =>
      db.query(
        `INSERT INTO documents (account_id, blob_id, name, file_name, file_content_type, file_size_bytes, sha256, job, next_attempt_at, created_at, updated_at)
         SELECT $1, $2, 'x', 'x', 'text/plain', 1, md5($5 || i), CASE WHEN ${due} IS NULL THEN NULL ELSE 'extract' END, ${due}, $3, $3
           FROM generate_series(1, $4) AS i`,
        [account, rows[0].id, NOW, count, tag],
      );
    // The oldest due jobs are all account 0's; account 4's documents are done.
    await insert(accounts[0], ROWS, `$3::timestamptz - interval '1 hour' + i * interval '1 ms'`, 'a');
    for (const account of accounts.slice(1, 4)) await insert(account, 3, '$3::timestamptz', account);
    await insert(accounts[4], ROWS, 'NULL::timestamptz', 'done');
    await db.query('VACUUM ANALYZE documents');
  });

  after(async () => {
    await database?.drop();
  });

  async function plan(generic: boolean): Promise<Record<string, unknown>[]> {
    const client = await database.db.connect();
    const values = [NOW, LEASE, 4, 2];
    try {
      await client.query('BEGIN');
      if (!generic) return nodes((await client.query(`EXPLAIN (FORMAT JSON) ${CLAIM_SQL}`, values)).rows[0]['QUERY PLAN'][0].Plan);
      await client.query('SET LOCAL plan_cache_mode = force_generic_plan');
      await client.query(`PREPARE claim_probe AS ${CLAIM_SQL}`);
      return nodes((await client.query(`EXPLAIN (FORMAT JSON) EXECUTE claim_probe('${NOW.toISOString()}', '${LEASE.toISOString()}', 4, 2)`)).rows[0]['QUERY PLAN'][0].Plan);
    } finally {
      await client.query('ROLLBACK');
      await client.query('DEALLOCATE ALL');
      client.release();
    }
  }

  for (const generic of [false, true]) {
    test(`the claim${generic ? ', prepared for any value,' : ''} reads the per-account indexes and scans no table`, async () => {
      const all = await plan(generic);
      const scans = all.filter((n) => n['Node Type'] === 'Seq Scan').map((n) => n['Relation Name']);
      assert.deepEqual(scans, [], `sequential scans of ${scans.join(', ')}`);
      const used = new Set(all.map((n) => n['Index Name']).filter(Boolean));
      assert.deepEqual([...used].sort(), ['documents_account_jobs', 'documents_account_leases']);
    });
  }

  test('one job per account a claim, the oldest first, and no more than the cap of one account running', async () => {
    const { db } = database;
    const first = await claimDueDocuments(db, NOW, LEASE, 10, 2);
    assert.deepEqual(first.map((d) => d.account_id).sort(), accounts.slice(0, 4).sort());
    assert.ok(first.every((d) => d.job_attempts === 1 && d.locked_until!.getTime() === LEASE.getTime()));
    const second = await claimDueDocuments(db, NOW, LEASE, 1, 2);
    assert.equal(second[0].account_id, accounts[0], 'the oldest due job, among accounts with as few running');
    const third = await claimDueDocuments(db, NOW, LEASE, 10, 2);
    assert.deepEqual(third.map((d) => d.account_id).sort(), accounts.slice(1, 4).sort(), 'account 0 has its 2 running');
  });
});
