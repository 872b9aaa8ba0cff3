// The claim the tracking queues and document processing take work by: due rows, oldest first, leased so that concurrent
// workers (and processes) skip each other's. Table and column come from a closed set, never input.
import type { Queryable } from './db.ts';

export const DUE_COLUMN = { shipment_refreshes: 'next_refresh_at', tracking_requests: 'next_attempt_at', documents: 'next_attempt_at' } as const;

/**
 * What "due" means for a row of `table` at `now` ($1): its time has come and no live lease holds it.
 * The lower bound is always true, and there for the planner: a prepared statement's generic plan,
 * made without $1, guesses that a third of the table is due by `<= $1` alone, and a scan of a
 * third of it costs more than the claim planned for its values, so PostgreSQL would plan every run
 * afresh (half a millisecond a claim); between two bounds it guesses a two-hundredth, and keeps
 * the generic plan, which walks the due-time index like the custom one.
 */
export const dueAt1 = (table: keyof typeof DUE_COLUMN) =>
  `${DUE_COLUMN[table]} >= '-infinity' AND ${DUE_COLUMN[table]} <= $1 AND (locked_until IS NULL OR locked_until <= $1)`;

/** Leases up to `limit` rows whose time has come, oldest due first, until `leaseUntil`. */
export async function claimDue<Row>(
  db: Queryable,
  table: keyof typeof DUE_COLUMN,
  now: Date,
  leaseUntil: Date,
  limit: number,
): Promise<Row[]> {
  // Prepared: its generic plan walks the due-time index (dueAt1, test/due-work-plan.test.ts).
  const { rows } = await db.query<Row & object>(claimDueSql(table), [now, leaseUntil, limit]);
  return rows;
}

/**
 * The claim statement ($1 now, $2 lease end, $3 limit): a range scan of the table's partial index
 * on its due column, stopped by the LIMIT, so its cost follows the work due, not the table's size
 * (test/due-work-plan.test.ts checks the plan). The rows locked are updated where they lie (by
 * ctid, which the lock holds still until the statement ends), not found again through the key's
 * index: a claim of 20 cost PostgreSQL 0.27-0.32 ms instead of 0.38.
 */
export const claimDueSql = (table: keyof typeof DUE_COLUMN) =>
  `UPDATE ${table} SET locked_until = $2
    WHERE ctid = ANY (ARRAY(SELECT ctid FROM ${table}
                  WHERE ${dueAt1(table)}
                  ORDER BY ${DUE_COLUMN[table]} LIMIT $3 FOR UPDATE SKIP LOCKED))
    RETURNING *`;
