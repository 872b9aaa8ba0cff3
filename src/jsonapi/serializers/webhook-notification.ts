// JSON:API resources of webhook notifications and their delivery logs.
import type { NotificationDocumentRow, NotificationLogRow } from '../../store/webhook-notifications.ts';
import { iso, toMany, toOne, type Resource } from '../document.ts';

export function webhookNotificationResource(row: NotificationDocumentRow): Resource {
  return {
    id: row.id,
    type: 'webhook_notification',
    attributes: {
      id: row.id,
      event: row.event,
      delivery_status: row.delivery_status,
      created_at: iso(row.created_at),
      // Beyond the reference service: the event's position among the events of its container
      // (1, 2, 3…), so a receiver can put what it gets back in order; null for other events.
      sequence: row.sequence,
    },
    relationships: {
      webhook: toOne('webhook', row.webhook_id),
      reference_object: toOne(row.reference_type, row.reference_id),
      webhook_notification_logs: toMany('webhook_notification_log', row.log_ids),
    },
    links: { self: `/v2/webhook_notifications/${row.id}` },
  };
}

export function webhookNotificationLogResource(row: NotificationLogRow): Resource {
  return {
    id: row.id,
    type: 'webhook_notification_log',
    attributes: {
      attempt: row.attempt,
      url: row.url,
      succeeded: row.succeeded,
      status_code: row.status_code,
      duration_ms: row.duration_ms,
      error: row.error,
      response_body: row.response_body,
      created_at: iso(row.created_at),
    },
    relationships: { webhook_notification: toOne('webhook_notification', row.webhook_notification_id) },
  };
}
