// A burst of webhook notifications for delivery tests and benchmarks: one webhook of a new
// account subscribed to tracking_request.failed, and `count` such events recorded through the
// real outbox path (each becomes one notification), in batches.
import { randomBytes } from 'node:crypto';
import { domainEvent } from '../../src/domain/events/domain-event.ts';
import { insertAccount } from '../../src/store/accounts.ts';
import type { Db, Queryable } from '../../src/store/db.ts';
import { recordEvents } from '../../src/store/domain-events.ts';
import { insertWebhook } from '../../src/store/webhooks.ts';

export interface Burst {
  accountId: string;
  webhookId: string;
  secret: string;
}

export async function seedBurst(db: Db, url: string, count: number, at = new Date()): Promise<Burst> {
  const account = await insertAccount(db, `burst ${randomBytes(4).toString('hex')}`);
  const secret = randomBytes(32).toString('hex');
  const webhook = await insertWebhook(db, account.id, { url, active: true, events: ['tracking_request.failed'], headers: null, secret }, at);
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO tracking_requests (account_id, request_number, request_type, scac, status, failed_reason, created_at, updated_at)
     VALUES ($1, 'BURST0001', 'bill_of_lading', 'TEST', 'failed', 'not_found', $2, $2) RETURNING id`,
    [account.id, at],
  );
  await recordBurstEvents(db, account.id, rows[0].id, count, at);
  return { accountId: account.id, webhookId: webhook.id, secret };
}

/** `count` more tracking_request.failed events about one request. */
export async function recordBurstEvents(db: Queryable, accountId: string, trackingRequestId: string, count: number, at = new Date()): Promise<void> {
  const event = domainEvent('tracking_request.failed', { account_id: accountId, reference_id: trackingRequestId });
  for (let done = 0; done < count; done += 1000) {
    await recordEvents(db, Array.from({ length: Math.min(1000, count - done) }, () => event), at);
  }
}
