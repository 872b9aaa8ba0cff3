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

/** What a notification's document shows of it (all the delivery worker reads of its notifications, too). */
export type NotificationDocumentRow = Pick<
  NotificationRow,
  'id' | 'account_id' | 'webhook_id' | 'event' | 'delivery_status' | 'created_at' | 'reference_type' | 'reference_id' | 'sequence' | 'log_ids'
>;

const ALL_COLUMNS = 'n.*, d.reference_type, d.reference_id, d.shipment_id, d.container_id, d.sequence';
// What a claim returns of a notification and its event: a ClaimedNotification.
const CLAIMED_COLUMNS = 'n.id, n.account_id, n.webhook_id, n.event, n.delivery_status, n.attempts, n.retries, n.created_at, d.reference_type, d.reference_id, d.sequence';

/**
 * NotificationRows read from `source` (the table, or a CTE of its rows) as `n`, with what they
 * take from the event they announce (or only `columns` of both); `extra` adds columns of further
 * joins; rows for which `mayHaveLogs` is false skip the look-up of their logs.
 */
const selectNotifications = (source: string, extra = '', mayHaveLogs = 'true', columns = ALL_COLUMNS) => `
  SELECT ${columns},
         CASE WHEN ${mayHaveLogs} THEN ARRAY(SELECT l.id FROM webhook_notification_logs l WHERE l.webhook_notification_id = n.id ORDER BY l.attempt)
              ELSE '{}' END AS log_ids${extra}
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
export interface ClaimedNotification extends NotificationDocumentRow {
  attempts: number;
  retries: number;
  url: string;
  secret: string;
  headers: WebhookHeader[] | null;
  active: boolean;
}

/**
 * Claims up to `limit` due notifications by leasing their rows of the delivery queue (migration
 * 030) until `leaseUntil`: a worker that dies mid-delivery leaves them due again when the lease
 * ends, so nothing is lost (the receiver may see that attempt twice, which the notification id
 * lets it recognise). The lease and the attempt count are columns no index holds, so taking it is
 * a HOT update of a narrow row; the notification's own row is not written. Returns all a delivery
 * needs, so delivering takes no further read of the notification or its webhook.
 *
 * Fair: each receiver (webhook) gets at most `receiverCap` minus what this worker already holds
 * for it (`held`), and the claim takes receivers in turns (every receiver's oldest due
 * notification, then every one's second…), so a receiver with a long backlog, or one at its cap
 * because it answers slowly, never keeps another's notifications waiting. The webhooks with
 * pending work are found by skipping through the (webhook_id, due_at) index, one probe per
 * webhook, whatever their backlogs. Each probe reads a column the index lacks (`attempts`, never
 * negative) so that it is a plain index scan, not an index-only one: a plain scan marks the
 * entries of rows settled since (deleted) dead as it passes them, where an index-only scan would
 * fetch every one of them from the table again at every claim until a vacuum. A receiver's rows
 * leased by running attempts come first in its due order and are passed over (at most what the
 * workers hold, not what is queued).
 *
 * A notification's earlier attempts are looked up only when it has had some (it is a retry).
 * Only the columns a delivery reads come back: a claim returns hundreds of rows in a burst, and
 * each column the client parses costs (the three timestamps and ids it needs not, about 40% of a
 * row's parsing).
 */
export async function claimDueNotifications(
  db: Queryable,
  now: Date,
  leaseUntil: Date,
  limit: number,
  receiverCap = limit,
  held: ReadonlyMap<string, number> = new Map(),
): Promise<ClaimedNotification[]> {
  const { rows } = await db.query<ClaimedNotification>(
    `WITH RECURSIVE receivers (webhook_id) AS (
       (SELECT webhook_id FROM webhook_delivery_queue WHERE attempts >= 0 ORDER BY webhook_id, due_at LIMIT 1)
       UNION ALL
       SELECT (SELECT q.webhook_id FROM webhook_delivery_queue q
                WHERE q.attempts >= 0 AND q.webhook_id > r.webhook_id ORDER BY q.webhook_id, q.due_at LIMIT 1)
         FROM receivers r WHERE r.webhook_id IS NOT NULL
     ), held AS (
       SELECT * FROM unnest($4::uuid[], $5::integer[]) AS h (webhook_id, n)
     ), candidates AS (
       SELECT c.notification_id, c.due_at, row_number() OVER (PARTITION BY r.webhook_id ORDER BY c.due_at, c.notification_id) AS turn
         FROM receivers r
         LEFT JOIN held h ON h.webhook_id = r.webhook_id
         CROSS JOIN LATERAL (
           SELECT q.notification_id, q.due_at FROM webhook_delivery_queue q
            WHERE q.webhook_id = r.webhook_id AND q.due_at <= $1 AND q.leased_until <= $1
            ORDER BY q.webhook_id, q.due_at LIMIT least(greatest($6 - coalesce(h.n, 0), 0), $3)
            FOR UPDATE SKIP LOCKED
         ) c
        WHERE r.webhook_id IS NOT NULL
     ), due AS (
       SELECT notification_id FROM candidates ORDER BY turn, due_at, notification_id LIMIT $3
     ), claimed AS (
       UPDATE webhook_delivery_queue q SET leased_until = $2, attempts = q.attempts + 1
        WHERE q.notification_id = ANY (ARRAY(SELECT notification_id FROM due))
       RETURNING q.notification_id, q.attempts
     ), notifications AS (
       SELECT n.id, n.account_id, n.webhook_id, n.domain_event_id, n.event, n.delivery_status, c.attempts, n.retries, n.created_at
         FROM claimed c JOIN webhook_notifications n ON n.id = c.notification_id
     )
     ${selectNotifications('notifications', ', w.url, w.secret, w.headers, w.active', 'n.attempts > 1', CLAIMED_COLUMNS)} JOIN webhooks w ON w.id = n.webhook_id`,
    [now, leaseUntil, limit, [...held.keys()], [...held.values()], receiverCap],
  );
  return rows;
}

/**
 * Hands back claims a stopping worker never started: due again at once, their attempt not
 * counted. A claim another worker has retaken since (its attempt count moved on) is left alone.
 */
export async function releaseClaims(db: Queryable, claims: { id: string; attempts: number }[]): Promise<void> {
  if (claims.length === 0) return;
  await db.query(
    `UPDATE webhook_delivery_queue q SET leased_until = '-infinity', attempts = q.attempts - 1
       FROM unnest($1::uuid[], $2::integer[]) AS c (id, attempts)
      WHERE q.notification_id = c.id AND q.attempts = c.attempts`,
    [claims.map((c) => c.id), claims.map((c) => c.attempts)],
  );
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
 * one round trip to record. A settled notification leaves the delivery queue; one to retry stays
 * in it, due at its next attempt and no longer leased. The notification's row takes the outcome in
 * columns no index holds (a HOT update).
 */
export async function recordAttempts(db: Queryable, attempts: Attempt[]): Promise<void> {
  if (attempts.length === 0) return;
  const column = <T>(pick: (a: Attempt) => T) => attempts.map(pick);
  // An array literal written here, for columns whose values never need quoting (uuids, numbers,
  // booleans, ISO times, statuses): the client quotes each element of an array it is given (two
  // regular expressions and a concatenation), a dozen columns of every attempt of the batch.
  const bare = (pick: (a: Attempt) => string | number | boolean | null) => {
    let literal = '{';
    for (let i = 0; i < attempts.length; i++) literal += `${i > 0 ? ',' : ''}${pick(attempts[i]) ?? 'NULL'}`;
    return `${literal}}`;
  };
  const pending = (a: Attempt) => (a.outcome.status === 'pending' ? a.outcome : null);
  await db.query(
    `WITH input AS (
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::integer[], $4::text[], $5::boolean[], $6::integer[], $7::integer[], $8::text[], $9::text[],
                            $10::timestamptz[], $11::text[], $12::integer[], $13::timestamptz[])
         AS x (account_id, notification_id, attempt, url, succeeded, status_code, duration_ms, error, response_body, at, status, retries, next_attempt_at)
     ), settled AS (
       DELETE FROM webhook_delivery_queue WHERE notification_id = ANY (ARRAY(SELECT notification_id FROM input WHERE status <> 'pending'))
     ), retrying AS (
       UPDATE webhook_delivery_queue q SET due_at = i.next_attempt_at, leased_until = '-infinity', queued_at = i.at
         FROM input i WHERE q.notification_id = i.notification_id AND i.status = 'pending'
     ), updated AS (
       UPDATE webhook_notifications n SET
         delivery_status = i.status,
         attempts = greatest(n.attempts, i.attempt),
         retries = COALESCE(i.retries, n.retries),
         next_attempt_at = COALESCE(i.next_attempt_at, '-infinity'),
         delivered_at = CASE WHEN i.status = 'succeeded' THEN i.at ELSE n.delivered_at END,
         updated_at = i.at
       FROM input i WHERE n.id = i.notification_id
       RETURNING n.id
     )
     -- Logged only for a notification that is still there (its webhook may have been deleted meanwhile).
     INSERT INTO webhook_notification_logs (account_id, webhook_notification_id, attempt, url, succeeded, status_code, duration_ms, error, response_body, created_at)
     SELECT i.account_id, i.notification_id, i.attempt, i.url, i.succeeded, i.status_code, i.duration_ms, i.error, i.response_body, i.at
       FROM input i JOIN updated u ON u.id = i.notification_id`,
    [
      bare((a) => a.log.accountId),
      bare((a) => a.log.notificationId),
      bare((a) => a.log.attempt),
      // Text from outside (the URL, an error, the receiver's answer): quoted by the client.
      column((a) => a.log.url),
      bare((a) => a.log.succeeded),
      bare((a) => a.log.statusCode),
      bare((a) => a.log.durationMs),
      column((a) => a.log.error),
      column((a) => a.log.responseBody),
      // As ISO strings: the client's own formatting of a Date, element by element, costs several times more.
      bare((a) => a.at.toISOString()),
      bare((a) => a.outcome.status),
      bare((a) => pending(a)?.retries ?? null),
      bare((a) => pending(a)?.nextAttemptAt.toISOString() ?? null),
    ],
  );
}

/** Makes a notification due again from a fresh retry count; false when the account has no such notification. */
export async function requeueNotification(db: Queryable, accountId: string, id: string, at: Date): Promise<boolean> {
  if (!isUuid(id)) return false;
  const { rowCount } = await db.query(
    `WITH requeued AS (
       UPDATE webhook_notifications SET delivery_status = 'pending', retries = 0, next_attempt_at = '-infinity', updated_at = $3
        WHERE account_id = $1 AND id = $2
       RETURNING id, webhook_id, attempts
     ), queued AS (
       INSERT INTO webhook_delivery_queue (notification_id, webhook_id, attempts, queued_at)
       SELECT id, webhook_id, attempts, $3 FROM requeued
       ON CONFLICT (notification_id) DO UPDATE SET due_at = '-infinity', leased_until = '-infinity', queued_at = $3
     )
     SELECT 1 FROM requeued`,
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
