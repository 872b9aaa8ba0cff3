// The fairness part of `npm run bench:documents`: how long account B's one small text waits, from
// its upload (the row and its job stored, as POST /v2/documents stores them) to its extraction
// saved, while account A holds the document workers: (1) a backlog of thousands of A's documents,
// read by svc's own extraction engine; (2) A's files that each take long to extract (an engine
// that waits BENCH_FAIR_SLOW_MS for them, as a huge PDF in an extraction process would). Two
// document workers share the database, as two svc processes would. It uses only what every
// version of svc has had (the DocumentWorker, the document store), so the same file measures an
// older checkout too.
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { systemClock } from '../src/clock.ts';
import type { ExtractDocument } from '../src/domain/documents/extraction.ts';
import { DocumentWorker } from '../src/services/documents-worker.ts';
import { insertAccount } from '../src/store/accounts.ts';
import type { Db } from '../src/store/db.ts';
import { insertBlob, insertDocument } from '../src/store/documents.ts';
import { benchDatabase } from './database.ts';

export interface FairnessCase {
  name: string;
  /** B's upload to its extraction saved, ms. */
  latencyMs: number;
  /** A's documents still pending when B's was done. */
  aPending: number;
  aTotal: number;
}

async function addDocument(db: Db, accountId: string, text: string): Promise<string> {
  const bytes = Buffer.from(text);
  const at = systemClock.now();
  const blob = await insertBlob(db, { account_id: accountId, filename: 'note.txt', declared_content_type: 'text/plain', byte_size: bytes.length, checksum: 'bench', data: bytes, at });
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const result = await insertDocument(db, { account_id: accountId, blob_id: blob.id, name: 'note.txt', source: 'api', file_name: 'note.txt', file_content_type: 'text/plain', file_size_bytes: bytes.length, sha256, at });
  if (!('row' in result)) throw new Error('duplicate document');
  return result.row.id;
}

const pendingOf = async (db: Db, accountId: string): Promise<number> =>
  (await db.query("SELECT count(*)::int AS n FROM documents WHERE account_id = $1 AND extraction_status = 'pending'", [accountId])).rows[0].n;

async function oneCase(db: Db, name: string, aTexts: string[], extract: ExtractDocument | undefined, intervalMs: number, timeoutMs: number): Promise<FairnessCase> {
  const a = await insertAccount(db, `${name} A`);
  const b = await insertAccount(db, `${name} B`);
  for (const text of aTexts) await addDocument(db, a.id, text);
  const workers = [0, 1].map(() => new DocumentWorker({ db, clock: systemClock, extract }));
  for (const w of workers) w.start(intervalMs);
  // B uploads once the workers have taken A's first jobs.
  const leased = async () => (await db.query('SELECT count(*)::int AS n FROM documents WHERE account_id = $1 AND locked_until IS NOT NULL', [a.id])).rows[0].n;
  while ((await leased()) === 0) await sleep(10);
  const start = performance.now();
  const id = await addDocument(db, b.id, `Arrival notice for account B ${name}\nContainer MSKU1234565\n`);
  let latencyMs = Number.NaN;
  while (performance.now() - start < timeoutMs) {
    const { rows } = await db.query('SELECT extraction_status FROM documents WHERE id = $1', [id]);
    if (rows[0].extraction_status !== 'pending') {
      latencyMs = performance.now() - start;
      break;
    }
    await sleep(10);
  }
  const aPending = await pendingOf(db, a.id);
  // A's work is not waited for: the next case gets a database without it.
  await db.query("UPDATE documents SET job = NULL, next_attempt_at = NULL WHERE account_id = $1 AND extraction_status = 'pending'", [a.id]);
  await Promise.all(workers.map((w) => w.stop()));
  return { name, latencyMs, aPending, aTotal: aTexts.length };
}

export async function fairness(options: { backlog: number; slowFiles: number; slowMs: number; intervalMs: number }): Promise<FairnessCase[]> {
  const database = await benchDatabase();
  try {
    const { extractDocument } = await import('../src/documents/extract.ts');
    const backlog = Array.from({ length: options.backlog }, (_, i) => `Arrival notice ${i} of account A\nContainer MSKU${String(100000 + i).padStart(6, '0')}0\nETA 2026-12-${String((i % 28) + 1).padStart(2, '0')}\n`);
    const slow = Array.from({ length: options.slowFiles }, (_, i) => `SLOW file ${i} of account A\n`);
    // Files marked SLOW take slowMs (an extraction process busy with a huge file); the rest are read for real.
    const slowEngine: ExtractDocument = async (bytes, contentType) => {
      if (Buffer.from(bytes.subarray(0, 4)).toString() === 'SLOW') await sleep(options.slowMs);
      return extractDocument(bytes, contentType);
    };
    await extractDocument(Buffer.from('warm-up\n'), 'text/plain');
    const timeoutMs = 10 * 60_000;
    return [
      await oneCase(database.db, `A's backlog of ${options.backlog} documents`, backlog, undefined, options.intervalMs, timeoutMs),
      await oneCase(database.db, `A's ${options.slowFiles} files of ${options.slowMs / 1000} s each`, slow, slowEngine, options.intervalMs, timeoutMs),
    ];
  } finally {
    await database.drop();
  }
}
