// SQL for webhook subscriptions.
import type { WebhookHeader } from '../domain/webhooks/headers.ts';
import { domainEvent } from '../domain/events/domain-event.ts';
import { withTransaction, type Db, type Queryable } from './db.ts';
import { recordEvents } from './domain-events.ts';
import { findOfAccount, pageOfAccount } from './account-rows.ts';
import { isUuid } from './uuid.ts';

export interface WebhookRow {
  id: string;
  account_id: string;
  url: string;
  active: boolean;
  events: string[];
  headers: WebhookHeader[] | null;
  secret: string;
  last_succeeded_at: Date | null;
  failing_since: Date | null;
  deactivated_at: Date | null;
  deactivated_reason: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface NewWebhook {
  url: string;
  active: boolean;
  events: string[];
  headers: WebhookHeader[] | null;
  secret: string;
}

/** The attributes a PATCH may change; absent ones stay as they are. */
export type WebhookChanges = Partial<Pick<NewWebhook, 'url' | 'active' | 'events' | 'headers'>>;

const headersParam = (headers: WebhookHeader[] | null | undefined) => (headers ? JSON.stringify(headers) : null);

export const listWebhooks = (db: Queryable, accountId: string, limit: number, offset: number): Promise<{ rows: WebhookRow[]; total: number }> =>
  pageOfAccount(db, 'webhooks', accountId, limit, offset);

export const findWebhooks = (db: Queryable, accountId: string, ids: string[]): Promise<WebhookRow[]> => findOfAccount(db, 'webhooks', accountId, ids);

export async function insertWebhook(db: Queryable, accountId: string, webhook: NewWebhook, at: Date): Promise<WebhookRow> {
  const { rows } = await db.query<WebhookRow>(
    `INSERT INTO webhooks (account_id, url, active, events, headers, secret, created_at, updated_at)
     VALUES ($1, $2, $3, $4::text[], $5::jsonb, $6, $7, $7) RETURNING *`,
    [accountId, webhook.url, webhook.active, webhook.events, headersParam(webhook.headers), webhook.secret, at],
  );
  return rows[0];
}

/** Applies the given changes; undefined when the account has no such webhook. */
export async function updateWebhook(db: Queryable, accountId: string, id: string, changes: WebhookChanges, at: Date): Promise<WebhookRow | undefined> {
  if (!isUuid(id)) return undefined;
  const { rows } = await db.query<WebhookRow>(
    `UPDATE webhooks SET
       url = CASE WHEN $3 THEN $4 ELSE url END,
       active = CASE WHEN $5 THEN $6 ELSE active END,
       -- Turning a webhook on again clears why it was turned off and its run of failures.
       deactivated_at = CASE WHEN $5 AND $6 THEN NULL ELSE deactivated_at END,
       deactivated_reason = CASE WHEN $5 AND $6 THEN NULL ELSE deactivated_reason END,
       failing_since = CASE WHEN $5 AND $6 THEN NULL ELSE failing_since END,
       events = CASE WHEN $7 THEN $8::text[] ELSE events END,
       headers = CASE WHEN $9 THEN $10::jsonb ELSE headers END,
       updated_at = $11
     WHERE account_id = $1 AND id = $2 RETURNING *`,
    [
      accountId,
      id,
      changes.url !== undefined,
      changes.url ?? null,
      changes.active !== undefined,
      changes.active ?? null,
      changes.events !== undefined,
      changes.events ?? null,
      changes.headers !== undefined,
      headersParam(changes.headers),
      at,
    ],
  );
  return rows[0];
}

/** Deletes and returns the webhook; undefined when the account has no such webhook. */
export async function deleteWebhook(db: Queryable, accountId: string, id: string): Promise<WebhookRow | undefined> {
  if (!isUuid(id)) return undefined;
  const { rows } = await db.query<WebhookRow>('DELETE FROM webhooks WHERE account_id = $1 AND id = $2 RETURNING *', [accountId, id]);
  return rows[0];
}

/** A delivery landed: the webhook is healthy again. Skips the write when nothing would change much. */
export async function markWebhookSucceeded(db: Queryable, id: string, at: Date): Promise<void> {
  await db.query(
    `UPDATE webhooks SET last_succeeded_at = $2, failing_since = NULL
      WHERE id = $1 AND (failing_since IS NOT NULL OR last_succeeded_at IS NULL OR last_succeeded_at < $2::timestamptz - interval '1 minute')`,
    [id, at],
  );
}

/**
 * A delivery failed. Returns true when the webhook has now failed without a single success for
 * `deactivateAfterMs` and was deactivated for that reason.
 */
export async function markWebhookFailed(db: Db, id: string, at: Date, deactivateAfterMs: number): Promise<boolean> {
  const { rows } = await db.query<{ failing_since: Date; active: boolean }>(
    'UPDATE webhooks SET failing_since = COALESCE(failing_since, $2) WHERE id = $1 RETURNING failing_since, active',
    [id, at],
  );
  const row = rows[0];
  if (!row?.active || at.getTime() - row.failing_since.getTime() < deactivateAfterMs) return false;
  const hours = Math.round(deactivateAfterMs / 3_600_000);
  return deactivateWebhook(db, id, `every delivery since ${row.failing_since.toISOString()} failed (${hours} h without a success)`, at);
}

/** Turns a webhook off, says why and records webhook.deactivated with it; false when it was already off. */
export async function deactivateWebhook(db: Db, id: string, reason: string, at: Date): Promise<boolean> {
  return withTransaction(db, async (tx) => {
    const { rows } = await tx.query<{ account_id: string }>(
      'UPDATE webhooks SET active = false, deactivated_at = $3, deactivated_reason = $2, updated_at = $3 WHERE id = $1 AND active RETURNING account_id',
      [id, reason, at],
    );
    if (rows.length === 0) return false;
    await recordEvents(tx, [domainEvent('webhook.deactivated', { account_id: rows[0].account_id, reference_id: id })], at);
    return true;
  });
}
