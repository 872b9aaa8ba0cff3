// The outbox of emitted events, written in the same transaction as the change each describes.
// The same statement fans each event out to the account's active webhooks that subscribe to it,
// so an event and its webhook notifications are committed (or lost) together. It also notifies
// the live channel, once per event, so open pages in any svc process hear of the change on commit.
import type { DomainEvent } from '../domain/events/domain-event.ts';
import type { Queryable } from './db.ts';
import { LIVE_CHANNEL } from './live-channel.ts';

/** The PostgreSQL channel notified when new webhook notifications commit. */
export const NEW_NOTIFICATIONS_CHANNEL = 'svc_webhook_notifications';

/**
 * The CTEs that record the events of `input` at `at` (a parameter), for a statement to include
 * after its own: `input` is a relation with account_id, name, reference_type, reference_id,
 * shipment_id, container_id and ord (their order). They end in `notices`, which the statement's
 * final SELECT must read (count(*) FROM notices), as a CTE nobody reads is never run.
 */
export const recordingCtes = (input: string, at: string) => `numbered AS (
       SELECT i.*, row_number() OVER (PARTITION BY i.container_id ORDER BY i.ord) AS nth FROM ${input} i
     ), recorded AS (
       -- Events about one container are numbered 1, 2, 3… per container. Writers of one container are
       -- serialised (a shipment is refreshed under a lease), and the unique index would refuse a race.
       INSERT INTO domain_events (account_id, name, reference_type, reference_id, shipment_id, container_id, sequence, created_at)
       SELECT i.account_id, i.name, i.reference_type, i.reference_id, i.shipment_id, i.container_id,
              CASE WHEN i.container_id IS NULL THEN NULL
                   ELSE i.nth + COALESCE((SELECT max(d.sequence) FROM domain_events d WHERE d.container_id = i.container_id), 0) END,
              ${at}
         FROM numbered i ORDER BY i.ord
       RETURNING id, account_id, name, reference_type, reference_id, shipment_id, container_id
     ), notified AS (
       INSERT INTO webhook_notifications (account_id, webhook_id, domain_event_id, event, created_at, updated_at)
       SELECT r.account_id, w.id, r.id, r.name, ${at}, ${at}
         FROM recorded r JOIN webhooks w ON w.account_id = r.account_id AND w.active AND r.name = ANY (w.events)
       RETURNING 1
     ), notices AS (
       -- Wakes idle delivery workers when the transaction commits.
       SELECT pg_notify('${NEW_NOTIFICATIONS_CHANNEL}', '') FROM (SELECT 1 FROM notified LIMIT 1) AS any_notified
       UNION ALL
       -- One small payload per event (a few hundred bytes, far below NOTIFY's 8000): PostgreSQL
       -- delivers each distinct payload once per transaction, whatever the number of events.
       SELECT pg_notify('${LIVE_CHANNEL}', json_build_object(
                'account_id', r.account_id, 'shipment_id', r.shipment_id, 'container_id', r.container_id, 'event', r.name,
                'tracking_request_id', CASE WHEN r.reference_type = 'tracking_request' THEN r.reference_id END)::text)
         FROM recorded r
     )`;

export async function recordEvents(db: Queryable, events: DomainEvent[], at: Date): Promise<void> {
  if (events.length === 0) return;
  await db.query(
    `WITH input AS (
       SELECT e.* FROM ROWS FROM (jsonb_to_recordset($1::jsonb) AS (account_id uuid, name text, reference_type text, reference_id uuid, shipment_id uuid, container_id uuid))
              WITH ORDINALITY AS e(account_id, name, reference_type, reference_id, shipment_id, container_id, ord)
     ), ${recordingCtes('input', '$2')}
     SELECT count(*) FROM notices`,
    [JSON.stringify(events), at],
  );
}
