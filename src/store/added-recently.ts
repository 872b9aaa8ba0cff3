// How much an account added lately: the rows of a table it made within rolling windows, counted
// in PostgreSQL so every svc process sees the same figure (the limits on document intake).
import type { Queryable } from './db.ts';

/** Tables whose rows an account makes, with an index on (account_id, created_at). Never input. */
export type AddedTable = 'documents' | 'tracking_requests';

export interface WindowUse {
  /** Rows made within the window, counted up to its limit. */
  used: number;
  /** When the window is full: when its oldest row that keeps it full leaves it. */
  freesAt: Date | null;
}

/**
 * For each window (its length and limit), the account's rows of `table` made in the `windowMs`
 * before `now`. Each count stops at the window's limit, so it costs no more than the limit's rows
 * of the (account_id, created_at) index.
 */
export async function addedWithin(db: Queryable, table: AddedTable, accountId: string, now: Date, windows: readonly { windowMs: number; limit: number }[]): Promise<WindowUse[]> {
  const within = `account_id = $1 AND created_at > $2::timestamptz - w.ms * interval '1 millisecond' AND created_at <= $2`;
  const { rows } = await db.query<{ used: number; nth: Date | null; ms: number }>(
    `SELECT (SELECT count(*)::int FROM (SELECT 1 FROM ${table} WHERE ${within} LIMIT w.lim) x) AS used,
            (SELECT created_at FROM ${table} WHERE ${within} ORDER BY created_at DESC OFFSET w.lim - 1 LIMIT 1) AS nth,
            w.ms
       FROM unnest($3::int[], $4::int[]) WITH ORDINALITY AS w(ms, lim, i) ORDER BY w.i`,
    [accountId, now, windows.map((w) => w.windowMs), windows.map((w) => w.limit)],
  );
  return rows.map((r) => ({ used: r.used, freesAt: r.nth && new Date(r.nth.getTime() + r.ms) }));
}
