import type { WebhookRow } from '../../store/webhooks.ts';
import { iso, type Resource } from '../document.ts';

export function webhookResource(row: WebhookRow): Resource {
  return {
    id: row.id,
    type: 'webhook',
    attributes: {
      url: row.url,
      active: row.active,
      events: row.events,
      secret: row.secret,
      headers: row.headers && row.headers.length > 0 ? row.headers.map(({ name, value }) => ({ name, value })) : null,
      // Beyond the reference service: the delivery health svc acts on.
      last_succeeded_at: iso(row.last_succeeded_at),
      deactivated_at: iso(row.deactivated_at),
      deactivated_reason: row.deactivated_reason,
      created_at: iso(row.created_at),
      updated_at: iso(row.updated_at),
    },
    links: { self: `/v2/webhooks/${row.id}` },
  };
}
