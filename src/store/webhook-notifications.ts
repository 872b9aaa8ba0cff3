// SQL for webhook notifications and their delivery attempts. A notification joins the event it
// announces (what it refers to, its container and per-container sequence) when read.
import type { WebhookHeader } from '../domain/webhooks/headers.ts';
import { countBounded, type CountedPage } from './account-rows.ts';
import { plannedPerRun, type Queryable } from './db.ts';
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

/**
 * NotificationRows read from `source` (the table, or a CTE of its rows) as `n`, with what they
 * take from the event they announce; `extra` adds columns of further joins.
 */
const selectNotifications = (source: string, extra = '') => `
  SELECT n.*, d.reference_type, d.reference_id, d.shipment_id, d.container_id, d.sequence,
         ARRAY(SELECT l.id FROM webhook_notification_logs l WHERE l.webhook_notification_id = n.id ORDER BY l.attempt) AS log_ids${extra}
    FROM ${source} n JOIN domain_events d ON d.id = n.domain_event_id`;
const SELECT = selectNotifications('webhook_notifications');

export async function listNotifications(db: Queryable, accountId: string, limit: number, offset: number): Promise<CountedPage<NotificationRow>> {
  const [page, count] = await Promise.all([
    // The page is cut before the join, so a deep page joins its thirty events, not all before it;
    // planned for its values, as a generic plan, not knowing the page's size, would hash every event.
    db.query<NotificationRow>(
      plannedPerRun(
        `WITH page AS (SELECT * FROM webhook_notifications WHERE account_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3)
         ${selectNotifications('page')} ORDER BY n.created_at DESC, n.id DESC`,
        [accountId, limit, offset],
      ),
    ),
    countBounded(db, 'FROM webhook_notifications WHERE account_id = $1', [accountId], offset),
  ]);
  return { rows: page.rows, ...count };
}

export async function findNotifications(db: Queryable, accountId: string, ids: string[]): Promise<NotificationRow[]> {
  const valid = ids.filter(isUuid);
  if (valid.length === 0) return [];
  const { rows } = await db.query<NotificationRow>(`${SELECT} WHERE n.account_id = $1 AND n.id = ANY($2::uuid[])`, [accountId, valid]);
  return rows;
}

/** A notification claimed for delivery, with where and how to deliver it. */
export interface ClaimedNotification extends NotificationRow {
  url: string;
  secret: string;
  headers: WebhookHeader[] | null;
  active: boolean;
}

/**
 * Claims up to `limit` due notifications by pushing their due time to `leaseUntil`: a worker that
 * dies mid-delivery leaves them due again when the lease ends, so nothing is lost (the receiver
 * may see that attempt twice, which the notification id lets it recognise). Returns all a
 * delivery needs, so delivering takes no further read of the notification or its webhook.
 */
export async function claimDueNotifications(db: Queryable, now: Date, leaseUntil: Date, limit: number): Promise<ClaimedNotification[]> {
  const { rows } = await db.query<ClaimedNotification>(
    `WITH due AS (
       SELECT id FROM webhook_notifications
        WHERE delivery_status = 'pending' AND next_attempt_at <= $1
        ORDER BY next_attempt_at LIMIT $3 FOR UPDATE SKIP LOCKED
     ), claimed AS (
       UPDATE webhook_notifications n SET next_attempt_at = $2, attempts = n.attempts + 1
         FROM due WHERE n.id = due.id
       RETURNING n.*
     )
     ${selectNotifications('claimed', ', w.url, w.secret, w.headers, w.active')} JOIN webhooks w ON w.id = n.webhook_id`,
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

export type AttemptOutcome = { status: 'succeeded' | 'failed' } | { status: 'pending'; retries: number; nextAttemptAt: Date };

export interface Attempt {
  log: AttemptLog;
  outcome: AttemptOutcome;
  at: Date;
}

/**
 * Logs attempts and settles their notifications (delivered, abandoned, or due again later) in one
 * statement, so a log and its notification cannot disagree, and attempts that end together cost
 * one round trip to record.
 */
export async function recordAttempts(db: Queryable, attempts: Attempt[]): Promise<void> {
  if (attempts.length === 0) return;
  const rows = attempts.map(({ log, outcome, at }) => ({
    account_id: log.accountId,
    notification_id: log.notificationId,
    attempt: log.attempt,
    url: log.url,
    succeeded: log.succeeded,
    status_code: log.statusCode,
    duration_ms: log.durationMs,
    error: log.error,
    response_body: log.responseBody,
    at,
    status: outcome.status,
    retries: outcome.status === 'pending' ? outcome.retries : null,
    next_attempt_at: outcome.status === 'pending' ? outcome.nextAttemptAt : null,
  }));
  await db.query(
    `WITH input AS (
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(account_id uuid, notification_id uuid, attempt integer, url text, succeeded boolean,
              status_code integer, duration_ms integer, error text, response_body text, at timestamptz, status text, retries integer, next_attempt_at timestamptz)
     ), logged AS (
       INSERT INTO webhook_notification_logs (account_id, webhook_notification_id, attempt, url, succeeded, status_code, duration_ms, error, response_body, created_at)
       SELECT account_id, notification_id, attempt, url, succeeded, status_code, duration_ms, error, response_body, at FROM input
     )
     UPDATE webhook_notifications n SET
       delivery_status = i.status,
       retries = COALESCE(i.retries, n.retries),
       next_attempt_at = COALESCE(i.next_attempt_at, '-infinity'),
       delivered_at = CASE WHEN i.status = 'succeeded' THEN i.at ELSE n.delivered_at END,
       updated_at = i.at
     FROM input i WHERE n.id = i.notification_id`,
    [JSON.stringify(rows)],
  );
}

/** Makes a notification due again from a fresh retry count; false when the account has no such notification. */
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
