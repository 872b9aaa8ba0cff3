// SQL for (re)loading the reference tables from refdata/ (src/refdata/seed.ts decides when).
import type { Tx } from './db.ts';

// Serialises seeding across processes sharing a database (distinct from the migrator's key).
const LOCK_KEY = 7_344_202;

// Rows per INSERT: large enough to keep round trips few, small enough to keep each
// JSON parameter to about a megabyte.
const CHUNK_SIZE = 4000;

/** A reference table: its name and its columns (name and SQL type, `id uuid` first). */
export interface ReferenceTable {
  name: string;
  columns: [string, string][];
}

/** Holds the seeding lock until the transaction ends. */
export async function lockReferenceData(tx: Tx): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock($1)', [LOCK_KEY]);
}

/** The content hash of what was last loaded into the table; undefined before its first load. */
export async function loadedContentHash(tx: Tx, table: string): Promise<string | undefined> {
  const { rows } = await tx.query<{ content_hash: string }>(
    'SELECT content_hash FROM refdata_versions WHERE dataset = $1',
    [table],
  );
  return rows[0]?.content_hash;
}

/** Upserts the rows (rewriting only those that changed), deletes the rows that are gone and records the content hash. */
export async function replaceReferenceRows(tx: Tx, table: ReferenceTable, rows: object[], contentHash: string): Promise<void> {
  const name = table.name;
  const names = table.columns.map(([column]) => column);
  const others = names.filter((column) => column !== 'id');
  const upsert = `
    INSERT INTO ${name} (${names.join(', ')})
    SELECT ${names.join(', ')} FROM jsonb_to_recordset($1::jsonb)
      AS r(${table.columns.map(([column, type]) => `${column} ${type}`).join(', ')})
    ON CONFLICT (id) DO UPDATE SET ${others.map((column) => `${column} = EXCLUDED.${column}`).join(', ')}
    WHERE (${others.map((column) => `${name}.${column}`).join(', ')})
      IS DISTINCT FROM (${others.map((column) => `EXCLUDED.${column}`).join(', ')})`;
  for (let start = 0; start < rows.length; start += CHUNK_SIZE) {
    await tx.query(upsert, [JSON.stringify(rows.slice(start, start + CHUNK_SIZE))]);
  }
  const ids = rows.map((row) => (row as { id: string }).id);
  await tx.query(`DELETE FROM ${name} WHERE id NOT IN (SELECT unnest($1::uuid[]))`, [ids]);
  await tx.query(
    `INSERT INTO refdata_versions (dataset, content_hash, loaded_at) VALUES ($1, $2, now())
     ON CONFLICT (dataset) DO UPDATE SET content_hash = EXCLUDED.content_hash, loaded_at = EXCLUDED.loaded_at`,
    [name, contentHash],
  );
}
