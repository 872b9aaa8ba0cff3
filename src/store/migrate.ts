// Applies the numbered SQL files in ./migrations once each, in order, each in one transaction
// unless it is split into steps (STEP).
// An advisory lock serialises processes that start together on one database.
import { readdir, readFile } from 'node:fs/promises';
import type { Db } from './db.ts';

const MIGRATIONS_DIR = new URL('./migrations/', import.meta.url);
const LOCK_KEY = 7_344_201; // any constant shared by every svc process
/**
 * A line that splits a migration into steps run one after another, each in a transaction of its
 * own: for work on large tables that must not hold its locks to the end of the whole migration
 * (a backfill committing in batches, CREATE INDEX CONCURRENTLY). A file without it is one transaction.
 */
const STEP = /^-- migrate:step\b.*$/m;

export async function listMigrations(): Promise<{ name: string; sql: string }[]> {
  const files = (await readdir(MIGRATIONS_DIR)).filter((f) => /^\d{3}_.+\.sql$/.test(f)).sort();
  return Promise.all(files.map(async (name) => ({ name, sql: await readFile(new URL(name, MIGRATIONS_DIR), 'utf8') })));
}

/** Returns the names of the migrations it applied. */
export async function migrate(db: Db): Promise<string[]> {
  const client = await db.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [LOCK_KEY]);
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
    const done = new Set((await client.query<{ name: string }>('SELECT name FROM schema_migrations')).rows.map((r) => r.name));
    const applied: string[] = [];
    for (const { name, sql } of await listMigrations()) {
      if (done.has(name)) continue;
      const steps = sql.split(STEP);
      if (steps.length === 1) {
        await client.query('BEGIN');
        try {
          await client.query(sql);
          await client.query('INSERT INTO schema_migrations (name) VALUES ($1)', [name]);
          await client.query('COMMIT');
        } catch (err) {
          await client.query('ROLLBACK');
          throw new Error(`migration ${name} failed: ${(err as Error).message}`);
        }
      } else {
        // Each step commits on its own (one statement string: an implicit transaction, or a
        // statement that must run outside one), so no lock outlives its step; the migration
        // counts as applied after its last. Steps are written to be run again after a crash.
        for (const [i, step] of steps.entries()) {
          await client.query(step).catch((err: Error) => {
            throw new Error(`migration ${name} failed in step ${i + 1}: ${err.message}`);
          });
        }
        await client.query('INSERT INTO schema_migrations (name) VALUES ($1)', [name]);
      }
      applied.push(name);
    }
    return applied;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [LOCK_KEY]).catch(() => {});
    client.release();
  }
}
