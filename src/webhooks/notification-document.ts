// The JSON:API document of a webhook notification: the notification, and the records a receiver
// needs to act on it without calling back (the reference service's `included` for each event).
// GET /v2/webhook_notifications/{id} answers it and the delivery worker POSTs the same document.
import type { Document, Resource } from '../jsonapi/document.ts';
import { includedFrom, loadRelated } from '../jsonapi/include.ts';
import { resourceTypes } from '../read-model/resource-types.ts';
import type { Queryable } from '../store/db.ts';
import { webhookNotificationResource } from '../jsonapi/serializers/webhook-notification.ts';
import type { NotificationRow } from '../store/webhook-notifications.ts';

const ref = (...paths: string[]) => ['reference_object', ...paths.map((p) => `reference_object.${p}`)];

/** Events whose reference object is a container_updated_event (its changeset says what changed). */
export const CHANGESET_EVENTS: ReadonlySet<string> = new Set(['container.updated', 'container.pickup_lfd.changed', 'container.pod_terminal_changed']);

/** The include paths a delivery of `event` carries. */
export function deliveryIncludes(event: string): string[] {
  if (event === 'tracking_request.succeeded') return ref('tracked_object', 'tracked_object.containers');
  if (event === 'tracking_request.tracking_stopped') return ref('tracked_object');
  if (event.startsWith('tracking_request.')) return ref();
  if (event === 'shipment.estimated.arrival') return ref('shipment', 'port', 'vessel');
  if (event === 'container.created') return ref('shipment');
  if (CHANGESET_EVENTS.has(event)) return ref('container', 'shipment', 'terminal');
  // Transport events and the container-level changes reported as transport events.
  return ref('container', 'shipment', 'location', 'vessel', 'terminal');
}

/** The document a notification's delivery carries (and GET /v2/webhook_notifications/{id} answers). */
export async function notificationDocument(db: Queryable, row: NotificationRow): Promise<NotificationDocument> {
  const [document] = await deliveryDocuments(db, row.account_id, [row]);
  return document;
}

/**
 * The delivery documents of many notifications of one account, loading what they include
 * together (one query per record type and level, not per notification).
 */
export async function deliveryDocuments(db: Queryable, accountId: string, rows: NotificationRow[]): Promise<NotificationDocument[]> {
  const data = rows.map(webhookNotificationResource);
  const paths = rows.map((r) => deliveryIncludes(r.event));
  const known = await loadRelated(resourceTypes, { db, accountId }, data, [...new Set(paths.flat())]);
  return data.map((d, i) => ({ data: d, included: includedFrom(known, [d], paths[i]) }));
}

export type NotificationDocument = Document & { data: Resource };
