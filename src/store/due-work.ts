// How much work is waiting in each queue the workers drain, for the metrics scrape. "Due" means
// exactly what the claim queries take (one rule, dueAt1 in leases.ts): due by now and not held by a live lease.
import type { Queryable } from './db.ts';
import { dueAt1 } from './leases.ts';

export type WorkQueue = 'tracking_requests' | 'shipment_refreshes' | 'webhook_notifications';

export interface QueueBacklog {
  queue: WorkQueue;
  due: number;
  /** When the longest-waiting due item came due; null when nothing is due. */
  oldestDueAt: Date | null;
}

/**
 * A backlog is counted up to this many items per queue: beyond it the gauge shows the cap (a
 * queue that long is news whatever its exact length), and a scrape never reads more index
 * entries than this, however much has piled up.
 */
export const BACKLOG_COUNT_CAP = 10_000;

/**
 * Tracking work is due on the tracking clock (demo time while the sandbox runs), notifications on
 * the delivery worker's real time, so each queue is measured against its own "now". The tracking
 * parts are range scans of the partial indexes the claims use, in due order and stopped by the
 * cap (test/due-work-plan.test.ts checks the plans); past the cap, the oldest is that of the items
 * that came due first. Notifications are counted off the delivery queue (migration 030), which
 * holds pending notifications only, so reading it costs what is pending whatever the history;
 * past the cap, the oldest is that of the ones counted. A notification due at once has due_at
 * '-infinity': it has been due since it was queued (or since its lease ended).
 */
export async function dueWorkBacklog(db: Queryable, trackingNow: Date, deliveryNow: Date): Promise<QueueBacklog[]> {
  const { rows } = await db.query<{ queue: WorkQueue; due: number; oldest: Date | null }>(dueWorkBacklogSql, [trackingNow, deliveryNow, BACKLOG_COUNT_CAP]);
  return rows.map((r) => ({ queue: r.queue, due: r.due, oldestDueAt: r.oldest }));
}

/** The backlog statement: $1 the tracking clock's now, $2 the delivery clock's, $3 the cap. */
export const dueWorkBacklogSql = `SELECT 'tracking_requests' AS queue, count(*) AS due, min(next_attempt_at) AS oldest
   FROM (SELECT next_attempt_at FROM tracking_requests WHERE ${dueAt1('tracking_requests')} ORDER BY next_attempt_at LIMIT $3) AS d
  UNION ALL
 SELECT 'shipment_refreshes', count(*), min(next_refresh_at)
   FROM (SELECT next_refresh_at FROM shipment_refreshes WHERE ${dueAt1('shipment_refreshes')} ORDER BY next_refresh_at LIMIT $3) AS d
  UNION ALL
 SELECT 'webhook_notifications', count(*), min(greatest(due_at, leased_until, queued_at))
   FROM (SELECT due_at, leased_until, queued_at FROM webhook_delivery_queue
          WHERE due_at <= $2 AND leased_until <= $2 LIMIT $3) AS d`;
