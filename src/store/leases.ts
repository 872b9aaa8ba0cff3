// The claim both tracking queues take work by: due rows, oldest first, leased so that concurrent
// workers (and processes) skip each other's. Table and column come from a closed set, never input.
import type { Queryable } from './db.ts';

const DUE_COLUMN = { shipments: 'next_refresh_at', tracking_requests: 'next_attempt_at' } as const;

/** Leases up to `limit` rows whose time has come, oldest due first, until `leaseUntil`. */
export async function claimDue<Row>(
  db: Queryable,
  table: keyof typeof DUE_COLUMN,
  now: Date,
  leaseUntil: Date,
  limit: number,
): Promise<Row[]> {
  const dueColumn = DUE_COLUMN[table];
  const { rows } = await db.query<Row & object>(
    `UPDATE ${table} SET locked_until = $2
      WHERE id IN (SELECT id FROM ${table}
                    WHERE ${dueColumn} <= $1 AND (locked_until IS NULL OR locked_until <= $1)
                    ORDER BY ${dueColumn} LIMIT $3 FOR UPDATE SKIP LOCKED)
      RETURNING *`,
    [now, leaseUntil, limit],
  );
  return rows;
}
