// How requests to each carrier have been going (carrier_request_outcomes): written on the
// connectors' request path, read by `svc carriers list`.
import type { Queryable } from './db.ts';

/** What one or more requests to a carrier showed, merged; every time is real time. */
export interface CarrierOutcomeBatch {
  lastSuccessAt: Date | null;
  lastFailureAt: Date | null;
  lastFailureReason: string | null;
  /** The first failure after the batch's last success (or of the batch, without one). */
  failingSince: Date | null;
  heldUntil: Date | null;
}

export interface CarrierOutcomeRow extends CarrierOutcomeBatch {
  scac: string;
}

/**
 * One upsert per batch. Times only move forward, so writers that overlap (svc serve and
 * `svc carriers check`) cannot move one back; a batch with a success ends the failing streak,
 * one without carries it on.
 */
export async function recordCarrierOutcome(db: Queryable, scac: string, batch: CarrierOutcomeBatch): Promise<void> {
  await db.query(
    `INSERT INTO carrier_request_outcomes AS o (scac, last_success_at, last_failure_at, last_failure_reason, failing_since, held_until)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (scac) DO UPDATE SET
       last_success_at = GREATEST(o.last_success_at, EXCLUDED.last_success_at),
       last_failure_at = GREATEST(o.last_failure_at, EXCLUDED.last_failure_at),
       last_failure_reason = CASE WHEN EXCLUDED.last_failure_at >= o.last_failure_at OR o.last_failure_at IS NULL
                                  THEN COALESCE(EXCLUDED.last_failure_reason, o.last_failure_reason) ELSE o.last_failure_reason END,
       failing_since = CASE WHEN EXCLUDED.last_success_at IS NOT NULL THEN EXCLUDED.failing_since
                            ELSE COALESCE(o.failing_since, EXCLUDED.failing_since) END,
       held_until = GREATEST(o.held_until, EXCLUDED.held_until)`,
    [scac, batch.lastSuccessAt, batch.lastFailureAt, batch.lastFailureReason, batch.failingSince, batch.heldUntil],
  );
}

export async function carrierOutcomes(db: Queryable): Promise<CarrierOutcomeRow[]> {
  const { rows } = await db.query<CarrierOutcomeRow>(
    `SELECT scac, last_success_at AS "lastSuccessAt", last_failure_at AS "lastFailureAt", last_failure_reason AS "lastFailureReason",
            failing_since AS "failingSince", held_until AS "heldUntil"
       FROM carrier_request_outcomes ORDER BY scac`,
  );
  return rows;
}
