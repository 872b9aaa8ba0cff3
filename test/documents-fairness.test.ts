// Document jobs are shared fairly between accounts: account A's backlog of hundreds of documents,
// or its files that take long to extract, never keep account B's one small document waiting
// behind them. The workers run as pools that claim a job as soon as a slot frees, account by
// account, with at most ACCOUNT_JOBS_IN_FLIGHT of one account's jobs running over all workers.
// Asserted on order and progress (how much of A's work was done when B's was), never on time.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { ACCOUNT_JOBS_IN_FLIGHT } from '../src/domain/documents/intake-limits.ts';
import { nothingRead, type ExtractDocument } from '../src/domain/documents/extraction.ts';
import { DocumentWorker } from '../src/services/documents-worker.ts';
import { insertBlob, insertDocument } from '../src/store/documents.ts';
import { startTestApp, type TestApp } from './support/app.ts';
import { forFile } from './support/for-file.ts';

let t: TestApp;
forFile(() => startTestApp(), (app) => (t = app));

/** Stores a text document for the account, its extraction due at once (as an upload does). */
async function addDocument(accountId: string, text: string): Promise<string> {
  const bytes = Buffer.from(text);
  const at = t.clock.now();
  const blob = await insertBlob(t.db, { account_id: accountId, filename: 'a.txt', declared_content_type: 'text/plain', byte_size: bytes.length, checksum: 'x', data: bytes, at });
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const doc = await insertDocument(t.db, { account_id: accountId, blob_id: blob.id, name: 'a.txt', source: 'api', file_name: 'a.txt', file_content_type: 'text/plain', file_size_bytes: bytes.length, sha256, at });
  assert.ok('row' in doc);
  return doc.row.id;
}

const status = async (id: string): Promise<string> => (await t.db.query('SELECT extraction_status FROM documents WHERE id = $1', [id])).rows[0].extraction_status;
const pendingOf = async (accountId: string): Promise<number> =>
  (await t.db.query("SELECT count(*)::int AS n FROM documents WHERE account_id = $1 AND extraction_status = 'pending'", [accountId])).rows[0].n;

async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    if (await check()) return;
    await sleep(25);
  }
  throw new Error(`timed out waiting until ${what}`);
}

const read = (text: string) => ({ ...nothingRead(), text });

test("a backlog of hundreds of one account's documents does not hold up another's small one", async () => {
  const a = await t.newAccount('Backlog');
  const b = await t.newAccount('Small');
  const BACKLOG = 400;
  for (let i = 0; i < BACKLOG; i++) await addDocument(a.accountId, `backlog ${i}`);
  const small = await addDocument(b.accountId, 'one small text');
  let backlogDone = 0;
  // A's documents take a while each (as real ones do); B's is quick.
  const extract: ExtractDocument = async (bytes) => {
    const text = Buffer.from(bytes).toString();
    if (text.startsWith('backlog')) {
      await sleep(20);
      backlogDone++;
    }
    return read(text);
  };
  const worker = new DocumentWorker({ db: t.db, clock: t.clock, extract });
  worker.start(50);
  try {
    await until("B's document is extracted", async () => (await status(small)) === 'extracted');
    const pending = await pendingOf(a.accountId);
    assert.ok(pending > BACKLOG * 0.75, `A's backlog is mostly still pending when B's document is done (${pending} of ${BACKLOG} pending, ${backlogDone} extracted)`);
  } finally {
    await worker.stop();
    // The rest of the backlog is no other test's work.
    await t.db.query('UPDATE documents SET job = NULL, next_attempt_at = NULL WHERE account_id = $1', [a.accountId]);
  }
});

test("one account's slow files take at most its share of the slots, over several workers, and another's document goes by", async () => {
  const a = await t.newAccount('Slow files');
  const b = await t.newAccount('Quick file');
  for (let i = 0; i < 12; i++) await addDocument(a.accountId, `huge ${i}`);
  let open = () => {};
  const gate = new Promise<void>((resolve) => (open = resolve));
  let started = 0;
  // A's files never end until the test lets them: a file that takes minutes to extract.
  const extract: ExtractDocument = async (bytes) => {
    const text = Buffer.from(bytes).toString();
    if (text.startsWith('huge')) {
      started++;
      await gate;
    }
    return read(text);
  };
  const workers = [new DocumentWorker({ db: t.db, clock: t.clock, extract }), new DocumentWorker({ db: t.db, clock: t.clock, extract })];
  for (const w of workers) w.start(50);
  try {
    await until("A's files hold their slots", async () => started >= ACCOUNT_JOBS_IN_FLIGHT);
    const small = await addDocument(b.accountId, 'another small text');
    await until("B's document is extracted", async () => (await status(small)) === 'extracted');
    assert.equal(started, ACCOUNT_JOBS_IN_FLIGHT, "no more of A's files started than its share, over both workers");
    assert.equal(await pendingOf(a.accountId), 12);
  } finally {
    open();
    await until("A's files are done", async () => (await pendingOf(a.accountId)) === 0);
    await Promise.all(workers.map((w) => w.stop()));
  }
  assert.equal(started, 12, 'each of them extracted once');
});
