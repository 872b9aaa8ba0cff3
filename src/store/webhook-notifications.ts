// SQL for webhook notifications and their delivery attempts. A notification joins the event it
// announces (what it refers to, its container and per-container sequence) when read.
import type { WebhookHeader } from '../domain/webhooks/headers.ts';
import type { Queryable } from './db.ts';
import { isUuid } from './uuid.ts';

export interface NotificationRow {
  id: string;
  account_id: string;
  webhook_id: string;
  event: string;
  delivery_status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  retries: number;
  next_attempt_at: Date;
  delivered_at: Date | null;
  created_at: Date;
  updated_at: Date;
  reference_type: string;
  reference_id: string;
  shipment_id: string | null;
  container_id: string | null;
  sequence: number | null;
  log_ids: string[];
}

const SELECT = `
  SELECT n.*, d.reference_type, d.reference_id, d.shipment_id, d.container_id, d.sequence,
         ARRAY(SELECT l.id FROM webhook_notification_logs l WHERE l.webhook_notification_id = n.id ORDER BY l.attempt) AS log_ids
    FROM webhook_notifications n JOIN domain_events d ON d.id = n.domain_event_id`;

export async function listNotifications(db: Queryable, accountId: string, limit: number, offset: number): Promise<{ rows: NotificationRow[]; total: number }> {
  const [page, count] = await Promise.all([
    db.query<NotificationRow>(`${SELECT} WHERE n.account_id = $1 ORDER BY n.created_at DESC, n.id DESC LIMIT $2 OFFSET $3`, [accountId, limit, offset]),
    db.query<{ n: number }>('SELECT count(*) AS n FROM webhook_notifications WHERE account_id = $1', [accountId]),
  ]);
  return { rows: page.rows, total: count.rows[0].n };
}

export async function findNotifications(db: Queryable, accountId: string, ids: string[]): Promise<NotificationRow[]> {
  const valid = ids.filter(isUuid);
  if (valid.length === 0) return [];
  const { rows } = await db.query<NotificationRow>(`${SELECT} WHERE n.account_id = $1 AND n.id = ANY($2::uuid[])`, [accountId, valid]);
  return rows;
}

/** A notification claimed for delivery, with where and how to deliver it. */
export interface ClaimedNotification {
  id: string;
  account_id: string;
  webhook_id: string;
  attempts: number;
  retries: number;
  url: string;
  secret: string;
  headers: WebhookHeader[] | null;
  active: boolean;
}

/**
 * Claims up to `limit` due notifications by pushing their due time to `leaseUntil`: a worker that
 * dies mid-delivery leaves them due again when the lease ends, so nothing is lost (the receiver
 * may see that attempt twice, which the notification id lets it recognise).
 */
export async function claimDueNotifications(db: Queryable, now: Date, leaseUntil: Date, limit: number): Promise<ClaimedNotification[]> {
  const { rows } = await db.query<ClaimedNotification>(
    `WITH due AS (
       SELECT id FROM webhook_notifications
        WHERE delivery_status = 'pending' AND next_attempt_at <= $1
        ORDER BY next_attempt_at LIMIT $3 FOR UPDATE SKIP LOCKED
     )
     UPDATE webhook_notifications n SET next_attempt_at = $2, attempts = n.attempts + 1
       FROM due, webhooks w
      WHERE n.id = due.id AND w.id = n.webhook_id
     RETURNING n.id, n.account_id, n.webhook_id, n.attempts, n.retries, w.url, w.secret, w.headers, w.active`,
    [now, leaseUntil, limit],
  );
  return rows;
}

export interface AttemptLog {
  notificationId: string;
  accountId: string;
  attempt: number;
  url: string;
  succeeded: boolean;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  responseBody: string | null;
}

export async function insertAttemptLog(db: Queryable, log: AttemptLog, at: Date): Promise<void> {
  await db.query(
    `INSERT INTO webhook_notification_logs (account_id, webhook_notification_id, attempt, url, succeeded, status_code, duration_ms, error, response_body, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [log.accountId, log.notificationId, log.attempt, log.url, log.succeeded, log.statusCode, log.durationMs, log.error, log.responseBody, at],
  );
}

/** Settles a delivered or abandoned notification, or schedules its next try. */
export async function settleNotification(
  db: Queryable,
  id: string,
  outcome: { status: 'succeeded' | 'failed' } | { status: 'pending'; retries: number; nextAttemptAt: Date },
  at: Date,
): Promise<void> {
  if (outcome.status === 'pending') {
    await db.query(`UPDATE webhook_notifications SET retries = $2, next_attempt_at = $3, updated_at = $4 WHERE id = $1`, [id, outcome.retries, outcome.nextAttemptAt, at]);
    return;
  }
  await db.query(
    `UPDATE webhook_notifications SET delivery_status = $2, delivered_at = CASE WHEN $2 = 'succeeded' THEN $3::timestamptz END,
            next_attempt_at = '-infinity', updated_at = $3 WHERE id = $1`,
    [id, outcome.status, at],
  );
}

/** Makes a notification due again from a fresh retry count; undefined when the account has no such notification. */
export async function requeueNotification(db: Queryable, accountId: string, id: string, at: Date): Promise<boolean> {
  if (!isUuid(id)) return false;
  const { rowCount } = await db.query(
    `UPDATE webhook_notifications SET delivery_status = 'pending', retries = 0, next_attempt_at = '-infinity', updated_at = $3
      WHERE account_id = $1 AND id = $2`,
    [accountId, id, at],
  );
  return (rowCount ?? 0) > 0;
}

export interface NotificationLogRow {
  id: string;
  webhook_notification_id: string;
  attempt: number;
  url: string;
  succeeded: boolean;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  response_body: string | null;
  created_at: Date;
}

export async function findNotificationLogs(db: Queryable, accountId: string, ids: string[]): Promise<NotificationLogRow[]> {
  const valid = ids.filter(isUuid);
  if (valid.length === 0) return [];
  const { rows } = await db.query<NotificationLogRow>(
    'SELECT * FROM webhook_notification_logs WHERE account_id = $1 AND id = ANY($2::uuid[]) ORDER BY attempt',
    [accountId, valid],
  );
  return rows;
}
