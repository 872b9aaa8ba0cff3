// The cheapest statement that proves the database answers, for liveness and readiness.
import type { Queryable } from './db.ts';

/** Resolves when the database answers; rejects with the driver's error when it does not. */
export async function pingDatabase(db: Queryable): Promise<void> {
  await db.query('SELECT 1');
}
