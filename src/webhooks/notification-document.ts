// The JSON:API document of a webhook notification: the notification, and the records a receiver
// needs to act on it without calling back (the reference service's `included` for each event).
// GET /v2/webhook_notifications/{id} answers it and the delivery worker POSTs the same document.
import { EVENT_NAMES, EVENTS } from '../domain/events/vocabulary.ts';
import type { Document, Resource } from '../jsonapi/document.ts';
import { includedFrom, loadRelated } from '../jsonapi/include.ts';
import { resourceTypes } from '../read-model/resource-types.ts';
import type { Queryable } from '../store/db.ts';
import { webhookNotificationResource } from '../jsonapi/serializers/webhook-notification.ts';
import type { NotificationDocumentRow } from '../store/webhook-notifications.ts';

const withReference = (includes: readonly string[]) => ['reference_object', ...includes.map((p) => `reference_object.${p}`)];
const INCLUDES = new Map<string, readonly string[]>(EVENT_NAMES.map((name) => [name, withReference(EVENTS[name].includes)]));
const REFERENCE_ONLY = withReference([]);

/** The include paths a delivery of `event` carries: its reference object and what the vocabulary says it includes. */
export function deliveryIncludes(event: string): string[] {
  return [...(INCLUDES.get(event) ?? REFERENCE_ONLY)];
}

/** The document a notification's delivery carries (and GET /v2/webhook_notifications/{id} answers). */
export async function notificationDocument(db: Queryable, row: NotificationDocumentRow, now: Date): Promise<NotificationDocument> {
  const [document] = await deliveryDocuments(db, row.account_id, [row], now);
  return document;
}

/**
 * The delivery documents of many notifications of one account, loading what they include
 * together (one query per record type and level, not per notification).
 */
export async function deliveryDocuments(db: Queryable, accountId: string, rows: NotificationDocumentRow[], now: Date): Promise<NotificationDocument[]> {
  const { data, paths, known } = await loadDocuments(db, accountId, rows, now);
  return data.map((d, i) => ({ data: d, included: includedFrom(known, [d], paths[i]) }));
}

/** The notifications' resources, each one's include paths, and every record those reach. */
async function loadDocuments(db: Queryable, accountId: string, rows: NotificationDocumentRow[], now: Date) {
  const data = rows.map(webhookNotificationResource);
  const paths = rows.map((r) => deliveryIncludes(r.event));
  const known = await loadRelated(resourceTypes, { db, accountId, now }, data, [...new Set(paths.flat())]);
  return { data, paths, known };
}

/**
 * The request bodies of many notifications of one account: each is the JSON of its delivery
 * document. The included records of notifications of one event about one record are the same, so
 * they are serialised once and shared (a burst about one shipment repeats them in every body).
 */
export async function deliveryBodies(db: Queryable, accountId: string, rows: NotificationDocumentRow[], now: Date): Promise<string[]> {
  const { data, paths, known } = await loadDocuments(db, accountId, rows, now);
  const includedJson = new Map<string, string>();
  return data.map((d, i) => {
    // Every include path starts at the reference object, so the event and that record decide what is included.
    const key = `${rows[i].event} ${rows[i].reference_type}:${rows[i].reference_id}`;
    let included = includedJson.get(key);
    if (included === undefined) {
      included = JSON.stringify(includedFrom(known, [d], paths[i]));
      includedJson.set(key, included);
    }
    // Byte for byte what JSON.stringify({ data, included }) gives.
    return `{"data":${JSON.stringify(d)},"included":${included}}`;
  });
}

export type NotificationDocument = Document & { data: Resource };
